package httpapi_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/httpapi"
)

// fakeNow is the watchdog's clock in these tests: the sockets' deadlines follow the real clock,
// the watchdog's notes the test's.
type fakeNow struct{ at, reads atomic.Int64 }

func (f *fakeNow) now() time.Time  { f.reads.Add(1); return time.Unix(0, f.at.Load()) }
func (f *fakeNow) set(t time.Time) { f.at.Store(t.UnixNano()) }

// coarsePair accepts one connection through CoarseDeadlinesAt and answers the server side (the
// wrapped connection), the client side, the clock and the watchdog's check.
func coarsePair(t *testing.T) (srv, cli net.Conn, clock *fakeNow, check func(time.Time)) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	clock = &fakeNow{}
	clock.set(time.Now())
	ln, check := httpapi.CoarseDeadlinesAt(inner, clock.now, time.Second)
	t.Cleanup(func() { ln.Close() })
	cli, err = net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	srv, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, cli, clock, check
}

// A far deadline is enforced by the watchdog when due by its clock, never before; a near, past
// or cleared one is the socket's own at once. No test waits on time: a read that should still
// be open is answered by a byte from the peer, one that should have failed fails.
func TestCoarseDeadlines(t *testing.T) {
	for _, tc := range []struct {
		name string
		// arm sets the deadlines on the server side of a fresh connection; then check runs at
		// the watchdog time after (from the clock's start).
		arm     func(c net.Conn, now time.Time)
		after   time.Duration
		read    bool // the read is the one tried (else a write until it blocks)
		timeout bool // the tried read or write fails with the deadline
	}{
		{"far read deadline not yet due", func(c net.Conn, now time.Time) { c.SetReadDeadline(now.Add(30 * time.Second)) }, 29 * time.Second, true, false},
		{"far read deadline due", func(c net.Conn, now time.Time) { c.SetReadDeadline(now.Add(30 * time.Second)) }, 30 * time.Second, true, true},
		{"far read deadline moved later", func(c net.Conn, now time.Time) {
			c.SetReadDeadline(now.Add(10 * time.Second))
			c.SetReadDeadline(now.Add(120 * time.Second))
		}, 60 * time.Second, true, false},
		{"far read deadline cleared", func(c net.Conn, now time.Time) {
			c.SetReadDeadline(now.Add(10 * time.Second))
			c.SetReadDeadline(time.Time{})
		}, time.Hour, true, false},
		{"past read deadline (net/http's cancel)", func(c net.Conn, now time.Time) { c.SetReadDeadline(time.Unix(1, 0)) }, 0, true, true},
		{"past read deadline then a far one", func(c net.Conn, now time.Time) {
			c.SetReadDeadline(time.Unix(1, 0))
			c.SetReadDeadline(now.Add(10 * time.Second))
		}, 0, true, false},
		{"near read deadline (socket's own)", func(c net.Conn, now time.Time) { c.SetReadDeadline(time.Now().Add(20 * time.Millisecond)) }, 0, true, true},
		{"far write deadline due", func(c net.Conn, now time.Time) { c.SetWriteDeadline(now.Add(60 * time.Second)) }, 60 * time.Second, false, true},
		{"far deadline on both, write not yet due", func(c net.Conn, now time.Time) { c.SetDeadline(now.Add(60 * time.Second)) }, 59 * time.Second, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, cli, clock, check := coarsePair(t)
			start := clock.now()
			tc.arm(srv, start)
			check(start.Add(tc.after))
			if tc.read {
				got := make(chan error, 1)
				go func() {
					_, err := srv.Read(make([]byte, 2)) // one byte would be held (TestHeldRead)
					got <- err
				}()
				if !tc.timeout {
					if _, err := cli.Write([]byte{1}); err != nil {
						t.Fatal(err)
					}
				}
				err := <-got
				if timedOut := errors.Is(err, os.ErrDeadlineExceeded); timedOut != tc.timeout || (!tc.timeout && err != nil) {
					t.Fatalf("read: %v, want timeout %v", err, tc.timeout)
				}
				return
			}
			// Unread, a write blocks once the peer's receive window and the socket's buffers are
			// full; read by the peer, 16 MB of writes outlast any buffer.
			if !tc.timeout {
				go io.Copy(io.Discard, cli)
			}
			chunk := make([]byte, 64<<10)
			var err error
			for i := 0; i < 256 || tc.timeout; i++ {
				if _, err = srv.Write(chunk); err != nil {
					break
				}
			}
			if timedOut := errors.Is(err, os.ErrDeadlineExceeded); timedOut != tc.timeout {
				t.Fatalf("write: %v, want timeout %v", err, tc.timeout)
			}
		})
	}
}

