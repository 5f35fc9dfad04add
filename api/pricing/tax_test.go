package pricing_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
)

// taxed is the demo catalog with a tax block (and the seller in Ireland when seller is true).
func taxed(t *testing.T, included, seller bool) *catalog.Catalog {
	t.Helper()
	src := string(catalog.DemoYAML())
	if seller {
		src = strings.Replace(src, "seller: {name: Streamcart Demo Shop}", "seller: {name: Streamcart Demo Shop, country: IE}", 1)
	}
	inc := "false"
	if included {
		inc = "true"
	}
	src += "\ntax: {pricesIncludeTax: " + inc + `, rates: {DE: "19", FR: "20", IE: "23"}}` + "\n"
	c, err := catalog.Parse("demo.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestQuoteTax(t *testing.T) {
	eur := func(a int64) money.Money { return money.Money{Amount: a, Currency: "EUR"} }
	// Premium quarterly, 39.99, with WELCOME10: 10% off is 4.00, 35.99 after the discount.
	premium := pricing.Request{PID: 3, Cycle: catalog.Quarterly, PromoCode: "WELCOME10"}
	with := func(billing, ip string) pricing.Request {
		r := premium
		r.BillingCountry, r.IPCountry = billing, ip
		return r
	}
	for _, tc := range []struct {
		name           string
		included       bool
		seller         bool
		req            pricing.Request
		net, total     int64
		tax            *pricing.Tax
		recurringGross int64
	}{
		// 35.99 / 1.19 = 30.2437 → 30.24 net; the buyer pays 35.99 as without tax.
		{"included, billing DE", true, false, with("DE", "DE"), 3024, 3599,
			&pricing.Tax{Country: "DE", Rate: "19", Amount: 575, Currency: "EUR", Included: true, IPCountry: "DE"}, 3999},
		// 35.99 × 0.19 = 6.8381 → 6.84 on top.
		// The next periods are told tax included too: 39.99 × 1.19 = 47.5881 → 47.59.
		{"excluded, billing DE", false, false, with("DE", "DE"), 3599, 4283,
			&pricing.Tax{Country: "DE", Rate: "19", Amount: 684, Currency: "EUR", IPCountry: "DE"}, 4759},
		{"lower-case billing country", true, false, with("de", "FR"), 3024, 3599,
			&pricing.Tax{Country: "DE", Rate: "19", Amount: 575, Currency: "EUR", Included: true, IPCountry: "FR"}, 3999},
		// 35.99 / 1.2 = 29.9917 → 29.99.
		{"the IP's country by default", true, false, with("", "FR"), 2999, 3599,
			&pricing.Tax{Country: "FR", Rate: "20", Amount: 600, Currency: "EUR", Included: true, IPCountry: "FR"}, 3999},
		{"a country without a rate pays none", true, false, with("US", "US"), 3599, 3599,
			&pricing.Tax{Country: "US", Rate: "0", Amount: 0, Currency: "EUR", Included: true, IPCountry: "US"}, 3999},
		{"excluded, no rate: nothing on top", false, false, with("", "US"), 3599, 3599,
			&pricing.Tax{Country: "US", Rate: "0", Amount: 0, Currency: "EUR", IPCountry: "US"}, 3999},
		// 35.99 / 1.23 = 29.2602 → 29.26.
		{"no address: the seller's country", true, true, with("", ""), 2926, 3599,
			&pricing.Tax{Country: "IE", Rate: "23", Amount: 673, Currency: "EUR", Included: true}, 3999},
		{"an unknown IP country is no evidence", true, false, with("", "XX"), 3599, 3599,
			&pricing.Tax{Country: "", Rate: "0", Amount: 0, Currency: "EUR", Included: true}, 3999},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := pricing.QuoteFor(taxed(t, tc.included, tc.seller), tc.req, now)
			if err != nil {
				t.Fatal(err)
			}
			if q.Net != eur(tc.net) || q.Total != eur(tc.total) {
				t.Errorf("net %+v total %+v, want %d and %d", q.Net, q.Total, tc.net, tc.total)
			}
			if q.Tax == nil || *q.Tax != *tc.tax {
				t.Errorf("tax %+v, want %+v", q.Tax, tc.tax)
			}
			if q.Net.Amount+q.Tax.Amount != q.Total.Amount {
				t.Errorf("net + tax != total")
			}
			if q.Subtotal != eur(3999) || q.Discount == nil || q.Discount.Amount != eur(400) {
				t.Errorf("subtotal %+v discount %+v: the lines and the discount are the catalog's prices", q.Subtotal, q.Discount)
			}
			if q.Recurring == nil || q.Recurring.Amount != tc.recurringGross {
				t.Errorf("recurring %+v", q.Recurring)
			}
		})
	}
}

