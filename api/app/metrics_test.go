package app_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
)

// scrape reads /metrics from the shop's own listener (a loopback connection, as `make run` then
// curl localhost:8080/metrics is).
func (s *shop) scrape() string {
	s.t.Helper()
	status, _, body := s.raw(http.MethodGet, "/metrics", "", nil)
	if status != http.StatusOK {
		s.t.Fatalf("GET /metrics = %d %s, want 200", status, body)
	}
	return string(body)
}

// metric finds the sample of name whose labels include labels (k="v" pairs) in a scrape.
func metric(body, name string, labels ...string) (float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		set := rest[:max(strings.LastIndexByte(rest, '}'), 0)] // a route template has braces too
		all := true
		for i := 0; i+1 < len(labels); i += 2 {
			all = all && strings.Contains(set, labels[i]+`="`+labels[i+1]+`"`)
		}
		if !all {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		return v, err == nil
	}
	return 0, false
}

func wantMetric(t *testing.T, body string, want float64, name string, labels ...string) {
	t.Helper()
	got, ok := metric(body, name, labels...)
	if !ok {
		t.Errorf("%s%v: missing from the scrape", name, labels)
		return
	}
	if got != want {
		t.Errorf("%s%v = %v, want %v", name, labels, got, want)
	}
}

// TestMetricsMoveWhenAPlanIsBought buys a plan and a trial through the sandbox, through the HTTP
// API, and reads each family move on /metrics: requests by route template, orders created and
// paid by gateway and kind, the job queue by kind and state, job runs, mail, the database
// pools, the Go runtime and build.
func TestMetricsMoveWhenAPlanIsBought(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		before := s.scrape()
		wantMetric(t, before, 0, "streamcart_orders_created_total", "gateway", "sandbox", "kind", "plan")
		wantMetric(t, before, 0, "streamcart_job_attempts_total", "kind", "provision")
		for _, family := range []string{"go_goroutines", "go_build_info", "go_sql_open_connections", "streamcart_jobs_scrape_error"} {
			if _, ok := metric(before, family); !ok {
				t.Errorf("%s missing from the scrape", family)
			}
		}

		buyer := s.identify("metrics@example.com", "")
		o := s.buy(buyer.Token, standard())
		s.getOrder(buyer.Token, o.OrderID)
		waiting := s.scrape()
		wantMetric(t, waiting, 1, "streamcart_orders_created_total", "gateway", "sandbox", "kind", "plan")
		wantMetric(t, waiting, 0, "streamcart_orders_paid_total", "gateway", "sandbox", "kind", "plan")
		wantMetric(t, waiting, 1, "streamcart_jobs", "kind", "expire", "state", "queued")
		wantMetric(t, waiting, 0, "streamcart_job_oldest_due_seconds", "kind", "expire") // due at the deadline
		wantMetric(t, waiting, 1, "streamcart_http_requests_total", "route", "/checkout/api/orders", "method", "POST", "status", "201")
		// An order id in the path is no label: the route template is.
		wantMetric(t, waiting, 1, "streamcart_http_requests_total", "route", "/checkout/api/orders/{orderId}", "method", "GET", "status", "200")
		if strings.Contains(waiting, o.OrderID) {
			t.Errorf("the scrape names order %s: raw paths became labels", o.OrderID)
		}

		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox pay = %d", resp.StatusCode)
		}
		wantMetric(t, s.scrape(), 1, "streamcart_jobs", "kind", "provision", "state", "queued")
		s.drain()
		s.buy(s.identify("metrics-trial@example.com", "").Token, trial())
		s.drain()

		after := s.scrape()
		wantMetric(t, after, 1, "streamcart_orders_paid_total", "gateway", "sandbox", "kind", "plan")
		wantMetric(t, after, 1, "streamcart_orders_created_total", "gateway", "sandbox", "kind", "trial")
		wantMetric(t, after, 1, "streamcart_orders_paid_total", "gateway", "sandbox", "kind", "trial")
		wantMetric(t, after, 2, "streamcart_job_attempts_total", "kind", "provision")
		wantMetric(t, after, 0, "streamcart_job_failures_total", "kind", "provision")
		if _, ok := metric(after, "streamcart_jobs", "kind", "provision"); ok {
			t.Error("provision jobs still counted once done")
		}
		// Without an SMTP server mail stays in the outbox: the plan's "order received" and "line
		// ready", the trial's "line ready" and "trial ending", then a sign-in link.
		wantMetric(t, after, 4, "streamcart_mail_total", "status", "stored")
		s.proven("metrics@example.com")
		wantMetric(t, s.scrape(), 5, "streamcart_mail_total", "status", "stored")
		if v, _ := metric(after, "streamcart_http_request_duration_seconds_count", "route", "/checkout/api/orders", "method", "POST"); v != 2 {
			t.Errorf("latency histogram of POST /checkout/api/orders counts %v, want 2", v)
		}
	})
}

