package mail_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
)

// fakeSMTP is just enough of an ESMTP server (no STARTTLS) to receive one message and record it.
type fakeSMTP struct {
	addr    string
	mode    string        // "ok", "stall" (greets, then never answers), "reject-rcpt" (550 on RCPT), "busy-rcpt" (450 on RCPT)
	stalled chan struct{} // in "stall" mode, receives once the client sent its first command

	mu                     sync.Mutex
	conns                  []net.Conn
	auth, from, rcpt, data string
}

func startFakeSMTP(t *testing.T, mode string) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSMTP{addr: ln.Addr().String(), mode: mode, stalled: make(chan struct{}, 8)}
	t.Cleanup(func() {
		ln.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, c := range f.conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns = append(f.conns, c)
			f.mu.Unlock()
			go f.serve(c)
		}
	}()
	return f
}

func (f *fakeSMTP) record(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn()
}

func (f *fakeSMTP) serve(c net.Conn) {
	defer c.Close()
	tp := textproto.NewConn(c)
	tp.PrintfLine("220 fake.example ESMTP")
	if f.mode == "stall" {
		// The client is past its dial once EHLO arrives: from there only a deadline or ctx ends it.
		if _, err := tp.ReadLine(); err == nil {
			f.stalled <- struct{}{}
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
			f.record(func() { f.auth = string(b) })
			tp.PrintfLine("235 2.7.0 ok")
		case "MAIL":
			f.record(func() { f.from = arg })
			tp.PrintfLine("250 2.1.0 ok")
		case "RCPT":
			if f.mode == "reject-rcpt" {
				tp.PrintfLine("550 5.1.1 no such user")
				continue
			}
			if f.mode == "busy-rcpt" {
				tp.PrintfLine("450 4.2.1 mailbox busy, try later")
				continue
			}
			f.record(func() { f.rcpt = arg })
			tp.PrintfLine("250 2.1.5 ok")
		case "DATA":
			tp.PrintfLine("354 go ahead")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			f.record(func() { f.data = string(b) })
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

// memStore is an in-memory outbox.
type memStore struct {
	mu   sync.Mutex
	msgs map[int64]mail.Stored
}

func (s *memStore) QueueMail(_ context.Context, m mail.Message, status string, _ bool, at time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.msgs == nil {
		s.msgs = map[int64]mail.Stored{}
	}
	id := int64(len(s.msgs) + 1)
	s.msgs[id] = mail.Stored{ID: id, Message: m, Status: status, CreatedAt: at}
	return id, nil
}

func (s *memStore) Mail(_ context.Context, id int64) (mail.Stored, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.msgs[id]
	if !ok {
		return mail.Stored{}, mail.ErrNotFound
	}
	return m, nil
}

func (s *memStore) ListMail(context.Context, int) ([]mail.Stored, error) { return nil, nil }

func (s *memStore) MarkMail(ctx context.Context, id int64, status, lastErr string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err // as a database would
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.msgs[id]
	m.Status, m.LastError = status, lastErr
	m.Attempts++
	if status == mail.StatusSent {
		m.SentAt = at
	}
	s.msgs[id] = m
	return nil
}

func TestHandleDeliversBySMTP(t *testing.T) {
	msg := mail.Message{To: "client@example.com", Subject: "Your sign-in link", Body: "Hello,\nclick here.\n"}
	cases := []struct {
		name   string
		mode   string
		smtp   func(s *mail.SMTP)
		cancel bool // cancel the job's context once the client waits on the stalled server
		check  func(t *testing.T, f *fakeSMTP, m mail.Stored, err error)
	}{
		{
			name: "delivered with envelope, headers, body and credentials",
			mode: "ok",
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if m.Status != mail.StatusSent || m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				f.mu.Lock()
				defer f.mu.Unlock()
				if f.auth != "\x00shop@example.com\x00s3cret" {
					t.Errorf("auth %q", f.auth)
				}
				if f.from != "FROM:<shop@example.com>" || f.rcpt != "TO:<client@example.com>" {
					t.Errorf("envelope %q %q", f.from, f.rcpt)
				}
				want := "From: shop@example.com\r\nTo: client@example.com\r\nSubject: Your sign-in link\r\n" +
					"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\nclick here.\r\n"
				// ReadDotBytes turns CRLF into LF.
				if f.data != strings.ReplaceAll(want, "\r\n", "\n") {
					t.Errorf("data %q", f.data)
				}
			},
		},
		{
			name: "550 on RCPT fails the message for good: not sent, not retried",
			mode: "reject-rcpt",
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				if err == nil || !job.IsPermanent(err) {
					t.Fatalf("err %v, want a permanent error", err)
				}
				if m.Status != mail.StatusFailed || !strings.Contains(m.LastError, "550") || !m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				f.mu.Lock()
				defer f.mu.Unlock()
				if f.data != "" {
					t.Errorf("data sent: %q", f.data)
				}
			},
		},
		{
			name: "450 on RCPT is an error and the message stays pending for a retry",
			mode: "busy-rcpt",
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				if err == nil || job.IsPermanent(err) {
					t.Fatalf("err %v", err)
				}
				if m.Status != mail.StatusPending || !strings.Contains(m.LastError, "450") || !m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				f.mu.Lock()
				defer f.mu.Unlock()
				if f.data != "" {
					t.Errorf("data sent: %q", f.data)
				}
			},
		},
		{
			name: "a server that greets and then stalls times out",
			mode: "stall",
			smtp: func(s *mail.SMTP) { s.Timeout = 200 * time.Millisecond },
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				var ne net.Error
				if !errors.As(err, &ne) || !ne.Timeout() {
					t.Fatalf("err %v", err)
				}
				if m.Status != mail.StatusPending || m.LastError == "" {
					t.Errorf("stored: %+v", m)
				}
			},
		},
		{
			name:   "a cancelled context stops a stalled delivery",
			mode:   "stall",
			cancel: true,
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err %v", err)
				}
				// Recorded although the job's context is gone.
				if m.Status != mail.StatusPending || m.LastError == "" {
					t.Errorf("stored: %+v", m)
				}
			},
		},
		{
			name: "no password in plain text to a remote host",
			mode: "ok",
			smtp: func(s *mail.SMTP) { s.Host = "mail.example" },
			check: func(t *testing.T, f *fakeSMTP, m mail.Stored, err error) {
				if err == nil || !strings.Contains(err.Error(), "unencrypted") {
					t.Fatalf("err %v", err)
				}
				f.mu.Lock()
				defer f.mu.Unlock()
				if f.auth != "" || f.from != "" {
					t.Errorf("server got auth %q from %q", f.auth, f.from)
				}
				if m.Status != mail.StatusPending {
					t.Errorf("stored: %+v", m)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := startFakeSMTP(t, tc.mode)
			s := mail.SMTP{Addr: f.addr, Host: "127.0.0.1", User: "shop@example.com", Password: "s3cret", From: "shop@example.com"}
			if tc.smtp != nil {
				tc.smtp(&s)
			}
			store := &memStore{}
			outbox := mail.NewOutbox(store, &s, nil)
			if err := outbox.Send(t.Context(), msg); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- outbox.Handle(ctx, job.Job{Kind: mail.JobSend, Ref: "1"}) }()
			if tc.cancel {
				select {
				case <-f.stalled:
				case <-time.After(10 * time.Second):
					t.Fatal("no EHLO")
				}
				cancel()
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Handle did not return")
			}
			m, _ := store.Mail(t.Context(), 1)
			tc.check(t, f, m, err)
		})
	}
}
