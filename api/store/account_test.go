package store_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/store"
)

func TestEnsureClientCreatesOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c, created, err := s.EnsureClient(t.Context(), "ana@example.com", "hash-1")
		if err != nil || !created || c.ID <= 0 || c.Email != "ana@example.com" || c.PasswordHash != "hash-1" {
			t.Fatalf("first EnsureClient = %+v, %v, %v", c, created, err)
		}
		again, created, err := s.EnsureClient(t.Context(), "ana@example.com", "hash-2")
		if err != nil || created || again != c {
			t.Fatalf("second EnsureClient = %+v, %v, %v; want %+v unchanged (hash kept)", again, created, err, c)
		}
		other, created, err := s.EnsureClient(t.Context(), "bo@example.com", "")
		if err != nil || !created || other.ID == c.ID {
			t.Fatalf("other client = %+v, %v, %v", other, created, err)
		}
	})
}

func TestEnsureClientConcurrentFirstSightMakesOne(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const n = 16
		var wg sync.WaitGroup
		var mu sync.Mutex
		ids := map[int64]int{}
		created := 0
		for range n {
			wg.Go(func() {
				c, isNew, err := s.EnsureClient(t.Context(), "race@example.com", "")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				ids[c.ID]++
				if isNew {
					created++
				}
			})
		}
		wg.Wait()
		if len(ids) != 1 || created != 1 {
			t.Fatalf("%d concurrent first sights: ids %v, %d created; want one client created once", n, ids, created)
		}
	})
}

func TestSessionsRoundTripAndRevoke(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c, _, err := s.EnsureClient(t.Context(), "ana@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		want := account.Session{ID: "ses_1", ClientID: c.ID, Scope: authz.ScopeProven, CreatedAt: jobT0, ExpiresAt: jobT0.Add(account.SessionTTL)}
		if err := s.CreateSession(t.Context(), want); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(t.Context(), want); err == nil {
			t.Fatal("a session id was stored twice")
		}
		got, err := s.Session(t.Context(), "ses_1")
		if err != nil || got != want {
			t.Fatalf("Session = %+v, %v; want %+v", got, err, want)
		}
		at := jobT0.Add(time.Hour)
		if err := s.RevokeSession(t.Context(), "ses_1", at); err != nil {
			t.Fatal(err)
		}
		// Signing out twice keeps the first time.
		if err := s.RevokeSession(t.Context(), "ses_1", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		got, err = s.Session(t.Context(), "ses_1")
		if err != nil || !got.RevokedAt.Equal(at) {
			t.Fatalf("revoked session = %+v, %v; want revoked at %v", got, err, at)
		}
		if _, err := s.Session(t.Context(), "ses_unknown"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Session(unknown) err = %v, want ErrNotFound", err)
		}
		if err := s.RevokeSession(t.Context(), "ses_unknown", at); err != nil {
			t.Fatalf("RevokeSession(unknown) = %v, want nil", err)
		}
	})
}

func TestRevokedSince(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c, _, err := s.EnsureClient(t.Context(), "ana@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ses_old", "ses_new", "ses_kept"} {
			if err := s.CreateSession(t.Context(), account.Session{ID: id, ClientID: c.ID, Scope: authz.ScopeEmail, CreatedAt: jobT0, ExpiresAt: jobT0.Add(account.SessionTTL)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RevokeSession(t.Context(), "ses_old", jobT0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.RevokeSession(t.Context(), "ses_new", jobT0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			since time.Time
			want  []string
		}{
			{jobT0, []string{"ses_new", "ses_old"}},
			{jobT0.Add(time.Minute), []string{"ses_new", "ses_old"}},
			{jobT0.Add(time.Minute + time.Microsecond), []string{"ses_new"}},
			{jobT0.Add(2 * time.Hour), nil},
		} {
			got, err := s.RevokedSince(t.Context(), tt.since)
			slices.Sort(got)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("RevokedSince(%v) = %v, %v; want %v", tt.since, got, err, tt.want)
			}
		}
	})
}

func TestSessionNeedsAClient(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ses := account.Session{ID: "ses_orphan", ClientID: 404, Scope: authz.ScopeEmail, CreatedAt: jobT0, ExpiresAt: jobT0.Add(time.Hour)}
		if err := s.CreateSession(t.Context(), ses); err == nil {
			t.Fatal("stored a session of a client that does not exist")
		}
	})
}
