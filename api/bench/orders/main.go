// Command orders measures order creation over HTTP: N clients (16 by default), each with its
// own session, place paid orders as fast as the shop answers, every one with a fresh
// Idempotency-Key, so each order runs the whole write path (idempotency lookup, promotion and
// per-IP fraud counts, order + invoice + service rows, expiry job). Clients are spread over the
// target replicas in turn. Each order comes from a fresh X-Forwarded-For address inside the
// client's own range (the shop must run with STREAMCART_TRUST_PROXY=true): the per-IP lock and
// the 24-hour per-IP limit apply as in production, and no two clients queue on one address.
//
// --cpu label=text (repeatable) reports the CPU time, in the measured window, of the processes
// whose command line contains text, per order under label, besides the load generator's own
// (Linux only): on a machine shared with other work the orders/s depend on the neighbours, the
// CPU per order much less. --anchor measures the same client against a server that only answers (api/bench/plain
// with a saved order answer): no session, every 200 counts; the ceiling of the machine's HTTP at
// the time of the run.
//
//	orders --targets http://127.0.0.1:18089,http://127.0.0.1:18092 --clients 16 --duration 10s \
//		--cpu streamcart=/tmp/bench/streamcart --cpu "postgres= streamcart_bench_1 "
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
	"os/exec"
	"slices"
	"strconv"
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
	var watched []watch
	flag.Func("cpu", "label=text: report the CPU per order of the processes whose command line contains text (repeatable)", func(v string) error {
		label, text, ok := strings.Cut(v, "=")
		if !ok || label == "" || text == "" {
			return fmt.Errorf("want label=text, got %q", v)
		}
		watched = append(watched, watch{label, text})
		return nil
	})
	anchor := flag.Bool("anchor", false, "plain server: no session, 200 answers count")
	count := flag.Int("count", 0, "instead of --duration: place exactly this many orders after --warmup-orders, with no order in flight at either end of the window")
	warmupOrders := flag.Int("warmup-orders", 200, "with --count: orders placed (not measured) before the window")
	mark := flag.String("mark", "", "with --count: a shell command run with the argument start when the window opens and stop when it closes (callgrind_control -z / -d)")
	flag.Parse()
	want := http.StatusCreated
	if *anchor {
		want = http.StatusOK
	}
	bases := strings.Split(*targets, ",")
	tr := &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	cs := make([]*client, *clients)
	for i := range cs {
		c := &client{base: bases[i%len(bases)]}
		cs[i] = c
		if *anchor {
			continue
		}
		var s struct{ Token string }
		code, err := post(hc, c.base+"/checkout/api/session", "", "", ip(i, 0), fmt.Sprintf(`{"email":"bench%d@example.com"}`, i), &s)
		if err != nil || code != http.StatusCreated {
			log.Fatalf("session %d at %s: %d %v", i, c.base, code, err)
		}
		c.token = s.Token
	}

	if *count > 0 {
		counted(hc, cs, want, *warmupOrders, *count, *mark)
		return
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
				case err != nil || code != want:
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
	cpu0, self0 := cpuTimes(watched), selfCPU()
	measuring.Store(true)
	began := time.Now()
	time.Sleep(*duration)
	measuring.Store(false)
	elapsed := time.Since(began)
	cpu1, self1 := cpuTimes(watched), selfCPU()
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
	if n := ok.Load(); n > 0 {
		fmt.Printf("CPU per answer:")
		for i, w := range watched {
			fmt.Printf(" %s %.0f µs,", w.label, float64(cpuSpent(cpu0[i], cpu1[i]))/float64(n)/float64(time.Microsecond))
		}
		fmt.Printf(" load generator %.0f µs\n", float64(self1-self0)/float64(n)/float64(time.Microsecond))
	}
	if failed.Load() > 0 || held.Load() > 0 {
		os.Exit(1)
	}
}

// client is one load generator client: its shop, its session, its orders so far.
type client struct {
	base, token string
	n           int
}

// order places client i's next order and reports whether it was answered as wanted (not held).
func (c *client) order(hc *http.Client, i, want int) error {
	c.n++
	var o struct{ Fraud bool }
	code, err := post(hc, c.base+"/checkout/api/orders", c.token, fmt.Sprintf("bench-%d-%d-%d", os.Getpid(), i, c.n),
		ip(i, c.n), `{"pid":2,"billingCycle":"monthly"}`, &o)
	switch {
	case err != nil || code != want:
		return fmt.Errorf("order: %d %v", code, err)
	case o.Fraud:
		return fmt.Errorf("order held by fraud check")
	}
	return nil
}

// counted places warm orders, then exactly n orders between the two marks, every client at work
// in each phase and none in flight when a phase ends, so a counter read at the marks (an
// instruction count under callgrind) divides by n exactly.
func counted(hc *http.Client, cs []*client, want, warm, n int, mark string) {
	phase := func(total int) time.Duration {
		var left atomic.Int64
		left.Store(int64(total))
		var wg sync.WaitGroup
		start := time.Now()
		for i, c := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for left.Add(-1) >= 0 {
					if err := c.order(hc, i, want); err != nil {
						log.Fatal(err)
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	run := func(arg string) {
		if mark == "" {
			return
		}
		cmd := exec.Command("sh", "-c", mark+" "+arg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("mark %s: %v", arg, err)
		}
	}
	phase(warm)
	run("start")
	took := phase(n)
	run("stop")
	fmt.Printf("orders %d in %s (%.0f/s), %d clients, after %d warm-up orders\n", n, took.Round(time.Millisecond),
		float64(n)/took.Seconds(), len(cs), warm)
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

// clockTicks is the unit of /proc/PID/stat's times (USER_HZ, 100 on every Linux we run).
const clockTicks = 100

// watch is a --cpu flag: processes whose command line contains text, reported as label.
type watch struct{ label, text string }

// cpuTimes reads, for each watch, the CPU time (user + system) of each of its processes, by PID.
func cpuTimes(watched []watch) []map[int]time.Duration {
	out := make([]map[int]time.Duration, len(watched))
	for i := range out {
		out[i] = map[int]time.Duration{}
	}
	if len(watched) == 0 {
		return out
	}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		raw, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err != nil {
			continue
		}
		cmdline := string(bytes.ReplaceAll(raw, []byte{0}, []byte{' '}))
		for i, w := range watched {
			if strings.Contains(cmdline, w.text) {
				if t, ok := procCPU("/proc/" + d.Name() + "/stat"); ok {
					out[i][pid] = t
				}
			}
		}
	}
	return out
}

// cpuSpent is the CPU the processes used between two readings; one started meanwhile counts
// whole, one that exited meanwhile is lost (the pools are warm by then, so few do).
func cpuSpent(before, after map[int]time.Duration) time.Duration {
	var sum time.Duration
	for pid, t := range after {
		sum += t - before[pid]
	}
	return sum
}

func selfCPU() time.Duration {
	t, _ := procCPU("/proc/self/stat")
	return t
}

// procCPU reads utime + stime from a /proc/PID/stat file (fields 14 and 15, counted after the
// parenthesised command name, which may hold spaces).
func procCPU(path string) (time.Duration, bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(user+sys) * time.Second / clockTicks, true
}
