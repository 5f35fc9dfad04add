// Command bodies measures what oversized request bodies cost a running shop: it starts a
// streamcart binary on a fresh SQLite file, sends eight 100 MB JSON bodies at once to
// POST /checkout/api/session (announced with Content-Length, then chunked), and prints the
// answers and the server's peak resident memory (VmHWM from /proc). Linux only.
//
//	go build -o bin/streamcart ./api/cmd/streamcart && go run ./api/bench/bodies --bin bin/streamcart
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/streamcart", "streamcart binary")
	n := flag.Int("n", 8, "concurrent bodies")
	size := flag.Int64("mb", 100, "size of each body in MB")
	flag.Parse()
	if err := run(*bin, *n, *size<<20); err != nil {
		fmt.Fprintln(os.Stderr, "bodies:", err)
		os.Exit(1)
	}
}

func run(bin string, n int, size int64) error {
	dir, err := os.MkdirTemp("", "streamcart-bodies-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--db", filepath.Join(dir, "s.db"))
	cmd.Env = append(os.Environ(), "STREAMCART_GEO_DB=", "STREAMCART_RATE_LIMITS=off")
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	base := "http://" + addr
	for i := 0; ; i++ {
		if resp, err := http.Get(base + "/readyz"); err == nil && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		if i > 100 {
			return fmt.Errorf("%s did not start", bin)
		}
		time.Sleep(100 * time.Millisecond)
	}
	before, err := hwm(cmd.Process.Pid)
	if err != nil {
		return err
	}
	fmt.Printf("server VmHWM before: %d MB\n", before>>10)
	for _, chunked := range []bool{false, true} {
		statuses := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { statuses[i] = send(base, size, chunked) })
		}
		wg.Wait()
		peak, err := hwm(cmd.Process.Pid)
		if err != nil {
			return err
		}
		fmt.Printf("%d × %d MB, chunked=%v: answers %s; server VmHWM %d MB\n", n, size>>20, chunked, strings.Join(statuses, " "), peak>>10)
	}
	return nil
}

// send posts one body of size bytes, {"email":"aaaa…"}, and returns the answer's status.
func send(base string, size int64, chunked bool) string {
	body := io.MultiReader(strings.NewReader(`{"email":"`), io.LimitReader(fill('a'), size-12), strings.NewReader(`"}`))
	req, err := http.NewRequest(http.MethodPost, base+"/checkout/api/session", body)
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	if !chunked {
		req.ContentLength = size
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error(" + err.Error() + ")"
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.Status[:3]
}

type fill byte

func (f fill) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(f)
	}
	return len(p), nil
}

// hwm is the process's peak resident set in kB.
func hwm(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil {
			return kb, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM for %d", pid)
}
