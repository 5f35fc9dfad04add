package payment_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// StripeMockVersion pins the stripe-mock the tests run (github.com/stripe/stripe-mock, a Go
// module). `make test` installs it; without STREAMCART_STRIPE_MOCK the tests install it
// themselves from the module proxy into a temporary GOBIN.
const StripeMockVersion = "v0.203.0"

var stripeMock struct {
	once   sync.Once
	client *http.Client
	err    error
	stop   func()
}

// TestMain stops the shared stripe-mock after the package's tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if stripeMock.stop != nil {
		stripeMock.stop()
	}
	os.Exit(code)
}

// stripeMockClient starts stripe-mock once for the package, listening on a unix socket (no port
// to race for), and returns an HTTP client that reaches it whatever host a URL names.
func stripeMockClient(t *testing.T) *http.Client {
	t.Helper()
	stripeMock.once.Do(func() { stripeMock.client, stripeMock.err = startStripeMock() })
	if stripeMock.err != nil {
		t.Fatalf("stripe-mock %s is required: %v", StripeMockVersion, stripeMock.err)
	}
	return stripeMock.client
}

func startStripeMock() (*http.Client, error) {
	dir, err := os.MkdirTemp("", "stripe-mock-")
	if err != nil {
		return nil, err
	}
	bin := os.Getenv("STREAMCART_STRIPE_MOCK")
	if bin == "" {
		bin = filepath.Join(dir, "stripe-mock")
		install := exec.Command("go", "install", "github.com/stripe/stripe-mock@"+StripeMockVersion)
		install.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
		if out, err := install.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go install stripe-mock: %v\n%s", err, out)
		}
	}
	sock := filepath.Join(dir, "stripe.sock")
	cmd := exec.Command(bin, "-http-unix", sock)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	stripeMock.stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	}
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: dial}}
	// Readiness, not timing: wait until the socket answers (stripe-mock loads its spec first).
	for range 600 {
		conn, err := dial(context.Background(), "", "")
		if err == nil {
			conn.Close()
			return client, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, fmt.Errorf("stripe-mock did not open %s", sock)
}
