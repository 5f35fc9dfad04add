package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

// catalogFile writes the demo catalog with extra currencies after GBP and returns its path.
func catalogFile(t *testing.T, currencies string) string {
	t.Helper()
	demo := string(catalog.DemoYAML())
	const gbp = "  - {code: GBP, rate: \"0.86\", prefix: \"£\", suffix: \"\"}\n"
	if strings.Count(demo, gbp) != 1 {
		t.Fatalf("the demo catalog no longer says %q", gbp)
	}
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(demo, gbp, gbp+currencies, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestMoneyInEveryCurrency: a 0-, 2- and 3-decimal currency is priced in its own minor units by
// the product list, the quote (with a converted fixed promotion), the conversion endpoint, the
// order's invoice and the sandbox payment page. Before, 15.99 EUR at 160 was 255840 "JPY".
func TestMoneyInEveryCurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		file := catalogFile(t, "  - {code: JPY, rate: \"160\"}\n  - {code: KWD, rate: \"0.3346\"}\n")
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		cases := []struct {
			currency  string
			plan      int64  // plan 3 monthly: 15.99 EUR, an explicit 16.99 USD
			save5     int64  // SAVE5: 5.00 EUR converted
			page      string // the sandbox page's total, as the checkout formats it (British English without a locale)
			backToEUR int64  // plan converted back to EUR
		}{
			{"JPY", 2558, 800, "JP¥2,558", 1599}, // 2558.4 → 2558 yen; 2558 / 160 = 15.9875 → 15.99
			{"EUR", 1599, 500, "€15.99", 1599},
			{"USD", 1699, 540, "US$16.99", 1573},        // 16.99 / 1.08 = 15.7314… → 15.73
			{"KWD", 5350, 1673, "KWD\u00a05.350", 1599}, // 5.350254 → 5.350 dinars; 5.350 / 0.3346 = 15.989… → 15.99
		}
		for _, tc := range cases {
			t.Run(tc.currency, func(t *testing.T) {
				prod, err := s.catalog.GetProduct(t.Context(), &gencatalog.GetProductPayload{Pid: 3, Currency: ptr(tc.currency)})
				if err != nil {
					t.Fatal(err)
				}
				if m := prod.Pricing["monthly"]; m.Amount != tc.plan || m.Currency != tc.currency {
					t.Fatalf("product price = %+v, want %d %s", m, tc.plan, tc.currency)
				}
				q, err := s.pricing.Quote(t.Context(), &genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", Currency: ptr(tc.currency), PromoCode: ptr("SAVE5")})
				if err != nil {
					t.Fatal(err)
				}
				if q.Subtotal.Amount != tc.plan || q.Discount.Amount.Amount != tc.save5 || q.Total.Amount != tc.plan-tc.save5 || q.Total.Currency != tc.currency {
					t.Fatalf("quote = %d − %d = %d %s; want %d − %d = %d %s", q.Subtotal.Amount, q.Discount.Amount.Amount,
						q.Total.Amount, q.Total.Currency, tc.plan, tc.save5, tc.plan-tc.save5, tc.currency)
				}
				conv, err := s.catalog.Convert(t.Context(), &gencatalog.ConvertPayload{Amount: tc.plan, From: tc.currency, To: "EUR"})
				if err != nil {
					t.Fatal(err)
				}
				if conv.Amount != tc.backToEUR {
					t.Fatalf("convert %d %s to EUR = %d, want %d", tc.plan, tc.currency, conv.Amount, tc.backToEUR)
				}
				buyer := s.identify("money-"+strings.ToLower(tc.currency)+"@example.com", "")
				o := s.buy(buyer.Token, genorder.CreatePayload{Pid: 3, BillingCycle: "monthly", Currency: ptr(tc.currency)})
				if o.Total.Amount != tc.plan || o.Total.Currency != tc.currency {
					t.Fatalf("order total = %+v, want %d %s", o.Total, tc.plan, tc.currency)
				}
				status, _, body := s.raw("GET", strings.TrimPrefix(o.PaymentURL, s.base), "", nil)
				if status != 200 || !strings.Contains(string(body), tc.page) {
					t.Fatalf("sandbox page %d does not show %q:\n%s", status, tc.page, body)
				}
			})
		}
	})
}

// TestCatalogRefusesUnknownCurrency: a currency code outside ISO 4217 is refused by catalog
// import and at start-up, with a message naming the code (`streamcart catalog check` parses
// the same way).
func TestCatalogRefusesUnknownCurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		file := catalogFile(t, "  - {code: XBT, rate: \"0.0001\"}\n")
		const want = `currency code "XBT" is not an ISO 4217 currency`
		s := newShop(t)
		if _, err := app.ImportCatalog(t.Context(), s.app.Store(), file); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("import = %v, want %q", err, want)
		}
		s.close()
		cfg := testConfig(t)
		cfg.CatalogFile = file
		if a, err := app.Open(t.Context(), cfg, nil); err == nil || !strings.Contains(err.Error(), want) {
			if a != nil {
				a.Close()
			}
			t.Fatalf("start-up = %v, want %q", err, want)
		}
	})
}
