// Package mailtest is a fake ESMTP server for tests (no STARTTLS, AUTH PLAIN only): it records
// what it receives, and can refuse the recipient or stall after the greeting.
package mailtest

import (
	"encoding/base64"
	"io"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
)

// Mode is how the server answers.
type Mode string

const (
	Accept     Mode = "accept"      // takes every message
	Stall      Mode = "stall"       // greets, then never answers
	RejectRcpt Mode = "reject-rcpt" // 550 on RCPT (refused for good)
	BusyRcpt   Mode = "busy-rcpt"   // 450 on RCPT (try later)
)

// Received is what a client sent: the AUTH PLAIN credentials, the envelope as given
// ("FROM:<a>", "TO:<b>") and the message data (line ends as LF).
type Received struct {
	Auth, From, Rcpt, Data string
}

// Server listens on a loopback port until the test ends.
type Server struct {
	Addr string
	// Stalled receives once per connection in Stall mode, when the client's first command came:
	// the client is past its dial, so only a deadline or its context can end the exchange.
	Stalled chan struct{}

	mode     Mode
	mu       sync.Mutex
	conns    []net.Conn
	last     Received
	messages []Received
}

// Start runs a server answering in mode, closed (with its connections) when t ends.
func Start(t testing.TB, mode Mode) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String(), Stalled: make(chan struct{}, 8), mode: mode}
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			go s.serve(c)
		}
	}()
	return s
}

// Last is what the latest exchange sent so far (Data empty when no message was accepted).
func (s *Server) Last() Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Messages are the accepted messages, in order.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.messages...)
}

func (s *Server) record(fn func(r *Received)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(&s.last)
}

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	tp := textproto.NewConn(c)
	tp.PrintfLine("220 fake.example ESMTP")
	if s.mode == Stall {
		if _, err := tp.ReadLine(); err == nil {
			s.Stalled <- struct{}{}
		}
		io.Copy(io.Discard, c) // read until the client hangs up, answer nothing
		return
	}
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			tp.PrintfLine("250-fake.example")
			tp.PrintfLine("250 AUTH PLAIN")
		case "HELO":
			tp.PrintfLine("250 fake.example")
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			b, err := base64.StdEncoding.DecodeString(resp)
			if mech != "PLAIN" || err != nil {
				tp.PrintfLine("501 bad auth")
				continue
			}
			s.record(func(r *Received) { r.Auth = string(b) })
			tp.PrintfLine("235 2.7.0 ok")
		case "MAIL":
			s.record(func(r *Received) { r.From = arg })
			tp.PrintfLine("250 2.1.0 ok")
		case "RCPT":
			switch s.mode {
			case RejectRcpt:
				tp.PrintfLine("550 5.1.1 no such user")
				continue
			case BusyRcpt:
				tp.PrintfLine("450 4.2.1 mailbox busy, try later")
				continue
			}
			s.record(func(r *Received) { r.Rcpt = arg })
			tp.PrintfLine("250 2.1.5 ok")
		case "DATA":
			tp.PrintfLine("354 go ahead")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.last.Data = string(b)
			s.messages = append(s.messages, s.last)
			s.mu.Unlock()
			tp.PrintfLine("250 2.0.0 queued")
		case "RSET", "NOOP":
			tp.PrintfLine("250 ok")
		case "QUIT":
			tp.PrintfLine("221 bye")
			return
		default:
			tp.PrintfLine("502 unknown command")
		}
	}
}
