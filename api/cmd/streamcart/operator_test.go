package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/testclock"
)

func TestOperatorCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var out bytes.Buffer
	if err := operatorCommand(t.Context(), []string{"operator", "add", "Me@Example.com", "--role", "owner", "--db", db, "--public-url", "https://shop.example"}, &out); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`https://shop\.example/checkout/admin/setup\?token=[A-Za-z0-9_-]{43}\n`).MatchString(out.String()) {
		t.Fatalf("add printed no setup link:\n%s", out.String())
	}
	out.Reset()
	if err := operatorCommand(t.Context(), []string{"operator", "list", "--db", db}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "me@example.com") || !strings.Contains(out.String(), "pending") {
		t.Fatalf("list:\n%s", out.String())
	}
	out.Reset()
	if err := operatorCommand(t.Context(), []string{"operator", "disable", "me@example.com", "--db", db}, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := operatorCommand(t.Context(), []string{"operator", "list", "--db", db}, &out); err != nil || !strings.Contains(out.String(), "disabled") {
		t.Fatalf("list after disable: %v\n%s", err, out.String())
	}
	// reset: a new setup link, the operator pending again (the way back from a lost authenticator).
	out.Reset()
	if err := operatorCommand(t.Context(), []string{"operator", "reset", "ME@example.com", "--db", db, "--public-url", "https://shop.example"}, &out); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`me@example\.com \(owner\) reset: .*\nhttps://shop\.example/checkout/admin/setup\?token=[A-Za-z0-9_-]{43}\n$`).MatchString(out.String()) {
		t.Fatalf("reset printed no setup link:\n%s", out.String())
	}
	out.Reset()
	if err := operatorCommand(t.Context(), []string{"operator", "list", "--db", db}, &out); err != nil || !strings.Contains(out.String(), "pending") {
		t.Fatalf("list after reset: %v\n%s", err, out.String())
	}
	for _, args := range [][]string{
		{"operator", "add", "me@example.com", "--role", "owner", "--db", db},   // exists
		{"operator", "add", "x@example.com", "--role", "admin", "--db", db},    // bad role
		{"operator", "add", "not-an-email", "--role", "viewer", "--db", db},    // bad email
		{"operator", "disable", "nobody@example.com", "--db", db},              // unknown
		{"operator", "reset", "nobody@example.com", "--db", db},                // unknown
		{"operator", "reset", "--db", db},                                      // no email
		{"operator", "list", "--db", filepath.Join(t.TempDir(), "missing.db")}, // no database
		{"operator", "rename", "--db", db},
	} {
		if err := operatorCommand(t.Context(), args, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestOperatorSetupLinkOnRealTime (issue 26, point 9: setup links read real time, as the shop
// checks them): with the test clock 30 days ahead, operator add and reset make links that expire
// 24 hours after real time, and say so. They were stamped on business time, so such a link
// stayed good for 31 days and the command printed a date a month ahead (found on the
// card-renewal walk, an operator added after clock advance).
func TestOperatorSetupLinkOnRealTime(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		st, err := store.OpenURL(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := testclock.Advance(t.Context(), payment.Config{}, st, 30*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		st.Close()
		until := regexp.MustCompile(`within 24 hours \(until ([0-9TZ:-]+)\)`)
		for _, args := range [][]string{
			{"operator", "add", "me@example.com", "--role", "owner", "--db", db, "--public-url", "https://shop.example"},
			{"operator", "reset", "me@example.com", "--db", db, "--public-url", "https://shop.example"},
		} {
			var out bytes.Buffer
			before := time.Now()
			if err := operatorCommand(t.Context(), args, &out); err != nil {
				t.Fatal(err)
			}
			after := time.Now()
			m := until.FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("%s printed no expiry:\n%s", args[1], out.String())
			}
			printed, err := time.Parse(time.RFC3339, m[1])
			if err != nil {
				t.Fatal(err)
			}
			if lo, hi := before.Add(24*time.Hour).Truncate(time.Second), after.Add(24*time.Hour); printed.Before(lo) || printed.After(hi) {
				t.Errorf("%s: link until %s, want 24 hours after real time (%s…%s)", args[1], printed, lo, hi)
			}
		}
		var latest string
		if err := storetest.Open(t, db).QueryRowContext(t.Context(), `SELECT MAX(expires_at) FROM operator_setup_tokens`).Scan(&latest); err != nil {
			t.Fatal(err)
		}
		if exp, err := time.Parse(time.RFC3339Nano, latest); err != nil || exp.After(time.Now().Add(24*time.Hour)) {
			t.Fatalf("stored expiry %q %v: want at most 24 hours after real time", latest, err)
		}
	})
}