// TestWebhookMetrics counts a forged webhook as rejected and a signed one for no known invoice
// as stored, then ignored once processed.
func TestWebhookMetrics(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		fake := newFakeCoinbase(t)
		s := newShop(t, func(c *app.Config) {
			c.PublicURL = "https://shop.example"
			c.Payment = fake.config()
			c.Payment.TestMode = true
		})
		link := map[string]any{"id": "0123456789abcdef01234567", "status": "COMPLETED", "amount": "12.99", "currency": "USDC",
			"metadata": map[string]string{"invoice_id": "inv_unknown", "order_id": "ord_unknown"}}
		if code := postCoinbaseEvent(t, s, link, "checkout.payment.success", "forged", time.Now()); code != http.StatusBadRequest {
			t.Fatalf("forged webhook = %d, want 400", code)
		}
		if code := postCoinbaseEvent(t, s, link, "checkout.payment.success", coinbaseSecret, time.Now()); code != http.StatusOK {
			t.Fatalf("signed webhook = %d, want 200", code)
		}
		s.drain()
		s.buy(s.identify("webhook-metrics@example.com", "").Token, standard()) // a queued expiry job
		m := s.scrape()
		// The dashboard and the alerting rules (docs/) name only metrics the shop exports.
		for _, doc := range []string{"../../docs/grafana-dashboard.json", "../../docs/streamcart.rules.yml"} {
			b, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range regexp.MustCompile(`\b(?:streamcart|go|process)_[a-z_]+\b`).FindAllString(string(b), -1) {
				if !strings.Contains(m, "# TYPE "+strings.TrimSuffix(name, "_bucket")+" ") {
					t.Errorf("%s names %s, which the scrape lacks", doc, name)
				}
			}
		}
		wantMetric(t, m, 1, "streamcart_webhooks_received_total", "provider", "coinbase", "result", "rejected")
		wantMetric(t, m, 1, "streamcart_webhooks_received_total", "provider", "coinbase", "result", "stored")
		wantMetric(t, m, 1, "streamcart_webhooks_processed_total", "provider", "coinbase", "outcome", "ignored")
		wantMetric(t, m, 0, "streamcart_webhooks_processed_total", "provider", "coinbase", "outcome", "error")
		wantMetric(t, m, 1, "streamcart_http_requests_total", "route", "/checkout/api/payments/coinbase/webhook", "status", "400")
	})
}

// TestMetricsAccess: /metrics on the main listener is for bearers of the token when one is
// set, else for connections from this host only; a forged X-Forwarded-For never unlocks it, and
// behind a trusted proxy (whose connections are all local) nothing without a token does. With
// its own address, the main listener has no /metrics.
func TestMetricsAccess(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		type call struct {
			remote, header, value string
			want                  int
		}
		cases := []struct {
			name  string
			cfg   func(*app.Config)
			calls []call
		}{
			{"no token", func(*app.Config) {}, []call{
				{"127.0.0.1:5000", "", "", 200},
				{"[::1]:5000", "", "", 200},
				{"192.0.2.7:5000", "", "", 404},
				{"192.0.2.7:5000", "X-Forwarded-For", "127.0.0.1", 404},
				{"192.0.2.7:5000", "X-Real-Ip", "127.0.0.1", 404},
				// A local reverse proxy connects from loopback on behalf of anyone.
				{"127.0.0.1:5000", "X-Forwarded-For", "192.0.2.7", 404},
				{"127.0.0.1:5000", "Forwarded", "for=192.0.2.7", 404},
			}},
			{"no token behind a trusted proxy", func(c *app.Config) { c.TrustedProxies = prefixes("127.0.0.0/8") }, []call{
				{"127.0.0.1:5000", "", "", 404},
				{"192.0.2.7:5000", "X-Forwarded-For", "127.0.0.1", 404},
			}},
			{"token", func(c *app.Config) { c.MetricsToken = "s3cret-scrape" }, []call{
				{"127.0.0.1:5000", "", "", 401},
				{"127.0.0.1:5000", "Authorization", "Bearer wrong", 401},
				{"127.0.0.1:5000", "Authorization", "s3cret-scrape", 401},
				{"192.0.2.7:5000", "Authorization", "Bearer s3cret-scrape", 200},
				{"127.0.0.1:5000", "Authorization", "Bearer s3cret-scrape", 200},
			}},
			{"own address", func(c *app.Config) { c.MetricsAddr = "127.0.0.1:0" }, []call{
				{"127.0.0.1:5000", "", "", 404},
			}},
		}
		for _, tc := range cases {
			s := newShop(t, tc.cfg)
			for _, c := range tc.calls {
				req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
				req.RemoteAddr = c.remote
				if c.header != "" {
					req.Header.Set(c.header, c.value)
				}
				rec := httptest.NewRecorder()
				s.app.Handler().ServeHTTP(rec, req)
				if rec.Code != c.want {
					t.Errorf("%s: GET /metrics from %s with %s %q = %d, want %d", tc.name, c.remote, c.header, c.value, rec.Code, c.want)
				}
				if rec.Code == 200 && !strings.Contains(rec.Body.String(), "streamcart_jobs_scrape_error 0") {
					t.Errorf("%s: the answer is no scrape", tc.name)
				}
			}
		}
	})
}

