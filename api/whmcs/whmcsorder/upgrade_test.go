package whmcsorder_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
)

// TestPriceOf: UpgradeProduct's formatted price read in minor units, whatever WHMCS's currency
// format (prefix, suffix, thousands, decimal comma); no amount is an error.
func TestPriceOf(t *testing.T) {
	for _, tc := range []struct {
		shown, currency string
		want            int64
		err             bool
	}{
		{"$8.67 USD", "USD", 867, false},
		{"€2.90 EUR", "EUR", 290, false},
		{"8,67 €", "EUR", 867, false},
		{"€1.234,50", "EUR", 123450, false},
		{"$1,234.50 USD", "USD", 123450, false},
		{"$-8.67 USD", "USD", -867, false},
		{"¥1,200", "JPY", 1200, false},
		{"3 EUR", "EUR", 300, false},
		{"EUR", "EUR", 0, true},
		{"", "EUR", 0, true},
	} {
		got, err := whmcsorder.PriceOf(tc.shown, tc.currency)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("PriceOf(%q, %s) = %d, %v; want %d (error %v)", tc.shown, tc.currency, got, err, tc.want, tc.err)
		}
	}
}
