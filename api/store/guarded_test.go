package store

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
)

// A guarded order on PostgreSQL is one round trip (BEGIN, the locks, the conditional rows,
// COMMIT) and writes all its rows or none: with its key used, the orders from its IP at the
// limit, or its client's, e-mail's or IP's trials at theirs, it answers false and writes nothing
// (the order's caller then places it the usual way). SQLite answers false without running fn.
func TestGuardedOrderOnPostgres(t *testing.T) {
	s := openPipePostgres(t)
	ctx := t.Context()
	var client int64
	if err := s.w.QueryRowContext(ctx, `INSERT INTO clients (email, created_at) VALUES ('guard@example.com', '') RETURNING id`).Scan(&client); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var trips []int
	count := func(n int) { mu.Lock(); trips = append(trips, n); mu.Unlock() }
	pipeSent.Store(&count)
	defer pipeSent.Store(nil)
	now := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	const ip = "203.0.113.7"
	rows := func() []int {
		t.Helper()
		var out []int
		for _, table := range []string{"orders", "invoices", "services", "jobs", "trial_starts"} {
			var n int
			if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			out = append(out, n)
		}
		return out
	}
	// place tries a guarded order (a trial's when trial) and answers whether it was placed.
	place := func(key string, trial bool, lim order.Limits) bool {
		t.Helper()
		mu.Lock()
		trips = nil
		mu.Unlock()
		c := order.Check{ClientID: client, IdempotencyKey: key, Now: now, CountIP: lim.OrdersFromIP > 0, IP: ip,
			Since: now.Add(-24 * time.Hour), Trial: trial, TrialSince: now.Add(-24 * time.Hour), TrialEmail: "guard@example.com"}
		o := order.Order{ID: order.NewOrderID(), Kind: order.KindPlan, ClientID: client, Email: "guard@example.com",
			Quote: pricing.Quote{}, Status: order.StatusPending, IP: ip, Gateway: "sandbox", IdempotencyKey: key,
			RequestHash: "h", CreatedAt: now, UpdatedAt: now, RenewWithCard: true}
		o.Invoice = order.Invoice{ID: "inv_" + o.ID, Status: order.InvoiceUnpaid, Gateway: "sandbox", Deadline: now.Add(time.Hour)}
		svc := order.Service{ID: order.NewServiceID(), ClientID: client, PID: 2, Name: "Standard", BillingCycle: "monthly",
			Status: order.ServicePending, MaxConnections: 1, CreatedAt: now, Trial: trial, AutoRenew: true}
		placed, err := s.WithGuardedTx(ctx, c, lim, func(tx order.Tx) error {
			if err := tx.InsertOrder(ctx, o, []order.Service{svc}); err != nil {
				return err
			}
			if trial {
				if err := tx.RecordTrial(ctx, order.TrialStart{OrderID: o.ID, ClientID: client, IP: ip,
					EmailKey: "guard@example.com", CreatedAt: now}); err != nil {
					return err
				}
			}
			return tx.Enqueue(ctx, order.JobExpire, o.ID, order.JobExpire+":"+o.ID, o.Invoice.Deadline)
		})
		if err != nil {
			t.Fatalf("guarded order %s: %v", key, err)
		}
		mu.Lock()
		defer mu.Unlock()
		want := []int{4}
		if key == "" && !c.CountIP && !trial {
			want = []int{3} // no lock to take
		}
		if !slices.Equal(trips, want) {
			t.Fatalf("order %s: statements per round trip %v, want %v (BEGIN, locks, rows, COMMIT)", key, trips, want)
		}
		if placed {
			got, err := s.Order(ctx, o.ID)
			if err != nil || got.IdempotencyKey != key || got.Invoice.ID != o.Invoice.ID || !slices.Equal(got.ServiceIDs, []string{svc.ID}) || !got.RenewWithCard {
				t.Fatalf("order %s as stored: %+v, %v", key, got, err)
			}
		}
		return placed
	}
	check := func(step string, got bool, want bool, wantRows []int) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: placed %v, want %v", step, got, want)
		}
		if r := rows(); !slices.Equal(r, wantRows) {
			t.Fatalf("%s: rows (orders, invoices, services, jobs, trials) %v, want %v", step, r, wantRows)
		}
	}

	check("first order", place("k1", false, order.Limits{OrdersFromIP: 3}), true, []int{1, 1, 1, 1, 0})
	check("its key again", place("k1", false, order.Limits{OrdersFromIP: 3}), false, []int{1, 1, 1, 1, 0})
	check("a second key", place("k2", false, order.Limits{OrdersFromIP: 3}), true, []int{2, 2, 2, 2, 0})
	check("the IP at its limit", place("k3", false, order.Limits{OrdersFromIP: 2}), false, []int{2, 2, 2, 2, 0})
	check("no key, no limit", place("", false, order.Limits{}), true, []int{3, 3, 3, 3, 0})
	check("a trial", place("t1", true, order.Limits{Trials: 1, TrialsFromIP: 5}), true, []int{4, 4, 4, 4, 1})
	check("the client's trial taken", place("t2", true, order.Limits{Trials: 1, TrialsFromIP: 5}), false, []int{4, 4, 4, 4, 1})
	check("the IP's trial taken", place("t3", true, order.Limits{Trials: 5, TrialsFromIP: 1}), false, []int{4, 4, 4, 4, 1})
	check("a second trial allowed", place("t4", true, order.Limits{Trials: 2, TrialsFromIP: 2}), true, []int{5, 5, 5, 5, 2})
	// The same shapes again reuse their statements.
	n := len(s.guard.texts)
	place("k5", false, order.Limits{OrdersFromIP: 30})
	if len(s.guard.texts) != n {
		t.Fatalf("guarded texts: %d, then %d after an order of a known shape", n, len(s.guard.texts))
	}

	// A guarded transaction only writes: a statement of its own fails it, nothing sent.
	_, err := s.WithGuardedTx(ctx, order.Check{ClientID: client, IdempotencyKey: "r"}, order.Limits{}, func(tx order.Tx) error {
		_, err := tx.Order(ctx, "ord_none")
		return err
	})
	if err == nil {
		t.Fatal("a guarded transaction ran a read")
	}

	lite, err := Open(ctx, filepath.Join(t.TempDir(), "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	ran := false
	if placed, err := lite.WithGuardedTx(ctx, order.Check{ClientID: 1}, order.Limits{}, func(order.Tx) error { ran = true; return nil }); placed || err != nil || ran {
		t.Fatalf("SQLite: placed %v, %v, fn ran %v; want false, nil, not run", placed, err, ran)
	}
}
