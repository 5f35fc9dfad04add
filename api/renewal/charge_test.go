package renewal_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/renewal"
)

// The attempt points count whole days from the start of the due day (UTC): the due day, then 1,
// 3 and 5 days after; before the due day there is none, and after the last it stays the last.
func TestChargeAttempt(t *testing.T) {
	due := time.Date(2026, 12, 24, 15, 30, 0, 0, time.UTC)
	day := time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		now  time.Time
		want int
	}{
		{day.Add(-time.Second), 0},
		{day, 1},
		{due.Add(time.Hour), 1},
		{day.AddDate(0, 0, 1), 2},
		{day.AddDate(0, 0, 3).Add(-time.Second), 2},
		{day.AddDate(0, 0, 3), 3},
		{day.AddDate(0, 0, 5), 4},
		{day.AddDate(0, 1, 0), 4},
	}
	for _, tc := range cases {
		if got := renewal.ChargeAttempt(due, tc.now); got != tc.want {
			t.Errorf("ChargeAttempt(%s, %s) = %d, want %d", due, tc.now, got, tc.want)
		}
	}
	// A due date given in another zone is the same instant.
	if got := renewal.ChargeAttempt(due.In(time.FixedZone("UTC+10", 10*3600)), day); got != 1 {
		t.Errorf("due in another zone: %d, want 1", got)
	}
}
