package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/store/storetest"
	genorder "github.com/streamcart/streamcart/gen/order"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// sseItem is one thing read from an order stream: an event, or a comment line (heartbeat).
type sseItem struct {
	id, event, data string
	comment         string
}

// eventStream is an open GET /orders/{id}/events, read line by line in the background.
type eventStream struct {
	t     *testing.T
	resp  *http.Response
	items chan sseItem // closed when the server ends the stream
}

// openEvents opens the order's stream with token (and Last-Event-ID when lastID is set) and
// wants 200 text/event-stream.
func (s *shop) openEvents(token, orderID, lastID string) *eventStream {
	s.t.Helper()
	resp := s.eventsRequest(token, orderID, lastID)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.t.Fatalf("GET /orders/%s/events = %d %s, want 200", orderID, resp.StatusCode, b)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			s.t.Fatalf("%s: %q, want %q", k, got, want)
		}
	}
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		s.t.Fatalf("Content-Encoding %q: an event stream is never compressed", ce)
	}
	es := &eventStream{t: s.t, resp: resp, items: make(chan sseItem, 64)}
	go es.read()
	s.t.Cleanup(es.close)
	return es
}

// eventsRequest sends GET /orders/{id}/events and returns the answer as it starts.
func (s *shop) eventsRequest(token, orderID, lastID string) *http.Response {
	s.t.Helper()
	ctx, cancel := context.WithCancel(s.t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/checkout/api/orders/"+orderID+"/events", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	// A forged Host: links in the events are the shop's, never the caller's.
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Host", "evil.example")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Encoding", "gzip, br") // a browser's: the stream must not be compressed anyway
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	tr := &http.Transport{DisableCompression: true}
	s.t.Cleanup(tr.CloseIdleConnections)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		cancel()
		s.t.Fatalf("GET /orders/%s/events: %v", orderID, err)
	}
	s.t.Cleanup(cancel)
	return resp
}

func (es *eventStream) read() {
	defer close(es.items)
	sc := bufio.NewScanner(es.resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var cur sseItem
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" || cur.data != "" {
				es.items <- cur
			}
			cur = sseItem{}
		case strings.HasPrefix(line, ":"):
			es.items <- sseItem{comment: strings.TrimSpace(line[1:])}
		default:
			k, v, _ := strings.Cut(line, ":")
			v = strings.TrimPrefix(v, " ")
			switch k {
			case "id":
				cur.id = v
			case "event":
				cur.event = v
			case "data":
				cur.data += v
			}
		}
	}
}

func (es *eventStream) close() { es.resp.Body.Close() }

// next is the next event (heartbeats skipped); it fails when none comes in time or the stream
// ends.
func (es *eventStream) next() sseItem {
	es.t.Helper()
	for {
		select {
		case it, ok := <-es.items:
			if !ok {
				es.t.Fatal("the stream ended; want another event")
			}
			if it.comment != "" {
				continue
			}
			return it
		case <-time.After(10 * time.Second):
			es.t.Fatal("no event within 10 s")
		}
	}
}

// ends wants the server to close the stream with no further event.
func (es *eventStream) ends() {
	es.t.Helper()
	for {
		select {
		case it, ok := <-es.items:
			if !ok {
				return
			}
			if it.comment == "" {
				es.t.Fatalf("event %+v; want the stream to end", it)
			}
		case <-time.After(10 * time.Second):
			es.t.Fatal("the stream is still open after 10 s; want it ended")
		}
	}
}

// quiet wants no event for a moment (the stream open, heartbeats allowed).
func (es *eventStream) quiet(d time.Duration) {
	es.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case it, ok := <-es.items:
			if !ok {
				es.t.Fatal("the stream ended; want it open")
			}
			if it.comment == "" {
				es.t.Fatalf("event %+v; want none", it)
			}
		case <-deadline:
			return
		}
	}
}

