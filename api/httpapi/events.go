package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/orderwatch"
	ordersrv "github.com/streamcart/streamcart/gen/http/order/server"
	genorder "github.com/streamcart/streamcart/gen/order"
)

// The order streams' defaults (docs/operations.md names their settings).
const (
	// DefaultStreamsPerSession bounds one session's open streams on a replica: a buyer's tabs.
	DefaultStreamsPerSession = 4
	// DefaultStreamsPerReplica bounds a replica's open streams: each holds a connection and a
	// goroutine, and re-reads its order at each change.
	DefaultStreamsPerReplica = 1000
	// DefaultStreamIdle closes a stream that sent no event for this long (the page reconnects
	// with Last-Event-ID, or polls).
	DefaultStreamIdle = 10 * time.Minute
	// DefaultHeartbeat is the interval of the comment lines that keep proxies from timing a
	// quiet stream out (nginx's proxy_read_timeout is 60 s unless set).
	DefaultHeartbeat = 15 * time.Second
	// DefaultWriteWait is how long one write may wait for the client to take it: a client gone
	// without closing its connection is dropped then, whatever the server's WriteTimeout.
	DefaultWriteWait = 10 * time.Second
	// streamRetry is the reconnection delay a stream asks of EventSource-like clients.
	streamRetry = 2 * time.Second
	// streamsRetryAfter is the Retry-After of a stream refused for the caps.
	streamsRetryAfter = 30
)

const msgStreamsBusy = "Too many open status streams. Please check the order's status again in a moment."

// StreamSettings are the limits of the order streams (GET /orders/{orderId}/events); a zero
// field takes its default.
type StreamSettings struct {
	PerSession int           // STREAMCART_ORDER_STREAMS_PER_SESSION
	PerReplica int           // STREAMCART_ORDER_STREAMS
	Idle       time.Duration // STREAMCART_ORDER_STREAM_IDLE
	Heartbeat  time.Duration // tests shorten it
	WriteWait  time.Duration
	// SafetyTick is how often a stream re-reads its order when no hub tells it of changes.
	SafetyTick time.Duration
	// Now is the clock of the shared cap's places (real time, as job leases: nil); tests move it.
	Now func() time.Time
}

// StreamLeases share the per-session cap between replicas (store: a row per open stream in the
// shop's database, the coordinator of the replicas): a stream takes a place, renews it at its
// heartbeats and gives it back when it ends; a dead replica's places run out.
type StreamLeases interface {
	// TakeStreamLease holds a place of session for stream id until until unless max places not
	// run out by now are held; it reports whether it did.
	TakeStreamLease(ctx context.Context, session, id string, max int, now, until time.Time) (bool, error)
	RenewStreamLease(ctx context.Context, id string, until time.Time) error
	DropStreamLease(ctx context.Context, id string) error
}

// streamLeaseBeats is how many heartbeats a stream's place outlives its last renewal: a replica
// killed with its streams open gives their places back this long after (a minute by default).
const streamLeaseBeats = 4

// OrderStreams are a replica's open order streams: their caps, and the hub that tells them of
// changes (nil: each re-reads its order every SafetyTick).
type OrderStreams struct {
	hub    *orderwatch.Hub
	leases StreamLeases // nil: the per-session cap counts this replica's streams only
	cfg    StreamSettings
	log    *slog.Logger

	mu        sync.Mutex
	open      int
	bySession map[string]int
	done      chan struct{}
	closed    bool
}

// NewOrderStreams returns the streams of a replica told of changes by hub, whose per-session cap
// leases count across replicas (nil: on this replica only).
func NewOrderStreams(hub *orderwatch.Hub, leases StreamLeases, cfg StreamSettings, log *slog.Logger) *OrderStreams {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.PerSession, DefaultStreamsPerSession)
	def(&cfg.PerReplica, DefaultStreamsPerReplica)
	defD(&cfg.Idle, DefaultStreamIdle)
	defD(&cfg.Heartbeat, DefaultHeartbeat)
	defD(&cfg.WriteWait, DefaultWriteWait)
	defD(&cfg.SafetyTick, orderwatch.DefaultSafetyTick)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &OrderStreams{hub: hub, leases: leases, cfg: cfg, log: log, bySession: map[string]int{}, done: make(chan struct{})}
}

// Open is how many streams are open on this replica.
func (s *OrderStreams) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// Close ends every open stream and refuses new ones (graceful shutdown: the pages reconnect to
// another replica with Last-Event-ID).
func (s *OrderStreams) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
}

