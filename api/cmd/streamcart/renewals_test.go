package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
)

func TestRenewalsListPrintsEachService(t *testing.T) {
	due := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	err := printRenewals(&out, []renewal.Listed{
		{ServiceID: "svc_1", Email: "a@example.com", Due: due, Status: order.ServiceActive, OpenInvoice: "inv_1", AutoRenew: true},
		{ServiceID: "svc_2", Email: "b\x1b[31m@example.com", Due: due, Status: order.ServiceSuspended},
		{ServiceID: "svc_3", Email: "c@example.com", Due: due, Status: order.ServiceOverdue, SavedCard: true, AutoRenew: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := [][]string{
		{"SERVICE", "CLIENT", "DUE", "STATUS", "OPEN INVOICE", "AUTO-RENEW"},
		{"svc_1", "a@example.com", "2026-12-01T09:30:00Z", "Active", "inv_1", "yes"},
		{"svc_2", "@example.com", "Suspended", " - ", "no"},
		{"svc_3", "c@example.com", "Overdue", " - ", "card"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, fields := range want {
		for _, f := range fields {
			if !strings.Contains(lines[i], f) {
				t.Errorf("line %d %q lacks %q", i, lines[i], f)
			}
		}
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("a control character reached the terminal:\n%q", out.String())
	}
}

func TestRenewalsListCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, args := range [][]string{{"renewals", "list", "--db", db}, {"renewals", "list", "--db", db, "--due-within", "14d"}} {
		if err := run(args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	for _, args := range [][]string{{"renewals"}, {"renewals", "list", "--db", db, "--due-within", "soon"},
		{"renewals", "list", "--db", filepath.Join(t.TempDir(), "missing.db")}} {
		if err := run(args); err == nil {
			t.Fatalf("%v: no error", args)
		}
	}
}
