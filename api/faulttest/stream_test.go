package faulttest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sseStatus is one status event of an order stream: its id and the order's status.
type sseStatus struct {
	id, status string
}

// follow reads the order's stream at base from lastID until it ends; each status event goes to
// events. It returns the last id read and whether the stream ended after a final status (false:
// it broke or closed early).
func (b *buyer) follow(ctx context.Context, base, orderID, lastID string, events chan<- sseStatus) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/checkout/api/orders/"+orderID+"/events", nil)
	if err != nil {
		return lastID, false
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	req.Header.Set("X-Forwarded-For", b.ip)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := (&http.Client{}).Do(req) // no overall timeout: the stream lasts
	if err != nil {
		return lastID, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return lastID, false
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var id, data, status string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && data != "":
			var o orderResult
			if json.Unmarshal([]byte(data), &o) == nil {
				lastID, status = id, o.Status
				events <- sseStatus{id, o.Status}
			}
			data = ""
		}
	}
	return lastID, status == "active"
}

// TestOrderStreamSurvivesItsReplica is the acceptance of issue 28 point 1 behind the documented
// nginx: two pages follow one order, one stream held by each replica (nginx takes turns); one
// replica is killed (SIGKILL) before the payment. The page whose stream it held reconnects
// through nginx with Last-Event-ID, lands on the survivor, and both pages see the order turn
// active — the payment and the provisioning made by the survivor reaching both streams.
func TestOrderStreamSurvivesItsReplica(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	listen := freeAddr(t)
	lb := "http://" + listen
	a, b := c.replica("a", "STREAMCART_PUBLIC_URL="+lb), c.replica("b", "STREAMCART_PUBLIC_URL="+lb)
	startNginx(t, listen, a, b)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	buyer := &buyer{email: "stream@example.com", ip: "203.0.113.8", http: newHTTPClient()}
	if err := buyer.signIn(ctx, lb); err != nil {
		t.Fatal(err)
	}
	o, err := buyer.order(ctx, lb, "stream-1")
	if err != nil {
		t.Fatal(err)
	}

	type page struct {
		events chan sseStatus
		drops  int
		done   chan bool
	}
	open := func() *page {
		p := &page{events: make(chan sseStatus, 32), done: make(chan bool, 1)}
		go func() {
			last, final := "", false
			for !final && ctx.Err() == nil {
				if last, final = buyer.follow(ctx, lb, o.OrderID, last, p.events); !final {
					p.drops++
					time.Sleep(200 * time.Millisecond) // the widget's reconnection delay, shortened
				}
			}
			p.done <- final
		}()
		return p
	}
	pages := []*page{open(), open()}
	for i, p := range pages {
		select {
		case ev := <-p.events:
			if ev.status != "pending" {
				t.Fatalf("page %d: first event %+v, want pending", i, ev)
			}
		case <-ctx.Done():
			t.Fatalf("page %d: no first event", i)
		}
	}
	a.stop(syscall.SIGKILL)
	if code, err := buyer.pay(ctx, lb, o.PaymentURL); err != nil || code != http.StatusSeeOther {
		t.Fatalf("pay through nginx after the kill = %d %v, want 303", code, err)
	}
	dropped := 0
	for i, p := range pages {
		select {
		case final := <-p.done:
			if !final {
				t.Fatalf("page %d never saw the order active", i)
			}
		case <-ctx.Done():
			t.Fatalf("page %d: the order never turned active on its stream", i)
		}
		dropped += p.drops
	}
	if dropped == 0 {
		t.Fatal("no stream broke when its replica was killed: nginx put both on the survivor, the trial proved nothing")
	}
}
