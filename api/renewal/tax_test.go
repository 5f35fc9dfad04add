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

// A renewal is taxed in the country its first order was, at today's rate there. A first order
// placed before the shop had a tax block kept no tax: it renews taxed in the country of its
// buyer's evidence when one is known (its stored countries, else the country of the address it
// came from), and only with none known at the seller's country.
func TestRenewalTaxedWhereFirstOrderWas(t *testing.T) {
	for _, tc := range []struct {
		name     string
		included string
		first    order.Order
		country  string
		total    int64
		tax      int64
	}{
		// Standard monthly 12.99: in France with 20 % included, 10.825 → 10.83 net, 2.16 VAT.
		{"included, FR", "true", order.Order{Quote: pricing.Quote{Tax: &pricing.Tax{Country: "FR", Rate: "20"}}, IPCountry: "DE"}, "FR", 1299, 216},
		// Without tax in the prices: 12.99 + 19 % = 15.46.
		{"excluded, DE", "false", order.Order{Quote: pricing.Quote{Tax: &pricing.Tax{Country: "DE", Rate: "19"}}, IPCountry: "DE"}, "DE", 1546, 247},
		// Before the tax block, its address's country kept: Germany's 19 % (12.99 / 1.19 → 2.07), not
		// the seller's 23 % (2.43).
		{"first order untaxed, IP country kept", "true", order.Order{IPCountry: "DE"}, "DE", 1299, 207},
		{"first order untaxed, billing country kept", "true", order.Order{BillingCountry: "FR", IPCountry: "DE"}, "FR", 1299, 216},
		// Nothing kept: the country of the address it came from (the country database's answer).
		{"first order untaxed, located", "true", order.Order{IP: "81.2.69.160"}, "FR", 1299, 216},
		// Nothing known at all: the seller's country (IE, 23 %).
		{"first order untaxed, nothing known", "true", order.Order{IP: "10.0.0.1"}, "IE", 1299, 243},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := append(catalog.DemoYAML(), "\ntax: {pricesIncludeTax: "+tc.included+`, rates: {DE: "19", FR: "20", IE: "23"}}`+"\n"...)
			cat, err := catalog.Parse("demo.yaml", src)
			if err != nil {
				t.Fatal(err)
			}
			cat.Seller.Country = "IE"
			locate := func(ip string) string { return map[string]string{"81.2.69.160": "FR"}[ip] }
			r := renewal.New(nil, func() *catalog.Catalog { return cat }, nil, nil, nil, renewal.Cards{}, renewal.Config{Locate: locate},
				slog.New(slog.DiscardHandler), nil)
			now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
			first := tc.first
			first.Quote.PID, first.Quote.Cycle, first.Quote.Currency, first.CreatedAt = 2, catalog.Monthly, "EUR", now
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