// net/http's deadlines (seconds to minutes away, or its past one that cancels a read) are
// decided against the watchdog's last check without reading the clock; one within a few seconds
// of it reads the clock and is still noted when far, enforced when due.
func TestCoarseDeadlinesReadTheClockOnlyWhenClose(t *testing.T) {
	srv, cli, clock, check := coarsePair(t)
	start := clock.now()
	before := clock.reads.Load()
	srv.SetReadDeadline(start.Add(10 * time.Second))
	srv.SetWriteDeadline(start.Add(60 * time.Second))
	srv.SetReadDeadline(time.Unix(1, 0))
	srv.SetReadDeadline(time.Time{})
	srv.SetDeadline(start.Add(120 * time.Second))
	if n := clock.reads.Load() - before; n != 0 {
		t.Fatalf("clock read %d times for far, past and cleared deadlines", n)
	}
	srv.SetReadDeadline(start.Add(3 * time.Second)) // far (near is 1 s) but close to the last check
	if n := clock.reads.Load() - before; n != 1 {
		t.Fatalf("clock read %d times, want 1", n)
	}
	check(start.Add(2 * time.Second))
	read := func() error {
		got := make(chan error, 1)
		go func() { _, err := srv.Read(make([]byte, 2)); got <- err }()
		return <-got
	}
	cli.Write([]byte{1})
	if err := read(); err != nil {
		t.Fatalf("read before the deadline: %v", err)
	}
	check(start.Add(3 * time.Second))
	if err := read(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read after the deadline: %v, want a timeout", err)
	}
}

// coarseServe serves h through net/http with its four timeouts on a CoarseDeadlinesAt listener
// and answers a client connection, the clock and the watchdog's check.
func coarseServe(t *testing.T, h http.HandlerFunc) (c net.Conn, clock *fakeNow, check func(time.Time)) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	clock = &fakeNow{}
	clock.set(time.Now())
	ln, check := httpapi.CoarseDeadlinesAt(inner, clock.now, time.Second)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second,
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	c, err = net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, clock, check
}

// Served through net/http with its four timeouts: keep-alive requests are answered as before,
// and a client that stops halfway through its header is cut off once the watchdog finds the
// header deadline due.
func TestCoarseDeadlinesServe(t *testing.T) {
	c, clock, check := coarseServe(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	br := bufio.NewReader(c)
	for i := range 3 {
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || string(body) != "ok" {
			t.Fatalf("request %d: %d %q", i, res.StatusCode, body)
		}
		check(clock.now().Add(5 * time.Second)) // nothing due between requests
	}
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost:"); err != nil {
		t.Fatal(err)
	}
	check(clock.now().Add(9 * time.Second)) // the header has 10 s: not yet
	// Still open: the rest of the header is answered.
	if _, err := io.WriteString(c, " x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if res, err := http.ReadResponse(br, nil); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("after a slow but timely header: %v", err)
	} else {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost:"); err != nil {
		t.Fatal(err)
	}
	check(clock.now().Add(time.Hour)) // every deadline due
	rest, err := io.ReadAll(br)
	if err != nil && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("reading after the header deadline: %v", err)
	}
	if len(rest) != 0 && !strings.HasPrefix(string(rest), "HTTP/1.1 408") {
		t.Fatalf("after the header deadline the server sent %q", rest)
	}
}

// waitUntil polls cond (a state another goroutine reaches soon) for at most ten seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("still not %s after 10 s", what)
		}
	}
}

// readSome is a read of up to two bytes: not held.
func readSome(c net.Conn) (string, error) {
	var b [2]byte
	n, err := c.Read(b[:])
	return string(b[:n]), err
}

type readResult struct {
	n   int
	b   byte
	err error
}

// readOne starts a one-byte read, net/http's background read, on c.
func readOne(c net.Conn) <-chan readResult {
	got := make(chan readResult, 1)
	go func() {
		var b [1]byte
		n, err := c.Read(b[:])
		got <- readResult{n, b[0], err}
	}()
	return got
}

// holdOne starts a one-byte read on c and waits until c holds it.
func holdOne(t *testing.T, c net.Conn) <-chan readResult {
	t.Helper()
	got := readOne(c)
	waitUntil(t, "held", func() bool { return httpapi.HeldRead(c) })
	return got
}

