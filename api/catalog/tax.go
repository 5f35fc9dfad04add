package catalog

import (
	"maps"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/streamcart/streamcart/api/country"
	"github.com/streamcart/streamcart/api/tax"
)

// Tax is the catalog's tax block: whether its prices include tax, and the rate of each buyer
// country. A catalog without one charges no tax, and its answers carry none.
type Tax struct {
	// PricesIncludeTax: the catalog's prices are what the buyer pays, tax included; false: they
	// are net, and the tax is added on top.
	PricesIncludeTax bool
	// Rates maps an ISO 3166-1 alpha-2 code (upper case) to a percentage ("19", "25.5").
	Rates map[string]string
	// Checked is the day the seller last checked the rates (YYYY-MM-DD); "" when not said.
	Checked string
}

// RateFor is the rate of a buyer in country: the catalog's, "0" for a country it names no rate
// for (outside the seller's tax area).
func (t *Tax) RateFor(country string) string {
	if r, ok := t.Rates[country]; ok {
		return r
	}
	return "0"
}

// Countries are the codes with a rate, sorted.
func (t *Tax) Countries() []string { return slices.Sorted(maps.Keys(t.Rates)) }

// tax reads the tax block: pricesIncludeTax and rates are required, each rate a percentage
// (tax.ValidRate) under an assigned ISO 3166-1 alpha-2 code.
func (p *parser) tax(n *yaml.Node) {
	t := &Tax{Rates: map[string]string{}}
	var ratesNode, checkedNode *yaml.Node
	p.object(n, "tax", []field{
		{"pricesIncludeTax", true, p.boolean(&t.PricesIncludeTax)},
		{"rates", true, func(n *yaml.Node, _ string) { ratesNode = n }},
		{"checked", false, func(n *yaml.Node, path string) { checkedNode = n; p.str(&t.Checked)(n, path) }},
	})
	if ratesNode != nil {
		p.pairs(ratesNode, "tax.rates", func(k, v *yaml.Node, path string) {
			code, ok := country.Normalize(k.Value)
			if !ok {
				p.bad(k, path, "country %q is not an ISO 3166-1 alpha-2 code (DE, FR, GR for Greece, GB for the United Kingdom)", k.Value)
				return
			}
			var rate string
			v = deref(v)
			if v.Kind != yaml.ScalarNode || isNull(v) {
				p.bad(v, path, "rate must be a percentage such as \"19\"")
				return
			}
			p.str(&rate)(v, path)
			if !tax.ValidRate(rate) {
				p.bad(v, path, "rate %q must be a percentage from 0 to below 100 with at most two decimals (\"19\", \"25.5\")", rate)
				return
			}
			t.Rates[code] = rate
		})
		if len(t.Rates) == 0 && !hasProblemUnder(p.problems, "tax.rates") {
			p.bad(ratesNode, "tax.rates", "at least one country's rate is required")
		}
	}
	if checkedNode != nil && t.Checked != "" {
		if _, err := time.Parse(time.DateOnly, t.Checked); err != nil {
			p.bad(checkedNode, "tax.checked", "checked %q must be a date YYYY-MM-DD", t.Checked)
		}
	}
	p.cat.Tax = t
}
