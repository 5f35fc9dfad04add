// Package sessioncache keeps the sessions a replica has found valid in memory, so checking a
// token on every authenticated call costs no database read. Sign-outs still live in the
// database: the replica that signs a session out drops it at once, every other replica within
// one poll (Poll), and no entry is trusted for longer than TTL whatever the clocks say.
package sessioncache

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/account"
)

const (
	// Poll is how often the recent sign-outs are read: how long another replica may still
	// accept a token after its session was signed out.
	Poll = time.Second
	// TTL bounds how long an entry is used before the session is read again, so a sign-out
	// whose time the poll missed (clocks of replicas apart by more than Window) lasts no longer.
	TTL = time.Minute
	// Window is how far back each poll looks: sign-outs are stamped with the clock of the
	// replica that made them, which may run behind this one.
	Window = 2 * time.Minute
	// maxEntries bounds memory; when full, the cache starts again empty (one read per session).
	maxEntries = 100_000
)

// Store is the account store whose sessions are cached, plus the sign-outs since a time.
type Store interface {
	account.Store
	RevokedSince(ctx context.Context, since time.Time) ([]string, error)
}

// Cache is an account.Store whose Session answers valid sessions from memory.
type Cache struct {
	Store
	now func() time.Time
	log *slog.Logger

	mu      sync.RWMutex
	entries map[string]entry
	// polls counts the polls begun: a session read while one ran is not cached, since that
	// poll may have missed a sign-out the read did not see either.
	polls uint64
}

type entry struct {
	session account.Session
	until   time.Time
}

// Option changes a Cache made by New.
type Option func(*Cache)

// WithClock makes the cache read the time from now (tests).
func WithClock(now func() time.Time) Option { return func(c *Cache) { c.now = now } }

// New wraps st; Run must be running for sign-outs made elsewhere to reach it.
func New(st Store, log *slog.Logger, opts ...Option) *Cache {
	c := &Cache{Store: st, now: time.Now, log: log, entries: map[string]entry{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Session answers a cached valid session, else reads it and caches it if valid.
func (c *Cache) Session(ctx context.Context, id string) (account.Session, error) {
	now := c.now()
	c.mu.RLock()
	e, ok := c.entries[id]
	polls := c.polls
	c.mu.RUnlock()
	if ok && now.Before(e.until) {
		return e.session, nil
	}
	s, err := c.Store.Session(ctx, id)
	if err != nil || !s.RevokedAt.IsZero() || !now.Before(s.ExpiresAt) {
		return s, err
	}
	c.mu.Lock()
	if c.polls == polls {
		if len(c.entries) >= maxEntries {
			c.entries = map[string]entry{}
		}
		until := now.Add(TTL)
		if s.ExpiresAt.Before(until) {
			until = s.ExpiresAt
		}
		c.entries[id] = entry{session: s, until: until}
	}
	c.mu.Unlock()
	return s, nil
}

// RevokeSession signs a session out and drops it here at once.
func (c *Cache) RevokeSession(ctx context.Context, id string, at time.Time) error {
	err := c.Store.RevokeSession(ctx, id, at)
	c.forget([]string{id})
	return err
}

// RevokeClientSessions signs a client's other sessions out and drops them here at once.
func (c *Cache) RevokeClientSessions(ctx context.Context, clientID int64, keep string, at time.Time) ([]string, error) {
	ids, err := c.Store.RevokeClientSessions(ctx, clientID, keep, at)
	c.forget(ids)
	return ids, err
}

func (c *Cache) forget(ids []string) {
	c.mu.Lock()
	for _, id := range ids {
		delete(c.entries, id)
	}
	c.mu.Unlock()
}

// Run reads the recent sign-outs every Poll and drops them, until ctx ends.
func (c *Cache) Run(ctx context.Context) {
	tick := time.NewTicker(Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := c.Sync(ctx); err != nil && ctx.Err() == nil {
			// Nothing is cached while sign-outs cannot be read: every check goes to the database.
			c.log.Warn("reading sign-outs failed; session cache emptied", "err", err)
		}
	}
}

// Sync drops the sessions signed out within Window. On failure it empties the cache.
func (c *Cache) Sync(ctx context.Context) error {
	c.mu.Lock()
	c.polls++
	c.mu.Unlock()
	ids, err := c.Store.RevokedSince(ctx, c.now().Add(-Window))
	if err != nil {
		c.mu.Lock()
		c.entries = map[string]entry{}
		c.mu.Unlock()
		return err
	}
	c.forget(ids)
	return nil
}