// status reads an event's order.
func status(t *testing.T, it sseItem) (genorder.OrderResult, int64) {
	t.Helper()
	if it.event != "status" {
		t.Fatalf("event %q, want status", it.event)
	}
	var o genorder.OrderResult
	if err := json.Unmarshal([]byte(it.data), &o); err != nil {
		t.Fatalf("event data %q: %v", it.data, err)
	}
	id, err := strconv.ParseInt(it.id, 10, 64)
	if err != nil || id < 1 {
		t.Fatalf("event id %q: want a version", it.id)
	}
	return o, id
}

// TestOrderEvents follows a purchase on its stream: the order at once, an event at each change
// with growing ids, each event's data exactly GET /orders/{id}'s body, and the end after the
// final status.
func TestOrderEvents(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("live@example.com", "")
		o := s.buy(buyer.Token, standard())
		es := s.openEvents(buyer.Token, o.OrderID, "")
		first := es.next()
		got, id := status(t, first)
		if got.Status != "pending" || got.OrderID != o.OrderID {
			t.Fatalf("first event: %+v, want the pending order", got)
		}
		code, _, body := s.raw(http.MethodGet, "/checkout/api/orders/"+o.OrderID, buyer.Token, nil)
		if code != http.StatusOK || first.data != string(bytes.TrimSpace(body)) {
			t.Fatalf("first event's data\n%s\nGET /orders/{id} (%d)\n%s\nwant the same", first.data, code, body)
		}

		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox pay: %d", resp.StatusCode)
		}
		paid := es.next()
		got, next := status(t, paid)
		if got.Status != "paid" || next <= id {
			t.Fatalf("after paying: %+v id %d (previous %d), want paid with a greater id", got, next, id)
		}
		if got.InvoiceNumber == nil || got.ReceiptURL == nil || !strings.HasPrefix(*got.ReceiptURL, s.base+"/") {
			t.Fatalf("paid event without its invoice number, or its receipt off the shop (%s): %s", s.base, paid.data)
		}
		id = next
		s.drain() // provisioning, then active
		var last sseItem
		for got.Status != "active" {
			last = es.next()
			got, next = status(t, last)
			if next <= id {
				t.Fatalf("event id %d after %d: want it to grow", next, id)
			}
			id = next
		}
		es.ends()
		_, _, body = s.raw(http.MethodGet, "/checkout/api/orders/"+o.OrderID, buyer.Token, nil)
		if last.data != string(bytes.TrimSpace(body)) {
			t.Fatalf("last event's data\n%s\nGET /orders/{id}\n%s\nwant the same", last.data, body)
		}
		eventually(t, "the stream's place to be given back", func() bool { return s.app.OrderStreams().Open() == 0 })
	})
}

// TestOrderEventsResume: Last-Event-ID resumes — the version the client has is not sent again,
// a newer one is; a final order the client has seen closes at once; a malformed id is refused.
func TestOrderEventsResume(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("resume@example.com", "")
		o := s.buy(buyer.Token, standard())
		es := s.openEvents(buyer.Token, o.OrderID, "")
		_, v1 := status(t, es.next())
		es.close()

		// Reconnected with the current version: nothing until the next change, which comes.
		es = s.openEvents(buyer.Token, o.OrderID, strconv.FormatInt(v1, 10))
		es.quiet(300 * time.Millisecond)
		if _, err := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID}); err != nil {
			t.Fatal(err)
		}
		got, v2 := status(t, es.next())
		if got.Status != "cancelled" || v2 <= v1 {
			t.Fatalf("after the cancel: %+v id %d, want cancelled after %d", got, v2, v1)
		}
		es.ends()

		// An older id: the current order at once, then the end (it is final).
		es = s.openEvents(buyer.Token, o.OrderID, strconv.FormatInt(v1, 10))
		if got, v := status(t, es.next()); got.Status != "cancelled" || v != v2 {
			t.Fatalf("resumed from %d: %+v id %d, want cancelled %d", v1, got, v, v2)
		}
		es.ends()
		// The final version itself: nothing to send, the stream ends at once.
		s.openEvents(buyer.Token, o.OrderID, strconv.FormatInt(v2, 10)).ends()

		code, _, body := s.rawWith(http.MethodGet, "/checkout/api/orders/"+o.OrderID+"/events", buyer.Token, nil,
			http.Header{"Last-Event-Id": {"abc"}})
		if code != http.StatusBadRequest || !strings.Contains(string(body), `"name":"invalid_pattern"`) {
			t.Fatalf("Last-Event-ID abc: %d %s, want 400 invalid_pattern", code, body)
		}
	})
}

