// Package mailtest is a fake ESMTP server for tests (AUTH PLAIN only; plain text, STARTTLS or
// implicit TLS with a self-signed certificate): it records what it receives, and can refuse the
// recipient, the login or the message, or stall after the greeting.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"
)

// Mode is how the server answers.
type Mode string

const (
	Accept     Mode = "accept"      // takes every message
	Stall      Mode = "stall"       // greets, then never answers
	RejectRcpt Mode = "reject-rcpt" // 550 on RCPT (refused for good)
	BusyRcpt   Mode = "busy-rcpt"   // 450 on RCPT (try later)
	RejectData Mode = "reject-data" // 554 after the message's data (refused for good)
	RejectAuth Mode = "reject-auth" // 535 on AUTH (wrong credentials)
)

// Security is how the server protects the connection.
type Security string

const (
	Plain    Security = "plain"    // no TLS at all
	StartTLS Security = "starttls" // plain greeting, STARTTLS offered (port 587 style)
	Implicit Security = "implicit" // TLS from the first byte (port 465 style)
)

// Received is what a client sent: the AUTH PLAIN credentials, the envelope as given
// ("FROM:<a>", "TO:<b>") and the message data (line ends as LF).
type Received struct {
	Auth, From, Rcpt, Data string
	// TLS tells whether the connection was encrypted when the data came (or, without data,
	// when the last command came).
	TLS bool
}

// Server listens on a loopback port until the test ends.
type Server struct {
	Addr string
	// Stalled receives once per connection in Stall mode, when the client's first command came:
	// the client is past its dial, so only a deadline or its context can end the exchange.
	Stalled chan struct{}
	// Roots trust the server's self-signed certificate (for 127.0.0.1 and mail.example).
	Roots *x509.CertPool

	mode     Mode
	security Security
	cert     tls.Certificate
	mu       sync.Mutex
	conns    []net.Conn
	last     Received
	messages []Received
}

// Start runs a plain-text server answering in mode, closed (with its connections) when t ends.
func Start(t testing.TB, mode Mode) *Server { return StartSecure(t, mode, Plain) }

// StartSecure runs a server answering in mode with the given security.
func StartSecure(t testing.TB, mode Mode, security Security) *Server {
	t.Helper()
	cert, roots := selfSigned(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if security == Implicit {
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
	}
	s := &Server{Addr: ln.Addr().String(), Stalled: make(chan struct{}, 8), Roots: roots, mode: mode, security: security, cert: cert}
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
	defer func() { c.Close() }()
	tp := textproto.NewConn(c)
	encrypted := s.security == Implicit
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
		s.record(func(r *Received) { r.TLS = encrypted })
		switch strings.ToUpper(verb) {
		case "EHLO":
			tp.PrintfLine("250-fake.example")
			if s.security == StartTLS && !encrypted {
				tp.PrintfLine("250-STARTTLS")
			}
			tp.PrintfLine("250 AUTH PLAIN")
		case "STARTTLS":
			if s.security != StartTLS || encrypted {
				tp.PrintfLine("503 5.5.1 not now")
				continue
			}
			tp.PrintfLine("220 2.0.0 go ahead")
			tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{s.cert}})
			if err := tc.Handshake(); err != nil {
				return
			}
			c, tp, encrypted = tc, textproto.NewConn(tc), true
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
			if s.mode == RejectAuth {
				tp.PrintfLine("535 5.7.8 authentication failed")
				continue
			}
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
			if s.mode == RejectData {
				tp.PrintfLine("554 5.6.0 message refused")
				continue
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

// selfSigned makes a certificate for 127.0.0.1 and mail.example, and a pool trusting it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		DNSNames: []string{"mail.example"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}