// TestAccessLinesAndRequestIDs: every request writes one JSON access line with its method,
// route template, status, bytes, duration and id; the id is echoed in X-Request-Id, made here
// unless a trusted proxy sent a well-formed one.
func TestAccessLinesAndRequestIDs(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, trust := range []bool{false, true} {
			var logs bytes.Buffer
			cfg := testConfig(t)
			cfg.Addr = "127.0.0.1:8080"
			if trust {
				cfg.TrustedProxies = prefixes("192.0.2.0/24") // the requests' peer below
			}
			a, err := app.Open(t.Context(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close() })
			// Served in this goroutine: the access line is written when ServeHTTP returns.
			send := func(path, requestID string) (int, string, int) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.RemoteAddr = "192.0.2.7:5000"
				if requestID != "" {
					req.Header.Set("X-Request-Id", requestID)
				}
				rec := httptest.NewRecorder()
				a.Handler().ServeHTTP(rec, req)
				return rec.Code, rec.Header().Get("X-Request-Id"), rec.Body.Len()
			}
			cases := []struct {
				path, sent, route string
				status            int
				keep              bool // the sent id is echoed
			}{
				{"/checkout/api/products", "", "/checkout/api/products", 200, false},
				{"/checkout/api/orders/ord_secret123", "from-proxy-42", "/checkout/api/orders/{orderId}", 401, trust},
				{"/checkout/api/nothing/here", "bad id with spaces", "/checkout/api/", 404, false},
				// A control character in any header is refused before routing (one guard), logged all the same.
				{"/checkout/api/products", "bad id\twith a tab", "unmatched", 400, false},
				{"/checkout/api/products", strings.Repeat("a", 129), "/checkout/api/products", 200, false},
				{"/no/such/page", "", "unmatched", 404, false},
				{"/healthz", "", "/healthz", 200, false},
			}
			seen := map[string]bool{}
			for _, c := range cases {
				logs.Reset()
				status, id, n := send(c.path, c.sent)
				if status != c.status {
					t.Errorf("trust %v: GET %s = %d, want %d", trust, c.path, status, c.status)
				}
				if id == "" || seen[id] || (id == c.sent) != c.keep {
					t.Errorf("trust %v: GET %s with X-Request-Id %q answered id %q (keep the sent one: %v; unique)", trust, c.path, c.sent, id, c.keep)
				}
				seen[id] = true
				var lines []map[string]any
				for line := range strings.SplitSeq(strings.TrimSpace(logs.String()), "\n") {
					var m map[string]any
					if err := json.Unmarshal([]byte(line), &m); err != nil {
						t.Fatalf("log line %q is no JSON: %v", line, err)
					}
					if m["msg"] == "request" {
						lines = append(lines, m)
					}
				}
				if len(lines) != 1 {
					t.Fatalf("trust %v: GET %s wrote %d access lines, want 1: %s", trust, c.path, len(lines), logs.String())
				}
				l := lines[0]
				if l["method"] != "GET" || l["route"] != c.route || l["status"] != float64(c.status) || l["bytes"] != float64(n) || l["request_id"] != id {
					t.Errorf("trust %v: access line of GET %s = %v; want route %s, status %d, %d bytes, id %s", trust, c.path, l, c.route, c.status, n, id)
				}
				if d, ok := l["duration"].(float64); !ok || d < 0 {
					t.Errorf("access line duration = %v, want seconds", l["duration"])
				}
				if strings.Contains(logs.String(), "ord_secret123") {
					t.Error("the access line names the raw path")
				}
			}
		}
	})
}

// TestTracing: without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced; with it, requests' spans
// reach the OTLP/HTTP receiver.
func TestTracing(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		if newShop(t).app.Tracing() {
			t.Fatal("tracing on without an endpoint")
		}
		got := make(chan string, 16)
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			got <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Content-Type")
			w.Header().Set("Content-Type", "application/x-protobuf")
		}))
		defer receiver.Close()
		s := newShop(t, func(c *app.Config) { c.OTLPEndpoint = receiver.URL })
		if !s.app.Tracing() {
			t.Fatal("tracing off with an endpoint")
		}
		if status, _, _ := s.raw(http.MethodGet, "/checkout/api/products", "", nil); status != 200 {
			t.Fatalf("GET products = %d", status)
		}
		if err := s.app.FlushTraces(t.Context()); err != nil {
			t.Fatalf("flush: %v", err)
		}
		select {
		case req := <-got:
			if req != "POST /v1/traces application/x-protobuf" {
				t.Errorf("export = %q, want POST /v1/traces in protobuf", req)
			}
		default:
			t.Fatal("no span reached the receiver after a flush")
		}
	})
}
