// Package mail sends the shop's email. Every message is written to an outbox table first; without
// SMTP it simply stays there (streamcart mail list / show print it, so a local shop can still sign
// in), with STREAMCART_SMTP_URL a durable job delivers it.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/job"
)

// JobSend is the job kind that delivers one stored message by SMTP (ref: the message id).
const JobSend = "mail"

// Message statuses.
const (
	StatusStored  = "stored"  // kept in the outbox only (no SMTP configured)
	StatusPending = "pending" // waiting for the send job
	StatusSent    = "sent"
	StatusFailed  = "failed" // refused for good by the mail server (a 5xx for the recipient or the message)
)

// Message is one email.
type Message struct {
	To, Subject, Body string
}

// Stored is a message in the outbox.
type Stored struct {
	ID int64
	Message
	Status    string
	Attempts  int
	LastError string
	CreatedAt time.Time
	SentAt    time.Time
}

// ErrNotFound means no message has the id.
var ErrNotFound = errors.New("mail: not found")

// Store keeps the outbox.
type Store interface {
	// QueueMail stores m with status; when send is true it also enqueues its JobSend job, in the
	// same transaction.
	QueueMail(ctx context.Context, m Message, status string, send bool, at time.Time) (int64, error)
	Mail(ctx context.Context, id int64) (Stored, error)
	ListMail(ctx context.Context, limit int) ([]Stored, error)
	MarkMail(ctx context.Context, id int64, status, lastErr string, at time.Time) error
}

// SMTP locates a mail server: smtp://user:password@host:port?from=shop@example.com.
type SMTP struct {
	Addr, Host, User, Password, From string
	// DialTimeout bounds the connection (default 10s); Timeout bounds the whole exchange, TLS
	// included (default 30s). A stalled server must not hold one of the job worker's slots.
	DialTimeout, Timeout time.Duration
}

// Default SMTP timeouts, used when the fields are zero.
const (
	DefaultDialTimeout = 10 * time.Second
	DefaultTimeout     = 30 * time.Second
)

// ParseSMTPURL reads an smtp:// URL; the port defaults to 587 and from to the user name.
func ParseSMTPURL(raw string) (SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return SMTP{}, errors.New("mail: STREAMCART_SMTP_URL must look like smtp://user:password@host:587?from=shop@example.com")
	}
	s := SMTP{Host: u.Hostname(), From: u.Query().Get("from")}
	port := u.Port()
	if port == "" {
		port = "587"
	}
	s.Addr = net.JoinHostPort(s.Host, port)
	if u.User != nil {
		s.User = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	if s.From == "" {
		s.From = s.User
	}
	if !strings.Contains(s.From, "@") {
		return SMTP{}, errors.New("mail: STREAMCART_SMTP_URL needs a from address (?from=shop@example.com)")
	}
	return s, nil
}

// Outbox stores messages and, with SMTP, delivers them through a job.
type Outbox struct {
	store Store
	smtp  *SMTP
	wake  func()
	now   func() time.Time
}

// NewOutbox returns the outbox; smtp nil keeps messages in the database only. wake is called
// after a message was queued for sending (it wakes the job worker).
func NewOutbox(store Store, smtp *SMTP, wake func()) *Outbox {
	if wake == nil {
		wake = func() {}
	}
	return &Outbox{store: store, smtp: smtp, wake: wake, now: time.Now}
}

// Send queues m.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	status := StatusStored
	if o.smtp != nil {
		status = StatusPending
	}
	if _, err := o.store.QueueMail(ctx, m, status, o.smtp != nil, o.now().UTC()); err != nil {
		return fmt.Errorf("mail to %s: %w", m.To, err)
	}
	if o.smtp != nil {
		o.wake()
	}
	return nil
}

