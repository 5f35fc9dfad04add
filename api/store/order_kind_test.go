package store_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// Every kind of order is placed by one path and stored with its kind, which every read gives
// back: the fulfilment of a paid order is looked up by it.
func TestOrderKindIsStored(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "kind@example.com")
		plan, err := orders.Create(t.Context(), claims, standardMonthly("203.0.113.40"))
		if err != nil {
			t.Fatal(err)
		}
		placed := map[order.Kind]string{order.KindPlan: plan.ID}
		for _, kind := range []order.Kind{order.KindUpsell, order.KindReseller} {
			total := money.Money{Amount: 500, Currency: "EUR"}
			o, err := orders.Place(t.Context(), claims, order.Placement{Kind: kind, ID: order.NewOrderID(),
				Quote: pricing.Quote{PID: 2, Cycle: catalog.Monthly, Currency: "EUR", Subtotal: total, Total: total}, IP: "203.0.113.40"})
			if err != nil {
				t.Fatal(err)
			}
			placed[kind] = o.ID
		}
		for kind, id := range placed {
			o, err := s.Order(t.Context(), id)
			if err != nil || o.Kind != kind {
				t.Errorf("order %s read as kind %q (%v), placed as %q", id, o.Kind, err, kind)
			}
			if o, err = s.InvoiceOrder(t.Context(), o.Invoice.ID); err != nil || o.Kind != kind {
				t.Errorf("invoice order %s read as kind %q (%v), placed as %q", id, o.Kind, err, kind)
			}
		}
	})
}

// Orders stored before kinds existed are given the kind their upsell or reseller purchase
// records (migration 0014); any other is a plan.
func TestOrderKindBackfill(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		s, err := store.OpenURL(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) { t.Helper(); storetest.Exec(t, db, q, args...) }
		// The database as it was before 0014: no kind column, the migration not applied.
		exec(`ALTER TABLE orders DROP COLUMN kind`)
		exec(`DELETE FROM schema_migrations WHERE version = 14`)
		exec(`INSERT INTO clients (id, email, created_at) VALUES (1, 'old@example.com', '2026-01-01T00:00:00Z')`)
		for _, id := range []string{"ord_plan", "ord_upsell", "ord_reseller"} {
			exec(`INSERT INTO orders (id, client_id, session_id, email, quote, total_amount, currency, status, ip, gateway,
				request_hash, created_at, updated_at) VALUES (?, 1, 's', 'old@example.com', '{}', 100, 'EUR', 'active', '127.0.0.1', 'sandbox', 'h', '', '')`, id)
			exec(`INSERT INTO invoices (id, order_id, client_id, amount, currency, status, gateway) VALUES (?, ?, 1, 100, 'EUR', 'paid', 'sandbox')`, "inv_"+id, id)
		}
		exec(`INSERT INTO upsells (order_id, service_id, extra_quantity, created_at) VALUES ('ord_upsell', 'svc_1', 1, '')`)
		exec(`INSERT INTO reseller_orders (order_id, service_id, client_id, session_id, pid, credits, created_at)
			VALUES ('ord_reseller', 'svc_2', 1, 's', 10, 100, '')`)
		s.Close()
		if s, err = store.OpenURL(t.Context(), db); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		for id, want := range map[string]order.Kind{"ord_plan": order.KindPlan, "ord_upsell": order.KindUpsell, "ord_reseller": order.KindReseller} {
			if o, err := s.Order(t.Context(), id); err != nil || o.Kind != want {
				t.Errorf("%s: kind %q (%v), want %q", id, o.Kind, err, want)
			}
		}
	})
}
