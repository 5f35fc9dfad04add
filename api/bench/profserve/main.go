// Command profserve serves a shop as `streamcart serve` does for api/bench/orders (client
// addresses from X-Forwarded-For, the default fraud limit, no country database) and writes a CPU
// profile of one window of it, so the "where the time goes" figures of docs/benchmarks.md can be
// taken again under load:
//
//	profserve --db /tmp/p.db --after 3s --for 8s --cpuprofile cpu.prof 2>/tmp/access.log &
//	orders --targets http://127.0.0.1:18189 --duration 10s
//	go tool pprof -top -cum profserve cpu.prof
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/streamcart/streamcart/api/geo"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/logbuf"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18189", "listen address")
	db := flag.String("db", "", "SQLite file or postgres:// URL")
	out := flag.String("cpuprofile", "cpu.prof", "profile file")
	after := flag.Duration("after", 3*time.Second, "start of the profiled window, from start-up")
	window := flag.Duration("for", 8*time.Second, "length of the profiled window")
	flag.Parse()
	if err := run(*addr, *db, *out, *after, *window); err != nil {
		fmt.Fprintln(os.Stderr, "profserve:", err)
		os.Exit(1)
	}
}

func run(addr, db, out string, after, window time.Duration) error {
	if db == "" {
		return fmt.Errorf("--db is required")
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// As `streamcart serve` logs by default: a JSON access line per request, buffered (send
	// stderr to a file).
	logOut := logbuf.New(os.Stderr)
	defer logOut.Close()
	log := slog.New(httpapi.LogRequestID(logbuf.Urgent(slog.NewJSONHandler(logOut, nil), logOut)))
	a, err := app.Open(ctx, app.Config{
		LogJSON: logOut,
		Addr:    addr, DB: db, TrustedProxies: geo.LocalNetworks(), FraudMaxPerIP: fraud.DefaultMaxOrdersPerIP, RateLimits: httpapi.RateLimits{Off: true},
		ServerHostname: "line.streamcart.local:8000", UsernamePrefix: "sc", DashboardURL: "/checkout/", StoreName: "Streamcart",
		JobLease: 30 * time.Second, JobPoll: 500 * time.Millisecond, ShutdownTimeout: 5 * time.Second,
	}, log)
	if err != nil {
		return err
	}
	defer a.Close()
	profiled := make(chan error, 1)
	go func() {
		select {
		case <-time.After(after):
		case <-ctx.Done():
			profiled <- ctx.Err()
			return
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			profiled <- err
			return
		}
		select {
		case <-time.After(window):
		case <-ctx.Done():
		}
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "profserve: profile written to", out)
		profiled <- nil
	}()
	if err := a.Run(ctx); err != nil {
		return err
	}
	if err := <-profiled; err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
