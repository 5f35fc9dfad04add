package clock_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// A real stamp reads in business time by the offset in force when it was written; a business
// time reads back to the earliest real time that had it.
func TestMovesTranslateByTheOffsetThenInForce(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	moves := clock.Moves{{At: t0, Offset: 30 * day}, {At: t0.Add(2 * day), Offset: 0}}
	tests := []struct {
		name       string
		real, want time.Time
	}{
		{"before any move", t0.Add(-time.Hour), t0.Add(-time.Hour)},
		{"at the advance", t0, t0.Add(30 * day)},
		{"a day after the advance", t0.Add(day), t0.Add(31 * day)},
		{"after the reset", t0.Add(3 * day), t0.Add(3 * day)},
	}
	for _, tc := range tests {
		if got := moves.Business(tc.real); !got.Equal(tc.want) {
			t.Errorf("%s: Business(%s) = %s, want %s", tc.name, tc.real, got, tc.want)
		}
	}
	if got := moves.Real(t0.Add(31 * day)); !got.Equal(t0.Add(day)) {
		t.Errorf("Real of a business time under the advance = %s, want %s", got, t0.Add(day))
	}
	if got := moves.Real(t0.Add(-time.Hour)); !got.Equal(t0.Add(-time.Hour)) {
		t.Errorf("Real before any move = %s", got)
	}
	if got := (clock.Moves{{At: t0, Offset: 30 * day}}).Real(t0.Add(10 * day)); !got.Equal(t0.Add(-20 * day)) {
		t.Errorf("Real of a business time skipped by the advance = %s, want the largest offset back", got)
	}
	if got := (clock.Moves(nil)).Business(t0); !got.Equal(t0) {
		t.Errorf("no moves: %s", got)
	}
}
