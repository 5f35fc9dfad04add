package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/store"
)

func TestResellerCredits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		now := time.Now().UTC()
		ok := concurrently(8, func() error {
			_, err := s.CreditReseller(t.Context(), "ord_a", "r@example.com", "", 100, now)
			return err
		})
		if ok != 8 {
			t.Fatalf("%d of 8 credits answered without error", ok)
		}
		a, err := s.CreditReseller(t.Context(), "ord_b", "r@example.com", "", 500, now)
		if err != nil || a.Credits != 600 {
			t.Fatalf("account %+v %v, want 600 credits", a, err)
		}
		if _, err := s.ResellerAccount(t.Context(), "none@example.com"); !errors.Is(err, reseller.ErrNotFound) {
			t.Fatalf("unknown account: %v", err)
		}
	})
}

// A refunded reseller order's credits come off its account once, however many refunds race; two
// orders' take-backs at once both count, and the other orders' credits stay.
func TestTakeBackResellerCredit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx, now := t.Context(), time.Now().UTC()
		for _, c := range []struct {
			ref     string
			credits int
		}{{"ord_a", 100}, {"ord_b", 500}, {"ord_c", 50}} {
			if _, err := s.CreditReseller(ctx, c.ref, "r@example.com", "", c.credits, now); err != nil {
				t.Fatal(err)
			}
		}
		if _, moved, err := s.TakeBackResellerCredit(ctx, "ord_never_credited", now); err != nil || moved {
			t.Fatalf("nothing credited: moved %v %v", moved, err)
		}
		var mu sync.Mutex
		moves := map[string]int{}
		taken := 0
		var wg sync.WaitGroup
		for i := range 40 {
			ref := []string{"ord_a", "ord_b"}[i%2]
			wg.Go(func() {
				n, moved, err := s.TakeBackResellerCredit(ctx, ref, now)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if moved {
					moves[ref]++
					taken += n
				}
			})
		}
		wg.Wait()
		if moves["ord_a"] != 1 || moves["ord_b"] != 1 || taken != 600 {
			t.Fatalf("take-backs %v taking %d credits, want one each, 600", moves, taken)
		}
		if a, err := s.ResellerAccount(ctx, "r@example.com"); err != nil || a.Credits != 50 {
			t.Fatalf("account %+v %v, want the 50 of ord_c left", a, err)
		}
		// A later order's credits, taken back in turn: the account is at zero, never below.
		if _, err := s.CreditReseller(ctx, "ord_d", "r@example.com", "", 80, now); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.TakeBackResellerCredit(ctx, "ord_c", now); err != nil {
			t.Fatal(err)
		}
		n, moved, err := s.TakeBackResellerCredit(ctx, "ord_d", now)
		if a, _ := s.ResellerAccount(ctx, "r@example.com"); err != nil || !moved || n != 80 || a.Credits != 0 {
			t.Fatalf("ord_d: took %d moved %v %v, balance %d; want 80 taken, 0 left", n, moved, err, a.Credits)
		}
	})
}
