package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/store"
)

// The built-in panel's CLI changes one line by its username and nothing else, lists the lines,
// and reads and sets the credit balance; bad arguments change nothing.
func TestPanelCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	exp := time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
	for _, l := range []panel.Line{
		{Ref: "svc_a", Username: "sca", Password: "111111111111", MaxConnections: 2, ExpiresAt: exp, Enabled: true},
		{Ref: "svc_b", Username: "scb", Password: "222222222222", MaxConnections: 1, ExpiresAt: exp, Enabled: true, MAC: "00:1A:79:00:00:01"},
	} {
		if _, _, err := st.InsertLine(t.Context(), l, exp.AddDate(0, -1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	cmd := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := panelCommand(t.Context(), append(append([]string{"panel"}, args...), "--db", db), &out)
		return out.String(), err
	}
	for _, args := range [][]string{
		{"disable", "sca"}, {"set-expiry", "sca", "2026-12-01"}, {"set-connections", "sca", "5"}, {"delete", "scb"}, {"credits", "7"},
	} {
		if out, err := cmd(args...); err != nil || out == "" {
			t.Fatalf("panel %v: %q, %v", args, out, err)
		}
	}
	for _, args := range [][]string{
		{"delete", "nobody"}, {"set-expiry", "sca", "tomorrow"}, {"set-connections", "sca", "0"}, {"credits", "-1"},
		{"credits", "many"}, {"disable"}, {"frobnicate", "sca"},
	} {
		if _, err := cmd(args...); err == nil {
			t.Fatalf("panel %v: no error", args)
		}
	}
	st, err = store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.LineByRef(t.Context(), "svc_a")
	if err != nil {
		t.Fatal(err)
	}
	if a.Enabled || !a.ExpiresAt.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) || a.MaxConnections != 5 || a.Password != "111111111111" {
		t.Fatalf("line a after the commands: %+v", a)
	}
	if _, err := st.LineByRef(t.Context(), "svc_b"); err == nil {
		t.Fatal("line b was not deleted")
	}
	if n, err := st.PanelCredits(t.Context()); err != nil || n != 7 {
		t.Fatalf("credits %d, %v; want 7", n, err)
	}
	out, err := cmd("credits")
	if err != nil || strings.TrimSpace(out) != "7" {
		t.Fatalf("panel credits: %q, %v", out, err)
	}
	out, err = cmd("list")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 2 || !strings.Contains(rows[1], "sca") || !strings.Contains(rows[1], "svc_a") || !strings.Contains(rows[1], " no ") {
		t.Fatalf("panel list:\n%s", out)
	}
}
