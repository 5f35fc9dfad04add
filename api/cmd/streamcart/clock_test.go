package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/testclock"
)

func clockCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := clockCommand(t.Context(), append([]string{"clock"}, args...), &out)
	return out.String(), err
}

// runningShop serves a shop on db (worker, catalog and clock watch every 10 ms) until the test ends.
func runningShop(t *testing.T, db string) *app.App {
	t.Helper()
	a, err := app.Open(t.Context(), app.Config{DB: db, Addr: "127.0.0.1:0", CatalogPoll: 10 * time.Millisecond,
		JobLease: 30 * time.Second, JobPoll: time.Hour, ShutdownTimeout: 5 * time.Second}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		a.Close()
	})
	return a
}

// waitAhead polls until a's business time is d ahead of real time (to the minute); the deadline
// only keeps a broken build from hanging.
func waitAhead(t *testing.T, a *app.App, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if ahead := time.Until(a.Now()); ahead > d-time.Minute && ahead < d+time.Minute {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the running shop never read the test clock at +%s (it is at %s)", d, time.Until(a.Now()))
		}
	}
}

// `streamcart clock advance|show|reset --db` moves the business time of a shop running on the
// same database, cumulatively, and back.
func TestClockCommandMovesARunningShop(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		shop := runningShop(t, db)

		out, err := clockCLI(t, "show", "--db", db)
		if err != nil || !strings.Contains(out, "offset     0s") || !strings.Contains(out, "shop time") || !strings.Contains(out, "real time") {
			t.Fatalf("clock show on a fresh shop: %v\n%s", err, out)
		}
		steps := []struct {
			by, want string
			ahead    time.Duration
		}{
			{"26d", "now 26d ahead", 26 * 24 * time.Hour},
			{"36h", "now 27d12h ahead", 27*24*time.Hour + 12*time.Hour},
		}
		for _, s := range steps {
			out, err := clockCLI(t, "advance", s.by, "--db", db)
			if err != nil || !strings.Contains(out, s.want) {
				t.Fatalf("clock advance %s: %v\n%s", s.by, err, out)
			}
			waitAhead(t, shop, s.ahead)
		}
		if out, err := clockCLI(t, "show", "--db", db); err != nil || !strings.Contains(out, "offset     27d12h") {
			t.Fatalf("clock show after advancing: %v\n%s", err, out)
		}
		if out, err := clockCLI(t, "reset", "--db", db); err != nil || !strings.Contains(out, "back on real time") {
			t.Fatalf("clock reset: %v\n%s", err, out)
		}
		waitAhead(t, shop, 0)
	})
}

// advance is refused (exit 1 with the reason) where real money moves, for a database that does
// not exist, and for anything but one positive duration; show and reset take no argument.
func TestClockCommandRefusals(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.db")
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	tests := []struct {
		name string
		args []string
		is   error
		says string
	}{
		{"live stripe", []string{"advance", "1d", "--gateways", "stripe"}, payment.ErrTestClockLive, "stripe takes real money"},
		{"coinbase", []string{"advance", "1d", "--gateways", "sandbox-coinbase"}, payment.ErrTestClockLive, "coinbase takes real money"},
		{"cryptomus", []string{"advance", "1d", "--gateways", "cryptomus"}, payment.ErrTestClockLive, "STREAMCART_TEST_MODE=true"},
		{"no database", []string{"advance", "1d", "--db", filepath.Join(t.TempDir(), "typo.db")}, nil, "does not exist"},
		{"show no database", []string{"show", "--db", filepath.Join(t.TempDir(), "typo.db")}, nil, "does not exist"},
		{"no duration", []string{"advance"}, nil, "want one DURATION"},
		{"negative", []string{"advance", "-2d"}, nil, "-2d"},
		{"zero", []string{"advance", "0h"}, nil, "positive number of days"},
		{"not a duration", []string{"advance", "soon"}, nil, "positive number of days"},
		{"show argument", []string{"show", "1d"}, nil, "unexpected argument"},
		{"unknown", []string{"rewind"}, nil, "want advance DURATION, show or reset"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "--db") {
				args = append(args, "--db", db)
			}
			_, err := clockCLI(t, args...)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("clock %v: %v, want an error saying %q", tc.args, err, tc.says)
			}
		})
	}
	if offset := storedOffset(t, db); offset != 0 {
		t.Fatalf("refused advances moved the clock to %s", offset)
	}
	// The same live gateway in a shop that takes no real money: allowed.
	if out, err := clockCLI(t, "advance", "1d", "--gateways", "stripe", "--test-mode", "--db", db); err != nil {
		t.Fatalf("clock advance with --test-mode: %v\n%s", err, out)
	}
	if offset := storedOffset(t, db); offset != 24*time.Hour {
		t.Fatalf("offset after advance 1d: %s", offset)
	}
}

func storedOffset(t *testing.T, db string) time.Duration {
	t.Helper()
	st, err := store.OpenURL(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := testclock.Offset(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestFormatSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 26 * 24 * time.Hour: "26d", 36 * time.Hour: "1d12h", 90 * time.Minute: "1h30m",
		27*24*time.Hour + 12*time.Hour: "27d12h", time.Hour + 30*time.Second: "1h0m30s", 45 * time.Second: "45s",
	} {
		if got := formatSpan(d); got != want {
			t.Errorf("formatSpan(%s) = %q, want %q", d, got, want)
		}
	}
}
