package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// An entry's parts are kept beside its English detail and read back as written, by the audit
// page and by the list; an entry without parts reads back without them (nil, not empty).
func TestAuditArgsRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		at := time.Date(2026, 11, 29, 5, 0, 0, 0, time.UTC)
		parts := []string{"line-change", "ord_1", "chg_1", "é \"quoted\""}
		for _, e := range []audit.Entry{
			{Operator: "o@example.com", Action: "console-signout", Target: "operator:o@example.com", Result: "ok", At: at},
			{Operator: "o@example.com", Action: "line-change", Target: "svc_1", Result: "ok", Detail: "order ord_1 paid: change chg_1 applied", Args: parts, At: at},
			{Operator: "o@example.com", Action: "line-change", Target: "svc_2", Result: "ok", Detail: "x", Args: []string{}, At: at},
		} {
			if err := s.InsertAudit(t.Context(), e); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := s.AuditPage(t.Context(), console.AuditFilter{Limit: 10})
		if err != nil || len(rows) != 3 {
			t.Fatalf("audit page: %d rows, %v", len(rows), err)
		}
		want := [][]string{{}, parts, nil} // newest first
		for i, r := range rows {
			if !reflect.DeepEqual(r.Args, want[i]) {
				t.Errorf("page row %d (%s): args %#v, want %#v", i, r.Target, r.Args, want[i])
			}
		}
		list, err := s.ListAudit(t.Context(), "svc_1", 10)
		if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].Args, parts) {
			t.Fatalf("list: %+v, %v", list, err)
		}
	})
}

// Migration 0051 on a database with entries written before it: they keep their detail and read
// back without parts; entries written after keep theirs.
func TestAuditArgsMigrationKeepsOldRows(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		s, err := store.OpenURL(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		exec := func(q string, args ...any) { t.Helper(); storetest.Exec(t, db, q, args...) }
		// The database as it was before 0051: no args column, the migration not applied.
		exec(`ALTER TABLE audit_log DROP COLUMN args`)
		exec(`DELETE FROM schema_migrations WHERE version = 51`)
		exec(`INSERT INTO audit_log (client_id, session_id, operator, action, target, result, detail, ip, at)
			VALUES (0, '', 'o@example.com', 'order-refund', 'ord_1', 'ok', '10.00 EUR by hand: damaged', '', '2026-11-01T00:00:00Z')`)
		if s, err = store.OpenURL(t.Context(), db); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.InsertAudit(t.Context(), audit.Entry{Operator: "o@example.com", Action: "payment-accept", Target: "pay_1", Result: "ok",
			Detail: "new", Args: []string{"payment-accept", "ord_1"}, At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}); err != nil {
			t.Fatal(err)
		}
		rows, err := s.AuditPage(t.Context(), console.AuditFilter{Limit: 10})
		if err != nil || len(rows) != 2 {
			t.Fatalf("audit page: %d rows, %v", len(rows), err)
		}
		if r := rows[1]; r.Detail != "10.00 EUR by hand: damaged" || r.Args != nil {
			t.Errorf("old row: detail %q args %#v", r.Detail, r.Args)
		}
		if r := rows[0]; !reflect.DeepEqual(r.Args, []string{"payment-accept", "ord_1"}) {
			t.Errorf("new row: args %#v", r.Args)
		}
	})
}
