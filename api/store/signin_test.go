package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/store"
)

func TestSigninLinkSingleUse(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c := buyer(t, s, "link@example.com")
		now := time.Now().UTC()
		if err := s.InsertSigninLink(t.Context(), "hash-1", c.ClientID, now, now.Add(15*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.InsertSigninLink(t.Context(), "hash-old", c.ClientID, now.Add(-time.Hour), now.Add(-45*time.Minute)); err != nil {
			t.Fatal(err)
		}
		used := concurrently(10, func() error { _, err := s.UseSigninLink(t.Context(), "hash-1", now); return err })
		if used != 1 {
			t.Fatalf("%d concurrent uses succeeded, want 1", used)
		}
		for _, h := range []string{"hash-1", "hash-old", "hash-unknown"} {
			if _, err := s.UseSigninLink(t.Context(), h, now); !errors.Is(err, signin.ErrNotFound) {
				t.Errorf("%s: err %v, want signin.ErrNotFound", h, err)
			}
		}
		if n, err := s.CountSigninLinks(t.Context(), c.ClientID, now.Add(-15*time.Minute)); err != nil || n != 1 {
			t.Fatalf("links in the window: %d %v, want 1", n, err)
		}
		for range 3 {
			if err := s.AddAttempt(t.Context(), "password-email", "link@example.com", now); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := s.CountAttempts(t.Context(), "password-email", "link@example.com", now.Add(-time.Minute)); n != 3 {
			t.Fatalf("attempts %d, want 3", n)
		}
		if n, _ := s.CountAttempts(t.Context(), "password-email", "link@example.com", now.Add(time.Minute)); n != 0 {
			t.Fatalf("attempts after the window %d, want 0", n)
		}
	})
}
