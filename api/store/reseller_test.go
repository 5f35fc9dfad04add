package store_test

import (
	"errors"
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