// acquire counts one more stream of session, or reports false past a cap (or once closed). With
// leases the session's streams on every replica count; renew keeps the place while it streams. A
// database that cannot be asked leaves this replica's own count to decide: a blip must not stop
// the waiting pages, which poll otherwise anyway.
func (s *OrderStreams) acquire(ctx context.Context, session string) (renew func(context.Context), release func(), ok bool) {
	s.mu.Lock()
	if s.closed || s.open >= s.cfg.PerReplica || s.bySession[session] >= s.cfg.PerSession {
		s.mu.Unlock()
		return nil, nil, false
	}
	s.open++
	s.bySession[session]++
	s.mu.Unlock()
	local := func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.open--
		if s.bySession[session]--; s.bySession[session] <= 0 {
			delete(s.bySession, session)
		}
	}
	renew = func(context.Context) {}
	var once sync.Once
	if s.leases != nil {
		id := rand.Text()
		life := streamLeaseBeats * s.cfg.Heartbeat
		now := s.cfg.Now()
		held, err := s.leases.TakeStreamLease(ctx, session, id, s.cfg.PerSession, now, now.Add(life))
		switch {
		case err != nil:
			s.log.WarnContext(ctx, "order streams: the shared cap is unreadable; this replica's count decides", "err", err)
		case !held:
			local()
			return nil, nil, false
		default:
			renew = func(ctx context.Context) {
				if err := s.leases.RenewStreamLease(ctx, id, s.cfg.Now().Add(life)); err != nil && ctx.Err() == nil {
					s.log.WarnContext(ctx, "order streams: lease not renewed", "err", err)
				}
			}
			return renew, func() {
				once.Do(func() {
					local()
					ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
					defer cancel()
					if err := s.leases.DropStreamLease(ctx, id); err != nil {
						s.log.WarnContext(ctx, "order streams: lease not given back; it runs out", "err", err)
					}
				})
			}, true
		}
	}
	return renew, func() { once.Do(local) }, true
}

// sessionKey is what the per-session cap counts by: the session, else its client.
func sessionKey(c authz.Claims) string {
	if c.SessionID != "" {
		return c.SessionID
	}
	return "client:" + strconv.FormatInt(c.ClientID, 10)
}

// finalStatus reports a status after which nothing happens to the order without a person (or
// at all): its stream ends with it.
func finalStatus(s order.Status) bool {
	switch s {
	case order.StatusPending, order.StatusPaid, order.StatusProvisioning:
		return false
	}
	return true
}

// Events streams the order's status: checked as Get (the session's order or not_found), then
// counted against the caps; the stream itself is the body's WriteTo.
func (s *orderService) Events(ctx context.Context, p *genorder.EventsPayload) (*genorder.EventsResult, io.ReadCloser, error) {
	claims := claimsFrom(ctx)
	o, err := s.orders.Get(ctx, claims, p.OrderID)
	if errors.Is(err, order.ErrNotFound) {
		return nil, nil, genorder.MakeNotFound(errors.New("Order not found."))
	}
	if err != nil {
		return nil, nil, err
	}
	var last int64
	if p.LastEventID != nil {
		last, _ = strconv.ParseInt(*p.LastEventID, 10, 64) // the design's pattern: digits only
	}
	renew, release, ok := s.streams.acquire(ctx, sessionKey(claims))
	if !ok {
		return nil, nil, &genorder.RateLimited{Name: "rate_limited", Message: msgStreamsBusy, RetryAfter: streamsRetryAfter}
	}
	token := ""
	if p.Token != nil {
		token = *p.Token
	}
	body := &orderStream{svc: s, ctx: ctx, claims: claims, token: token, order: o, last: last, renew: renew, release: release}
	return &genorder.EventsResult{ContentType: "text/event-stream", CacheControl: "no-cache", AccelBuffering: "no"}, body, nil
}

// orderStream is the body of one events answer: Goa hands it the ResponseWriter (WriteTo), so
// each event is flushed as it is written.
type orderStream struct {
	svc     *orderService
	ctx     context.Context
	claims  authz.Claims
	token   string
	order   order.Order           // as read when the request was accepted
	last    int64                 // the version the client has (Last-Event-ID), then the last one sent
	renew   func(context.Context) // keeps the stream's place in the shared cap
	release func()
}

// Read is never called: Goa writes the body through WriteTo.
func (st *orderStream) Read([]byte) (int, error) { return 0, io.EOF }

