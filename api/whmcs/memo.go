package whmcs

import (
	"context"
	"sync"
	"time"
)

// ReadFor is how long the hot reads' answers are kept (a promotion applied to a quote, a
// client's services shown): WHMCS is a PHP application each call of which costs the seller, and
// 40 quotes at once carrying one code are one GetPromotions so. A change made in WHMCS (a
// promotion used up, a suspension by its cron) shows after at most this long; a change made
// through Streamcart forgets the client's answer at once.
const ReadFor = 5 * time.Second

// memoSweep is the number of keys above which a new entry first drops the expired ones.
const memoSweep = 1024

// Memo keeps the answers of one read by key for a short time: callers asking for a key while
// its read runs share that one call (as golang.org/x/sync/singleflight), and its answer is kept
// for the memo's time. A failure is not kept: the next caller asks again.
type Memo[K comparable, V any] struct {
	ttl     time.Duration
	now     func() time.Time
	mu      sync.Mutex
	entries map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	done chan struct{}
	v    V
	err  error
	at   time.Time // when its answer came
}

// NewMemo returns a memo keeping answers for ttl, by the clock now (nil: real time).
func NewMemo[K comparable, V any](ttl time.Duration, now func() time.Time) *Memo[K, V] {
	if now == nil {
		now = time.Now
	}
	return &Memo[K, V]{ttl: ttl, now: now, entries: map[K]*memoEntry[V]{}}
}

// Do answers key's read: kept from a read that ended less than the memo's time ago, the one
// running now, or read (once, however many callers wait on it). The read runs without the
// caller's cancellation (another caller may wait on it; the client's timeout bounds it); a caller
// whose context ends stops waiting.
func (m *Memo[K, V]) Do(ctx context.Context, key K, read func(context.Context) (V, error)) (V, error) {
	m.mu.Lock()
	e, ok := m.entries[key]
	if ok && !e.at.IsZero() && m.now().Sub(e.at) >= m.ttl {
		ok = false // expired
	}
	if !ok {
		if len(m.entries) >= memoSweep {
			m.sweep()
		}
		e = &memoEntry[V]{done: make(chan struct{})}
		m.entries[key] = e
		m.mu.Unlock()
		e.v, e.err = read(context.WithoutCancel(ctx))
		m.mu.Lock()
		if m.entries[key] == e { // not forgotten meanwhile
			if e.err != nil {
				delete(m.entries, key)
			} else {
				e.at = m.now()
			}
		}
		m.mu.Unlock()
		close(e.done)
		return e.v, e.err
	}
	m.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// Forget drops key's answer (a write through Streamcart changed it): the next Do reads again. A
// read running now still answers its waiters, but its answer is not kept.
func (m *Memo[K, V]) Forget(key K) {
	m.mu.Lock()
	delete(m.entries, key)
	m.mu.Unlock()
}

// sweep drops the expired entries; m.mu is held.
func (m *Memo[K, V]) sweep() {
	now := m.now()
	for k, e := range m.entries {
		if !e.at.IsZero() && now.Sub(e.at) >= m.ttl {
			delete(m.entries, k)
		}
	}
}