// TestOrderEventsOwnership: the stream answers as GET /orders/{id} does — another session's
// order and an unknown one are not_found alike, no token is unauthorized — and opens nothing.
func TestOrderEventsOwnership(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.identify("owner@example.com", "")
		other := s.identify("other@example.com", "")
		o := s.buy(owner.Token, standard())
		for _, c := range []struct {
			name, token, order string
			status             int
			errName            string
		}{
			{"another session", other.Token, o.OrderID, http.StatusNotFound, "not_found"},
			{"an unknown order", owner.Token, "ord_unknown", http.StatusNotFound, "not_found"},
			{"no token", "", o.OrderID, http.StatusUnauthorized, "unauthorized"},
			{"a forged token", owner.Token + "x", o.OrderID, http.StatusUnauthorized, "unauthorized"},
		} {
			code, _, body := s.raw(http.MethodGet, "/checkout/api/orders/"+c.order+"/events", c.token, nil)
			getCode, _, getBody := s.raw(http.MethodGet, "/checkout/api/orders/"+c.order, c.token, nil)
			var e, g struct{ Name, Message string }
			json.Unmarshal(body, &e)
			json.Unmarshal(getBody, &g)
			if code != c.status || e.Name != c.errName || code != getCode || e != g {
				t.Errorf("%s: %d %s; GET /orders/{id} %d %s; want both %d %s", c.name, code, body, getCode, getBody, c.status, c.errName)
			}
		}
		if n := s.app.OrderStreams().Open(); n != 0 {
			t.Fatalf("%d streams open after refusals, want 0", n)
		}
	})
}

// TestOrderEventsCaps: past a session's cap, and past the replica's, 429 rate_limited with
// Retry-After; a closed stream gives its place back.
func TestOrderEventsCaps(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.OrderStreams = httpapi.StreamSettings{PerSession: 2, PerReplica: 3} })
		ana := s.identify("ana@example.com", "")
		bo := s.identify("bo@example.com", "")
		cy := s.identify("cy@example.com", "")
		oa, ob, oc := s.buy(ana.Token, standard()), s.buy(bo.Token, standard()), s.buy(cy.Token, standard())
		refused := func(who, token, order string) {
			t.Helper()
			resp := s.eventsRequest(token, order, "")
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var e struct{ Name, Message string }
			json.Unmarshal(b, &e)
			if resp.StatusCode != http.StatusTooManyRequests || e.Name != "rate_limited" || e.Message == "" || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("%s: %d %s (Retry-After %q), want 429 rate_limited with Retry-After", who, resp.StatusCode, b, resp.Header.Get("Retry-After"))
			}
		}
		a1 := s.openEvents(ana.Token, oa.OrderID, "")
		a1.next()
		s.openEvents(ana.Token, oa.OrderID, "").next()
		refused("a session's third stream", ana.Token, oa.OrderID)
		s.openEvents(bo.Token, ob.OrderID, "").next()
		refused("the replica's fourth stream", cy.Token, oc.OrderID)
		a1.close()
		eventually(t, "the closed stream's place to be given back", func() bool { return s.app.OrderStreams().Open() == 2 })
		s.openEvents(cy.Token, oc.OrderID, "").next()
	})
}

// TestOrderEventsHeartbeatAndIdle: a quiet stream carries heartbeats (the interval shortened
// here) and is closed once idle past its limit, without an event.
func TestOrderEventsHeartbeatAndIdle(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) {
			c.OrderStreams = httpapi.StreamSettings{Heartbeat: 20 * time.Millisecond, Idle: 400 * time.Millisecond}
		})
		buyer := s.identify("quiet@example.com", "")
		o := s.buy(buyer.Token, standard())
		es := s.openEvents(buyer.Token, o.OrderID, "")
		es.next()
		beats := 0
		for it := range es.items {
			if it.comment != "heartbeat" {
				t.Fatalf("%+v on a quiet stream, want heartbeats only", it)
			}
			beats++
		}
		if beats < 3 {
			t.Fatalf("%d heartbeats before the idle stream was closed, want several", beats)
		}
	})
}

