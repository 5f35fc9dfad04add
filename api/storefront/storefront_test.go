package storefront_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/storefront"
)

const testCatalog = `defaultCurrency: EUR
currencies:
  - {code: EUR, rate: "1"}
products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {EUR: "9.99"}
gateways: sandbox
storefronts:
  - {key: pk_test_default, name: Shop, default: true}
  - {key: pk_test_reseller, name: Reseller, allowedOrigins: ["http://reseller.test"], affiliateId: "7"}
  - {key: pk_test_other, name: Other, allowedOrigins: ["http://other.test"]}
`

func TestMiddleware(t *testing.T) {
	cat, err := catalog.Parse("test", []byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		method      string
		key, origin string
		headers     map[string]string
		wantStatus  int
		wantError   string // design error name in the body
		wantCORS    string // Access-Control-Allow-Origin
		wantStore   string // storefront key seen by the handler; "" when not reached or none
	}{
		{name: "no key, same origin", method: "POST", origin: "http://shop.test", wantStatus: 200, wantStore: "pk_test_default"},
		{name: "no key, same host on another port", method: "POST", origin: "http://shop.test:8081", wantStatus: 403, wantError: "origin_not_allowed"},
		{name: "no key, no origin", method: "GET", wantStatus: 200, wantStore: "pk_test_default"},
		{name: "no key, foreign read gets no CORS", method: "GET", origin: "http://reseller.test", wantStatus: 200, wantStore: "pk_test_default"},
		{name: "no key, foreign write", method: "POST", origin: "http://reseller.test", wantStatus: 403, wantError: "origin_not_allowed"},
		{name: "unknown key", method: "GET", key: "pk_nope", origin: "http://reseller.test", wantStatus: 401, wantError: "unknown_store"},
		{name: "allowed origin read", method: "GET", key: "pk_test_reseller", origin: "http://reseller.test", wantStatus: 200, wantCORS: "http://reseller.test", wantStore: "pk_test_reseller"},
		{name: "allowed origin write", method: "POST", key: "pk_test_reseller", origin: "http://reseller.test", wantStatus: 200, wantCORS: "http://reseller.test", wantStore: "pk_test_reseller"},
		{name: "disallowed origin read", method: "GET", key: "pk_test_reseller", origin: "http://other.test", wantStatus: 200, wantStore: "pk_test_reseller"},
		{name: "disallowed origin write", method: "POST", key: "pk_test_reseller", origin: "http://other.test", wantStatus: 403, wantError: "origin_not_allowed"},
		{name: "disallowed origin delete", method: "DELETE", key: "pk_test_reseller", origin: "http://evil.test", wantStatus: 403, wantError: "origin_not_allowed"},
		{name: "key from the shop's own origin", method: "POST", key: "pk_test_reseller", origin: "http://shop.test", wantStatus: 200, wantStore: "pk_test_reseller"},
		{name: "preflight from a storefront origin", method: "OPTIONS", origin: "http://reseller.test",
			headers:    map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, accept-language, streamcart-store"},
			wantStatus: 200, wantCORS: "http://reseller.test"},
		{name: "preflight from an unknown origin", method: "OPTIONS", origin: "http://evil.test",
			headers:    map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "streamcart-store"},
			wantStatus: 200},
	}
	for _, tt := range tests {
		for _, kept := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/kept=%v", tt.name, kept), func(t *testing.T) {
				reached := ""
				h := storefront.Middleware(func() *catalog.Catalog { return cat }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					s, _ := storefront.FromContext(r.Context())
					reached = s.Key
				}))
				r := httptest.NewRequest(tt.method, "http://shop.test/checkout/api/orders", nil)
				if tt.key != "" {
					r.Header.Set(storefront.Header, tt.key)
				}
				if tt.origin != "" {
					r.Header.Set("Origin", tt.origin)
				}
				for k, v := range tt.headers {
					r.Header.Set(k, v)
				}
				var keeper *keeperContext
				if kept {
					// As behind httpapi.Observed: the request's context keeps the storefront itself.
					keeper = &keeperContext{Context: r.Context()}
					r = r.WithContext(keeper)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if kept && tt.wantStore != "" && keeper.key == nil {
					t.Error("the storefront was not kept in the request's own context")
				}
				if tt.wantStatus == 200 && !slices.Contains(w.Header().Values("Vary"), "Origin") {
					t.Errorf("Vary = %q, want Origin named", w.Header().Values("Vary"))
				}
				if w.Code != tt.wantStatus {
					t.Errorf("status = %d, want %d", w.Code, tt.wantStatus)
				}
				if got := w.Header().Get("Access-Control-Allow-Origin"); got != tt.wantCORS {
					t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, tt.wantCORS)
				}
				if reached != tt.wantStore {
					t.Errorf("handler saw storefront %q, want %q", reached, tt.wantStore)
				}
				if tt.wantError != "" {
					var body struct{ Name, ID, Message string }
					if err := json.NewDecoder(w.Body).Decode(&body); err != nil || body.Name != tt.wantError || body.ID == "" || body.Message == "" {
						t.Errorf("body = %+v (%v), want design error %q", body, err, tt.wantError)
					}
				}
			})
		}
	}
}

// keeperContext holds one value itself, as httpapi's request exchange does.
type keeperContext struct {
	context.Context
	key, val any
}

func (c *keeperContext) Keep(key, val any) bool {
	if c.key != nil {
		return false
	}
	c.key, c.val = key, val
	return true
}

func (c *keeperContext) Value(key any) any {
	if c.key != nil && key == c.key {
		return c.val
	}
	return c.Context.Value(key)
}
