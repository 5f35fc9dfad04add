package store_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
)

// An attempt is reserved once; a pending one older than the stale mark is taken over by exactly
// one of many sweeps at once, and a finished one never again.
func TestReserveChargeTakesOverAStalePendingAttempt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		t0 := time.Date(2026, 11, 24, 0, 5, 0, 0, time.UTC)
		first := renewal.Attempt{OrderID: "ord_crash", N: 1, At: t0, Outcome: "pending"}
		reserve := func(at, stale time.Time) bool {
			t.Helper()
			a := first
			a.At = at
			ok, err := s.ReserveCharge(ctx, a, stale)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !reserve(t0, t0.Add(-10*time.Minute)) {
			t.Fatal("first reservation refused")
		}
		if reserve(t0.Add(time.Minute), t0.Add(-9*time.Minute)) {
			t.Fatal("a pending attempt of a minute ago was taken over")
		}
		// Its process stopped: fifteen minutes later, forty sweeps at once, one takes it over.
		later := t0.Add(15 * time.Minute)
		var won atomic.Int32
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				a := first
				a.At = later
				ok, err := s.ReserveCharge(ctx, a, later.Add(-10*time.Minute))
				if err != nil {
					t.Error(err)
				}
				if ok {
					won.Add(1)
				}
			})
		}
		wg.Wait()
		if n := won.Load(); n != 1 {
			t.Fatalf("%d sweeps took over the stale attempt, want 1", n)
		}
		done := first
		done.Outcome = renewal.ChargeDeclined
		if err := s.FinishCharge(ctx, done); err != nil {
			t.Fatal(err)
		}
		if reserve(later.Add(time.Hour), later.Add(time.Hour)) {
			t.Fatal("a finished attempt was reserved again")
		}
	})
}
