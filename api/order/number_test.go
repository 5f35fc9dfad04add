package order_test

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// replica is one more process of a shop: its own store handle and order service on the
// database of f.
func (f *fixture) replica(t *testing.T, db string) *order.Orders {
	t.Helper()
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	return order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, order.Config{}, slog.New(slog.DiscardHandler),
		func() time.Time { return f.now })
}

// Payments settled at once on two replicas of each of two shops sharing a database server give
// each shop's invoices consecutive numbers from 1: no gap, no repeat, and no shop takes another's.
func TestConcurrentPaymentsNumberInvoicesWithoutGaps(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		type shop struct {
			st       store.Backend
			replicas [2]*order.Orders
			orders   []order.Order
		}
		counts := []int{50, 20}
		shops := make([]*shop, len(counts))
		for i, n := range counts {
			db := b.NewDB(t)
			st, err := store.OpenURL(t.Context(), db)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			f := &fixture{st: storetest.Inspect(st), now: time.Now().UTC().Truncate(time.Second)}
			s := &shop{st: st}
			s.replicas[0], s.replicas[1] = f.replica(t, db), f.replica(t, db)
			claims := f.buyer(t, fmt.Sprintf("shop%d@example.com", i))
			for range n {
				o, err := s.replicas[0].Create(t.Context(), claims, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}})
				if err != nil {
					t.Fatal(err)
				}
				s.orders = append(s.orders, o)
			}
			shops[i] = s
		}
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for _, s := range shops {
			for j, o := range s.orders {
				wg.Go(func() {
					if _, err := s.replicas[j%2].Settle(t.Context(), o.Invoice.ID, "txn_"+o.ID); err != nil {
						errs <- err
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		year := time.Now().UTC().Year()
		for i, s := range shops {
			var got []string
			for _, o := range s.orders {
				o, err := s.st.Order(t.Context(), o.ID)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, o.Invoice.Number)
			}
			sort.Strings(got)
			for k, n := range got {
				if want := fmt.Sprintf("SC-%d-%06d", year, k+1); n != want {
					t.Fatalf("shop %d: numbers %v: #%d is %q, want %q", i, got, k, n, want)
				}
			}
		}
	})
}

// A settlement that rolls back gives its number back: the next paid invoice takes it. An
// unpaid invoice has no number, and a second delivery of a payment keeps the first one's.
func TestFailedSettlementLeavesNoGap(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, order.Config{})
		o := f.monthly(t)
		if o.Invoice.Number != "" {
			t.Fatalf("unpaid invoice numbered %q", o.Invoice.Number)
		}
		boom := errors.New("boom")
		err := f.st.WithTx(t.Context(), func(tx order.Tx) error {
			if n, err := tx.NumberInvoice(t.Context(), o.Invoice.ID, "SC-{YYYY}-{seq:06}", f.now); err != nil || n == "" {
				t.Fatalf("NumberInvoice = %q, %v", n, err)
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		paid, err := f.orders.Settle(t.Context(), o.Invoice.ID, "txn_1")
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("SC-%d-000001", f.now.Year())
		if paid.Invoice.Number != want {
			t.Fatalf("number %q, want %q", paid.Invoice.Number, want)
		}
		if _, err := f.orders.Settle(t.Context(), o.Invoice.ID, "txn_1"); !errors.Is(err, order.ErrAlreadySettled) {
			t.Fatalf("second delivery: %v", err)
		}
		again, err := f.st.Order(t.Context(), o.ID)
		if err != nil || again.Invoice.Number != want {
			t.Fatalf("after a second delivery: %q, %v", again.Invoice.Number, err)
		}
		next := f.monthly(t)
		if p, err := f.orders.Settle(t.Context(), next.Invoice.ID, "txn_2"); err != nil || p.Invoice.Number != fmt.Sprintf("SC-%d-000002", f.now.Year()) {
			t.Fatalf("next: %q, %v", p.Invoice.Number, err)
		}
	})
}
