package httpapi

import (
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// DeadlineTick is how late CoarseDeadlines may enforce a far deadline.
const DeadlineTick = 250 * time.Millisecond

// CoarseDeadlines wraps a TCP listener so that its connections' far deadlines cost a field write
// instead of a runtime timer. net/http sets four deadlines per keep-alive request (its
// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout, seconds to minutes away), each a
// timer change under the poller's lock: 4 % of the CPU of a product-list request, none of them
// ever due in a healthy exchange. Here a deadline at least two ticks away is only noted; a
// watchdog looks at the noted deadlines every tick and puts a due one on the socket itself, so
// the blocked read or write fails exactly as with the deadline set directly (a timeout error,
// os.ErrDeadlineExceeded), at most one tick late and never early. A deadline nearer than two
// ticks, in the past (net/http's way of cancelling a read) or cleared goes to the socket at once;
// a past read deadline only when a read is on the socket (else the next read fails on it here).
// Writes are the socket's own (sendfile included); reads too, after the checks above.
//
// The one-byte read net/http starts beside every handler (to notice a client that goes away
// meanwhile) is held here rather than put on the socket: nearly all of them are cancelled a few
// microseconds later, when the answer is done, and each cancel on the socket is two deadline
// changes under the poller's lock (~2 % of a product-list request's instructions). A read still
// held at the watchdog's second check goes to the socket, so a client gone mid-request is noticed
// at most two ticks late. Only a one-byte read without a deadline is held: on a server with its
// timeouts set, every other read of net/http's carries one.
func CoarseDeadlines(ln net.Listener, tick time.Duration) net.Listener {
	w := newWatchdog(time.Now, 2*tick)
	l := &coarseListener{Listener: ln, w: w, stop: make(chan struct{})}
	startKeepingDate(time.Now())
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		defer stopKeepingDate()
		stop := l.stop
		for {
			select {
			case now := <-t.C:
				keepDate(now) // the answers' Date field (date.go)
				// After the listener closes, until its last connection does (a graceful
				// shutdown's requests keep their deadlines).
				if w.check(now) == 0 && stop == nil {
					return
				}
			case <-stop:
				stop = nil
			}
		}
	}()
	return l
}

// watchdog holds the connections whose far deadlines it enforces.
type watchdog struct {
	now   func() time.Time
	near  time.Duration // deadlines nearer than this go to the socket at once
	mu    sync.Mutex
	conns map[*coarseConn]struct{}
	// seen is the time of the watchdog's last check (or of its start): a clock reading no
	// later than now, and no more than a tick earlier while the watchdog keeps its ticks. A
	// deadline before it is past; one clearSlack or more after it is far without reading the
	// clock (each reading was 1–2 % of a product-list request's CPU on a VM, five a request).
	seen atomic.Pointer[time.Time]
}

// clearSlack is how far beyond near, counted from the watchdog's last check, a deadline is far
// without reading the clock: the watchdog would have to miss twenty ticks in a row for a
// deadline noted this way to be nearer than near. net/http's deadlines (seconds to minutes away)
// all are.
const clearSlack = 5 * time.Second

func newWatchdog(now func() time.Time, near time.Duration) *watchdog {
	w := &watchdog{now: now, near: near, conns: map[*coarseConn]struct{}{}}
	start := now()
	w.seen.Store(&start)
	return w
}

// check puts every noted deadline due at now on its socket and answers the connections open.
func (w *watchdog) check(now time.Time) int {
	if seen := w.seen.Load(); now.After(*seen) {
		w.seen.Store(&now)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.conns {
		c.expire(now)
		c.holdCheck()
	}
	return len(w.conns)
}

func (w *watchdog) wrap(tc *net.TCPConn) *coarseConn {
	c := &coarseConn{TCPConn: tc, w: w, wake: make(chan struct{}, 1)}
	w.mu.Lock()
	w.conns[c] = struct{}{}
	w.mu.Unlock()
	return c
}

type coarseListener struct {
	net.Listener
	w        *watchdog
	stop     chan struct{}
	stopOnce sync.Once
}

func (l *coarseListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c, nil
	}
	return l.w.wrap(tc), nil
}

// Close closes the listener; the watchdog stops once the last connection accepted is closed.
func (l *coarseListener) Close() error {
	l.stopOnce.Do(func() { close(l.stop) })
	return l.Listener.Close()
}

// coarseConn is a TCP connection whose far deadlines the watchdog enforces.
type coarseConn struct {
	*net.TCPConn
	w *watchdog

	mu     sync.Mutex
	rd, wd time.Time // far deadlines noted, not on the socket; zero: none
	// rSet, wSet: the socket carries a deadline in that direction (near, past or due).
	rSet, wSet bool

	// rPast: the read deadline is past, kept here instead of on the socket while no read is on
	// it (net/http's cancel of its background read): a read started later fails at once.
	rPast atomic.Bool
	// reading counts the reads on the socket now: a past deadline must reach those.
	reading atomic.Int32
	// held: a one-byte read waits on wake, not on the socket; heldSeen: the watchdog has seen
	// it held once (at its next check the read goes to the socket).
	held, heldSeen, closed bool
	wake                   chan struct{} // capacity 1: one send per hold
}

