package faulttest_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nginxConf is the load balancer of docs/deploy.md, with every path inside the test's directory.
// The test runs it as one foreground process (no master, no daemon) so that killing it leaves
// nothing behind.
const nginxConf = `daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log notice;
events { worker_connections 256; }
http {
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;

    upstream streamcart {
        server %[2]s max_fails=1 fail_timeout=2s;
        server %[3]s max_fails=1 fail_timeout=2s;
        keepalive 32;
    }
    server {
        listen %[4]s;
        location / {
            proxy_pass http://streamcart;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_next_upstream error timeout;
        }
        location ~ ^/checkout/api/orders/[^/]+/events$ {
            proxy_pass http://streamcart;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_next_upstream error timeout;
            proxy_buffering off;
            proxy_cache off;
            gzip off;
            proxy_read_timeout 60s;
        }
    }
}
`

// TestBuyThroughNginx puts nginx in front of two replicas and buys a plan through it: session,
// order, sandbox payment, polling until active, credentials. Each step may land on either
// replica; the token and the order are shared through the database.
func TestBuyThroughNginx(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	listen := freeAddr(t)
	lb := "http://" + listen
	// As docs/deploy.md says: links are built on the load balancer's address, never on the Host
	// nginx passes on.
	a, b := c.replica("a", "STREAMCART_PUBLIC_URL="+lb), c.replica("b", "STREAMCART_PUBLIC_URL="+lb)
	startNginx(t, listen, a, b)

	ctx := t.Context()
	buyer := &buyer{email: "nginx@example.com", ip: "203.0.113.7", http: newHTTPClient()}
	if err := buyer.signIn(ctx, lb); err != nil {
		t.Fatal(err)
	}
	o, err := buyer.order(ctx, lb, "nginx-1")
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != "pending" || !strings.HasPrefix(o.PaymentURL, lb+"/checkout/api/payments/sandbox/") || len(o.ServiceIDs) != 1 {
		t.Fatalf("order = %+v", o)
	}
	// The payment page is a plain GET for the buyer's browser, then the form's POST.
	resp, err := http.Get(o.PaymentURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET payment page = %d", resp.StatusCode)
	}
	if code, err := buyer.pay(ctx, lb, o.PaymentURL); err != nil || code != http.StatusSeeOther {
		t.Fatalf("pay = %d %v, want 303", code, err)
	}
	eventually(t, "the order to become active", func() bool {
		got, err := buyer.getOrder(ctx, lb, o.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Status == "active"
	})
	svc, err := buyer.getService(ctx, lb, o.ServiceIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	if svc.Status != "Active" || svc.Username == "" || svc.Password == "" {
		t.Fatalf("service = %+v", svc)
	}
	// Either replica answers the same for the same token: nothing lives in one process.
	for _, r := range []*replica{a, b} {
		got, err := buyer.getService(ctx, r.base, o.ServiceIDs[0])
		if err != nil || got != svc {
			t.Fatalf("replica %s: %+v %v, want %+v", r.name, got, err, svc)
		}
	}
	// The order is recorded from the address nginx saw: the X-Forwarded-For the buyer sent
	// itself was replaced, so nobody picks the address the fraud check counts.
	if n := c.count(`SELECT COUNT(*) FROM orders WHERE ip = '127.0.0.1'`); n != 1 {
		t.Fatalf("orders from 127.0.0.1 = %d, want 1 (buyer's own X-Forwarded-For %s must not count)", n, buyer.ip)
	}
	// The order turns active inside the provisioning job, which is marked done just after: wait
	// for that last write before auditing.
	c.settled()
	a2 := c.audit()
	if a2.Active != 1 || a2.PanelLines != 1 {
		t.Fatalf("audit: %s", a2)
	}
}

// startNginx runs nginxConf on listen in front of replicas a and b until the test ends.
func startNginx(t *testing.T, listen string, a, b *replica) {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx" // Debian's place, outside a non-root PATH
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("nginx is required (apt-get install nginx; .ci/run installs it)")
		}
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, nginxConf, dir, a.addr, b.addr, listen), 0o600); err != nil {
		t.Fatal(err)
	}
	errorLog := filepath.Join(dir, "error.log")
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", errorLog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // dies with the test
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			logs, _ := os.ReadFile(errorLog)
			t.Logf("nginx error.log:\n%s", logs)
		}
	})
	eventually(t, "nginx to answer", func() bool {
		select {
		case <-done:
			logs, _ := os.ReadFile(errorLog)
			t.Fatalf("nginx exited: %v\n%s", cmd.ProcessState, logs)
		default:
		}
		resp, err := http.Get("http://" + listen + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
