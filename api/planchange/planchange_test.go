package planchange_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
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

// Count holds the days left to the period's length: a monthly line paid on 30 January is due on
// 2 March, and a change on 30 January charged 31 of 28 days (€3.32 for a €3.00 connection) before.
func TestCountHoldsDaysLeftToThePeriod(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	monthly := catalog.Cycle("monthly")
	for _, tc := range []struct {
		name           string
		now, old, next string
		want           planchange.Days
		registered     string // "": unknown
	}{
		{"paid on 30 January, due 2 March", "2027-01-30", "2027-03-02", "2027-03-02", planchange.Days{OldLeft: 28, OldPeriod: 28, NewLeft: 28, NewPeriod: 28}, ""},
		{"the same line, its due date ten days on", "2027-01-30", "2027-03-02", "2027-03-12", planchange.Days{OldLeft: 28, OldPeriod: 28, NewLeft: 38, NewPeriod: 28}, ""},
		{"mid-period, nothing to hold", "2027-02-15", "2027-03-02", "2027-03-02", planchange.Days{OldLeft: 15, OldPeriod: 28, NewLeft: 15, NewPeriod: 28}, ""},
		{"a 30-day month, whole period", "2026-11-20", "2026-12-20", "2026-12-20", planchange.Days{OldLeft: 30, OldPeriod: 30, NewLeft: 30, NewPeriod: 30}, ""},
		// The anchor kept: a line bought on 30 or 31 January is due on 28 February, a whole period of 28 days.
		{"bought on 30 January, due 28 February", "2027-01-30", "2027-02-28", "2027-02-28", planchange.Days{OldLeft: 29, OldPeriod: 29, NewLeft: 29, NewPeriod: 29}, "2027-01-30"},
		{"bought on 31 January, due 28 February", "2027-01-31", "2027-02-28", "2027-02-28", planchange.Days{OldLeft: 28, OldPeriod: 28, NewLeft: 28, NewPeriod: 28}, "2027-01-31"},
		{"anchored on the 31st, due 31 March: 31 days", "2027-03-01", "2027-03-31", "2027-03-31", planchange.Days{OldLeft: 30, OldPeriod: 31, NewLeft: 30, NewPeriod: 31}, "2027-01-31"},
		{"anchored on the 30th, due 30 March: 30 days (from 28 February)", "2027-03-01", "2027-03-30", "2027-03-30", planchange.Days{OldLeft: 29, OldPeriod: 30, NewLeft: 29, NewPeriod: 30}, "2027-01-30"},
		{"leap year: anchored on the 31st, due 29 February 2028", "2028-01-31", "2028-02-29", "2028-02-29", planchange.Days{OldLeft: 29, OldPeriod: 29, NewLeft: 29, NewPeriod: 29}, "2027-12-31"},
		{"anchored on the 31st, due 30 April", "2027-04-10", "2027-04-30", "2027-04-30", planchange.Days{OldLeft: 20, OldPeriod: 30, NewLeft: 20, NewPeriod: 30}, "2027-01-31"},
	} {
		var registered time.Time
		if tc.registered != "" {
			registered = day(tc.registered)
		}
		got := planchange.Count(day(tc.now), day(tc.old), monthly, day(tc.next), monthly, registered)
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
		if tc.old == tc.next {
			if p := planchange.Prorate(1299, got.OldLeft, got.OldPeriod, 1599, got.NewLeft, got.NewPeriod); got.OldLeft == got.OldPeriod && p != 300 {
				t.Errorf("%s: a whole period charged %d, want 300", tc.name, p)
			}
		}
	}
}
