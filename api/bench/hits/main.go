// Command hits sends exactly N GET requests for one URL over C keep-alive connections, each
// answer read whole and checked for 200, then exits: a fixed amount of work for
// api/bench/readinstr.sh to count instructions over (wrk runs for a time, not a count).
//
//	hits --n 4000 --c 4 http://127.0.0.1:18089/checkout/api/products
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
)

func main() {
	n := flag.Int("n", 1000, "requests in all")
	c := flag.Int("c", 4, "connections")
	flag.Parse()
	u, err := url.Parse(flag.Arg(0))
	if err != nil || u.Host == "" {
		fmt.Fprintln(os.Stderr, "usage: hits [--n N] [--c C] URL")
		os.Exit(2)
	}
	req := []byte("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n")
	var left atomic.Int64
	left.Store(int64(*n))
	errs := make(chan error, *c)
	var wg sync.WaitGroup
	for range *c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- get(u.Host, req, &left)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, "hits:", err)
			os.Exit(1)
		}
	}
}

// get sends req on one connection until left runs out.
func get(host string, req []byte, left *atomic.Int64) error {
	conn, err := net.Dial("tcp", host)
	if err != nil {
		return err
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for left.Add(-1) >= 0 {
		if _, err := conn.Write(req); err != nil {
			return err
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %s", resp.Status)
		}
	}
	return nil
}
