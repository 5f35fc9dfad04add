package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
)

// openPipePostgres opens a PostgreSQL store on a schema of the test's own (the admin database
// of storetest.AdminURL, which this package's own tests cannot import).
func openPipePostgres(t *testing.T) *Postgres {
	t.Helper()
	admin := os.Getenv("STREAMCART_TEST_POSTGRES")
	if admin == "" {
		admin = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	a, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	schema := fmt.Sprintf("streamcart_pipe_%d_%d", time.Now().UnixNano(), os.Getpid())
	if _, err := a.ExecContext(t.Context(), `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("PostgreSQL is required (%s): %v", admin, err)
	}
	t.Cleanup(func() { a.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`) })
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	s, err := OpenPostgres(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// An order on PostgreSQL is five statements in two round trips: BEGIN, the locks and the one
// read of the key's order and the IP's count; then the order's rows as one statement and
// COMMIT (issue 24: the key's order and the IP's count were two statements). A second order of
// the same shape reuses the merged insert's text.
func TestOrderStatementsOnPostgres(t *testing.T) {
	s := openPipePostgres(t)
	var client int64
	if err := s.w.QueryRowContext(t.Context(), `INSERT INTO clients (email, created_at) VALUES ('pipe@example.com', '') RETURNING id`).Scan(&client); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var trips []int
	count := func(n int) { mu.Lock(); trips = append(trips, n); mu.Unlock() }
	pipeSent.Store(&count)
	defer pipeSent.Store(nil)
	now := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	place := func(key string) {
		t.Helper()
		mu.Lock()
		trips = nil
		mu.Unlock()
		err := s.WithTx(t.Context(), func(tx order.Tx) error {
			got, err := tx.Check(t.Context(), order.Check{ClientID: client, IdempotencyKey: key, Now: now, CountIP: true,
				IP: "203.0.113.9", Since: now.Add(-24 * time.Hour)})
			if err != nil || got.Prev != nil {
				return fmt.Errorf("check: %+v, %v", got, err)
			}
			o := order.Order{ID: order.NewOrderID(), Kind: order.KindPlan, ClientID: client, Email: "pipe@example.com",
				Quote: pricing.Quote{}, Status: order.StatusPending, IP: "203.0.113.9", Gateway: "sandbox", IdempotencyKey: key,
				RequestHash: "h", CreatedAt: now, UpdatedAt: now}
			o.Invoice = order.Invoice{ID: "inv_" + key, Status: order.InvoiceUnpaid, Gateway: "sandbox", Deadline: now.Add(time.Hour)}
			svc := order.Service{ID: order.NewServiceID(), ClientID: client, PID: 2, Name: "Standard", BillingCycle: "monthly",
				Status: order.ServicePending, MaxConnections: 1, CreatedAt: now}
			if err := tx.InsertOrder(t.Context(), o, []order.Service{svc}); err != nil {
				return err
			}
			return tx.Enqueue(t.Context(), order.JobExpire, o.ID, order.JobExpire+":"+o.ID, o.Invoice.Deadline)
		})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if want := []int{3, 2}; !slices.Equal(trips, want) {
			t.Fatalf("order %s: statements per round trip %v, want %v (BEGIN, locks, read | rows, COMMIT)", key, trips, want)
		}
	}
	place("pipe-1")
	entries := mergedEntries.Load()
	place("pipe-2")
	if got := mergedEntries.Load(); got != entries {
		t.Fatalf("merged texts kept: %d after the first order, %d after the second of the same shape", entries, got)
	}
}
