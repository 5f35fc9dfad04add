package upsell_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/upsell"
)

func TestPricingCycle(t *testing.T) {
	cases := []struct {
		in   string
		want catalog.Cycle
	}{
		{"One Time", catalog.Monthly},
		{"onetime", catalog.Monthly},
		{"One-Time", catalog.Monthly},
		{"", catalog.Monthly},
		{"Monthly", catalog.Monthly},
		{"Semi-Annually", catalog.Semiannually},
		{"annually", catalog.Annually},
		{"Quarterly", catalog.Quarterly},
	}
	for _, tc := range cases {
		if got := upsell.PricingCycle(tc.in); got != tc.want {
			t.Errorf("PricingCycle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
