package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/store"
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