// TestOrderEventsAcrossReplicas: a stream held by one replica hears a change made through
// another within a second (PostgreSQL: LISTEN/NOTIFY; SQLite: two processes on one file).
func TestOrderEventsAcrossReplicas(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		a := newShop(t)
		b := openShop(t, a.cfg)
		buyer := a.identify("replica@example.com", "")
		o := a.buy(buyer.Token, standard())
		es := b.openEvents(buyer.Token, o.OrderID, "")
		es.next()
		es.quiet(100 * time.Millisecond) // the watch is in place
		if _, err := a.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID}); err != nil {
			t.Fatal(err)
		}
		changed := time.Now()
		select {
		case it, ok := <-es.items:
			if !ok {
				t.Fatal("the stream ended without the change")
			}
			if got, _ := status(t, it); got.Status != "cancelled" {
				t.Fatalf("event %+v, want cancelled", got)
			}
			if d := time.Since(changed); d > time.Second {
				t.Fatalf("the change took %v to reach the other replica's stream, want under a second", d)
			}
		case <-time.After(time.Second):
			t.Fatal("the change made on one replica did not reach the other's stream within a second")
		}
		es.ends()
	})
}

// TestOrderEventsShutdown: a replica shutting down ends its streams at once (the pages reconnect
// elsewhere) instead of holding the shutdown to its limit.
func TestOrderEventsShutdown(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Addr = freeAddr(t)
		cfg.ShutdownTimeout = time.Minute
		cfg.OrderStreams = httpapi.StreamSettings{Heartbeat: 50 * time.Millisecond}
		s := openShop(t, cfg)
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.app.Run(ctx) }()
		t.Cleanup(stop)
		direct := *s
		direct.base = "http://" + cfg.Addr // the running server, not the test's
		buyer := s.identify("shutdown@example.com", "")
		o := s.buy(buyer.Token, standard())
		var es *eventStream
		eventually(t, "the server to listen", func() bool {
			resp, err := http.Get(direct.base + "/healthz")
			if err == nil {
				resp.Body.Close()
			}
			return err == nil
		})
		es = direct.openEvents(buyer.Token, o.OrderID, "")
		es.next()
		stop()
		es.ends()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run still shutting down 10 s later: an open stream held it")
		}
	})
}

// TestOrderEventsCapUnderConcurrency: 40 streams asked for at once by one session get exactly
// the session's cap; the others are refused with 429.
func TestOrderEventsCapUnderConcurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.OrderStreams = httpapi.StreamSettings{PerSession: 4} })
		buyer := s.identify("many@example.com", "")
		o := s.buy(buyer.Token, standard())
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		codes := make(chan int, 40)
		var bodies []io.Closer
		resps := make(chan *http.Response, 40)
		for range 40 {
			go func() {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/checkout/api/orders/"+o.OrderID+"/events", nil)
				req.Header.Set("Authorization", "Bearer "+buyer.Token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					codes <- 0
					return
				}
				codes <- resp.StatusCode
				resps <- resp
			}()
		}
		got := map[int]int{}
		for range 40 {
			got[<-codes]++
		}
		for range got[http.StatusOK] + got[http.StatusTooManyRequests] {
			bodies = append(bodies, (<-resps).Body)
		}
		if got[http.StatusOK] != 4 || got[http.StatusTooManyRequests] != 36 {
			t.Fatalf("answers %v, want 4 × 200 and 36 × 429", got)
		}
		for _, b := range bodies {
			b.Close()
		}
	})
}

