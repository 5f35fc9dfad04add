package mail_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
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

// parsed is a delivered message read back: its headers, the subject decoded and its parts by
// content type, decoded.
type parsed struct {
	header  netmail.Header
	subject string
	parts   map[string]string
}

func parseMessage(t *testing.T, data string) parsed {
	t.Helper()
	m, err := netmail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatalf("not a message: %v\n%s", err, data)
	}
	p := parsed{header: m.Header, parts: map[string]string{}}
	if p.subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); err != nil {
		t.Fatal(err)
	}
	mediaType, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("content type %q %v", m.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(m.Body, params["boundary"])
	for {
		part, err := r.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		p.parts[ct] = strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	return p
}

func TestHandleDeliversBySMTP(t *testing.T) {
	msg := mail.Message{To: "client@example.com", Subject: "Ihr Anmeldelink für Größe – Shop", Body: "Hello,\nclick here.\n",
		HTML: "<p>Hello, <a href=\"https://shop.example/x\">click here</a>.</p>\n"}
	delivered := func(wantTLS bool) func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
		return func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != mail.StatusSent || m.SentAt.IsZero() {
				t.Errorf("stored: %+v", m)
			}
			if got.TLS != wantTLS {
				t.Errorf("TLS %v, want %v", got.TLS, wantTLS)
			}
			if got.Auth != "\x00shop@example.com\x00s3cret" {
				t.Errorf("auth %q", got.Auth)
			}
			if got.From != "FROM:<shop@example.com> BODY=8BITMIME" && got.From != "FROM:<shop@example.com>" || got.Rcpt != "TO:<client@example.com>" {
				t.Errorf("envelope %q %q", got.From, got.Rcpt)
			}
			p := parseMessage(t, got.Data)
			if p.subject != msg.Subject || strings.Contains(p.header.Get("Subject"), "für") {
				t.Errorf("subject %q (raw %q): want it RFC 2047 encoded", p.subject, p.header.Get("Subject"))
			}
			if d, err := p.header.Date(); err != nil || !d.Equal(m.CreatedAt.Truncate(time.Second)) {
				t.Errorf("Date %q (%v), want %v", p.header.Get("Date"), err, m.CreatedAt)
			}
			if id := p.header.Get("Message-Id"); !strings.HasPrefix(id, "<streamcart.1.") || !strings.HasSuffix(id, "@example.com>") {
				t.Errorf("Message-ID %q", id)
			}
			if p.header.Get("Mime-Version") != "1.0" || p.header.Get("From") != "<shop@example.com>" || p.header.Get("To") != "<client@example.com>" {
				t.Errorf("headers %v", p.header)
			}
			if p.parts["text/plain"] != msg.Body || p.parts["text/html"] != msg.HTML {
				t.Errorf("parts %q", p.parts)
			}
		}
	}
	// refusedForGood: a permanent error, the message failed and nothing retried.
	refusedForGood := func(code string) func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
		return func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
			if err == nil || !job.IsPermanent(err) {
				t.Fatalf("err %v, want a permanent error", err)
			}
			if m.Status != mail.StatusFailed || !strings.Contains(m.LastError, code) || !m.SentAt.IsZero() {
				t.Errorf("stored: %+v", m)
			}
		}
	}
	// retried: an error for the job's backoff, the message still pending with the reason.
	retried := func(reason string) func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
		return func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
			if err == nil || job.IsPermanent(err) {
				t.Fatalf("err %v, want a retryable error", err)
			}
			if m.Status != mail.StatusPending || !strings.Contains(m.LastError, reason) || !m.SentAt.IsZero() {
				t.Errorf("stored: %+v", m)
			}
			if got.Data != "" {
				t.Errorf("data sent: %q", got.Data)
			}
		}
	}
	cases := []struct {
		name     string
		mode     mailtest.Mode
		security mailtest.Security
		smtp     func(s *mail.SMTP)
		cancel   bool // cancel the job's context once the client waits on the stalled server
		check    func(t *testing.T, got mailtest.Received, m mail.Stored, err error)
	}{
		{
			name: "587: STARTTLS, then credentials, envelope, headers and both parts", mode: mailtest.Accept, security: mailtest.StartTLS,
			check: delivered(true),
		},
		{
			name: "465: implicit TLS from the first byte", mode: mailtest.Accept, security: mailtest.Implicit,
			smtp:  func(s *mail.SMTP) { s.TLS = mail.TLSImplicit },
			check: delivered(true),
		},
		{
			name: "a local relay in plain text when the URL says tls=none", mode: mailtest.Accept, security: mailtest.Plain,
			smtp:  func(s *mail.SMTP) { s.TLS = mail.TLSNone },
			check: delivered(false),
		},
		{
			name: "STARTTLS is required: a server without it gets no password and no mail", mode: mailtest.Accept, security: mailtest.Plain,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				retried("STARTTLS")(t, got, m, err)
				if got.Auth != "" || got.From != "" {
					t.Errorf("server got auth %q from %q", got.Auth, got.From)
				}
			},
		},
		{
			name: "a certificate the shop does not trust stops the exchange before the login", mode: mailtest.Accept, security: mailtest.StartTLS,
			smtp: func(s *mail.SMTP) { s.TLSConfig = &tls.Config{ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12} },
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				retried("certificate")(t, got, m, err)
				if got.Auth != "" {
					t.Errorf("server got auth %q", got.Auth)
				}
			},
		},
		{
			name: "550 on RCPT fails the message for good: not sent, not retried", mode: mailtest.RejectRcpt, security: mailtest.StartTLS,
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				refusedForGood("550")(t, got, m, err)
				if got.Data != "" {
					t.Errorf("data sent: %q", got.Data)
				}
			},
		},
		{
			name: "554 for the message's data fails it for good", mode: mailtest.RejectData, security: mailtest.Implicit,
			smtp:  func(s *mail.SMTP) { s.TLS = mail.TLSImplicit },
			check: refusedForGood("554"),
		},
		{
			name: "450 on RCPT is an error and the message stays pending for a retry", mode: mailtest.BusyRcpt, security: mailtest.StartTLS,
			check: retried("450"),
		},
		{
			name: "a refused login stays pending: the shop's settings can fix it", mode: mailtest.RejectAuth, security: mailtest.StartTLS,
			check: retried("535"),
		},
		{
			name: "a server that greets and then stalls times out", mode: mailtest.Stall, security: mailtest.Plain,
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
			name: "a cancelled context stops a stalled delivery", mode: mailtest.Stall, security: mailtest.Plain,
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
			name: "no password in plain text to a remote host", mode: mailtest.Accept, security: mailtest.Plain,
			smtp: func(s *mail.SMTP) { s.Host, s.TLS = "mail.example", mail.TLSNone },
			check: func(t *testing.T, got mailtest.Received, m mail.Stored, err error) {
				retried("unencrypted")(t, got, m, err)
				if got.Auth != "" || got.From != "" {
					t.Errorf("server got auth %q from %q", got.Auth, got.From)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := mailtest.StartSecure(t, tc.mode, tc.security)
			s := mail.SMTP{Addr: f.Addr, Host: "127.0.0.1", User: "shop@example.com", Password: "s3cret", From: "shop@example.com",
				TLSConfig: &tls.Config{ServerName: "127.0.0.1", RootCAs: f.Roots, MinVersion: tls.VersionTLS12}}
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

// SendOnce hands the message to the caller's once-store with the outbox's status, and wakes the
// sender only when that store queued it.
func TestSendOnce(t *testing.T) {
	cases := []struct {
		name       string
		smtp       *mail.SMTP
		queued     bool
		wantStatus string
		wantWake   int
	}{
		{"no SMTP: stored", nil, true, mail.StatusStored, 0},
		{"SMTP: pending, sender woken", &mail.SMTP{From: "shop@example.com"}, true, mail.StatusPending, 1},
		{"SMTP, recorded before: nothing to wake", &mail.SMTP{From: "shop@example.com"}, false, mail.StatusPending, 0},
	}
	for _, tc := range cases {
		woken := 0
		o := mail.NewOutbox(&memStore{}, tc.smtp, func() { woken++ })
		var gotStatus string
		var gotSend bool
		queued, err := o.SendOnce(t.Context(), mail.Message{To: "a@example.com", Subject: "S", Body: "B"},
			func(_ context.Context, m mail.Message, status string, send bool, _ time.Time) (bool, error) {
				gotStatus, gotSend = status, send
				return tc.queued, nil
			})
		if err != nil || queued != tc.queued || gotStatus != tc.wantStatus || gotSend != (tc.smtp != nil) || woken != tc.wantWake {
			t.Errorf("%s: queued %v %v, status %q send %v, woken %d", tc.name, queued, err, gotStatus, gotSend, woken)
		}
	}
	o := mail.NewOutbox(&memStore{}, nil, nil)
	boom := errors.New("boom")
	if _, err := o.SendOnce(t.Context(), mail.Message{To: "a@example.com"}, func(context.Context, mail.Message, string, bool, time.Time) (bool, error) {
		return false, boom
	}); !errors.Is(err, boom) {
		t.Errorf("a failing store: %v", err)
	}
}
