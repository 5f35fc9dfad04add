package app_test

import (
	"bytes"
	"context"
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

	goahttp "goa.design/goa/v3/http"

	"github.com/streamcart/streamcart/api/store/storetest"
	ordercli "github.com/streamcart/streamcart/gen/http/order/client"
	servicescli "github.com/streamcart/streamcart/gen/http/services/client"
	sessioncli "github.com/streamcart/streamcart/gen/http/session/client"
	genorder "github.com/streamcart/streamcart/gen/order"
	genservices "github.com/streamcart/streamcart/gen/services"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// TestCrashBetweenPaymentAndProvisioning settles an order while no worker runs, stops the shop
// (the process dies before provisioning), reopens the same database and runs the worker: the order
// becomes active exactly once, and the buyer's token still works (the signing key is stored).
func TestCrashBetweenPaymentAndProvisioning(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("crash@example.com", "")
		o := s.buy(buyer.Token, standard())
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay = %d", resp.StatusCode)
		}
		if n := s.count(`SELECT COUNT(*) FROM jobs WHERE state = 'queued' AND kind = 'provision'`); n != 1 {
			t.Fatalf("queued jobs before the crash = %d, want 1", n)
		}
		s.close()

		r := openShop(t, s.cfg)
		if got := r.getOrder(buyer.Token, o.OrderID); got.Status != "paid" {
			t.Fatalf("after restart, before the worker: %s, want paid", got.Status)
		}
		if n := r.drain(); n != 1 {
			t.Fatalf("worker ran %d jobs after restart, want 1", n)
		}
		got := r.getOrder(buyer.Token, o.OrderID)
		if got.Status != "active" {
			t.Fatalf("after restart and the worker: %s, want active", got.Status)
		}
		svc := r.getService(buyer.Token, o.ServiceIds[0])
		checkCredentials(t, svc)
		if n := r.count(`SELECT COUNT(*) FROM panel_lines`); n != 1 {
			t.Fatalf("panel lines = %d, want 1", n)
		}

		// Another restart changes nothing: no job left, same credentials.
		r.close()
		r2 := openShop(t, s.cfg)
		if n := r2.drain(); n != 0 {
			t.Fatalf("worker ran %d jobs after a second restart", n)
		}
		again := r2.getService(buyer.Token, o.ServiceIds[0])
		if again.Username != svc.Username || again.Password != svc.Password || r2.count(`SELECT COUNT(*) FROM panel_lines`) != 1 {
			t.Fatalf("credentials changed across restarts: %s/%s → %s/%s", svc.Username, svc.Password, again.Username, again.Password)
		}
	})
}

// TestCrashWhileProvisioning lets a worker claim the provisioning job and die holding it: after a
// restart another worker takes the job over once its lease has run out, and provisions once.
func TestCrashWhileProvisioning(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("lease@example.com", "")
		o := s.buy(buyer.Token, standard())
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay = %d", resp.StatusCode)
		}
		// The dying worker: it claims with a lease that is already over by the time anyone looks.
		j, ok, err := s.app.Store().ClaimJob(t.Context(), time.Now(), time.Now(), time.Millisecond)
		if err != nil || !ok || j.Ref != o.OrderID {
			t.Fatalf("claim = %+v %v %v", j, ok, err)
		}
		s.close()

		r := openShop(t, s.cfg)
		eventually(t, "the dead worker's job to be taken over", func() bool {
			ran, err := r.app.Worker().RunOnce(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return ran
		})
		if n := r.drain(); n != 0 {
			t.Fatalf("worker ran %d more jobs", n)
		}
		if got := r.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
			t.Fatalf("status = %s, want active", got.Status)
		}
		if n := r.count(`SELECT COUNT(*) FROM panel_lines`); n != 1 {
			t.Fatalf("panel lines = %d, want 1", n)
		}
		if n := r.count(`SELECT COUNT(*) FROM jobs WHERE state = 'done'`); n != 1 {
			t.Fatalf("done jobs = %d, want 1", n)
		}
	})
}

