package mail_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/mail/mailtest"
)

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
		mode   mailtest.Mode
		smtp   func(s *mail.SMTP)
		cancel bool // cancel the job's context once the client waits on the stalled server
		check  func(t *testing.T, got mailtest.Received, m mail.Stored, err error)
	}{
		{
			name: "delivered with envelope, headers, body and credentials",
			mode: mailtest.Accept,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if m.Status != mail.StatusSent || m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				if got.Auth != "\x00shop@example.com\x00s3cret" {
					t.Errorf("auth %q", got.Auth)
				}
				if got.From != "FROM:<shop@example.com>" || got.Rcpt != "TO:<client@example.com>" {
					t.Errorf("envelope %q %q", got.From, got.Rcpt)
				}
				want := "From: shop@example.com\r\nTo: client@example.com\r\nSubject: Your sign-in link\r\n" +
					"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\nclick here.\r\n"
				// ReadDotBytes turns CRLF into LF.
				if got.Data != strings.ReplaceAll(want, "\r\n", "\n") {
					t.Errorf("data %q", got.Data)
				}
			},
		},
		{
			name: "550 on RCPT fails the message for good: not sent, not retried",
			mode: mailtest.RejectRcpt,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				if err == nil || !job.IsPermanent(err) {
					t.Fatalf("err %v, want a permanent error", err)
				}
				if m.Status != mail.StatusFailed || !strings.Contains(m.LastError, "550") || !m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				if got.Data != "" {
					t.Errorf("data sent: %q", got.Data)
				}
			},
		},
		{
			name: "450 on RCPT is an error and the message stays pending for a retry",
			mode: mailtest.BusyRcpt,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				if err == nil || job.IsPermanent(err) {
					t.Fatalf("err %v", err)
				}
				if m.Status != mail.StatusPending || !strings.Contains(m.LastError, "450") || !m.SentAt.IsZero() {
					t.Errorf("stored: %+v", m)
				}
				if got.Data != "" {
					t.Errorf("data sent: %q", got.Data)
				}
			},
		},
		{
			name: "a server that greets and then stalls times out",
			mode: mailtest.Stall,
			smtp: func(s *mail.SMTP) { s.Timeout = 200 * time.Millisecond },
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
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
			mode:   mailtest.Stall,
			cancel: true,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
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
			mode: mailtest.Accept,
			smtp: func(s *mail.SMTP) { s.Host = "mail.example" },
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				if err == nil || !strings.Contains(err.Error(), "unencrypted") {
					t.Fatalf("err %v", err)
				}
				if got.Auth != "" || got.From != "" {
					t.Errorf("server got auth %q from %q", got.Auth, got.From)
				}
				if m.Status != mail.StatusPending {
					t.Errorf("stored: %+v", m)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mailtest.Start(t, tc.mode)
			s := mail.SMTP{Addr: f.Addr, Host: "127.0.0.1", User: "shop@example.com", Password: "s3cret", From: "shop@example.com"}
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
				case <-f.Stalled:
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
			tc.check(t, f.Last(), m, err)
		})
	}
}
