package console_test

import (
	"fmt"
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

// TestItemArgs: each item carries its English text's parts, for the console to word in its
// operator's language; a text none of the wordings reads has none.
func TestItemArgs(t *testing.T) {
	eur := func(n int64) money.Money { return money.Money{Amount: n, Currency: "EUR"} }
	cases := []struct {
		name string
		q    pricing.Quote
		want [][]string
	}{
		{"plan, extras, proxy, promotion, tax", pricing.Quote{Cycle: "monthly", ExtraConnections: 2, Lines: []pricing.Line{
			{Key: pricing.LinePlan, Label: "Free Trial — Monthly", Amount: eur(1000)},
			{Key: pricing.LineExtraConnections, Label: "2 extra connections", Amount: eur(400)},
			{Key: pricing.LineProxyProtection, Label: "Proxy protection", Amount: eur(100)}},
			Discount: &pricing.Discount{Code: "WELCOME", Amount: eur(500)}, Tax: &pricing.Tax{Country: "DE", Rate: "19", Amount: 190, Currency: "EUR"}},
			[][]string{{"plan", "Free Trial", "monthly"}, {"extra", "2"}, {"proxy"}, {"promotion", "WELCOME"}, {"tax", "19", "DE"}}},
		{"upsell", pricing.Quote{Cycle: "monthly", Lines: []pricing.Line{{Key: pricing.LineExtraConnections, Label: "1 extra connection — Living room", Amount: eur(200)}}},
			[][]string{{"extra", "1", "Living room"}}},
		{"change", pricing.Quote{Cycle: "annually", Lines: []pricing.Line{{Key: "change", Label: "Change of Standard to Premium, annually, 3 connections, until 2027-01-31", Amount: eur(200)}}},
			[][]string{{"change", "Standard", "Premium", "annually", "3", "2027-01-31"}}},
		{"whmcs renewal", pricing.Quote{Cycle: "monthly", Lines: []pricing.Line{{Key: pricing.LinePlan, Label: "Renewal — Kitchen (2026-12-01)", Amount: eur(200)}}},
			[][]string{{"renewal", "Kitchen", "2026-12-01"}}},
		{"unknown text", pricing.Quote{Cycle: "monthly", Lines: []pricing.Line{{Key: pricing.LinePlan, Label: "Something else", Amount: eur(200)}}},
			[][]string{nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A total of 0 disagrees with every quote here: the difference is an adjustment.
			var got [][]string
			for _, it := range console.Items(c.q, eur(0)) {
				got = append(got, it.Args)
			}
			c.want = append(c.want, []string{"adjustment"})
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Fatalf("args %q, want %q", got, c.want)
			}
		})
	}
}
