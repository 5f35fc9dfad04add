package console_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
)

// An order's items sum to its total: tax on top of the prices is an item, tax included in them
// is not (it is inside the lines' amounts).
func TestItemsSumToTheTotal(t *testing.T) {
	eur := func(n int64) money.Money { return money.Money{Amount: n, Currency: "EUR"} }
	lines := []pricing.Line{
		{Key: pricing.LinePlan, Label: "Premium — quarterly", Amount: eur(4599)},
		{Key: pricing.LineExtraConnections, Label: "2 extra connections", Amount: eur(1000)},
	}
	cases := []struct {
		name  string
		q     pricing.Quote
		total int64
		kinds string
	}{
		{"no tax", pricing.Quote{Lines: lines, ExtraConnections: 2}, 5599, "plan extra"},
		{"tax included", pricing.Quote{Lines: lines, ExtraConnections: 2,
			Tax: &pricing.Tax{Country: "DE", Rate: "19", Amount: 894, Currency: "EUR", Included: true}}, 5599, "plan extra"},
		{"tax on top", pricing.Quote{Lines: lines, ExtraConnections: 2,
			Tax: &pricing.Tax{Country: "DE", Rate: "19", Amount: 1064, Currency: "EUR"}}, 6663, "plan extra tax"},
		{"discount and tax on top", pricing.Quote{Lines: lines, ExtraConnections: 2, Discount: &pricing.Discount{Code: "WELCOME10", Amount: eur(560)},
			Tax: &pricing.Tax{Country: "FR", Rate: "20", Amount: 1008, Currency: "EUR"}}, 6047, "plan extra discount tax"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := console.Items(c.q, eur(c.total))
			var sum int64
			kinds := ""
			for _, it := range items {
				sum += it.Amount.Amount
				if kinds != "" {
					kinds += " "
				}
				kinds += it.Kind
			}
			if sum != c.total || kinds != c.kinds {
				t.Fatalf("items %+v: sum %d kinds %q, want %d %q", items, sum, kinds, c.total, c.kinds)
			}
		})
	}
}
