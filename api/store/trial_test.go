package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// Migration 0047 makes the unique indexes of invoices' number and transaction id partial,
// leaving out the NULLs of unpaid invoices, and on SQLite rebuilds invoices WITHOUT ROWID (with
// foreign keys off: a credit note refers to an invoice). Undone on a shop with paid and unpaid
// invoices and a credit note, and applied again: the indexes are partial, every invoice and its
// columns are kept, a second invoice with a number or a transaction id already given is refused,
// the credit note's foreign key and the order version's triggers still hold.
func TestInvoiceUniquesPartialAfterMigration(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx, db := t.Context(), b.NewDB(t)
		s, err := store.OpenURL(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		var placed []order.Order
		for i := range 3 {
			o, err := orders.Create(ctx, buyer(t, s, fmt.Sprintf("inv%d@example.com", i)), standardMonthly("203.0.113.60"))
			if err != nil {
				t.Fatal(err)
			}
			placed = append(placed, o)
		}
		paid := placed[0]
		storetest.Exec(t, db, `UPDATE invoices SET status = 'paid', number = 'INV-1', transaction_id = 'txn-1', paid_at = 'x' WHERE id = ?`, paid.Invoice.ID)
		storetest.Exec(t, db, `INSERT INTO credit_notes (id, number, refund_id, order_id, invoice_id, amount, currency, created_at)
			VALUES ('cn_1', 'CN-1', 'ref_1', ?, ?, 100, 'EUR', '')`, paid.ID, paid.Invoice.ID)
		pg := b.Name == "postgres"
		// Back to before 0047.
		if pg {
			storetest.Exec(t, db, `DROP INDEX invoices_number`)
			storetest.Exec(t, db, `CREATE UNIQUE INDEX invoices_number ON invoices (number)`)
			storetest.Exec(t, db, `DROP INDEX invoices_transaction_id`)
			storetest.Exec(t, db, `ALTER TABLE invoices ADD CONSTRAINT invoices_transaction_id_key UNIQUE (transaction_id)`)
		} else {
			storetest.Exec(t, db, `DROP TRIGGER invoices_order_version; DROP TRIGGER payment_quotes_order_version;
				DROP TRIGGER external_refs_order_version;
				CREATE TABLE invoices_old (id TEXT PRIMARY KEY, order_id TEXT NOT NULL UNIQUE REFERENCES orders(id),
					client_id INTEGER NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL,
					gateway TEXT NOT NULL, payment_url TEXT NOT NULL DEFAULT '', deadline TEXT NOT NULL DEFAULT '',
					transaction_id TEXT UNIQUE, paid_at TEXT NOT NULL DEFAULT '', number TEXT);
				INSERT INTO invoices_old SELECT id, order_id, client_id, amount, currency, status, gateway, payment_url, deadline,
					transaction_id, paid_at, number FROM invoices;
				DROP TABLE invoices; ALTER TABLE invoices_old RENAME TO invoices;
				CREATE UNIQUE INDEX invoices_number ON invoices (number);
				CREATE TRIGGER invoices_order_version AFTER UPDATE OF status, number, payment_url, deadline, gateway ON invoices
				BEGIN UPDATE orders SET version = version + 1 WHERE id = NEW.order_id; END;
				CREATE TRIGGER payment_quotes_order_version AFTER INSERT ON payment_quotes
				BEGIN UPDATE orders SET version = version + 1 WHERE id = (SELECT order_id FROM invoices WHERE id = NEW.invoice_id); END;
				CREATE TRIGGER external_refs_order_version AFTER INSERT ON external_refs WHEN NEW.scope = 'payment:processing'
				BEGIN UPDATE orders SET version = version + 1 WHERE id = (SELECT order_id FROM invoices WHERE id = NEW.key); END;`)
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'invoices' AND sql LIKE '%WITHOUT ROWID%'`); n != 0 {
				t.Fatal("undo left invoices WITHOUT ROWID")
			}
		}
		storetest.Exec(t, db, `DELETE FROM schema_migrations WHERE version = 47`)
		if err := storetest.Inspect(s).Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"invoices_number", "invoices_transaction_id"} {
			q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ? AND sql LIKE 'CREATE UNIQUE INDEX % WHERE % IS NOT NULL'`
			if pg {
				q = `SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?
					AND indexdef LIKE '%UNIQUE%WHERE%IS NOT NULL%'`
			}
			if storetest.Count(t, db, q, name) != 1 {
				t.Errorf("%s is not a partial unique index", name)
			}
		}
		if pg {
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM pg_constraint WHERE conname = 'invoices_transaction_id_key'
				AND connamespace = current_schema()::regnamespace`); n != 0 {
				t.Errorf("invoices_transaction_id_key still there")
			}
		} else {
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'invoices' AND sql LIKE '%WITHOUT ROWID%'`); n != 1 {
				t.Errorf("invoices not rebuilt WITHOUT ROWID")
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'invoices'
				AND name LIKE 'sqlite_autoindex_%'`); n != 1 {
				t.Errorf("invoices has %d automatic indexes, want 1 (order_id)", n)
			}
		}
		for _, o := range placed {
			got, err := s.Order(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := o.Invoice
			if o.ID == paid.ID {
				want.Status, want.Number, want.TransactionID = order.InvoicePaid, "INV-1", "txn-1"
			}
			got.Invoice.PaidAt, want.PaidAt, want.Deadline = time.Time{}, time.Time{}, want.Deadline.Truncate(time.Microsecond)
			if got.Invoice != want {
				t.Errorf("invoice after the migration\n got %+v\nwant %+v", got.Invoice, want)
			}
		}
		for _, dup := range []string{`number = 'INV-1'`, `transaction_id = 'txn-1'`} {
			conn := storetest.Open(t, db)
			_, err := conn.ExecContext(ctx, `UPDATE invoices SET `+dup+` WHERE id = '`+placed[1].Invoice.ID+`'`)
			conn.Close()
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), "unique") {
				t.Errorf("second invoice with %s: %v, want a unique violation", dup, err)
			}
		}
		// The shop's connections enforce the credit note's key; the triggers move the version.
		if err := s.WithTx(ctx, func(tx order.Tx) error {
			_, err := tx.SetOrderStatus(ctx, "ord_none", order.StatusPaid, order.StatusPending)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if pg {
			storetest.Exec(t, db, `UPDATE invoices SET payment_url = 'https://pay.example/x' WHERE id = ?`, placed[2].Invoice.ID)
		} else {
			conn := storetest.Open(t, db)
			_, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = ON; INSERT INTO credit_notes (id, number, refund_id, order_id,
				invoice_id, amount, currency, created_at) VALUES ('cn_2', 'CN-2', 'ref_2', '`+paid.ID+`', 'inv_none', 1, 'EUR', '')`)
			conn.Close()
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), "foreign key") {
				t.Errorf("credit note of no invoice: %v, want a foreign key violation", err)
			}
			storetest.Exec(t, db, `UPDATE invoices SET payment_url = 'https://pay.example/x' WHERE id = ?`, placed[2].Invoice.ID)
		}
		if got, err := s.Order(ctx, placed[2].ID); err != nil || got.Version != placed[2].Version+1 {
			t.Errorf("order version after its invoice's link changed: %d, %v; want %d", got.Version, err, placed[2].Version+1)
		}
	})
}