// A one-byte read (net/http's background read beside a handler) is held off the socket: a past
// deadline (net/http's cancel once the answer is done) ends it as the socket would, without
// reaching the socket, and the next read gets what the peer sent; the watchdog's second check,
// a new deadline or Close puts it on the socket.
func TestHeldRead(t *testing.T) {
	t.Run("cancelled while held", func(t *testing.T) {
		srv, cli, _, _ := coarsePair(t)
		got := holdOne(t, srv)
		cli.Write([]byte("x")) // held: not taken by the cancelled read
		srv.SetReadDeadline(time.Unix(1, 0))
		if r := <-got; r.n != 0 || !errors.Is(r.err, os.ErrDeadlineExceeded) {
			t.Fatalf("cancelled read: %d %v, want a timeout", r.n, r.err)
		}
		srv.SetReadDeadline(time.Time{})
		if b, err := readSome(srv); err != nil || b != "x" {
			t.Fatalf("next read: %q %v, want the byte sent", b, err)
		}
	})
	t.Run("cancelled before the read starts", func(t *testing.T) {
		srv, cli, _, _ := coarsePair(t)
		srv.SetReadDeadline(time.Unix(1, 0))
		if r := <-readOne(srv); !errors.Is(r.err, os.ErrDeadlineExceeded) {
			t.Fatalf("read after the cancel: %v, want a timeout", r.err)
		}
		var b [4]byte
		if _, err := srv.Read(b[:]); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("a longer read after the cancel: %v, want a timeout", err)
		}
		srv.SetReadDeadline(time.Time{})
		cli.Write([]byte("y"))
		if b, err := readSome(srv); err != nil || b != "y" {
			t.Fatalf("read after clearing: %q %v, want the byte sent", b, err)
		}
	})
	t.Run("a past deadline reaches a read on the socket", func(t *testing.T) {
		srv, _, _, _ := coarsePair(t)
		got := make(chan error, 1)
		go func() { _, err := srv.Read(make([]byte, 2)); got <- err }()
		waitUntil(t, "on the socket", func() bool { return httpapi.ReadsOnSocket(srv) == 1 })
		srv.SetReadDeadline(time.Unix(1, 0))
		if err := <-got; !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read: %v, want a timeout", err)
		}
	})
	t.Run("the watchdog's second check", func(t *testing.T) {
		srv, cli, clock, check := coarsePair(t)
		got := holdOne(t, srv)
		cli.Write([]byte("z"))
		check(clock.now())
		if !httpapi.HeldRead(srv) {
			t.Fatal("released at the first check")
		}
		check(clock.now())
		if r := <-got; r.n != 1 || r.b != 'z' || r.err != nil {
			t.Fatalf("read: %+v, want the byte sent", r)
		}
	})
	t.Run("a peer gone while held", func(t *testing.T) {
		srv, cli, clock, check := coarsePair(t)
		got := holdOne(t, srv)
		cli.Close()
		check(clock.now())
		check(clock.now())
		if r := <-got; r.err != io.EOF {
			t.Fatalf("read: %+v, want EOF", r)
		}
	})
	t.Run("closed while held", func(t *testing.T) {
		srv, _, _, _ := coarsePair(t)
		got := holdOne(t, srv)
		srv.Close()
		if r := <-got; !errors.Is(r.err, net.ErrClosed) {
			t.Fatalf("read: %+v, want the connection closed", r)
		}
	})
	t.Run("a new deadline while held", func(t *testing.T) {
		srv, _, _, _ := coarsePair(t)
		got := holdOne(t, srv)
		srv.SetReadDeadline(time.Now().Add(20 * time.Millisecond)) // near: the socket's own
		if r := <-got; !errors.Is(r.err, os.ErrDeadlineExceeded) {
			t.Fatalf("read: %+v, want the new deadline's timeout", r)
		}
	})
}

// Through net/http: a request's context ends when its client goes away mid-request (the held
// background read reaches the socket at the watchdog's second check), and pipelined requests
// are all answered.
func TestHeldReadServe(t *testing.T) {
	started, gone := make(chan struct{}, 1), make(chan struct{}, 1)
	c, clock, check := coarseServe(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			started <- struct{}{}
			<-r.Context().Done()
			gone <- struct{}{}
			return
		}
		io.WriteString(w, r.URL.Path)
	})
	if _, err := io.WriteString(c, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	for _, want := range []string{"/a", "/b"} {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("pipelined %s: %v", want, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(body) != want {
			t.Fatalf("pipelined %s: answered %q", want, body)
		}
	}

	if _, err := io.WriteString(c, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	<-started
	c.Close()
	end := time.Now().Add(10 * time.Second)
	for {
		check(clock.now())
		select {
		case <-gone:
			return
		case <-time.After(time.Millisecond):
		}
		if time.Now().After(end) {
			t.Fatal("the handler's context still open 10 s after its client went away")
		}
	}
}

// Forty keep-alive clients at once, each request's background read held and cancelled: every
// answer arrives whole, none waits on a read lost between the hold and the socket.
func TestHeldReadManyClients(t *testing.T) {
	c, _, _ := coarseServe(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) })
	addr := c.RemoteAddr().String()
	errs := make(chan error, 40)
	for i := range 40 {
		go func() {
			errs <- func() error {
				cc, err := net.Dial("tcp", addr)
				if err != nil {
					return err
				}
				defer cc.Close()
				br := bufio.NewReader(cc)
				for j := range 50 {
					path := fmt.Sprintf("/%d/%d", i, j)
					if _, err := io.WriteString(cc, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
						return err
					}
					res, err := http.ReadResponse(br, nil)
					if err != nil {
						return fmt.Errorf("%s: %w", path, err)
					}
					body, err := io.ReadAll(res.Body)
					res.Body.Close()
					if err != nil || string(body) != path {
						return fmt.Errorf("%s: answered %q (%v)", path, body, err)
					}
				}
				return nil
			}()
		}()
	}
	for range 40 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
