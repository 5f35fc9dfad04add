package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
)

// TestOrderVersionMovesWithEachChange: migration 0028's triggers move an order's version with
// each change of what its buyer is shown (status, payment link, payment seen, invoice paid) and
// not with anything else, on both back ends.
func TestOrderVersionMovesWithEachChange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "ana@example.com")
		o, err := orders.Create(ctx, claims, standardMonthly("203.0.113.30"))
		if err != nil {
			t.Fatal(err)
		}
		version := func() int64 {
			t.Helper()
			got, err := orders.Get(ctx, claims, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := s.OrderVersions(ctx, []string{o.ID, "ord_unknown"})
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 1 || vs[o.ID] != got.Version {
				t.Fatalf("OrderVersions = %v, the order reads version %d", vs, got.Version)
			}
			return got.Version
		}
		v := version()
		step := func(what string, change func() error, moves bool) {
			t.Helper()
			if err := change(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			next := version()
			if moves && next <= v || !moves && next != v {
				t.Fatalf("%s: version %d → %d, want it to move: %v", what, v, next, moves)
			}
			v = next
		}
		step("payment link", func() error { return s.SetPaymentURL(ctx, o.Invoice.ID, "https://pay.example/1") }, true)
		step("another scope's reference", func() error { return s.PutRef(ctx, "panel:line", o.Invoice.ID, "x") }, false)
		step("payment seen", func() error { return s.PutRef(ctx, "payment:processing", o.Invoice.ID, "sandbox:t1") }, true)
		step("settled", func() error { _, err := orders.Settle(ctx, o.Invoice.ID, "txn-version-1"); return err }, true)
		step("nothing", func() error { return nil }, false)
		if _, err := s.PutQuote(ctx, payment.Quote{InvoiceID: o.Invoice.ID, Gateway: "sandbox", Amount: "1", Currency: "USDC",
			Rate: "1", TakenAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if next := version(); next <= v {
			t.Fatalf("payment quote: version %d → %d, want it to move", v, next)
		}
	})
}

// TestListenOrdersHearsCommits: the listener, on a connection of its own, hears a change
// committed through the store's pool — on PostgreSQL with the order's id (LISTEN/NOTIFY), on
// SQLite as "something changed" — within a second, and stops when its context ends.
func TestListenOrdersHearsCommits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "ana@example.com")
		o, err := orders.Create(ctx, claims, standardMonthly("203.0.113.31"))
		if err != nil {
			t.Fatal(err)
		}
		heard := make(chan string, 64)
		lctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- s.ListenOrders(lctx, func(id string) { heard <- id }) }()
		// The first call says "anything may have changed": the listener is in place.
		select {
		case id := <-heard:
			if id != "" {
				t.Fatalf("first call %q, want \"\"", id)
			}
		case err := <-done:
			t.Fatalf("ListenOrders ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("the listener never started")
		}
		if _, err := orders.Cancel(ctx, claims, o.ID); err != nil {
			t.Fatal(err)
		}
		want := ""
		if s.(interface{ Dialect() string }).Dialect() == "postgres" {
			want = o.ID
		}
		deadline := time.After(time.Second) // the bound for a change to reach a stream
		for got := false; !got; {
			select {
			case id := <-heard:
				got = id == want
			case <-deadline:
				t.Fatalf("no %q heard within a second of the commit", want)
			}
		}
		stop()
		if err := <-done; err != nil {
			t.Fatalf("ListenOrders after its context ended: %v", err)
		}
	})
}
