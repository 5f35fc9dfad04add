package sessioncache_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/sessioncache"
)

// fakeStore is the sessions table of one database shared by replicas: reads are counted, and
// during can run something in the middle of a read (a poll racing it).
type fakeStore struct {
	account.Store // unused methods
	mu            sync.Mutex
	sessions      map[string]account.Session
	reads         int
	during        func()
	failPoll      error
}

func (f *fakeStore) Session(_ context.Context, id string) (account.Session, error) {
	f.mu.Lock()
	f.reads++
	s, ok := f.sessions[id]
	during := f.during
	f.during = nil
	f.mu.Unlock()
	if during != nil {
		during()
	}
	if !ok {
		return account.Session{}, errors.New("not found")
	}
	return s, nil
}

func (f *fakeStore) RevokeSession(_ context.Context, id string, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	s.RevokedAt = at
	f.sessions[id] = s
	return nil
}

func (f *fakeStore) RevokedSince(_ context.Context, since time.Time) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failPoll != nil {
		return nil, f.failPoll
	}
	var ids []string
	for id, s := range f.sessions {
		if !s.RevokedAt.IsZero() && !s.RevokedAt.Before(since) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func (f *fakeStore) readCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// setup is one database with the sessions valid (ses_a), expiring soon (ses_short) and already
// signed out (ses_gone), and two replicas' caches over it.
func setup() (*fakeStore, *clock, *sessioncache.Cache, *sessioncache.Cache) {
	clk := &clock{now: t0}
	st := &fakeStore{sessions: map[string]account.Session{
		"ses_a":     {ID: "ses_a", ClientID: 1, ExpiresAt: t0.Add(account.SessionTTL)},
		"ses_short": {ID: "ses_short", ClientID: 1, ExpiresAt: t0.Add(10 * time.Second)},
		"ses_gone":  {ID: "ses_gone", ClientID: 1, ExpiresAt: t0.Add(account.SessionTTL), RevokedAt: t0.Add(-time.Hour)},
	}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return st, clk, sessioncache.New(st, log, sessioncache.WithClock(clk.Now)), sessioncache.New(st, log, sessioncache.WithClock(clk.Now))
}

func read(t *testing.T, c *sessioncache.Cache, id string) account.Session {
	t.Helper()
	s, err := c.Session(t.Context(), id)
	if err != nil {
		t.Fatalf("Session(%s): %v", id, err)
	}
	return s
}

func TestValidSessionIsReadOnce(t *testing.T) {
	st, _, one, _ := setup()
	for range 5 {
		if s := read(t, one, "ses_a"); s.ClientID != 1 || !s.RevokedAt.IsZero() {
			t.Fatalf("session = %+v", s)
		}
	}
	if n := st.readCount(); n != 1 {
		t.Fatalf("database reads for five checks = %d, want 1", n)
	}
}

func TestRevokedAndUnknownSessionsAreNotCached(t *testing.T) {
	st, _, one, _ := setup()
	for range 3 {
		if s := read(t, one, "ses_gone"); s.RevokedAt.IsZero() {
			t.Fatalf("signed-out session answered as valid: %+v", s)
		}
		if _, err := one.Session(t.Context(), "ses_unknown"); err == nil {
			t.Fatal("unknown session answered")
		}
	}
	if n := st.readCount(); n != 6 {
		t.Fatalf("database reads = %d, want 6 (nothing cached)", n)
	}
}

func TestSignOutReachesTheOtherReplicaAtItsNextPoll(t *testing.T) {
	_, clk, one, two := setup()
	read(t, one, "ses_a")
	read(t, two, "ses_a")
	if err := one.RevokeSession(t.Context(), "ses_a", clk.Now()); err != nil {
		t.Fatal(err)
	}
	if s := read(t, one, "ses_a"); s.RevokedAt.IsZero() {
		t.Fatal("the replica that signed out still answers the session as valid")
	}
	clk.Advance(sessioncache.Poll)
	if err := two.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := read(t, two, "ses_a"); s.RevokedAt.IsZero() {
		t.Fatal("the other replica answers a signed-out session as valid after its poll")
	}
}

func TestSignOutStampedByASlowClockIsSeen(t *testing.T) {
	_, clk, one, two := setup()
	read(t, two, "ses_a")
	// The replica that signs out runs a minute behind.
	if err := one.RevokeSession(t.Context(), "ses_a", clk.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := two.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := read(t, two, "ses_a"); s.RevokedAt.IsZero() {
		t.Fatal("a sign-out stamped a minute back was missed")
	}
}

func TestReadRacingAPollIsNotCached(t *testing.T) {
	st, _, one, _ := setup()
	// A poll runs while the session is read: it may have missed a sign-out the read missed too.
	st.during = func() {
		if err := one.Sync(context.Background()); err != nil {
			t.Error(err)
		}
	}
	read(t, one, "ses_a")
	read(t, one, "ses_a")
	if n := st.readCount(); n != 2 {
		t.Fatalf("database reads = %d, want 2 (the read racing a poll is not cached)", n)
	}
}

func TestEntriesAreReadAgainAfterTTLOrExpiry(t *testing.T) {
	st, clk, one, _ := setup()
	read(t, one, "ses_a")
	read(t, one, "ses_short")
	clk.Advance(11 * time.Second) // past ses_short's expiry, within TTL
	read(t, one, "ses_a")
	if _, err := one.Session(t.Context(), "ses_short"); err != nil {
		t.Fatal(err)
	}
	if n := st.readCount(); n != 3 {
		t.Fatalf("database reads = %d, want 3 (only the expired session read again)", n)
	}
	clk.Advance(sessioncache.TTL)
	read(t, one, "ses_a")
	if n := st.readCount(); n != 4 {
		t.Fatalf("database reads = %d, want 4 (the entry read again after TTL)", n)
	}
}

func TestFailedPollEmptiesTheCache(t *testing.T) {
	st, _, one, _ := setup()
	read(t, one, "ses_a")
	st.failPoll = errors.New("database down")
	if err := one.Sync(t.Context()); err == nil {
		t.Fatal("Sync hid a failed read of the sign-outs")
	}
	read(t, one, "ses_a")
	if n := st.readCount(); n != 2 {
		t.Fatalf("database reads = %d, want 2 (emptied after a failed poll)", n)
	}
}
