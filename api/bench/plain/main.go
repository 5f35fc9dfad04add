// Command plain is the benchmark baseline: a bare net/http server answering every request with
// the bytes of a file, so a wrk run against it measures what the machine can do without Streamcart.
// With --headers it also sends the header lines the shop's product list carries beyond plain's
// (Content-Length, Date, Vary, X-Content-Type-Options, X-Request-Id), set as cheaply as the shop
// sets them: what net/http's header writing costs for them, apart from everything else the shop does.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "listen address")
	file := flag.String("file", "", "JSON file to serve")
	headers := flag.Bool("headers", false, "send the product list's header lines too")
	flag.Parse()
	body, err := os.ReadFile(*file)
	if err != nil {
		log.Fatal(err)
	}
	if !*headers {
		// Set, as the baseline always did: every figure in docs/benchmarks.md is against it.
		log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		})))
	}
	contentType := []string{"application/json"}
	length := []string{strconv.Itoa(len(body))}
	vary := []string{"Origin, Accept-Encoding"}
	nosniff := []string{"nosniff"}
	var date atomic.Pointer[[]string]
	keep := func() { d := []string{time.Now().UTC().Format(http.TimeFormat)}; date.Store(&d) }
	keep()
	go func() {
		for range time.Tick(250 * time.Millisecond) {
			keep()
		}
	}()
	// A fixed id of the length ours reach: the header line's cost, not the id's making (ours is
	// counted in the shop's chain).
	id := []string{"rsfpm4xknxarzsce-123456"}
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"] = contentType
		h["Content-Length"] = length
		h["Date"] = *date.Load()
		h["Vary"] = vary
		h["X-Content-Type-Options"] = nosniff
		h["X-Request-Id"] = id
		w.Write(body)
	})))
}
