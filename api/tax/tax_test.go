package tax_test

import (
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/tax"
)

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name     string
		amount   int64
		rate     string
		included bool
		want     tax.Split
	}{
		{"included 19%", 11900, "19", true, tax.Split{Net: 10000, Tax: 1900, Gross: 11900}},
		{"excluded 19%", 10000, "19", false, tax.Split{Net: 10000, Tax: 1900, Gross: 11900}},
		// 17.99 / 1.19 = 15.1176… → 15.12 net, 2.87 tax.
		{"included rounds the net", 1799, "19", true, tax.Split{Net: 1512, Tax: 287, Gross: 1799}},
		// 15.12 × 0.19 = 2.8728 → 2.87.
		{"excluded rounds the tax", 1512, "19", false, tax.Split{Net: 1512, Tax: 287, Gross: 1799}},
		// 0.05 × 1.23 gross: 5 / 1.23 = 4.065 → 4 net, 1 tax.
		{"included small amount", 5, "23", true, tax.Split{Net: 4, Tax: 1, Gross: 5}},
		// Half away from zero: 50 × 0.21 = 10.5 → 11; 1 × 0.5 tax… 250 × 0.19 = 47.5 → 48.
		{"excluded half rounds up", 250, "19", false, tax.Split{Net: 250, Tax: 48, Gross: 298}},
		// 121 / 1.21 = 100 exactly.
		{"included exact", 121, "21", true, tax.Split{Net: 100, Tax: 21, Gross: 121}},
		// 1000 / 1.255 = 796.81… → 797.
		{"decimal rate", 1000, "25.5", true, tax.Split{Net: 797, Tax: 203, Gross: 1000}},
		{"zero rate included", 4999, "0", true, tax.Split{Net: 4999, Tax: 0, Gross: 4999}},
		{"zero rate excluded", 4999, "0", false, tax.Split{Net: 4999, Tax: 0, Gross: 4999}},
		{"nothing to pay", 0, "20", true, tax.Split{}},
		// A promotion took the total after discount: 60.99 − 10% = 54.89 gross at 19%.
		{"after a discount", 5489, "19", true, tax.Split{Net: 4613, Tax: 876, Gross: 5489}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tax.Apply(tc.amount, tc.rate, tc.included)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Apply(%d, %s, %v) = %+v, want %+v", tc.amount, tc.rate, tc.included, got, tc.want)
			}
			if got.Net+got.Tax != got.Gross {
				t.Errorf("net + tax != gross: %+v", got)
			}
		})
	}
}

func TestApplyBadRate(t *testing.T) {
	for _, r := range []string{"", "-1", "100", "19%", "19.999", "1e2", "019", "abc", " 19"} {
		if _, err := tax.Apply(100, r, true); !errors.Is(err, tax.ErrBadRate) {
			t.Errorf("Apply(rate %q): %v, want ErrBadRate", r, err)
		}
	}
	for _, r := range []string{"0", "5.5", "19", "25.5", "99.99", "8.1"} {
		if !tax.ValidRate(r) {
			t.Errorf("ValidRate(%q) = false", r)
		}
	}
}

func TestRefundShare(t *testing.T) {
	// An invoice of 54.89 gross with 8.76 tax.
	const gross, total = 5489, 876
	for _, tc := range []struct {
		name   string
		parts  []int64
		shares []int64
	}{
		{"full refund", []int64{5489}, []int64{876}},
		{"half", []int64{2744}, []int64{438}},
		// 1/3 each: 291.99… → 292, then 584 − 292, then the rest: always 876 in all.
		{"three thirds", []int64{1830, 1830, 1829}, []int64{292, 292, 292}},
		{"one cent at a time ends exact", []int64{1, 1, 5487}, []int64{0, 0, 876}},
		{"more than is left takes what is left", []int64{5000, 1000}, []int64{798, 78}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, taxBefore int64
			for i, a := range tc.parts {
				got := tax.RefundShare(gross, total, before, taxBefore, a)
				if got != tc.shares[i] {
					t.Errorf("refund %d of %d: tax %d, want %d", i, a, got, tc.shares[i])
				}
				before, taxBefore = before+a, taxBefore+got
			}
		})
	}
	if got := tax.RefundShare(5489, 0, 0, 0, 100); got != 0 {
		t.Errorf("untaxed invoice gives back %d tax", got)
	}
}
