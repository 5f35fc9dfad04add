package period_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/period"
)

func date(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		d, err = time.Parse(time.DateOnly, s)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAddMonths(t *testing.T) {
	for _, tc := range []struct {
		name   string
		t      string
		n      int
		anchor int
		want   string
	}{
		{"30 Jan + 1 month is the last of February, not 2 March", "2027-01-30", 1, 30, "2027-02-28"},
		{"31 Jan + 1 month", "2027-01-31", 1, 31, "2027-02-28"},
		{"back on the 31st in March", "2027-02-28", 1, 31, "2027-03-31"},
		{"the 30th of April", "2027-03-31", 1, 31, "2027-04-30"},
		{"back on the 31st in May", "2027-04-30", 1, 31, "2027-05-31"},
		{"leap year: 31 Jan 2028 + 1 month", "2028-01-31", 1, 31, "2028-02-29"},
		{"leap year: 29 Jan 2028 + 1 month", "2028-01-29", 1, 29, "2028-02-29"},
		{"leap year: 29 Feb 2028 + 12 months", "2028-02-29", 12, 29, "2029-02-28"},
		{"29 Feb 2029 does not exist: back to 29 Mar", "2029-02-28", 1, 29, "2029-03-29"},
		{"leap day anchor, four years on", "2028-02-29", 48, 29, "2032-02-29"},
		{"anchor 28 never moves", "2027-01-28", 1, 28, "2027-02-28"},
		{"anchor 28 in March", "2027-02-28", 1, 28, "2027-03-28"},
		{"anchor 30 back in March", "2027-02-28", 1, 30, "2027-03-30"},
		{"anchor 29 in a common February", "2027-01-29", 1, 29, "2027-02-28"},
		{"quarterly from 30 November", "2026-11-30", 3, 30, "2027-02-28"},
		{"quarterly back to the 30th", "2027-02-28", 3, 30, "2027-05-30"},
		{"semiannually from 31 August", "2027-08-31", 6, 31, "2028-02-29"},
		{"annually from a leap day", "2028-02-29", 12, 29, "2029-02-28"},
		{"across the year end", "2026-12-31", 2, 31, "2027-02-28"},
		{"a mid-month day", "2027-01-15", 1, 15, "2027-02-15"},
		{"counting back: the month before 31 March", "2027-03-31", -1, 31, "2027-02-28"},
		{"counting back: the month before 28 Feb, anchored on the 31st", "2027-02-28", -1, 31, "2027-01-31"},
		{"counting back over a year end", "2027-01-31", -2, 31, "2026-11-30"},
		{"no anchor: the date's own day", "2027-01-31", 1, 0, "2027-02-28"},
		{"the time of day is kept", "2027-01-31T23:59:59Z", 1, 31, "2027-02-28T23:59:59Z"},
		{"midnight is kept", "2027-01-31T00:00:00Z", 1, 31, "2027-02-28T00:00:00Z"},
		{"another zone counts at its UTC day (00:30 Berlin is 23:30 UTC the day before)", "2027-02-01T00:30:00+01:00", 1, 0, "2027-02-28T23:30:00Z"},
		{"a UTC midnight seen from New York is still that UTC day", "2027-01-30T19:00:00-05:00", 1, 0, "2027-02-28T00:00:00Z"},
	} {
		got := period.AddMonths(date(t, tc.t), tc.n, tc.anchor)
		if want := date(t, tc.want); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("%s: AddMonths(%s, %d, %d) = %s, want %s UTC", tc.name, tc.t, tc.n, tc.anchor, got.Format(time.RFC3339), want.Format(time.RFC3339))
		}
	}
}

// A line bought on the 31st keeps its anchor month after month, never drifting: the dates Stripe
// and Paddle give it.
func TestAddMonthsKeepsTheAnchorOverAYear(t *testing.T) {
	want := []string{"2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-31", "2027-08-31",
		"2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31"}
	due := date(t, "2027-01-31")
	for i, w := range want {
		due = period.AddMonths(due, 1, period.Anchor(due, date(t, "2027-01-31T10:00:00Z")))
		if got := due.Format(time.DateOnly); got != w {
			t.Fatalf("renewal %d: due %s, want %s", i+1, got, w)
		}
	}
}

func TestAnchor(t *testing.T) {
	for _, tc := range []struct {
		name            string
		due, registered string
		want            int
	}{
		{"bought on the 31st, due the last of February", "2027-02-28T10:00:00Z", "2027-01-31T10:00:00Z", 31},
		{"bought on the 30th, due the last of February", "2027-02-28T10:00:00Z", "2027-01-30T10:00:00Z", 30},
		{"bought on the 29th, due 29 February of a leap year", "2028-02-29T10:00:00Z", "2028-01-29T10:00:00Z", 29},
		{"bought on the 31st, due 30 April", "2027-04-30T10:00:00Z", "2027-01-31T10:00:00Z", 31},
		{"bought on the 28th, due the last of February", "2027-02-28T10:00:00Z", "2027-01-28T10:00:00Z", 28},
		{"due on its registration day", "2027-03-15T10:00:00Z", "2027-01-15T09:00:00Z", 15},
		{"due off its registration day (paid a day later, reactivated, moved)", "2027-03-16T10:00:00Z", "2027-01-15T09:00:00Z", 16},
		{"registered on the 30th, due on the 31st (moved): the due day", "2027-03-31T10:00:00Z", "2027-01-30T10:00:00Z", 31},
		{"no registration known", "2027-02-28T10:00:00Z", "", 28},
		{"registration at 23:30 Berlin is the UTC day before", "2027-02-28T10:00:00Z", "2027-02-01T00:30:00+01:00", 31},
	} {
		var reg time.Time
		if tc.registered != "" {
			reg = date(t, tc.registered)
		}
		if got := period.Anchor(date(t, tc.due), reg); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestDaysIn(t *testing.T) {
	for _, tc := range []struct {
		year  int
		month time.Month
		want  int
	}{{2027, time.February, 28}, {2028, time.February, 29}, {2100, time.February, 28}, {2000, time.February, 29},
		{2027, time.April, 30}, {2027, time.December, 31}} {
		if got := period.DaysIn(tc.year, tc.month); got != tc.want {
			t.Errorf("%d-%02d: %d days, want %d", tc.year, tc.month, got, tc.want)
		}
	}
}

func TestDays(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     int
	}{
		{"2027-01-31", "2027-02-28", 28},
		{"2027-02-28", "2027-03-31", 31},
		{"2028-01-31", "2028-02-29", 29},
		{"2027-01-31T23:59:00Z", "2027-02-28T00:01:00Z", 28},
		{"2027-03-27T12:00:00Z", "2027-03-29T12:00:00Z", 2},
		{"2027-03-01", "2027-02-01", -28},
	} {
		if got := period.Days(date(t, tc.from), date(t, tc.to)); got != tc.want {
			t.Errorf("%s → %s: %d days, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}
