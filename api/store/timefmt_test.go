package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// fmtTime writes what time.Format writes with timeFormat, for any instant in any zone, and ""
// for the zero time.
func TestFmtTimeAsFormat(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		berlin = time.FixedZone("CET", 3600)
	}
	cases := []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 11, 29, 4, 5, 6, 7000, berlin), time.Date(999, 3, 4, 5, 6, 7, 123456789, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 29, 1, 59, 59, 999999000, berlin),
	}
	r := rand.New(rand.NewPCG(24, 4))
	for range 10000 {
		cases = append(cases, time.Unix(r.Int64N(400*365*86400)-100*365*86400, r.Int64N(1e9)).In(berlin))
	}
	for _, c := range cases {
		if got, want := fmtTime(c), c.UTC().Format(timeFormat); got != want {
			t.Fatalf("fmtTime(%v) = %q, want %q", c, got, want)
		}
	}
	if got := fmtTime(time.Time{}); got != "" {
		t.Fatalf("fmtTime(zero) = %q", got)
	}
}
