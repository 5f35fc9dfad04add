package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `streamcart tax report` wants both dates, reads an existing database, and writes a table or CSV.
func TestTaxReportCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	if err := run([]string{"migrate", "--db", db}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"tax"}, {"tax", "list"}, {"tax", "report", "--db", db}, {"tax", "report", "--db", db, "--from", "2026-01-01"},
		{"tax", "report", "--db", db, "--from", "2026-04-01", "--to", "2026-03-31"}} {
		if err := run(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	out := captureStdout(t, func() error {
		return run([]string{"tax", "report", "--db", db, "--from", "2026-01-01", "--to", "2026-03-31"})
	})
	if !strings.Contains(out, "2026-01-01 to 2026-03-31") || !strings.Contains(out, "No taxed invoice") {
		t.Errorf("table: %q", out)
	}
	out = captureStdout(t, func() error {
		return run([]string{"tax", "report", "--db", db, "--from", "2026-01-01", "--to", "2026-03-31", "--csv"})
	})
	if out != "country,rate,currency,invoices,credit_notes,net,tax,gross\n" {
		t.Errorf("CSV: %q", out)
	}
}
