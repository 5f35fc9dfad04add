package store_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// Migration 0024 records the trials started before it: a line still flagged trial, and a free
// plan order whose line was converted (a renewal applied, another plan than the order's); never a
// paid plan. Their addresses are kept in the canonical form. The migration is undone on a shop
// with such orders and applied again.
func TestTrialStartsBackfilledFromOlderOrders(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx, db := t.Context(), b.NewDB(t)
		s, err := store.OpenURL(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		trialReq := order.Request{Quote: pricing.Request{PID: 1, Cycle: catalog.OneTime}, IP: "203.0.113.50"}
		kept, err := orders.Create(ctx, buyer(t, s, "f.o.o+x@googlemail.com"), trialReq)
		if err != nil {
			t.Fatal(err)
		}
		converted, err := orders.Create(ctx, buyer(t, s, "Bar+y@Example.com"), trialReq)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := orders.Create(ctx, buyer(t, s, "paid@example.com"), standardMonthly("203.0.113.50")); err != nil {
			t.Fatal(err)
		}
		// converted's line as a conversion leaves it: the Standard plan, no longer a trial.
		storetest.Exec(t, db, `UPDATE services SET trial = ?, pid = 2 WHERE order_id = ?`, false, converted.ID)
		storetest.Exec(t, db, `INSERT INTO renewals (order_id, service_id, period_start, period_end, cycle_months, created_at,
			applied_at) VALUES ('ord_conversion', ?, '2026-01-02T00:00:00.000000Z', '2026-02-02T00:00:00.000000Z', 1,
			'2026-01-01T00:00:00.000000Z', '2026-01-01T01:00:00.000000Z')`, converted.ServiceIDs[0])
		// Back to before 0024.
		storetest.Exec(t, db, `DROP TABLE trial_starts`)
		for _, c := range []string{"trial_pid", "trial_name", "trial_cycle", "trial_connections"} {
			storetest.Exec(t, db, `ALTER TABLE renewals DROP COLUMN `+c)
		}
		storetest.Exec(t, db, `DELETE FROM schema_migrations WHERE version = 24`)
		if err := storetest.Inspect(s).Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			orderID, email string
		}{{kept.ID, "foo@gmail.com"}, {converted.ID, "bar@example.com"}} {
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM trial_starts WHERE order_id = ? AND email_key = ? AND ip = ?`,
				c.orderID, c.email, "203.0.113.50"); n != 1 {
				t.Fatalf("trial start of %s as %s: %d rows, want 1", c.orderID, c.email, n)
			}
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM trial_starts`); n != 2 {
			t.Fatalf("%d trial starts, want 2 (the paid plan is none)", n)
		}
	})
}
