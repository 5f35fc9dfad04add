package renewal_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/renewal"
)

// A renewal is taxed in the country its first order was, at today's rate there; a first order
// placed without tax renews at the catalog's default country (the seller's).
func TestRenewalTaxedWhereFirstOrderWas(t *testing.T) {
	for _, tc := range []struct {
		name     string
		included string
		first    *pricing.Tax
		country  string
		total    int64
		tax      int64
	}{
		// Standard monthly 12.99: in France with 20 % included, 10.825 → 10.83 net, 2.16 VAT.
		{"included, FR", "true", &pricing.Tax{Country: "FR", Rate: "20"}, "FR", 1299, 216},
		// Without tax in the prices: 12.99 + 19 % = 15.46.
		{"excluded, DE", "false", &pricing.Tax{Country: "DE", Rate: "19"}, "DE", 1546, 247},
		// A first order from before the tax block: the seller's country (IE, 23 %).
		{"first order untaxed", "true", nil, "IE", 1299, 243},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := append(catalog.DemoYAML(), "\ntax: {pricesIncludeTax: "+tc.included+`, rates: {DE: "19", FR: "20", IE: "23"}}`+"\n"...)
			cat, err := catalog.Parse("demo.yaml", src)
			if err != nil {
				t.Fatal(err)
			}
			cat.Seller.Country = "IE"
			r := renewal.New(nil, func() *catalog.Catalog { return cat }, nil, nil, nil, renewal.Cards{}, renewal.Config{},
				slog.New(slog.DiscardHandler), nil)
			now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
			first := order.Order{Quote: pricing.Quote{PID: 2, Cycle: catalog.Monthly, Currency: "EUR", Tax: tc.first}, IPCountry: "DE", CreatedAt: now}
			q, err := r.RecurringQuote(first, order.Service{PID: 2, MaxConnections: 1}, catalog.Monthly, now)
			if err != nil {
				t.Fatal(err)
			}
			if q.Tax == nil || q.Tax.Country != tc.country || q.Tax.Amount != tc.tax || q.Total != (money.Money{Amount: tc.total, Currency: "EUR"}) {
				t.Fatalf("renewal quote: total %+v tax %+v", q.Total, q.Tax)
			}
		})
	}
}
