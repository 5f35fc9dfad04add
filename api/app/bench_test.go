package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/logbuf"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// benchShop opens a shop as `streamcart serve` runs it for api/bench (client addresses from
// X-Forwarded-For, the default fraud limit, rate limits off), logging at info level in JSON to
// /dev/null through the same buffer and handlers as the binary: every request writes its access
// line and updates the HTTP metrics, as in production.
func benchShop(b *testing.B, db string) *app.App {
	b.Helper()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	out := logbuf.New(null)
	b.Cleanup(func() { out.Close(); null.Close() })
	log := slog.New(httpapi.LogRequestID(logbuf.Urgent(slog.NewJSONHandler(out, nil), out)))
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	a, err := app.Open(ctx, app.Config{
		DB: db, Addr: "127.0.0.1:8080", LogJSON: out, TrustedProxies: geo.LocalNetworks(), FraudMaxPerIP: fraud.DefaultMaxOrdersPerIP,
		RateLimits:     httpapi.RateLimits{Off: true},
		ServerHostname: "line.test:8000", UsernamePrefix: "bch", StoreName: "Bench", DashboardURL: "/checkout/",
		JobLease: 30 * time.Second, JobPoll: time.Hour, ShutdownTimeout: 5 * time.Second,
	}, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	return a
}

// discard is a ResponseWriter that keeps only the status and the headers, reset before each
// request, so a benchmark counts the shop's allocations and not a recorder's.
type discard struct {
	h      http.Header
	status int
	body   []byte
	keep   bool
}

func (d *discard) Header() http.Header { return d.h }
func (d *discard) WriteHeader(s int)   { d.status = s }
func (d *discard) Write(p []byte) (int, error) {
	if d.keep {
		d.body = append(d.body, p...)
	}
	return len(p), nil
}
func (d *discard) reset() { clear(d.h); d.status, d.body = 200, d.body[:0] }

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkProducts drives GET /checkout/api/products through the whole site handler (access
// line, metrics, request id, secure headers, storefront and CORS, compression, the product
// list's pre-encoded bytes), as wrk does in api/bench/load.sh: the allocations per request are
// the read path's cost beyond net/http's own; cpu-ns/op is the process's CPU per request (the
// collector's included), steadier than ns/op on a shared machine.
func BenchmarkProducts(b *testing.B) {
	for _, c := range []struct{ name, accept string }{{"identity", ""}, {"br", "br, gzip"}} {
		b.Run(c.name, func(b *testing.B) {
			h := benchShop(b, storetest.SQLiteDB(b)).Handler()
			r := httptest.NewRequest(http.MethodGet, "/checkout/api/products", nil)
			r.RemoteAddr = "127.0.0.1:40000"
			if c.accept != "" {
				r.Header.Set("Accept-Encoding", c.accept)
			}
			w := &discard{h: http.Header{}}
			w.reset()
			h.ServeHTTP(w, r)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				w.reset()
				h.ServeHTTP(w, r)
			}
			b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkPlaceOrder places paid-plan orders through the whole site handler as
// api/bench/orders does (16 clients, a fresh Idempotency-Key and X-Forwarded-For address per
// order, one session each), on each back end, and reports the process's CPU per order
// (cpu-µs/op: the shop's Go code and, on SQLite, the database too; PostgreSQL's own backends are
// not in it).
func BenchmarkPlaceOrder(b *testing.B) {
	for _, be := range storetest.Backends {
		b.Run(be.Name, func(b *testing.B) {
			h := benchShop(b, be.NewDB(b)).Handler()
			const clients = 16
			tokens := make([]string, clients)
			for i := range tokens {
				r := httptest.NewRequest(http.MethodPost, "/checkout/api/session", strings.NewReader(fmt.Sprintf(`{"email":"bench%d@example.com"}`, i)))
				r.RemoteAddr = "127.0.0.1:40000"
				r.Header.Set("Content-Type", "application/json")
				w := &discard{h: http.Header{}, keep: true}
				h.ServeHTTP(w, r)
				var s struct{ Token string }
				if err := json.Unmarshal(w.body, &s); err != nil || s.Token == "" {
					b.Fatalf("session: %d %s", w.status, w.body)
				}
				tokens[i] = s.Token
			}
			var next, seq atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(clients / 2) // 2 cores here: 16 clients, as orders.sh runs
			cpu := cpuTime(b)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				c := next.Add(1) - 1
				auth := "Bearer " + tokens[c%clients]
				w := &discard{h: http.Header{}}
				for pb.Next() {
					n := seq.Add(1)
					r := httptest.NewRequest(http.MethodPost, "/checkout/api/orders", strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`))
					r.RemoteAddr = "127.0.0.1:40000"
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Authorization", auth)
					r.Header.Set("Idempotency-Key", fmt.Sprintf("bench-%d", n))
					r.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", c, n>>8&255, n&255))
					w.reset()
					h.ServeHTTP(w, r)
					if w.status != http.StatusCreated {
						b.Errorf("order %d: status %d", n, w.status)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