// Handle is the JobSend handler: it delivers one pending message. A sent message is not sent again.
func (o *Outbox) Handle(ctx context.Context, j job.Job) error {
	var id int64
	if _, err := fmt.Sscan(j.Ref, &id); err != nil {
		return job.Permanent(fmt.Errorf("mail job ref %q: %w", j.Ref, err))
	}
	m, err := o.store.Mail(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return job.Permanent(err)
	}
	if err != nil {
		return err
	}
	if m.Status != StatusPending || o.smtp == nil {
		return nil
	}
	if err := o.smtp.send(ctx, m.Message); err != nil {
		// A refused recipient or message would be refused on every retry: it fails for good.
		// Anything else (a 4xx, a timeout, a 5xx for the login or the sender, which the shop's
		// settings can fix) stays pending and is retried with backoff.
		status := StatusPending
		var r *refused
		if errors.As(err, &r) {
			status = StatusFailed
		}
		// Recorded even when ctx was cancelled (shutdown), so the outbox shows why it is pending.
		mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		o.store.MarkMail(mctx, id, status, err.Error(), o.now().UTC())
		cancel()
		if status == StatusFailed {
			return job.Permanent(fmt.Errorf("mail %d: %w", id, err))
		}
		return fmt.Errorf("mail %d: %w", id, err)
	}
	return o.store.MarkMail(ctx, id, StatusSent, "", o.now().UTC())
}

// send delivers m the way smtp.SendMail does (STARTTLS when the server offers it; PLAIN auth when
// a user is set, which net/smtp refuses over plain text except to localhost), but bounded: the
// dial, the whole exchange and ctx each end it.
func (s SMTP) send(ctx context.Context, m Message) error {
	dialTimeout, timeout := s.DialTimeout, s.Timeout
	if dialTimeout <= 0 {
		dialTimeout = DefaultDialTimeout
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	conn, err := (&net.Dialer{Timeout: dialTimeout}).DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline := time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	// Closing the connection unblocks whatever read or write is waiting on it.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := s.exchange(conn, m); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return err
	}
	return nil
}

func (s SMTP) exchange(conn net.Conn, m Message) error {
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello(helloName()); err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(&tls.Config{ServerName: s.Host}); err != nil {
			return err
		}
	}
	if s.User != "" {
		// As SendMail: credentials the server cannot take are an error, not silently dropped.
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("smtp: server doesn't support AUTH")
		}
		if err := c.Auth(smtp.PlainAuth("", s.User, s.Password, s.Host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.From); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return refusal(err)
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(Format(s.From, m)); err != nil {
		return err
	}
	if err := w.Close(); err != nil { // the server's verdict on the message
		return refusal(err)
	}
	return c.Quit()
}

// refused is a permanent (5xx) answer to the recipient or to the message itself.
type refused struct{ err error }

func (r *refused) Error() string { return r.err.Error() }
func (r *refused) Unwrap() error { return r.err }

// refusal marks err as refused when it is a 5xx reply; other errors pass unchanged.
func refusal(err error) error {
	var reply *textproto.Error
	if errors.As(err, &reply) && reply.Code >= 500 && reply.Code < 600 {
		return &refused{err}
	}
	return err
}

// helloName is the name given in EHLO: this machine's host name when it is a plausible one,
// else "localhost" as net/smtp uses.
func helloName() string {
	h, err := os.Hostname()
	if err != nil || h == "" || strings.ContainsAny(h, " \t\r\n") {
		return "localhost"
	}
	return h
}

// Format renders m as an RFC 5322 plain-text message.
func Format(from string, m Message) []byte {
	clean := func(s string) string { return strings.NewReplacer("\r", "", "\n", " ").Replace(s) }
	var b strings.Builder
	b.WriteString("From: " + clean(from) + "\r\n")
	b.WriteString("To: " + clean(m.To) + "\r\n")
	b.WriteString("Subject: " + clean(m.Subject) + "\r\n")
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}

// List returns the newest messages first.
func (o *Outbox) List(ctx context.Context, limit int) ([]Stored, error) {
	return o.store.ListMail(ctx, limit)
}

// Get reads one message.
func (o *Outbox) Get(ctx context.Context, id int64) (Stored, error) { return o.store.Mail(ctx, id) }