// TestProcess runs the real binary: the buyer pays, the process is killed (SIGKILL), a new process
// on the same database finishes the order and serves the credentials; SIGTERM then exits cleanly.
func TestProcess(t *testing.T) {
	bin := buildBinary(t) // once for both back ends
	forEachBackend(t, func(t *testing.T) {
		dir := t.TempDir()
		db := backendOf(t).NewDB(t)

		// The first process only moves jobs when a settlement wakes its worker.
		p := startServe(t, bin, dir, db, "STREAMCART_JOB_POLL=1h")
		buyer, err := p.session.Create(t.Context(), &gensession.CreatePayload{Email: "process@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		o, err := p.order.Create(t.Context(), &genorder.CreatePayload{Token: ptr(buyer.Token), Pid: 2, BillingCycle: "monthly"})
		if err != nil {
			t.Fatal(err)
		}
		trialOrder, err := p.order.Create(t.Context(), &genorder.CreatePayload{Token: ptr(buyer.Token), Pid: 1, BillingCycle: "onetime"})
		if err != nil {
			t.Fatal(err)
		}
		noJump := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noJump.PostForm(o.PaymentURL, url.Values{"action": {"pay"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay = %d", resp.StatusCode)
		}
		p.kill(syscall.SIGKILL)

		// The kill may land while the provisioning job runs: the restarted worker polls, and takes the
		// job over once the dead process's lease (2 s) has run out.
		p2 := startServe(t, bin, dir, db, "STREAMCART_JOB_POLL=100ms")
		for _, id := range []string{o.OrderID, trialOrder.OrderID} {
			eventually(t, "order "+id+" to become active after the restart", func() bool {
				got, err := p2.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(buyer.Token), OrderID: id})
				if err != nil {
					t.Fatalf("GET order after restart: %v", err)
				}
				return got.Status == "active"
			})
		}
		svc, err := p2.services.Get(t.Context(), &genservices.GetPayload{Token: ptr(buyer.Token), ServiceID: o.ServiceIds[0]})
		if err != nil {
			t.Fatal(err)
		}
		if svc.Status != "Active" || svc.Username == "" || svc.Password == "" || svc.PlaylistURL == "" {
			t.Fatalf("service after restart = %+v", svc)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM panel_lines`); n != 2 {
			t.Fatalf("panel lines = %d, want 2 (one per order)", n)
		}
		if code := p2.kill(syscall.SIGTERM); code != 0 {
			t.Fatalf("SIGTERM: exit code %d, want 0\n%s", code, p2.stderr())
		}
	})
}

// buildBinary builds cmd/streamcart from the module root.
func buildBinary(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	bin := filepath.Join(t.TempDir(), "streamcart")
	// As make build builds it (with api/cmd/streamcart/default.pgo): the binary that ships, and
	// one compile of its packages shared with make build instead of a second one without the
	// profile.
	cmd := exec.Command("go", "build", "-o", bin, "./api/cmd/streamcart")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is a running `streamcart serve` with generated clients pointed at it.
type process struct {
	t        *testing.T
	cmd      *exec.Cmd
	base     string
	mu       sync.Mutex
	errBuf   bytes.Buffer
	done     chan struct{}
	session  *gensession.Client
	order    *genorder.Client
	services *genservices.Client
}

func (p *process) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errBuf.Write(b)
}

func (p *process) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errBuf.String()
}

// startServe starts the binary on a free port with env added, and waits until it is ready.
func startServe(t *testing.T, bin, dir, db string, env ...string) *process {
	t.Helper()
	addr := freeAddr(t)
	p := &process{t: t, base: "http://" + addr, done: make(chan struct{})}
	p.cmd = exec.Command(bin, "serve", "--addr", addr, "--db", db)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "STREAMCART_GEO_DB=", "STREAMCART_JOB_LEASE=2s", "STREAMCART_SHUTDOWN_TIMEOUT=5s")
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("streamcart %s output:\n%s", addr, p.stderr())
		}
	})
	eventually(t, "streamcart serve to be ready", func() bool {
		select {
		case <-p.done:
			t.Fatalf("streamcart exited early: %v\n%s", p.cmd.ProcessState, p.stderr())
		default:
		}
		resp, err := http.Get(p.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	u, _ := url.Parse(p.base)
	c, err := contractChecker()
	if err != nil {
		t.Fatalf("served OpenAPI document: %v", err)
	}
	// The binary's answers are held to the document on this side of the connection.
	doer := &http.Client{Transport: c.Transport(t, nil)}
	enc, dec := goahttp.RequestEncoder, goahttp.ResponseDecoder
	sc := sessioncli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	p.session = gensession.NewClient(sc.Create(), sc.Delete(), sc.RequestLink(), sc.RedeemLink(), sc.SetPassword())
	oc := ordercli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	p.order = genorder.NewClient(oc.Create(), oc.Get(), oc.Events(), oc.List(), oc.Cancel())
	vc := servicescli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	p.services = genservices.NewClient(vc.List(), vc.Get(), vc.Playlist(), vc.Qr(), vc.Restart(), vc.Recreate(), vc.Terminate(), vc.SetMac(), vc.Renew(), vc.Cancel(), vc.Resume())
	return p
}

// kill sends sig and waits for the process to exit; it returns the exit code (-1 when killed).
func (p *process) kill(sig syscall.Signal) int {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	select {
	case <-p.done:
	case <-ctx.Done():
		p.t.Fatalf("streamcart did not exit on %v", sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// An invoice not paid by its deadline expires: the expire job cancels the order and its invoice,
// and a late payment on the sandbox page is refused with 410 Gone.
func TestUnpaidOrderExpiresAtDeadline(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("late@example.com", "")
		o := s.buy(buyer.Token, standard())
		if n := s.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'expire' AND ref = ?`, o.OrderID); n != 1 {
			t.Fatalf("expire jobs = %d, want 1", n)
		}
		if ran := s.drain(); ran != 0 {
			t.Fatalf("%d jobs ran before the deadline, want 0", ran)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "pending" {
			t.Fatalf("before the deadline: %s, want pending", got.Status)
		}

		// Move the deadline (and the job's run time) into the past, as if a day went by.
		past := "2000-01-01T00:00:00.000000Z"
		storetest.Exec(t, s.cfg.DB, `UPDATE invoices SET deadline = ? WHERE order_id = ?`, past, o.OrderID)
		storetest.Exec(t, s.cfg.DB, `UPDATE jobs SET run_at = ? WHERE ref = ?`, past, o.OrderID)

		if ran := s.drain(); ran != 1 {
			t.Fatalf("%d jobs ran after the deadline, want 1", ran)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "cancelled" || got.PaymentURL != "" {
			t.Fatalf("after the deadline: status %s, paymentUrl %q; want cancelled and none", got.Status, got.PaymentURL)
		}
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusConflict {
			t.Fatalf("late payment = %d, want 409 (the invoice is cancelled)", resp.StatusCode)
		}
	})
}
