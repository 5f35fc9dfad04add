package whmcs

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// ReadFor is how long the hot reads' answers are kept (a promotion applied to a quote, a
// client's services shown): WHMCS is a PHP application each call of which costs the seller, and
// 40 quotes at once carrying one code are one GetPromotions so. A change made in WHMCS (a
// promotion used up, a suspension by its cron) shows after at most this long; a change made
// through Streamcart forgets the client's answer at once.
const ReadFor = 5 * time.Second

// memoSweep is the number of kept answers above which keeping a new one first drops the expired.
const memoSweep = 1024

// Memo keeps the answers of one read by key for a short time: callers asking for a key while its
// read runs share that one call (golang.org/x/sync/singleflight, keyed by the key's fmt.Sprint),
// and its answer is kept for the memo's time (the short expiry map, ours). A failure is not
// kept: the next caller asks again.
type Memo[K comparable, V any] struct {
	ttl    time.Duration
	now    func() time.Time
	flight singleflight.Group
	mu     sync.Mutex
	kept   map[K]memoEntry[V]
	// reading holds the token of each key's read in flight; Forget drops it, so that read's
	// answer still goes to its waiters but is not kept.
	reading map[K]uint64
	token   uint64
}

type memoEntry[V any] struct {
	v  V
	at time.Time // when its answer came
}

// NewMemo returns a memo keeping answers for ttl, by the clock now (nil: real time).
func NewMemo[K comparable, V any](ttl time.Duration, now func() time.Time) *Memo[K, V] {
	if now == nil {
		now = time.Now
	}
	return &Memo[K, V]{ttl: ttl, now: now, kept: map[K]memoEntry[V]{}, reading: map[K]uint64{}}
}

// Do answers key's read: kept from a read that ended less than the memo's time ago, the one
// running now, or read (once, however many callers wait on it). The read runs without the
// caller's cancellation (another caller may wait on it; the client's timeout bounds it); a caller
// whose context ends stops waiting.
func (m *Memo[K, V]) Do(ctx context.Context, key K, read func(context.Context) (V, error)) (V, error) {
	m.mu.Lock()
	if e, ok := m.kept[key]; ok && m.now().Sub(e.at) < m.ttl {
		m.mu.Unlock()
		return e.v, nil
	}
	m.mu.Unlock()
	rctx := context.WithoutCancel(ctx)
	ch := m.flight.DoChan(fmt.Sprint(key), func() (any, error) {
		m.mu.Lock()
		// A read that ended between this caller's look above and its flight: take its answer
		// instead of reading again.
		if e, ok := m.kept[key]; ok && m.now().Sub(e.at) < m.ttl {
			m.mu.Unlock()
			return e.v, nil
		}
		m.token++
		token := m.token
		m.reading[key] = token
		m.mu.Unlock()
		v, err := read(rctx)
		m.mu.Lock()
		if m.reading[key] == token { // not forgotten meanwhile
			delete(m.reading, key)
			if err == nil {
				if len(m.kept) >= memoSweep {
					m.sweep()
				}
				m.kept[key] = memoEntry[V]{v: v, at: m.now()}
			}
		}
		m.mu.Unlock()
		return v, err
	})
	select {
	case r := <-ch:
		v, _ := r.Val.(V)
		return v, r.Err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// Forget drops key's answer (a write through Streamcart changed it): the next Do reads again. A
// read running now still answers its waiters, but its answer is not kept.
func (m *Memo[K, V]) Forget(key K) {
	m.mu.Lock()
	delete(m.kept, key)
	delete(m.reading, key)
	m.mu.Unlock()
	m.flight.Forget(fmt.Sprint(key))
}

// sweep drops the expired answers; m.mu is held.
func (m *Memo[K, V]) sweep() {
	now := m.now()
	for k, e := range m.kept {
		if now.Sub(e.at) >= m.ttl {
			delete(m.kept, k)
		}
	}
}