// Close releases the stream's place (Goa closes the body whether it was written or not).
func (st *orderStream) Close() error {
	st.release()
	return nil
}

// WriteTo runs the stream until the order is final, the client leaves, the stream is idle too
// long or the replica shuts down. Errors end the stream and are not returned: the answer has
// begun, there is nothing left to tell the client.
func (st *orderStream) WriteTo(w io.Writer) (int64, error) {
	streams := st.svc.streams
	cfg := streams.cfg
	ctx := st.ctx
	var rc *http.ResponseController
	if rw, ok := w.(http.ResponseWriter); ok {
		rc = http.NewResponseController(rw)
		// The server's ReadTimeout would end this request's context while it streams; writes
		// get their own deadlines below instead of the server's WriteTimeout.
		_ = rc.SetReadDeadline(time.Time{})
	}
	var n int64
	write := func(b []byte) error {
		if rc != nil {
			_ = rc.SetWriteDeadline(time.Now().Add(cfg.WriteWait))
		}
		m, err := w.Write(b)
		n += int64(m)
		if err != nil {
			return err
		}
		if rc != nil {
			return rc.Flush()
		}
		return nil
	}
	var sentBody []byte
	send := func(o order.Order) (bool, error) {
		if o.Version <= st.last {
			return false, nil
		}
		r, err := st.svc.result(ctx, o)
		if err != nil {
			return false, err
		}
		b, err := json.Marshal(ordersrv.NewGetResponseBody(genorder.NewViewedOrderResult(r, "default").Projected))
		if err != nil {
			return false, err
		}
		st.last = o.Version
		if bytes.Equal(b, sentBody) {
			return false, nil // a change the buyer is not shown
		}
		sentBody = b
		var ev bytes.Buffer
		ev.WriteString("id: ")
		ev.WriteString(strconv.FormatInt(o.Version, 10))
		ev.WriteString("\nevent: status\ndata: ")
		ev.Write(b)
		ev.WriteString("\n\n")
		return true, write(ev.Bytes())
	}
	end := func(err error) (int64, error) {
		if err != nil && ctx.Err() == nil {
			streams.log.DebugContext(ctx, "order stream ended", "order", st.order.ID, "err", err)
		}
		return n, nil
	}

	var wake <-chan struct{}
	if streams.hub != nil {
		// Watched before the first event: a change committed since the request's read wakes
		// the stream (a new watch starts signalled, so that read is repeated once).
		wt := streams.hub.Watch(st.order.ID)
		defer wt.Close()
		wake = wt.C
	} else {
		t := time.NewTicker(cfg.SafetyTick)
		defer t.Stop()
		c := make(chan struct{}, 1)
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					select {
					case c <- struct{}{}:
					default:
					}
				}
			}
		}()
		wake = c
	}
	if err := write([]byte("retry: " + strconv.FormatInt(streamRetry.Milliseconds(), 10) + "\n\n")); err != nil {
		return end(err)
	}
	if _, err := send(st.order); err != nil || finalStatus(st.order.Status) {
		return end(err)
	}
	idle := time.NewTimer(cfg.Idle)
	defer idle.Stop()
	heartbeat := time.NewTicker(cfg.Heartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return end(nil)
		case <-streams.done:
			return end(nil)
		case <-idle.C:
			return end(nil)
		case <-heartbeat.C:
			// A session signed out meanwhile ends its stream (a check in memory: api/sessioncache).
			if _, err := st.svc.accounts.Authenticate(ctx, st.token); err != nil {
				return end(err)
			}
			if err := write([]byte(": heartbeat\n\n")); err != nil {
				return end(err)
			}
			st.renew(ctx)
		case <-wake:
			if _, err := st.svc.accounts.Authenticate(ctx, st.token); err != nil {
				return end(err)
			}
			o, err := st.svc.orders.Get(ctx, st.claims, st.order.ID)
			if err != nil {
				if errors.Is(err, order.ErrNotFound) || ctx.Err() != nil {
					return end(err)
				}
				streams.log.WarnContext(ctx, "order stream: order unreadable; trying again at the next change or tick", "order", st.order.ID, "err", err)
				continue
			}
			sent, err := send(o)
			if err != nil {
				return end(err)
			}
			if sent {
				idle.Reset(cfg.Idle)
			}
			if finalStatus(o.Status) {
				return end(nil)
			}
		}
	}
}
