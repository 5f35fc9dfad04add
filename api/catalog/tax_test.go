package catalog_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

func TestTaxBlock(t *testing.T) {
	base := head + plan + "gateways: sandbox\n"
	for _, tc := range []struct {
		name    string
		tax     string
		want    *catalog.Tax // nil with problems
		problem string       // a path named by a problem
	}{
		{"none", "", nil, ""},
		{"null", "tax: null\n", nil, ""},
		{"included", `tax: {pricesIncludeTax: true, rates: {DE: "19", FR: "20", IE: "23"}}` + "\n",
			&catalog.Tax{PricesIncludeTax: true, Rates: map[string]string{"DE": "19", "FR": "20", "IE": "23"}}, ""},
		{"excluded, lower case, numbers, checked", "tax:\n  pricesIncludeTax: false\n  checked: \"2026-11-28\"\n  rates: {de: 19, fi: 25.5, lu: \"0\"}\n",
			&catalog.Tax{Rates: map[string]string{"DE": "19", "FI": "25.5", "LU": "0"}, Checked: "2026-11-28"}, ""},
		{"EL is not ISO", `tax: {pricesIncludeTax: true, rates: {EL: "24"}}` + "\n", nil, "tax.rates.EL"},
		{"UK is not ISO", `tax: {pricesIncludeTax: true, rates: {UK: "20"}}` + "\n", nil, "tax.rates.UK"},
		{"three letters", `tax: {pricesIncludeTax: true, rates: {DEU: "19"}}` + "\n", nil, "tax.rates.DEU"},
		{"percent sign", `tax: {pricesIncludeTax: true, rates: {DE: "19%"}}` + "\n", nil, "tax.rates.DE"},
		{"negative", `tax: {pricesIncludeTax: true, rates: {DE: "-19"}}` + "\n", nil, "tax.rates.DE"},
		{"a hundred", `tax: {pricesIncludeTax: true, rates: {DE: "100"}}` + "\n", nil, "tax.rates.DE"},
		{"three decimals", `tax: {pricesIncludeTax: true, rates: {DE: "19.125"}}` + "\n", nil, "tax.rates.DE"},
		{"a fraction", `tax: {pricesIncludeTax: true, rates: {DE: "0.19"}}` + "\n", &catalog.Tax{PricesIncludeTax: true, Rates: map[string]string{"DE": "0.19"}}, ""},
		{"repeated country", `tax: {pricesIncludeTax: true, rates: {DE: "19", de: "7"}}` + "\n", nil, "tax.rates"},
		{"no rates", `tax: {pricesIncludeTax: true, rates: {}}` + "\n", nil, "tax.rates"},
		{"no pricesIncludeTax", `tax: {rates: {DE: "19"}}` + "\n", nil, "tax"},
		{"unknown field", `tax: {pricesIncludeTax: true, rates: {DE: "19"}, reverseCharge: true}` + "\n", nil, "tax"},
		{"bad checked", `tax: {pricesIncludeTax: true, rates: {DE: "19"}, checked: "28.11.2026"}` + "\n", nil, "tax.checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := catalog.Parse("c.yaml", []byte(base+tc.tax))
			if tc.problem != "" {
				var ve *catalog.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("err = %v, want a validation error", err)
				}
				for _, p := range ve.Problems {
					if p.Path == tc.problem {
						return
					}
				}
				t.Fatalf("problems %v name no %s", ve.Problems, tc.problem)
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == nil && c.Tax != nil:
				t.Fatalf("Tax = %+v, want none", c.Tax)
			case tc.want != nil && (c.Tax == nil || c.Tax.PricesIncludeTax != tc.want.PricesIncludeTax ||
				c.Tax.Checked != tc.want.Checked || len(c.Tax.Rates) != len(tc.want.Rates)):
				t.Fatalf("Tax = %+v, want %+v", c.Tax, tc.want)
			case tc.want != nil:
				for k, v := range tc.want.Rates {
					if c.Tax.Rates[k] != v {
						t.Errorf("rate %s = %q, want %q", k, c.Tax.Rates[k], v)
					}
				}
			}
		})
	}
}

// The documented example (docs/tax-eu-vat.yaml) is a valid tax block with the 27 member states,
// and the demo catalog has none: the demo shop charges no tax.
func TestTaxExample(t *testing.T) {
	src, err := os.ReadFile("../../docs/tax-eu-vat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse("demo.yaml", append(catalog.DemoYAML(), append([]byte("\n"), src...)...))
	if err != nil {
		t.Fatal(err)
	}
	if c.Tax == nil || !c.Tax.PricesIncludeTax || len(c.Tax.Rates) != 27 || c.Tax.Checked == "" {
		t.Fatalf("Tax = %+v, want the 27 EU rates, prices including tax, with the day checked", c.Tax)
	}
	if c.Tax.RateFor("DE") != "19" || c.Tax.RateFor("US") != "0" {
		t.Errorf("DE %s, US %s", c.Tax.RateFor("DE"), c.Tax.RateFor("US"))
	}
	if errs := schemaErrors(t, append(catalog.DemoYAML(), append([]byte("\n"), src...)...)); len(errs) > 0 {
		t.Errorf("the example violates catalog.schema.json:\n%s", strings.Join(errs, "\n"))
	}
	if catalog.Demo().Tax != nil {
		t.Error("the demo catalog charges tax")
	}
}
