package planchange_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/planchange"
)

// Prorate counts each period's price by days and rounds once, half away from zero.
func TestProrate(t *testing.T) {
	for _, tc := range []struct {
		name               string
		old                int64
		oldLeft, oldPeriod int
		new                int64
		newLeft, newPeriod int
		want               int64
	}{
		{"two connections, whole period", 1299, 30, 30, 1899, 30, 30, 600},
		{"two connections, 20 of 30 days", 1299, 20, 30, 1899, 20, 30, 400},
		{"a third of a cent", 1000, 1, 3, 1001, 1, 3, 0},
		{"one and a half cents", 0, 0, 30, 45, 1, 30, 2},
		{"downgrade", 1899, 15, 30, 1299, 15, 30, -300},
		{"minus one and a half cents", 45, 1, 30, 0, 0, 30, -2},
		{"due date ten days on", 1299, 20, 30, 1299, 30, 30, 433},
		{"monthly to quarterly", 1299, 20, 30, 3299, 20, 92, -149},
		{"no period", 1299, 0, 0, 1899, 0, 0, 0},
	} {
		if got := planchange.Prorate(tc.old, tc.oldLeft, tc.oldPeriod, tc.new, tc.newLeft, tc.newPeriod); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
