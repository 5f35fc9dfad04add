// Package mail sends the shop's email. Every message is written to an outbox table first; without
// SMTP it simply stays there (streamcart mail list / show print it, so a local shop can still sign
// in), with STREAMCART_SMTP_URL a durable job delivers it.
package mail

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
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
}

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
	if err := o.smtp.send(m.Message); err != nil {
		o.store.MarkMail(ctx, id, StatusPending, err.Error(), o.now().UTC())
		return fmt.Errorf("mail %d: %w", id, err)
	}
	return o.store.MarkMail(ctx, id, StatusSent, "", o.now().UTC())
}

// send delivers m with net/smtp (STARTTLS when the server offers it; PLAIN auth when a user is set).
func (s SMTP) send(m Message) error {
	var auth smtp.Auth
	if s.User != "" {
		auth = smtp.PlainAuth("", s.User, s.Password, s.Host)
	}
	return smtp.SendMail(s.Addr, auth, s.From, []string{m.To}, Format(s.From, m))
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
