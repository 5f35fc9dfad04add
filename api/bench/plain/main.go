// Command plain is the benchmark baseline: a bare net/http server answering every request with
// the bytes of a file, so a wrk run against it measures what the machine can do without Streamcart.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "listen address")
	file := flag.String("file", "", "JSON file to serve")
	flag.Parse()
	body, err := os.ReadFile(*file)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})))
}
