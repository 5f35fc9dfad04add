package main

// An internal test: package main cannot be imported by an external test package.

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/store"
)

func TestPrintable(t *testing.T) {
	cases := []struct{ in, want, wantText string }{
		{"plain ascii", "plain ascii", "plain ascii"},
		{"Grüße, 東京 🎉", "Grüße, 東京 🎉", "Grüße, 東京 🎉"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\a`, `\x1b]0;pwned\a`},
		{"a\tb\nc\rd", `a\tb\nc\rd`, "a\\tb\nc\\rd"},
		{"csi\u009b2J del\x7f", `csi\u009b2J del\x7f`, `csi\u009b2J del\x7f`},
		{"bidi \u202egnp.exe", `bidi \u202egnp.exe`, `bidi \u202egnp.exe`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{`back\slash`, `back\\slash`, `back\\slash`},
	}
	for _, tc := range cases {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := printableText(tc.in); got != tc.wantText {
			t.Errorf("printableText(%q) = %q, want %q", tc.in, got, tc.wantText)
		}
	}
}

// TestListingsEscapeStoredControls: escape sequences stored by buyers (an email address, a
// subject, a body), by requests (an affiliate id, an audit detail) reach no listing raw.
func TestListingsEscapeStoredControls(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	const evil = "\x1b]0;owned\x07\x1b[2J"
	if err := mail.NewOutbox(st, nil, nil).Send(t.Context(), mail.Message{To: "a" + evil + "@example.com", Subject: "hi" + evil, Body: "line 1\nline 2" + evil}); err != nil {
		t.Fatal(err)
	}
	if err := st.InsertClick(t.Context(), affiliate.Click{AffID: "42" + evil, At: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	audit.New(st, nil, nil).Record(t.Context(), authz.Claims{SessionID: "ses" + evil}, "mac", "svc"+evil, "00:11"+evil, nil)
	st.Close()

	for _, args := range [][]string{
		{"mail", "list", "--db", db},
		{"mail", "show", "1", "--db", db},
		{"affiliates", "report", "--db", db},
		{"audit", "list", "--db", db},
	} {
		out := captureStdout(t, func() error { return afterSaleCommand(t.Context(), args) })
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s printed a raw escape: %q", strings.Join(args[:2], " "), out)
		}
		if !strings.Contains(out, `\x1b]0;owned\a\x1b[2J`) {
			t.Errorf("%s does not show the stored text escaped: %q", strings.Join(args[:2], " "), out)
		}
	}
	if out := captureStdout(t, func() error { return afterSaleCommand(t.Context(), []string{"mail", "show", "1", "--db", db}) }); !strings.Contains(out, "line 1\nline 2") {
		t.Errorf("mail show lost the body's line breaks: %q", out)
	}
}

// captureStdout runs f with os.Stdout redirected and returns what it printed.
func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, r)
		done <- b.Bytes()
	}()
	ferr := f()
	os.Stdout = saved
	w.Close()
	out := <-done
	if ferr != nil {
		t.Fatalf("command: %v", ferr)
	}
	return string(out)
}
