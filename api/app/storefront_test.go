package app_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
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

// TestStorefrontOrders: a storefront's origins are valid return origins for its orders, and its
// affiliate is credited on orders that name none, and it sells its plans only.
func TestStorefrontOrders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		partner := "  - {key: pk_test_partner, name: Partner, allowedOrigins: [\"https://partner.test\"], affiliateId: \"77\", plans: [2, 3]}\n"
		if err := os.WriteFile(file, append(catalog.DemoYAML(), partner...), 0o600); err != nil {
			t.Fatal(err)
		}
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		token := s.identify("partner-buyer@example.com", "").Token
		keyed := *s
		keyed.clients(storeDoer{next: s.http, key: "pk_test_partner", origin: "https://partner.test"})
		back := "https://partner.test/plans?sc_order={orderId}"

		tests := []struct {
			name     string
			shop     *shop
			p        genorder.CreatePayload
			err      string
			wantAffi string
		}{
			{name: "partner return URL with the key", shop: &keyed, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr(back)}, wantAffi: "77"},
			{name: "the order's own affiliate wins", shop: &keyed, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", AffiliateID: ptr("5")}, wantAffi: "5"},
			{name: "partner return URL without the key", shop: s, p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr(back)}, err: "bad_request"},
			{name: "a plan the storefront does not sell", shop: &keyed, p: trial(), err: "not_found"},
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
