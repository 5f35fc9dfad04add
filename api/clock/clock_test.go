package clock_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

func TestOffsetMovesTheBaseClock(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	o := clock.NewOffset(func() time.Time { return t0 })
	var _ clock.Clock = o
	tests := []struct {
		set         time.Duration
		wantChanged bool
		want        time.Time
	}{
		{0, false, t0},
		{26 * 24 * time.Hour, true, t0.AddDate(0, 0, 26)},
		{26 * 24 * time.Hour, false, t0.AddDate(0, 0, 26)},
		{36 * time.Hour, true, t0.Add(36 * time.Hour)},
		{0, true, t0},
	}
	for _, tc := range tests {
		if changed := o.Set(tc.set); changed != tc.wantChanged {
			t.Errorf("Set(%s) changed = %v, want %v", tc.set, changed, tc.wantChanged)
		}
		if got := o.Now(); !got.Equal(tc.want) || o.Offset() != tc.set {
			t.Errorf("after Set(%s): Now = %s, Offset = %s; want %s", tc.set, got, o.Offset(), tc.want)
		}
	}
}

func TestOrRealDefaultsToRealTime(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if got := clock.OrReal(func() time.Time { return t0 })(); !got.Equal(t0) {
		t.Fatalf("OrReal(fixed)() = %s, want %s", got, t0)
	}
	before := time.Now()
	got := clock.OrReal(nil)()
	if got.Before(before) || got.After(time.Now()) {
		t.Fatalf("OrReal(nil)() = %s, want real time (%s or a little later)", got, before)
	}
}
