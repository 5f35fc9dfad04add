package faulttest_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to read the database from the outside
)

// binary is the streamcart command built once for the whole package by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "streamcart-faulttest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "streamcart")
	if err := build(binary); err != nil {
		fmt.Fprintln(os.Stderr, "build streamcart:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles cmd/streamcart from the module root into bin.
func build(bin string) error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	// As make build builds it (with api/cmd/streamcart/default.pgo): the binary that ships, and
	// one compile of its packages shared with make build instead of a second one without the
	// profile.
	cmd := exec.Command("go", "build", "-o", bin, "./api/cmd/streamcart")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(out)))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w\n%s", err, out)
	}
	return nil
}

// adminURL is a PostgreSQL database the tests connect to in order to create their own.
func adminURL() string {
	if u := os.Getenv("STREAMCART_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// cluster is one fresh PostgreSQL database and the replicas serving it.
type cluster struct {
	t      *testing.T
	url    string  // the database, as STREAMCART_DB
	db     *sql.DB // the test's own connection, to check rows
	secret string  // STREAMCART_SECRET_KEY shared by every replica
	env    []string
}

// newCluster creates a database of the test's own (dropped at cleanup, after every replica
// started later has been stopped: cleanups run last-registered first).
func newCluster(t *testing.T, env ...string) *cluster {
	t.Helper()
	admin, err := sql.Open("pgx", adminURL())
	if err != nil {
		t.Fatalf("postgres admin %s: %v", adminURL(), err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "streamcart_ft_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(t.Context(), `CREATE DATABASE `+name); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL is required (STREAMCART_TEST_POSTGRES=%s): %v", adminURL(), err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		// Generous: on a loaded 2-core machine a forced drop of a busy database took over 30 s.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(ctx, `DROP DATABASE `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(adminURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	c := &cluster{t: t, url: u.String(), env: env}
	if c.db, err = sql.Open("pgx", c.url); err != nil {
		t.Fatal(err)
	}
	c.db.SetMaxOpenConns(2)
	t.Cleanup(func() { c.db.Close() })
	key := make([]byte, 32)
	rand.Read(key)
	c.secret = base64.StdEncoding.EncodeToString(key)
	return c
}

// replica is one `streamcart serve` process; restart starts a new one on the same address.
type replica struct {
	c    *cluster
	name string
	addr string
	base string // http://addr

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	logs bytes.Buffer // every process's stderr, in order
}

func (r *replica) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.Write(b)
}

// replica starts a replica on a free port and waits until it is ready.
func (c *cluster) replica(name string, env ...string) *replica {
	c.t.Helper()
	r := &replica{c: c, name: name, addr: freeAddr(c.t)}
	r.base = "http://" + r.addr
	c.t.Cleanup(func() {
		r.stop(syscall.SIGKILL)
		if c.t.Failed() {
			r.mu.Lock()
			logs := r.logs.String()
			r.mu.Unlock()
			if len(logs) > 20000 {
				logs = "…" + logs[len(logs)-20000:]
			}
			c.t.Logf("replica %s (%s) output:\n%s", name, r.addr, logs)
		}
	})
	r.start(env...)
	return r
}

// start runs a new process on the replica's address with the cluster's settings, then env.
func (r *replica) start(env ...string) {
	t := r.c.t
	t.Helper()
	cmd := exec.Command(binary, "serve", "--addr", r.addr)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(),
		"STREAMCART_DB="+r.c.url,
		"STREAMCART_SECRET_KEY="+r.c.secret,
		"STREAMCART_GEO_DB=",
		"STREAMCART_JOB_LEASE=2s",
		"STREAMCART_JOB_POLL=100ms",
		"STREAMCART_SHUTDOWN_TIMEOUT=5s",
		"STREAMCART_TRUST_PROXY=true",
		// The per-IP check runs (and locks per address) but never holds a trial's orders.
		"STREAMCART_FRAUD_MAX_ORDERS_PER_IP=100000",
		// Load from one proxy address: the per-address rate limits have their own tests.
		"STREAMCART_RATE_LIMITS=off",
	)
	cmd.Env = append(cmd.Env, r.c.env...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = r, r
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // a crashed test leaves no replica behind
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r.mu.Lock()
	r.cmd, r.done = cmd, done
	r.mu.Unlock()
	eventually(t, "replica "+r.name+" to be ready", func() bool {
		select {
		case <-done:
			t.Fatalf("replica %s exited early: %v", r.name, cmd.ProcessState)
		default:
		}
		resp, err := http.Get(r.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

// stop sends sig to the running process, if any, and waits for it to exit.
func (r *replica) stop(sig syscall.Signal) {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	select {
	case <-done:
		return
	default:
	}
	cmd.Process.Signal(sig)
	<-done
}

// freeAddr returns a loopback address whose port is free right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// eventually polls cond every 50 ms until it holds; the deadline only keeps a broken build from
// hanging (no test asserts how long anything takes).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting: %s", what)
		case <-tick.C:
		}
	}
}

// count runs a COUNT query on the cluster's database.
func (c *cluster) count(query string, args ...any) int {
	c.t.Helper()
	var n int
	if err := c.db.QueryRowContext(c.t.Context(), query, args...).Scan(&n); err != nil {
		c.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// buyer is one shop client: a session and an address of its own (sent as X-Forwarded-For, which
// the replicas trust), so the per-IP fraud lock does not serialise the buyers.
type buyer struct {
	email, ip, token string
	http             *http.Client
}

// errTransport marks a request whose answer never arrived (the replica died or refused): it may
// or may not have been applied, so the caller repeats it, idempotently.
var errTransport = errors.New("no answer")

func newHTTPClient() *http.Client {
	return &http.Client{
		Timeout:       30 * time.Second,
		Transport:     &http.Transport{MaxIdleConnsPerHost: 4},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// do sends a request and decodes a JSON answer into out (when non-nil and 2xx).
func (b *buyer) do(ctx context.Context, method, rawURL string, header http.Header, body io.Reader, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return 0, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("X-Forwarded-For", b.ip)
	if b.token != "" {
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w: %v", method, rawURL, errTransport, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w: %v", method, rawURL, errTransport, err)
	}
	if resp.StatusCode >= 500 {
		// A 5xx may come from a replica losing its database connection mid-request.
		return resp.StatusCode, fmt.Errorf("%s %s: %w: %d %s", method, rawURL, errTransport, resp.StatusCode, raw)
	}
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w", method, rawURL, err)
		}
	}
	return resp.StatusCode, nil
}

func jsonHeader() http.Header { return http.Header{"Content-Type": {"application/json"}} }

// signIn opens the buyer's session at base.
func (b *buyer) signIn(ctx context.Context, base string) error {
	var res struct{ Token string }
	code, err := b.do(ctx, http.MethodPost, base+"/checkout/api/session", jsonHeader(),
		strings.NewReader(`{"email":"`+b.email+`"}`), &res)
	if err != nil {
		return err
	}
	if code != http.StatusCreated && code != http.StatusOK || res.Token == "" {
		return fmt.Errorf("POST /session %s: %d", b.email, code)
	}
	b.token = res.Token
	return nil
}

// orderResult is the part of an order answer the trials read.
type orderResult struct {
	OrderID    string   `json:"orderId"`
	InvoiceID  string   `json:"invoiceId"`
	Status     string   `json:"status"`
	PaymentURL string   `json:"paymentUrl"`
	ServiceIDs []string `json:"serviceIds"`
}

// standardMonthly is the order body of every trial: a paid plan (12.99 EUR a month).
const standardMonthly = `{"pid":2,"billingCycle":"monthly"}`

// order places an order under an idempotency key at base.
func (b *buyer) order(ctx context.Context, base, key string) (orderResult, error) {
	var o orderResult
	h := jsonHeader()
	h.Set("Idempotency-Key", key)
	code, err := b.do(ctx, http.MethodPost, base+"/checkout/api/orders", h, strings.NewReader(standardMonthly), &o)
	if err != nil {
		return o, err
	}
	if code/100 != 2 || o.OrderID == "" {
		return o, fmt.Errorf("POST /orders key %s: %d", key, code)
	}
	return o, nil
}

// pay posts the sandbox "Pay" button of paymentURL at base; it returns the status code (303 paid
// now, 409 already settled).
func (b *buyer) pay(ctx context.Context, base, paymentURL string) (int, error) {
	// The payment URL is on the address of the replica that made it; a trial pays it through
	// whichever replica it chooses.
	if u, err := url.Parse(paymentURL); err == nil {
		paymentURL = u.RequestURI()
	}
	return b.do(ctx, http.MethodPost, base+paymentURL, http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
		strings.NewReader(url.Values{"action": {"pay"}}.Encode()), nil)
}

// getOrder reads an order at base.
func (b *buyer) getOrder(ctx context.Context, base, id string) (orderResult, error) {
	var o orderResult
	code, err := b.do(ctx, http.MethodGet, base+"/checkout/api/orders/"+id, nil, nil, &o)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("GET /orders/%s: %d", id, code)
	}
	return o, err
}

// serviceResult is the part of a service answer the trials read.
type serviceResult struct {
	Status   string `json:"status"`
	Username string `json:"username"`
	Password string `json:"password"`
}

// getService reads a service at base.
func (b *buyer) getService(ctx context.Context, base, id string) (serviceResult, error) {
	var v serviceResult
	code, err := b.do(ctx, http.MethodGet, base+"/checkout/api/services/"+id, nil, nil, &v)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("GET /services/%s: %d", id, code)
	}
	return v, err
}

// buyers makes n buyers with sessions opened at base, each with its own address.
func buyers(t *testing.T, base string, n int) []*buyer {
	t.Helper()
	out := make([]*buyer, n)
	for i := range out {
		out[i] = &buyer{email: fmt.Sprintf("buyer%d@example.com", i), ip: fmt.Sprintf("198.51.100.%d", i+1), http: newHTTPClient()}
		if err := out[i].signIn(t.Context(), base); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// settled waits until no provisioning job is left to run (queued or running).
//
// A long trial leaves a backlog whose draining time depends on the machine's load, so the wait
// lasts as long as the backlog shrinks; a minute without progress fails, naming the stuck jobs.
func (c *cluster) settled() {
	c.t.Helper()
	const unfinished = `SELECT COUNT(*) FROM jobs WHERE kind = 'provision' AND state IN ('queued', 'running')`
	left, since := c.count(unfinished), time.Now()
	for left > 0 {
		time.Sleep(50 * time.Millisecond)
		n := c.count(unfinished)
		if n < left {
			left, since = n, time.Now()
			continue
		}
		if time.Since(since) > time.Minute {
			c.t.Fatalf("%d provisioning jobs unfinished, none finished for a minute:\n%s", n, c.stuckJobs())
		}
	}
}

// stuckJobs lists a few unfinished provisioning jobs with their state, attempts and last error.
func (c *cluster) stuckJobs() string {
	rows, err := c.db.QueryContext(c.t.Context(), `SELECT ref, state, attempts, run_at, lease_until, last_error FROM jobs
		WHERE kind = 'provision' AND state IN ('queued', 'running') ORDER BY run_at LIMIT 10`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var ref, state, runAt, lease, lastErr string
		var attempts int
		if err := rows.Scan(&ref, &state, &attempts, &runAt, &lease, &lastErr); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "  %s %s attempts=%d run_at=%s lease_until=%s last_error=%q\n", ref, state, attempts, runAt, lease, lastErr)
	}
	return b.String()
}

// audit is what the database says after a trial.
type audit struct {
	Orders, Paid, Active, Services, ActiveServices, PanelLines int
	// Lost: paid orders not active, or active services without their panel line.
	Lost int
	// Duplicated: orders sharing a client and idempotency key, provisioning jobs beyond one per
	// paid order, panel lines beyond one per service.
	Duplicated int
	// HalfWritten: orders without an invoice, a service or their expiry job; active orders with a
	// service not active or without credentials; finished orders whose job is not done; dead jobs.
	HalfWritten int
}

func (a audit) String() string {
	return fmt.Sprintf("orders=%d paid=%d active=%d services=%d active_services=%d panel_lines=%d lost=%d duplicated=%d half_written=%d",
		a.Orders, a.Paid, a.Active, a.Services, a.ActiveServices, a.PanelLines, a.Lost, a.Duplicated, a.HalfWritten)
}

// audit checks every invariant on the rows themselves, reporting each violated query.
func (c *cluster) audit() audit {
	c.t.Helper()
	var a audit
	a.Orders = c.count(`SELECT COUNT(*) FROM orders`)
	a.Paid = c.count(`SELECT COUNT(*) FROM invoices WHERE status = 'paid'`)
	a.Active = c.count(`SELECT COUNT(*) FROM orders WHERE status = 'active'`)
	a.Services = c.count(`SELECT COUNT(*) FROM services`)
	a.ActiveServices = c.count(`SELECT COUNT(*) FROM services WHERE status = 'Active'`)
	a.PanelLines = c.count(`SELECT COUNT(*) FROM panel_lines`)
	checks := []struct {
		into  *int
		what  string
		query string
	}{
		{&a.Lost, "paid orders not active", `SELECT COUNT(*) FROM orders o JOIN invoices i ON i.order_id = o.id
			WHERE i.status = 'paid' AND o.status <> 'active'`},
		{&a.Lost, "active services without a panel line", `SELECT COUNT(*) FROM services s
			WHERE s.status = 'Active' AND NOT EXISTS (SELECT 1 FROM panel_lines l WHERE l.ref = s.id)`},
		{&a.Lost, "paid orders without a provisioning job", `SELECT COUNT(*) FROM invoices i
			WHERE i.status = 'paid' AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'provision' AND j.ref = i.order_id)`},
		{&a.Duplicated, "orders sharing an idempotency key", `SELECT COALESCE(SUM(n - 1), 0) FROM
			(SELECT COUNT(*) AS n FROM orders WHERE idempotency_key IS NOT NULL GROUP BY client_id, idempotency_key) k`},
		{&a.Duplicated, "provisioning jobs beyond one per order", `SELECT COALESCE(SUM(n - 1), 0) FROM
			(SELECT COUNT(*) AS n FROM jobs WHERE kind = 'provision' GROUP BY ref) k`},
		{&a.Duplicated, "panel lines without their own service", `SELECT COUNT(*) FROM panel_lines l
			WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.id = l.ref AND s.status = 'Active')`},
		{&a.Duplicated, "active orders not paid", `SELECT COUNT(*) FROM orders o JOIN invoices i ON i.order_id = o.id
			WHERE o.status = 'active' AND i.status <> 'paid'`},
		{&a.HalfWritten, "orders without an invoice", `SELECT COUNT(*) FROM orders o
			WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.order_id = o.id)`},
		{&a.HalfWritten, "orders without a service", `SELECT COUNT(*) FROM orders o
			WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.order_id = o.id)`},
		{&a.HalfWritten, "unpaid orders without their expiry job", `SELECT COUNT(*) FROM invoices i
			WHERE i.status = 'unpaid' AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'expire' AND j.ref = i.order_id)`},
		{&a.HalfWritten, "services of active orders not active or without credentials", `SELECT COUNT(*) FROM services s
			JOIN orders o ON o.id = s.order_id WHERE o.status = 'active' AND (s.status <> 'Active' OR s.username = '' OR s.password = '')`},
		{&a.HalfWritten, "provisioning jobs not done", `SELECT COUNT(*) FROM jobs WHERE kind = 'provision' AND state <> 'done'`},
		{&a.HalfWritten, "dead jobs", `SELECT COUNT(*) FROM jobs WHERE state = 'dead'`},
	}
	for _, ch := range checks {
		if n := c.count(ch.query); n != 0 {
			c.t.Errorf("%s: %d", ch.what, n)
			*ch.into += n
		}
	}
	if a.PanelLines != a.ActiveServices {
		c.t.Errorf("panel lines = %d, active services = %d", a.PanelLines, a.ActiveServices)
	}
	return a
}
