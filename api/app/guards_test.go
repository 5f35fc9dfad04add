package app_test

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/payment"
)

const msgTrailing = "The request body must be one JSON value with nothing after it."

// TestBodyIsOneJSONValue (issue 24, finding 3): a JSON body is one value and nothing but
// whitespace after it; anything else is 400 bad_request on every JSON route, and stores nothing.
// The decoder read the first value and ignored the rest, so `{…}x` was served while any other
// reader of the body (the rate limiter) saw an error.
func TestBodyIsOneJSONValue(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		token := s.identify("buyer@example.com", "").Token
		session := `{"email":"victim@example.com"}`
		order := `{"pid":2,"billingCycle":"monthly"}`
		for _, tc := range []struct{ path, token, body string }{
			{"/checkout/api/session", "", session + "x"},
			{"/checkout/api/session", "", session + `{"email":"other@example.com"}`},
			{"/checkout/api/session", "", session + " \n 1"},
			{"/checkout/api/session", "", session + "}"},
			{"/checkout/api/session", "", session + `"`},
			{"/checkout/api/session", "", `{"email":"victim@example.com","password":"guess"}x`},
			{"/checkout/api/session/link", "", session + "x"},
			{"/checkout/api/quote", "", order + "[]"},
			{"/checkout/api/affiliates/clicks", "", `{"affId":"42"}null`},
			{"/checkout/api/orders", token, order + "x"},
			{"/checkout/api/upsell/orders", token, `{"serviceId":"x","upsellId":"y"}x`},
			{"/checkout/api/resellers/orders", token, order + "x"},
		} {
			status, _, b := s.send(http.MethodPost, tc.path, tc.token, "", tc.body)
			if e := decodeError(t, b); status != http.StatusBadRequest || e.Name != "bad_request" || e.Message != msgTrailing {
				t.Errorf("%s %q: status %d %+v", tc.path, tc.body, status, e)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM clients`); n != 1 {
			t.Fatalf("%d clients, want the buyer only", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 0 {
			t.Fatalf("%d orders stored by refused bodies", n)
		}
		// Whitespace after the value is no value.
		if status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", session+" \r\n\t "); status != http.StatusCreated {
			t.Fatalf("trailing whitespace: status %d: %s", status, b)
		}
	})
}

// TestRateLimitsCountEveryBody (issue 24, finding 3): every request to a limited route counts
// toward its limit, whatever its body. Fifteen sessions asked with bytes after the JSON were
// answered 201 while plain ones got 429 (the limiter decoded the body itself and did not count
// what it could not read). Now the limiter reads no body: under the limit each is 400, past it
// 429, and a plain request after them is 429; a password sign-in counts too. In memory and
// shared through Redis by two replicas.
func TestRateLimitsCountEveryBody(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, shared := range []bool{false, true} {
			t.Run(map[bool]string{false: "memory", true: "redis"}[shared], func(t *testing.T) {
				cfg := func(c *app.Config) {
					c.RateLimits = httpapi.RateLimits{Sessions: httpapi.Limit{Requests: 10, Window: time.Hour}}
					if shared {
						c.RateLimits.RedisURL, c.RateLimits.RedisPrefix = "redis://127.0.0.1:6379/0", "streamcart-test-"+rand.Text()
					}
				}
				one := newShop(t, cfg)
				replicas := []*shop{one}
				if shared {
					replicas = append(replicas, openShop(t, one.cfg))
				}
				for i := range 15 {
					body := fmt.Sprintf(`{"email":"victim%d@example.com"}x`, i)
					if i%3 == 1 {
						body = fmt.Sprintf(`{"email":"victim%d@example.com","password":"guess"}  {}`, i)
					}
					status, _, b := replicas[i%len(replicas)].send(http.MethodPost, "/checkout/api/session", "", "", body)
					e := decodeError(t, b)
					switch {
					case i < 10 && (status != http.StatusBadRequest || e.Name != "bad_request"):
						t.Fatalf("request %d under the limit: status %d %+v, want 400 bad_request", i+1, status, e)
					case i >= 10 && (status != http.StatusTooManyRequests || e.Name != "rate_limited"):
						t.Fatalf("request %d past the limit: status %d %+v, want 429 rate_limited", i+1, status, e)
					}
				}
				for _, s := range replicas {
					status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", `{"email":"victim@example.com"}`)
					if status != http.StatusTooManyRequests || decodeError(t, b).Name != "rate_limited" {
						t.Fatalf("plain session after 15 refused ones: status %d: %s", status, b)
					}
				}
				if n := one.count(`SELECT COUNT(*) FROM clients`); n != 0 {
					t.Fatalf("%d clients stored by refused requests", n)
				}
			})
		}
	})
}

// TestOneControlGuard (issue 24, finding 7): a control character in the path, the query or a
// header is 400 bad_request in the API's error shape on every route the shop mounts, the
// product list (mounted beside the API's own guard, it answered 200 to ?x=%00), webhooks,
// the console's API and pages, the storefront page, widget files, health and metrics
// included; the same requests without it are not refused for it.
func TestOneControlGuard(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) {
			c.PublicURL = "http://127.0.0.1"
			c.Payment = payment.Config{StripeSecretKey: "sk_test_abc", StripeWebhookSecret: "whsec_x"}
		})
		tab := func(name string) http.Header { return http.Header{name: {"a\tb"}} }
		for _, tc := range []struct {
			method, path, clean string
			header              http.Header
		}{
			{"GET", "/checkout/api/products?x=%00", "/checkout/api/products?x=0", nil},
			{"GET", "/checkout/api/products?store=pk%0d%0aX", "/checkout/api/products?store=pk", nil},
			{"GET", "/checkout/api/products?x=%7F", "", nil},
			{"GET", "/checkout/api/products?x=%1b", "", nil},
			{"GET", "/checkout/api/products", "", tab("Streamcart-Store")},
			{"GET", "/checkout/api/products", "", tab("X-Anything")},
			{"GET", "/checkout/api/products/2?x=%00", "/checkout/api/products/2", nil},
			{"GET", "/checkout/api/openapi.json?x=%0A", "/checkout/api/openapi.json", nil},
			{"GET", "/checkout/api/promotions/WELCOME10%00", "/checkout/api/promotions/WELCOME10", nil},
			{"GET", "/checkout/api/convert?from=EUR%09&to=USD&amount=1", "/checkout/api/convert?from=EUR&to=USD&amount=1", nil},
			{"POST", "/checkout/api/orders", "", tab("Idempotency-Key")},
			{"POST", "/checkout/api/payments/stripe/webhook?x=%00", "/checkout/api/payments/stripe/webhook", nil},
			{"POST", "/checkout/api/payments/stripe/webhook", "", tab("Stripe-Signature")},
			{"GET", "/checkout/api/payments/sandbox/inv_1?x=%00", "/checkout/api/payments/sandbox/inv_1", nil},
			{"GET", "/checkout/api/admin/customers?q=%00", "/checkout/api/admin/customers?q=a", nil},
			{"POST", "/checkout/api/admin/session", "", tab("Cookie")},
			{"GET", "/checkout/admin/?x=%00", "/checkout/admin/", nil},
			{"GET", "/checkout/?signin=%0d%0a", "/checkout/?signin=x", nil},
			{"GET", "/checkout/%00", "", nil},
			{"GET", "/widget/streamcart.js?v=%00", "/widget/streamcart.js", nil},
			{"GET", "/widget/%0a.js", "", nil},
			{"GET", "/healthz?x=%00", "/healthz", nil},
			{"GET", "/readyz", "", tab("User-Agent")},
			{"GET", "/metrics?x=%00", "/metrics", nil},
			{"GET", "/?x=%00", "/", nil},
			{"GET", "/nowhere%00", "", nil},
		} {
			status, _, b := s.rawWith(tc.method, tc.path, "", nil, tc.header)
			if status != http.StatusBadRequest || !strings.Contains(string(b), `"name":"bad_request"`) {
				t.Errorf("%s %s %v: status %d: %.200s", tc.method, tc.path, tc.header, status, b)
				continue
			}
			if e := decodeError(t, b); e.Message != "The request contains a control character." {
				t.Errorf("%s %s: %+v", tc.method, tc.path, e)
			}
			if tc.clean == "" {
				continue
			}
			var e errorBody
			if _, _, b := s.rawWith(tc.method, tc.clean, "", nil, nil); json.Unmarshal(b, &e) == nil && e.Message == "The request contains a control character." {
				t.Errorf("%s %s refused without a control character: %.200s", tc.method, tc.clean, b)
			}
		}
	})
}
