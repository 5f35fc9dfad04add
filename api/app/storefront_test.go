package app_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

// storeDoer sends every request as the partner's page would: its key and its origin.
type storeDoer struct {
	next        *http.Client
	key, origin string
}

func (d storeDoer) Do(r *http.Request) (*http.Response, error) {
	r.Header.Set("Streamcart-Store", d.key)
	r.Header.Set("Origin", d.origin)
	return d.next.Do(r)
}

// partnerShop is a shop whose catalog adds the partner storefront pk_test_partner, selling plans
// 2 and 3 only, and the same shop seen through that storefront (its key and origin on every call).
func partnerShop(t *testing.T) (s, keyed *shop) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	partner := "  - {key: pk_test_partner, name: Partner, allowedOrigins: [\"https://partner.test\"], affiliateId: \"77\", plans: [2, 3]}\n"
	if err := os.WriteFile(file, append(catalog.DemoYAML(), partner...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	s = newShop(t, func(c *app.Config) { c.CatalogFile = file })
	k := *s
	k.clients(storeDoer{next: s.http, key: "pk_test_partner", origin: "https://partner.test"})
	return s, &k
}

// TestStorefrontQuotes: POST /quote refuses a plan the storefront does not sell exactly as
// POST /orders and GET /products/{pid} do (404 not_found, "Product not found."), and quotes the
// plans it sells; without a key every plan is quoted.
func TestStorefrontQuotes(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, keyed := partnerShop(t)
		tests := []struct {
			name string
			shop *shop
			p    genpricing.QuoteRequest
			err  string
		}{
			{name: "a plan the storefront sells", shop: keyed, p: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly"}},
			{name: "a plan the storefront does not sell", shop: keyed, p: genpricing.QuoteRequest{Pid: 1, BillingCycle: "onetime"}, err: "not_found"},
			{name: "a plan the storefront does not sell, with a promotion", shop: keyed, p: genpricing.QuoteRequest{Pid: 1, BillingCycle: "onetime", PromoCode: ptr("NOPE")}, err: "not_found"},
			{name: "no key, every plan", shop: s, p: genpricing.QuoteRequest{Pid: 1, BillingCycle: "onetime"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				q, err := tt.shop.pricing.Quote(t.Context(), &tt.p)
				if tt.err != "" {
					wantErr(t, err, tt.err, "Product not found.")
					return
				}
				if err != nil {
					t.Fatalf("POST /quote: %v", err)
				}
				if q.Pid != tt.p.Pid {
					t.Fatalf("quote for pid %d, want %d", q.Pid, tt.p.Pid)
				}
			})
		}
		// The other entry points refuse the same plan with the same answer.
		_, err := keyed.catalog.GetProduct(t.Context(), &gencatalog.GetProductPayload{Pid: 1})
		wantErr(t, err, "not_found", "Product not found.")
		tok := s.identify("partner-quote@example.com", "").Token
		p := trial()
		p.Token = ptr(tok)
		_, err = keyed.order.Create(t.Context(), &p)
		wantErr(t, err, "not_found", "Product not found.")
	})
}

// TestStorefrontOrders: a storefront's origins are valid return origins for its orders, and its
// affiliate is credited on orders that name none, and it sells its plans only.
func TestStorefrontOrders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, keyed := partnerShop(t)
		token := s.identify("partner-buyer@example.com", "").Token
		back := "https://partner.test/plans?sc_order={orderId}"

		tests := []struct {
			name     string
			shop     *shop
			p        genorder.CreatePayload
			err      string
			wantAffi string
		}{
			{name: "partner return URL with the key", shop: keyed, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr(back)}, wantAffi: "77"},
			{name: "the order's own affiliate wins", shop: keyed, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", AffiliateID: ptr("5")}, wantAffi: "5"},
			{name: "partner return URL without the key", shop: s, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr(back)}, err: "bad_request"},
			{name: "a plan the storefront does not sell", shop: keyed, p: trial(), err: "not_found"},
			{name: "no key, every plan", shop: s, p: trial(), wantAffi: ""},
			{name: "no key, no affiliate", shop: s, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly"}, wantAffi: ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.p.Token = ptr(token)
				res, err := tt.shop.order.Create(t.Context(), &tt.p)
				if tt.err != "" {
					wantErr(t, err, tt.err, "")
					return
				}
				if err != nil {
					t.Fatalf("POST /orders: %v", err)
				}
				if n := s.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND affiliate_id = ?`, res.OrderID, tt.wantAffi); n != 1 {
					t.Errorf("order %s: affiliate is not %q", res.OrderID, tt.wantAffi)
				}
			})
		}
	})
}
