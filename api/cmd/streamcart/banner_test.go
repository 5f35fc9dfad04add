package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeBanner: serve prints, before any log line, the shop's address on localhost (the
// README's), the console's, that the sandbox takes no real money, and the command adding an
// operator to the same database.
func TestServeBanner(t *testing.T) {
	port, db, got := serveBanner(t)
	base := "http://localhost:" + port
	want := []string{
		"Shop:     " + base + "/checkout/",
		"Console:  " + base + "/checkout/admin/",
		"Payments: sandbox: no real money",
		"Operator: " + os.Args[0] + " operator add you@example.com --role owner --db " + db,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("first lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := operatorAddCommand(defaultDB); strings.Contains(c, "--db") {
		t.Fatalf("operatorAddCommand(default) = %q, want no --db", c)
	}
	if c := operatorAddCommand("postgres://u:secret@h/db"); strings.Contains(c, "secret") || !strings.HasPrefix(c, "STREAMCART_DB=… ") {
		t.Fatalf("operatorAddCommand(postgres URL) = %q, want it by its variable", c)
	}
}

// TestServeBannerStripeTestKey: a shop on Stripe with a test key (sk_test_…, the docs' stripe-mock
// recipe) takes no real money, as the test clock and the sandbox rule read it; the banner said
// "real money" (found by hand on the card-renewal walk). A live key still says real money.
func TestServeBannerStripeTestKey(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"sk_test_banner", "Payments: stripe (test keys): no real money"},
		{"rk_test_banner", "Payments: stripe (test keys): no real money"},
		{"sk_live_banner", "Payments: stripe: real money"},
	} {
		t.Run(c.key, func(t *testing.T) {
			_, _, got := serveBanner(t, "STREAMCART_GATEWAYS=stripe", "STREAMCART_PUBLIC_URL=http://127.0.0.1:9",
				"STREAMCART_STRIPE_SECRET_KEY="+c.key, "STREAMCART_STRIPE_WEBHOOK_SECRET=whsec_banner",
				"STREAMCART_STRIPE_API_URL=http://127.0.0.1:9")
			if len(got) < 3 || got[2] != c.want {
				t.Fatalf("banner:\n%s\nwant its third line %q", strings.Join(got, "\n"), c.want)
			}
		})
	}
}

// serveBanner starts serve on a free port and a fresh database with env added, and answers the
// port, the database and the first four lines it printed.
func serveBanner(t *testing.T, env ...string) (port, db string, got []string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	dir := t.TempDir()
	db = filepath.Join(dir, "s.db")
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:"+port, "--db", db)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "STREAMCART_TEST_RUN_MAIN=1"), env...)
	// One pipe for both streams: what comes first on a terminal comes first here.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		r.Close()
	})
	lines := make(chan []string, 1)
	go func() {
		var got []string
		sc := bufio.NewScanner(r)
		for len(got) < 4 && sc.Scan() {
			got = append(got, sc.Text())
		}
		lines <- got
	}()
	select {
	case got = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatal("no banner within 30 s")
	}
	return port, db, got
}