func TestQuoteBadCountry(t *testing.T) {
	for _, c := range []*catalog.Catalog{catalog.Demo(), taxed(t, true, false)} {
		for _, bad := range []string{"XX", "EL", "UK", "DEU", "1", "d"} {
			_, err := pricing.QuoteFor(c, pricing.Request{PID: 3, Cycle: catalog.Monthly, BillingCountry: bad}, now)
			if !errors.Is(err, pricing.ErrInvalidCountry) {
				t.Errorf("billing country %q: %v, want ErrInvalidCountry", bad, err)
			}
		}
	}
	// Without a tax block a good country changes nothing.
	q, err := pricing.QuoteFor(catalog.Demo(), pricing.Request{PID: 3, Cycle: catalog.Monthly, BillingCountry: "DE", IPCountry: "FR"}, now)
	if err != nil || q.Tax != nil || q.Net != q.Total || q.Total.Amount != 1599 {
		t.Errorf("no tax block: %+v, %v", q, err)
	}
}

// A sale priced outside QuoteFor is taxed as a first order: Taxed on catalog prices (tax inside
// or on top, as the catalog says), TaxedGross on an amount that holds the tax already (a plan
// change's difference of two taxed periods): its line becomes net where the catalog's prices are.
func TestTaxedOutsideQuoteFor(t *testing.T) {
	eur := func(a int64) money.Money { return money.Money{Amount: a, Currency: "EUR"} }
	one := func(a int64) pricing.Quote {
		return pricing.Quote{Currency: "EUR", Lines: []pricing.Line{{Key: "x", Amount: eur(a)}}, Subtotal: eur(a), Total: eur(a)}
	}
	de := pricing.Request{IPCountry: "DE"}
	for _, tc := range []struct {
		name               string
		included, gross    bool
		amount             int64
		line, net, tx, tot int64
		taxIncludedInLines bool
	}{
		// 6.00 / 1.19 = 5.042 → 5.04 net, 0.96 VAT.
		{"included", true, false, 600, 600, 504, 96, 600, true},
		// 6.00 + 19 % = 7.14.
		{"excluded", false, false, 600, 600, 600, 114, 714, false},
		{"gross, included", true, true, 714, 714, 600, 114, 714, true},
		// The gross holds the tax: the line shows the net, the VAT is added to it.
		{"gross, excluded", false, true, 714, 600, 600, 114, 714, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := one(tc.amount)
			f := pricing.Taxed
			if tc.gross {
				f = pricing.TaxedGross
			}
			if err := f(taxed(t, tc.included, false), de, &q); err != nil {
				t.Fatal(err)
			}
			if q.Lines[0].Amount != eur(tc.line) || q.Net != eur(tc.net) || q.Total != eur(tc.tot) || q.Tax == nil ||
				q.Tax.Amount != tc.tx || q.Tax.Country != "DE" || q.Tax.Included != tc.taxIncludedInLines {
				t.Fatalf("quote %+v tax %+v", q, q.Tax)
			}
		})
	}
	// Without a tax block: untouched, the net is the total.
	plain, err := catalog.Parse("demo.yaml", catalog.DemoYAML())
	if err != nil {
		t.Fatal(err)
	}
	q := one(714)
	if err := pricing.TaxedGross(plain, de, &q); err != nil || q.Tax != nil || q.Net != eur(714) || q.Total != eur(714) {
		t.Fatalf("no tax block: %+v %v", q, err)
	}
}
