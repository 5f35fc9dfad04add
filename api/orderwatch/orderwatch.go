// Package orderwatch tells each open order stream (GET /orders/{id}/events) when its order may
// have changed. One listener per process — the store's ListenOrders: PostgreSQL's LISTEN/NOTIFY,
// which hears a change committed on any replica, or SQLite's commit counter — is fanned out to
// the streams watching each order, and a slow safety tick compares the versions of every watched
// order (one query), so a notification lost while the listener reconnects cannot hang a stream.
// The listener runs only while some stream watches.
package orderwatch

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Source is where changes are heard and versions read: the store (migration 0028's version).
type Source interface {
	// ListenOrders calls changed with an order's id when that order changed, or with "" when
	// any may have, until ctx ends (nil) or the database fails (the error).
	ListenOrders(ctx context.Context, changed func(orderID string)) error
	// OrderVersions reads the version of each existing order of ids.
	OrderVersions(ctx context.Context, ids []string) (map[string]int64, error)
}

// DefaultSafetyTick is how often every watched order's version is read even without a
// notification.
const DefaultSafetyTick = 5 * time.Second

// Hub fans the one listener out to the watches. Its zero value is not usable: New makes one.
type Hub struct {
	src  Source
	log  *slog.Logger
	tick time.Duration

	mu       sync.Mutex
	watches  map[string]map[*Watch]struct{}
	versions map[string]int64 // per watched order, the version the last check read
	stop     context.CancelFunc
	running  sync.WaitGroup
	closed   bool
}

// New returns a hub reading src; safetyTick 0 is DefaultSafetyTick; log nil is slog's default.
func New(src Source, safetyTick time.Duration, log *slog.Logger) *Hub {
	if safetyTick <= 0 {
		safetyTick = DefaultSafetyTick
	}
	if log == nil {
		log = slog.Default()
	}
	return &Hub{src: src, log: log, tick: safetyTick, watches: map[string]map[*Watch]struct{}{}, versions: map[string]int64{}}
}

// Watch is one stream's interest in one order.
type Watch struct {
	// C receives when the order may have changed (a buffered signal: many changes before the
	// stream reads give one receive; the stream reads the order again).
	C     <-chan struct{}
	c     chan struct{}
	order string
	hub   *Hub
	once  sync.Once
}

// Watch starts watching orderID; Close ends it. The first watch starts the listener. A watch
// starts signalled: whatever changed between the stream's first read and the watch is read again.
func (h *Hub) Watch(orderID string) *Watch {
	c := make(chan struct{}, 1)
	c <- struct{}{}
	w := &Watch{C: c, c: c, order: orderID, hub: h}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return w // never signalled: the stream still ends on its own terms
	}
	set := h.watches[orderID]
	if set == nil {
		set = map[*Watch]struct{}{}
		h.watches[orderID] = set
	}
	set[w] = struct{}{}
	if h.stop == nil {
		h.start()
	}
	return w
}

// Close ends the watch; the last one stops the listener.
func (w *Watch) Close() {
	w.once.Do(func() {
		h := w.hub
		h.mu.Lock()
		defer h.mu.Unlock()
		set := h.watches[w.order]
		delete(set, w)
		if len(set) == 0 {
			delete(h.watches, w.order)
			delete(h.versions, w.order)
		}
		if len(h.watches) == 0 && h.stop != nil {
			h.stop()
			h.stop = nil
		}
	})
}

// Watching is how many watches are open (for tests and metrics).
func (h *Hub) Watching() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, set := range h.watches {
		n += len(set)
	}
	return n
}

// Close stops the listener; watches already open are no longer signalled.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	if h.stop != nil {
		h.stop()
		h.stop = nil
	}
	h.mu.Unlock()
	h.running.Wait()
}

// start runs the listener and the checker until stop; h.mu is held.
func (h *Hub) start() {
	ctx, stop := context.WithCancel(context.Background())
	h.stop = stop
	checkAll := make(chan struct{}, 1) // "some order may have changed", for this run's checker
	h.running.Add(2)
	go func() {
		defer h.running.Done()
		h.listen(ctx, checkAll)
	}()
	go func() {
		defer h.running.Done()
		h.check(ctx, checkAll)
	}()
}

// listen runs the source's listener, again after each failure (a second, doubling to 30 s);
// the checker reads every version after a failure, for what the listener missed meanwhile.
func (h *Hub) listen(ctx context.Context, checkAll chan struct{}) {
	wait := time.Second
	for {
		err := h.src.ListenOrders(ctx, func(id string) { h.changed(id, checkAll) })
		if ctx.Err() != nil {
			return
		}
		h.log.Warn("order changes: listener stopped; the streams' safety tick reads until it is back", "err", err, "retry", wait)
		signal(checkAll)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// changed signals the watches of id, or asks the checker to read every version ("").
func (h *Hub) changed(id string, checkAll chan struct{}) {
	if id == "" {
		signal(checkAll)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for w := range h.watches[id] {
		signal(w.c)
	}
}

// check reads the versions of every watched order when asked and every safety tick, and
// signals the watches of each order whose version moved since the previous read (or was not
// read yet: a change may have come between the stream's own read and this one).
func (h *Hub) check(ctx context.Context, checkAll chan struct{}) {
	tick := time.NewTicker(h.tick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-checkAll:
		}
		h.mu.Lock()
		ids := make([]string, 0, len(h.watches))
		for id := range h.watches {
			ids = append(ids, id)
		}
		h.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		versions, err := h.src.OrderVersions(ctx, ids)
		if err != nil {
			if ctx.Err() == nil {
				h.log.Warn("order changes: versions unreadable", "err", err)
			}
			continue
		}
		h.mu.Lock()
		for _, id := range ids {
			v, ok := versions[id]
			set := h.watches[id]
			if !ok || set == nil {
				continue
			}
			if prev, seen := h.versions[id]; seen && prev == v {
				continue
			}
			h.versions[id] = v
			for w := range set {
				signal(w.c)
			}
		}
		h.mu.Unlock()
	}
}

// signal leaves one wake-up in c unless one is already waiting.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
