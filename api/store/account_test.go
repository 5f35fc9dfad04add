package store_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/store"
)

func TestEnsureClientCreatesOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c, created, err := s.EnsureClient(t.Context(), "ana@example.com")
		if err != nil || !created || c.ID <= 0 || c.Email != "ana@example.com" || c.PasswordHash != "" || !strings.HasPrefix(c.PublicID, "usr_") || len(c.PublicID) != 30 {
			t.Fatalf("first EnsureClient = %+v, %v, %v; want a new client without a password, with a usr_ id", c, created, err)
		}
		again, created, err := s.EnsureClient(t.Context(), "ana@example.com")
		if err != nil || created || again != c {
			t.Fatalf("second EnsureClient = %+v, %v, %v; want %+v unchanged", again, created, err, c)
		}
		other, created, err := s.EnsureClient(t.Context(), "bo@example.com")
		if err != nil || !created || other.ID == c.ID || other.PublicID == c.PublicID {
			t.Fatalf("other client = %+v, %v, %v", other, created, err)
		}
		if byID, err := s.ClientByID(t.Context(), c.ID); err != nil || byID != c {
			t.Fatalf("ClientByID = %+v, %v; want %+v", byID, err, c)
		}
		if _, err := s.ClientByEmail(t.Context(), "nobody@example.com"); !errors.Is(err, account.ErrNotFound) {
			t.Fatalf("ClientByEmail(unknown) err = %v, want account.ErrNotFound", err)
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
				c, isNew, err := s.EnsureClient(t.Context(), "race@example.com")
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
		c, _, err := s.EnsureClient(t.Context(), "ana@example.com")
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
		c, _, err := s.EnsureClient(t.Context(), "ana@example.com")
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

// TestRevokeClientSessions: a password change signs out the client's live sessions but the one
// kept, and only the client's.
func TestRevokeClientSessions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ana, _, err := s.EnsureClient(t.Context(), "ana@example.com")
		if err != nil {
			t.Fatal(err)
		}
		bo, _, err := s.EnsureClient(t.Context(), "bo@example.com")
		if err != nil {
			t.Fatal(err)
		}
		for _, ses := range []account.Session{
			{ID: "ses_keep", ClientID: ana.ID}, {ID: "ses_a1", ClientID: ana.ID}, {ID: "ses_a2", ClientID: ana.ID},
			{ID: "ses_gone", ClientID: ana.ID}, {ID: "ses_bo", ClientID: bo.ID},
		} {
			ses.Scope, ses.CreatedAt, ses.ExpiresAt = authz.ScopeEmail, jobT0, jobT0.Add(account.SessionTTL)
			if err := s.CreateSession(t.Context(), ses); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RevokeSession(t.Context(), "ses_gone", jobT0); err != nil {
			t.Fatal(err)
		}
		at := jobT0.Add(time.Hour)
		ids, err := s.RevokeClientSessions(t.Context(), ana.ID, "ses_keep", at)
		slices.Sort(ids)
		if err != nil || !slices.Equal(ids, []string{"ses_a1", "ses_a2"}) {
			t.Fatalf("RevokeClientSessions = %v, %v; want ses_a1 and ses_a2", ids, err)
		}
		for id, revoked := range map[string]time.Time{"ses_keep": {}, "ses_a1": at, "ses_a2": at, "ses_gone": jobT0, "ses_bo": {}} {
			got, err := s.Session(t.Context(), id)
			if err != nil || !got.RevokedAt.Equal(revoked) {
				t.Errorf("%s: %+v, %v; want revoked at %v", id, got, err, revoked)
			}
		}
	})
}

// TestReserveAttemptConcurrent: concurrent reservations of one key never exceed the limit, a
// refused one records nothing and names the oldest reservation, and a removed one frees its place.
func TestReserveAttemptConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const limit, tries = 5, 40
		since := jobT0.Add(-15 * time.Minute)
		var mu sync.Mutex
		var ids []int64
		var oldests []time.Time
		var wg sync.WaitGroup
		for i := range tries {
			wg.Go(func() {
				id, oldest, ok, err := s.ReserveAttempt(t.Context(), "password-email", "ana@example.com", jobT0.Add(time.Duration(i)*time.Millisecond), since, limit)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if ok {
					ids = append(ids, id)
				} else {
					oldests = append(oldests, oldest)
				}
			})
		}
		wg.Wait()
		if len(ids) != limit || len(oldests) != tries-limit {
			t.Fatalf("%d reserved, %d refused; want %d and %d", len(ids), len(oldests), limit, tries-limit)
		}
		if n, err := s.CountAttempts(t.Context(), "password-email", "ana@example.com", since); err != nil || n != limit {
			t.Fatalf("%d attempts stored (%v), want %d", n, err, limit)
		}
		for _, o := range oldests {
			if o.Before(jobT0) || o.After(jobT0.Add(tries*time.Millisecond)) {
				t.Fatalf("oldest %v, want one of the reservations' times", o)
			}
		}
		if err := s.RemoveAttempt(t.Context(), ids[0]); err != nil {
			t.Fatal(err)
		}
		if _, _, ok, err := s.ReserveAttempt(t.Context(), "password-email", "ana@example.com", jobT0, since, limit); err != nil || !ok {
			t.Fatalf("after a removal: ok %v, %v; want a place", ok, err)
		}
		// Another key, or the same key once the window has passed, has its own places.
		if _, _, ok, err := s.ReserveAttempt(t.Context(), "password-email", "bo@example.com", jobT0, since, limit); err != nil || !ok {
			t.Fatalf("another key: ok %v, %v", ok, err)
		}
		if _, _, ok, err := s.ReserveAttempt(t.Context(), "password-email", "ana@example.com", jobT0.Add(time.Hour), jobT0.Add(time.Minute), limit); err != nil || !ok {
			t.Fatalf("a later window: ok %v, %v", ok, err)
		}
	})
}
