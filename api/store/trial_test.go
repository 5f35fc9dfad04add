package store_test

import (
	"fmt"
	"strings"
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

// Migration 0047 makes the unique indexes of invoices' number (both back ends) and transaction
// id (PostgreSQL; SQLite keeps its column constraint) partial, leaving out the NULLs of unpaid
// invoices, on a shop with orders, paid and unpaid: undone on such a shop and applied again, the
// indexes are partial, and a second invoice with a number or a transaction id already given is
// still refused while any number of unpaid ones have neither.
func TestInvoiceUniquesPartialAfterMigration(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx, db := t.Context(), b.NewDB(t)
		s, err := store.OpenURL(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		var invoices []string
		for i := range 3 {
			o, err := orders.Create(ctx, buyer(t, s, fmt.Sprintf("inv%d@example.com", i)), standardMonthly("203.0.113.60"))
			if err != nil {
				t.Fatal(err)
			}
			invoices = append(invoices, o.Invoice.ID)
		}
		storetest.Exec(t, db, `UPDATE invoices SET status = 'paid', number = 'INV-1', transaction_id = 'txn-1' WHERE id = ?`, invoices[0])
		pg := b.Name == "postgres"
		// Back to before 0047.
		storetest.Exec(t, db, `DROP INDEX invoices_number`)
		storetest.Exec(t, db, `CREATE UNIQUE INDEX invoices_number ON invoices (number)`)
		if pg {
			storetest.Exec(t, db, `DROP INDEX invoices_transaction_id`)
			storetest.Exec(t, db, `ALTER TABLE invoices ADD CONSTRAINT invoices_transaction_id_key UNIQUE (transaction_id)`)
		}
		storetest.Exec(t, db, `DELETE FROM schema_migrations WHERE version = 47`)
		if err := storetest.Inspect(s).Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		partial := map[string]bool{"invoices_number": true, "invoices_transaction_id": pg}
		for name, want := range partial {
			q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ? AND sql LIKE '% WHERE % IS NOT NULL'`
			if pg {
				q = `SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?
					AND indexdef LIKE '%UNIQUE%WHERE%IS NOT NULL%'`
			}
			if got := storetest.Count(t, db, q, name) == 1; got != want {
				t.Errorf("%s partial unique: %v, want %v", name, got, want)
			}
		}
		if pg {
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM pg_constraint WHERE conname = 'invoices_transaction_id_key'
				AND connamespace = current_schema()::regnamespace`); n != 0 {
				t.Errorf("invoices_transaction_id_key still there")
			}
		}
		for _, dup := range []string{`number = 'INV-1'`, `transaction_id = 'txn-1'`} {
			conn := storetest.Open(t, db)
			_, err := conn.ExecContext(ctx, `UPDATE invoices SET `+dup+` WHERE id = '`+invoices[1]+`'`)
			conn.Close()
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), "unique") {
				t.Errorf("second invoice with %s: %v, want a unique violation", dup, err)
			}
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM invoices WHERE number IS NULL AND transaction_id IS NULL`); n != 2 {
			t.Fatalf("%d unpaid invoices without number and transaction id, want 2", n)
		}
	})
}
