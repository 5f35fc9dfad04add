// Command orders measures order creation over HTTP: N clients (16 by default), each with its
// own session, place paid orders as fast as the shop answers, every one with a fresh
// Idempotency-Key, so each order runs the whole write path (idempotency lookup, promotion and
// per-IP fraud counts, order + invoice + service rows, expiry job). Clients are spread over the
// target replicas in turn. Each order comes from a fresh X-Forwarded-For address inside the
// client's own range (the shop must run with STREAMCART_TRUST_PROXY=true): the per-IP lock and
// the 24-hour per-IP limit apply as in production, and no two clients queue on one address.
//
//	orders --targets http://127.0.0.1:18089,http://127.0.0.1:18092 --clients 16 --duration 10s
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	targets := flag.String("targets", "http://127.0.0.1:18089", "comma list of shop base URLs")
	clients := flag.Int("clients", 16, "concurrent clients")
	duration := flag.Duration("duration", 10*time.Second, "measured time")
	warmup := flag.Duration("warmup", 2*time.Second, "unmeasured time first")
	flag.Parse()
	bases := strings.Split(*targets, ",")
	tr := &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	type client struct {
		base, token string
		n           int
	}
	cs := make([]*client, *clients)
	for i := range cs {
		c := &client{base: bases[i%len(bases)]}
		var s struct{ Token string }
		code, err := post(hc, c.base+"/checkout/api/session", "", "", ip(i, 0), fmt.Sprintf(`{"email":"bench%d@example.com"}`, i), &s)
		if err != nil || code != http.StatusCreated {
			log.Fatalf("session %d at %s: %d %v", i, c.base, code, err)
		}
		c.token = s.Token
		cs[i] = c
	}

	var measuring, stop atomic.Bool
	var ok, held, failed atomic.Int64
	lat := make([][]time.Duration, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				c.n++
				var o struct{ Fraud bool }
				start := time.Now()
				code, err := post(hc, c.base+"/checkout/api/orders", c.token, fmt.Sprintf("bench-%d-%d-%d", os.Getpid(), i, c.n),
					ip(i, c.n), `{"pid":2,"billingCycle":"monthly"}`, &o)
				took := time.Since(start)
				if !measuring.Load() {
					continue
				}
				switch {
				case err != nil || code != http.StatusCreated:
					if failed.Add(1) <= 5 {
						log.Printf("order: %d %v", code, err)
					}
				case o.Fraud:
					held.Add(1)
				default:
					ok.Add(1)
					lat[i] = append(lat[i], took)
				}
			}
		}()
	}
	time.Sleep(*warmup)
	measuring.Store(true)
	began := time.Now()
	time.Sleep(*duration)
	measuring.Store(false)
	elapsed := time.Since(began)
	stop.Store(true)
	wg.Wait()

	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[int(p*float64(len(all)-1))]
	}
	fmt.Printf("orders/s %.0f  (created %d, held by fraud %d, errors %d in %s; %d clients over %d replica(s); latency p50 %s p99 %s)\n",
		float64(ok.Load())/elapsed.Seconds(), ok.Load(), held.Load(), failed.Load(), elapsed.Round(time.Millisecond),
		len(cs), len(bases), pct(0.5).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond))
	if failed.Load() > 0 || held.Load() > 0 {
		os.Exit(1)
	}
}

// ip is client i's n-th address: 10.i.x.y, a range of its own.
func ip(i, n int) string { return fmt.Sprintf("10.%d.%d.%d", i%256, n>>8&255, n&255) }

func post(hc *http.Client, url, token, key, from, body string, out any) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", from)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 == 2 {
		return resp.StatusCode, json.Unmarshal(raw, out)
	}
	return resp.StatusCode, fmt.Errorf("%s", raw)
}