// TestOrderEventsEndWithTheSession: signing out ends the session's open streams by their next
// heartbeat.
func TestOrderEventsEndWithTheSession(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.OrderStreams = httpapi.StreamSettings{Heartbeat: 20 * time.Millisecond} })
		buyer := s.identify("leaving@example.com", "")
		o := s.buy(buyer.Token, standard())
		es := s.openEvents(buyer.Token, o.OrderID, "")
		es.next()
		if err := s.session.Delete(t.Context(), &gensession.DeletePayload{Token: ptr(buyer.Token)}); err != nil {
			t.Fatalf("DELETE /session: %v", err)
		}
		es.ends()
	})
}

// TestOrderEventsSessionCapAcrossReplicas: the per-session cap holds across replicas on one
// database: a session's streams on two replicas count together (429 on either past the cap, 20
// asked for at once through both get exactly the cap), a closed stream gives its place back to
// the other replica, and the places of a replica that died with its streams open run out after
// four heartbeats of the streams' clock.
func TestOrderEventsSessionCapAcrossReplicas(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newClock()
		cfg := func(cf *app.Config) { cf.OrderStreams = httpapi.StreamSettings{PerSession: 2, Now: c.Now} }
		a := newShop(t, cfg)
		b := openShop(t, a.cfg)
		buyer := a.identify("tabs@example.com", "")
		o := a.buy(buyer.Token, standard())
		code := func(s *shop) int {
			t.Helper()
			resp := s.eventsRequest(buyer.Token, o.OrderID, "")
			resp.Body.Close()
			return resp.StatusCode
		}
		first := a.openEvents(buyer.Token, o.OrderID, "")
		first.next()
		second := b.openEvents(buyer.Token, o.OrderID, "")
		second.next()
		for name, s := range map[string]*shop{"a": a, "b": b} {
			if got := code(s); got != http.StatusTooManyRequests {
				t.Fatalf("a third stream through replica %s: %d, want 429", name, got)
			}
		}
		first.close()
		eventually(t, "replica a to give the closed stream's place back", func() bool { return a.app.OrderStreams().Open() == 0 })
		third := b.openEvents(buyer.Token, o.OrderID, "")
		third.next()
		second.close()
		third.close()
		eventually(t, "replica b's streams to end", func() bool { return b.app.OrderStreams().Open() == 0 })

		// 20 at once, half through each replica: exactly the cap opens.
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		codes, resps := make(chan int, 20), make(chan *http.Response, 20)
		for i := range 20 {
			s := []*shop{a, b}[i%2]
			go func() {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/checkout/api/orders/"+o.OrderID+"/events", nil)
				req.Header.Set("Authorization", "Bearer "+buyer.Token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					codes <- 0
					return
				}
				codes <- resp.StatusCode
				resps <- resp
			}()
		}
		got := map[int]int{}
		for range 20 {
			got[<-codes]++
		}
		for range got[http.StatusOK] + got[http.StatusTooManyRequests] {
			(<-resps).Body.Close()
		}
		if got[http.StatusOK] != 2 || got[http.StatusTooManyRequests] != 18 {
			t.Fatalf("20 streams through two replicas: %v, want 2 × 200 and 18 × 429", got)
		}
		eventually(t, "the streams to end", func() bool { return a.app.OrderStreams().Open()+b.app.OrderStreams().Open() == 0 })

		// A replica killed with two streams open: their places (as it left them) block the
		// session until they run out, four heartbeats (15 s) after their last renewal.
		if held := a.count(`SELECT COUNT(*) FROM stream_leases`); held != 0 {
			t.Fatalf("%d places held after every stream ended, want 0", held)
		}
		sid := a.ids(`SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1`)
		if len(sid) != 1 {
			t.Fatal("no session row")
		}
		until := c.Now().Add(time.Minute).UTC().Format("2006-01-02T15:04:05.000000Z")
		for _, id := range []string{"dead-1", "dead-2"} {
			storetest.Exec(t, a.cfg.DB, `INSERT INTO stream_leases (id, session, until) VALUES (?, ?, ?)`, id, sid[0], until)
		}
		if got := code(b); got != http.StatusTooManyRequests {
			t.Fatalf("with a dead replica's two places held: %d, want 429", got)
		}
		c.Add(61 * time.Second)
		alive := b.openEvents(buyer.Token, o.OrderID, "")
		alive.next()
		alive.close()
	})
}
