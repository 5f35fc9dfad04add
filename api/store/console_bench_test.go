package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// BenchmarkConsoleOrders is GET /admin/orders's work on a store of 100,000 orders (5,000
// clients, four statuses, two gateways), on SQLite and on PostgreSQL: one filtered page of 50,
// then the next by its cursor (keyset paging). go test -run - -bench ConsoleOrders ./api/store/
// (the seeding takes seconds).
func BenchmarkConsoleOrders(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		benchConsoleOrders(b, storetest.SQLiteDB(b))
	})
	b.Run("postgres", func(b *testing.B) {
		benchConsoleOrders(b, storetest.PostgresDB(b))
	})
}

func benchConsoleOrders(b *testing.B, db string) {
	s, err := store.OpenURL(b.Context(), db)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	seedOrders(b, db, 100_000)
	c := console.New(s, nil, nil, nil)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	filters := []struct {
		name string
		f    console.OrderFilter
	}{
		{"all", console.OrderFilter{}},
		{"status=active", console.OrderFilter{Status: "active"}},
		{"status=fraud&gateway=stripe", console.OrderFilter{Status: "fraud", Gateway: "stripe"}},
		{"q=email", console.OrderFilter{Q: "buyer77@example.com"}},
		{"q=prefix", console.OrderFilter{Q: "buyer12"}},
		{"from-to", console.OrderFilter{From: start.Add(30 * 24 * time.Hour), To: start.Add(40 * 24 * time.Hour)}},
	}
	for _, f := range filters {
		b.Run(f.name, func(b *testing.B) {
			f.f.Limit = 50
			for b.Loop() {
				p, err := c.Orders(b.Context(), f.f, "")
				if err != nil {
					b.Fatal(err)
				}
				if p.Next != "" {
					if _, err := c.Orders(b.Context(), f.f, p.Next); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/2/1000, "ms/page")
		})
	}
}

// seedOrders writes n orders with their invoices straight into the database (the order
// service would take minutes), one transaction.
func seedOrders(b testing.TB, path string, n int) {
	b.Helper()
	db := storetest.Open(b, path)
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	bind := func(q string) string { return storetest.Rebind(path, q) }
	const clients = 5000
	for i := range clients {
		if _, err := tx.Exec(bind(`INSERT INTO clients (id, public_id, email, created_at) VALUES (?, ?, ?, ?)`),
			i+1, fmt.Sprintf("usr_%05d", i), fmt.Sprintf("buyer%d@example.com", i), "2026-01-01T00:00:00.000000Z"); err != nil {
			b.Fatal(err)
		}
	}
	statuses := []string{"active", "pending", "cancelled", "fraud"}
	gateways := []string{"sandbox", "stripe"}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ord, err := tx.Prepare(bind(`INSERT INTO orders (id, client_id, session_id, email, quote, total_amount, currency, status, ip, gateway, request_hash, created_at, updated_at)
		VALUES (?, ?, 'ses', ?, '{}', 1299, 'EUR', ?, '10.0.0.1', ?, '', ?, ?)`))
	if err != nil {
		b.Fatal(err)
	}
	inv, err := tx.Prepare(bind(`INSERT INTO invoices (id, order_id, client_id, amount, currency, status, gateway) VALUES (?, ?, ?, 1299, 'EUR', 'paid', ?)`))
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		id, client := fmt.Sprintf("ord_%08d", i), i%clients+1
		at := start.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000000Z")
		g := gateways[i%2]
		if _, err := ord.Exec(id, client, fmt.Sprintf("buyer%d@example.com", client-1), statuses[i%4], g, at, at); err != nil {
			b.Fatal(err)
		}
		if _, err := inv.Exec(fmt.Sprintf("inv_%08d", i), id, client, g); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(`ANALYZE`); err != nil {
		b.Fatal(err)
	}
}