// Read is the socket's, but for net/http's background read (one byte), which is held first.
func (c *coarseConn) Read(p []byte) (int, error) {
	if len(p) == 1 && c.hold() {
		return 0, os.ErrDeadlineExceeded
	}
	// Counted before rPast is looked at, as set stores rPast before counting the reads: either
	// this read sees the deadline or set puts it on the socket.
	c.reading.Add(1)
	defer c.reading.Add(-1)
	if c.rPast.Load() {
		return 0, os.ErrDeadlineExceeded
	}
	return c.TCPConn.Read(p)
}

// WriteTo reads the socket too (io.Copy from the connection): it honours a kept past deadline.
func (c *coarseConn) WriteTo(w io.Writer) (int64, error) {
	c.reading.Add(1)
	defer c.reading.Add(-1)
	if c.rPast.Load() {
		return 0, os.ErrDeadlineExceeded
	}
	return c.TCPConn.WriteTo(w)
}

// hold keeps a read off the socket until a deadline is set, the connection closes or the
// watchdog's second check; it reports whether the read's deadline passed meanwhile. A read with
// a deadline of its own, or beside another held one, is not held.
func (c *coarseConn) hold() (timedOut bool) {
	c.mu.Lock()
	if c.rPast.Load() {
		c.mu.Unlock()
		return true
	}
	if c.held || c.closed || c.rSet || !c.rd.IsZero() {
		c.mu.Unlock()
		return false
	}
	c.held, c.heldSeen = true, false
	c.mu.Unlock()
	<-c.wake
	return c.rPast.Load()
}

// release lets a held read go on (c.mu held).
func (c *coarseConn) release() {
	if c.held {
		c.held = false
		c.wake <- struct{}{}
	}
}

// holdCheck is the watchdog's look at a held read: seen once, it goes to the socket at the next.
func (c *coarseConn) holdCheck() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held {
		return
	}
	if c.heldSeen {
		c.release()
	} else {
		c.heldSeen = true
	}
}

// longAgo is the past a due deadline is put on the socket as (the noted one may be ahead of the
// socket's clock when the watchdog's is a test's).
var longAgo = time.Unix(1, 0)

const (
	dirRead = 1 << iota
	dirWrite
)

func (c *coarseConn) SetDeadline(t time.Time) error      { return c.set(t, dirRead|dirWrite) }
func (c *coarseConn) SetReadDeadline(t time.Time) error  { return c.set(t, dirRead) }
func (c *coarseConn) SetWriteDeadline(t time.Time) error { return c.set(t, dirWrite) }

func (c *coarseConn) set(t time.Time, dirs int) error {
	far, past := false, false
	if !t.IsZero() {
		// Past (before the last check) or clearly far: decided without reading the clock.
		switch seen := c.w.seen.Load(); {
		case t.Before(*seen):
			past = true
		case t.Sub(*seen) >= c.w.near+clearSlack:
			far = true
		default:
			far = t.Sub(c.w.now()) >= c.w.near
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	switch {
	case dirs&dirRead == 0:
	case past:
		// Stored before the reads are counted (see Read). A held read wakes to it.
		c.rPast.Store(true)
		c.rd = time.Time{}
		if c.held {
			c.release()
		} else if c.reading.Load() > 0 {
			err = c.apply(t, false, &c.rd, &c.rSet, c.TCPConn.SetReadDeadline)
		}
	default:
		c.rPast.Store(false)
		err = c.apply(t, far, &c.rd, &c.rSet, c.TCPConn.SetReadDeadline)
		if !t.IsZero() {
			c.release() // a held read goes to the socket with its deadline
		}
	}
	if dirs&dirWrite != 0 {
		if werr := c.apply(t, far, &c.wd, &c.wSet, c.TCPConn.SetWriteDeadline); err == nil {
			err = werr
		}
	}
	return err
}

// apply sets one direction's deadline t: noted when far (clearing the socket's if it carries
// one), else on the socket.
func (c *coarseConn) apply(t time.Time, far bool, noted *time.Time, onSocket *bool, socket func(time.Time) error) error {
	if far {
		*noted = t
		if !*onSocket {
			return nil
		}
		*onSocket = false
		return socket(time.Time{})
	}
	*noted = time.Time{}
	if t.IsZero() && !*onSocket {
		return nil // nothing to clear
	}
	*onSocket = !t.IsZero()
	return socket(t)
}

// expire puts a noted deadline due at now on the socket: its pending read or write fails.
func (c *coarseConn) expire(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.rd.IsZero() && !now.Before(c.rd) {
		c.TCPConn.SetReadDeadline(longAgo)
		c.rd, c.rSet = time.Time{}, true
	}
	if !c.wd.IsZero() && !now.Before(c.wd) {
		c.TCPConn.SetWriteDeadline(longAgo)
		c.wd, c.wSet = time.Time{}, true
	}
}

func (c *coarseConn) Close() error {
	c.w.mu.Lock()
	delete(c.w.conns, c)
	c.w.mu.Unlock()
	c.mu.Lock()
	c.closed = true
	c.release() // to the socket, which answers it as closed
	c.mu.Unlock()
	return c.TCPConn.Close()
}
