// Command whmcs-fake serves the fake WHMCS (package whmcsfake) on a local address, for trying
// Streamcart's WHMCS back end without a WHMCS (`make run-whmcs`; docs/whmcs.md). It is a test
// tool: it keeps everything in memory (and, with --state, in a file that survives a restart) and
// speaks plain http, on loopback by default.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "whmcs-fake:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("whmcs-fake", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen address")
	seedFile := fs.String("seed", "", "seed file (format: api/whmcs/whmcsfake/demo.yaml); empty: the demo data, the demo catalog's equivalent")
	stateFile := fs.String("state", "", "file keeping the fake's clients, orders, invoices, payments and services across restarts (made when missing); empty: memory only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	seed := whmcsfake.Demo()
	if *seedFile != "" {
		var err error
		if seed, err = whmcsfake.LoadSeed(*seedFile); err != nil {
			return err
		}
	}
	f := whmcsfake.New(seed)
	if *stateFile != "" {
		var err error
		if f, err = whmcsfake.Open(seed, *stateFile); err != nil {
			return err
		}
	}
	mux := http.NewServeMux()
	mux.Handle(whmcsfake.Path, f.Handler())
	mux.Handle(whmcsfake.ControlPath, f.Control())
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	fmt.Printf("Fake WHMCS: %s%s (identifier %s)\n", base, whmcsfake.Path, seed.Credentials.Identifier)
	fmt.Printf("  its state:  curl %s%sstate\n", base, whmcsfake.ControlPath)
	fmt.Printf("  its cron:   curl -X POST %s%scron (?date=YYYY-MM-DD: as on that day, e.g. 14 days before a due date)\n", base, whmcsfake.ControlPath)
	fmt.Printf("  a refusal:  curl -X POST '%s%sfault?invalid_ip=1.2.3.4' (invalid_ip= lifts it; maintenance=on|off, status=503|0)\n", base, whmcsfake.ControlPath)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
