// Package mail sends the shop's email. Every message is written to an outbox table first; without
// SMTP it simply stays there (streamcart mail list / show print it, so a local shop can still sign
// in), with STREAMCART_SMTP_URL a durable job delivers it.
package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

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

// Message is one email: a plain-text body and, when HTML is set, an HTML alternative of it.
type Message struct {
	To, Subject, Body, HTML string
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

// TLS modes of the connection to the mail server.
const (
	// TLSStartTLS upgrades a plain connection with STARTTLS and refuses a server that does not
	// offer it (submission, port 587). The default.
	TLSStartTLS = "starttls"
	// TLSImplicit speaks TLS from the first byte (submissions, port 465).
	TLSImplicit = "tls"
	// TLSNone stays in plain text: only for a relay on this machine or its private network. A
	// password is still never sent in plain text to any host but localhost.
	TLSNone = "none"
)

// SMTP locates a mail server: smtp://user:password@host:587?from=shop@example.com.
type SMTP struct {
	Addr, Host, User, Password, From string
	// TLS is TLSStartTLS (also when empty), TLSImplicit or TLSNone.
	TLS string
	// TLSConfig verifies the server (nil: the system's roots, for Host).
	TLSConfig *tls.Config
	// DialTimeout bounds the connection (default 10s); Timeout bounds the whole exchange, TLS
	// included (default 30s). A stalled server must not hold one of the job worker's slots.
	DialTimeout, Timeout time.Duration
}

// Default SMTP timeouts, used when the fields are zero.
const (
	DefaultDialTimeout = 10 * time.Second
	DefaultTimeout     = 30 * time.Second
)

const smtpURLShape = "smtp://user:password@host:587?from=shop@example.com (smtps:// or port 465 for implicit TLS, ?tls=none for a local relay)"

// ParseSMTPURL reads an smtp:// or smtps:// URL. smtps://, or port 465, is implicit TLS; any other
// port is STARTTLS, required, unless ?tls=none (or ?tls=starttls|tls) says otherwise. The port
// defaults to 465 for smtps:// and 587 for smtp://, from to the user name.
func ParseSMTPURL(raw string) (SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return SMTP{}, errors.New("mail: STREAMCART_SMTP_URL must look like " + smtpURLShape)
	}
	q := u.Query()
	s := SMTP{Host: u.Hostname(), From: q.Get("from"), TLS: TLSStartTLS}
	port := u.Port()
	switch {
	case u.Scheme == "smtps":
		s.TLS = TLSImplicit
		if port == "" {
			port = "465"
		}
	case port == "465":
		s.TLS = TLSImplicit
	case port == "":
		port = "587"
	}
	switch mode := q.Get("tls"); mode {
	case "":
	case TLSStartTLS, TLSImplicit, TLSNone:
		s.TLS = mode
	default:
		return SMTP{}, fmt.Errorf("mail: STREAMCART_SMTP_URL has tls=%q: want starttls, tls or none", mode)
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

// Once stores a message as Store.QueueMail does, together with a record of the caller's in the
// same transaction, and stores nothing when that record exists already: it reports whether it
// stored the message.
type Once func(ctx context.Context, m Message, status string, send bool, at time.Time) (bool, error)

// SendOnce queues m through once, for a message that must go out once whatever the number of
// replicas and repeated runs (the record and the message commit together or not at all); it
// reports whether m was queued now.
func (o *Outbox) SendOnce(ctx context.Context, m Message, once Once) (bool, error) {
	status := StatusStored
	if o.smtp != nil {
		status = StatusPending
	}
	queued, err := once(ctx, m, status, o.smtp != nil, o.now().UTC())
	if err != nil {
		return false, fmt.Errorf("mail to %s: %w", m.To, err)
	}
	if queued && o.smtp != nil {
		o.wake()
	}
	return queued, nil
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
	if err := o.smtp.send(ctx, m); err != nil {
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

// send delivers m with go-mail, bounded: the dial, the whole exchange and ctx each end it.
func (s SMTP) send(ctx context.Context, m Stored) error {
	dialTimeout, timeout := s.DialTimeout, s.Timeout
	if dialTimeout <= 0 {
		dialTimeout = DefaultDialTimeout
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tlsConfig := s.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	}
	opts := []gomail.Option{
		gomail.WithTimeout(timeout), gomail.WithHELO(helloName()), gomail.WithTLSConfig(tlsConfig),
		gomail.WithDialContextFunc(s.dialer(ctx, dialTimeout, tlsConfig)),
	}
	switch s.TLS {
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case TLSImplicit:
		// The dialer speaks TLS itself: go-mail's own SSL mode ignores a custom dialer.
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.User != "" {
		opts = append(opts, gomail.WithSMTPAuthCustom(&passwordAuth{user: s.User, password: s.Password, host: s.Host}))
	}
	c, err := gomail.NewClient(s.Host, opts...)
	if err != nil {
		return err
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return refusal(err)
	}
	return nil
}

// dialer connects to s.Addr within dialTimeout, speaking TLS at once in TLSImplicit mode. The
// connection never outlives ctx, the whole exchange's: its deadlines are capped at ctx's (go-mail
// moves them forward after every command) and it is closed when ctx ends, which unblocks any read
// or write.
func (s SMTP) dialer(ctx context.Context, dialTimeout time.Duration, cfg *tls.Config) gomail.DialContextFunc {
	return func(dialCtx context.Context, _, _ string) (net.Conn, error) {
		raw, err := (&net.Dialer{Timeout: dialTimeout}).DialContext(dialCtx, "tcp", s.Addr)
		if err != nil {
			return nil, err
		}
		var conn net.Conn = raw
		if d, ok := ctx.Deadline(); ok {
			conn = &cappedConn{Conn: raw, limit: d}
			conn.SetDeadline(d)
		}
		context.AfterFunc(ctx, func() { raw.Close() })
		if s.TLS != TLSImplicit {
			return conn, nil
		}
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(dialCtx); err != nil {
			raw.Close()
			return nil, err
		}
		return tc, nil
	}
}

// cappedConn never lets a deadline pass limit.
type cappedConn struct {
	net.Conn
	limit time.Time
}

func (c *cappedConn) cap(t time.Time) time.Time {
	if t.IsZero() || t.After(c.limit) {
		return c.limit
	}
	return t
}

func (c *cappedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.cap(t)) }
func (c *cappedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.cap(t)) }
func (c *cappedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.cap(t)) }

// passwordAuth logs in with PLAIN, or LOGIN when the server offers only that. Both refuse to send
// the password unless the connection is TLS with a verified certificate, or goes to localhost.
type passwordAuth struct {
	user, password, host string
	smtp.Auth
}

func (a *passwordAuth) Start(server *smtp.ServerInfo) (string, []byte, error) {
	a.Auth = smtp.PlainAuth("", a.user, a.password, a.host, false)
	if !slices.Contains(server.Auth, "PLAIN") && slices.Contains(server.Auth, "LOGIN") {
		a.Auth = smtp.LoginAuth(a.user, a.password, a.host, false)
	}
	return a.Auth.Start(server)
}

// refused is a permanent (5xx) answer to the recipient or to the message itself.
type refused struct{ err error }

func (r *refused) Error() string { return r.err.Error() }
func (r *refused) Unwrap() error { return r.err }

// refusal marks err as refused when it is a 5xx reply to RCPT or to the message's data; other
// errors (a refused login or sender, which the shop's settings can fix, a 4xx) pass unchanged.
func refusal(err error) error {
	var se *gomail.SendError
	if !errors.As(err, &se) || se.IsTemp() {
		return err
	}
	if code := se.ErrorCode(); code < 500 || code >= 600 {
		return err
	}
	if se.Reason == gomail.ErrSMTPRcptTo || se.Reason == gomail.ErrSMTPDataClose {
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

// build makes the MIME message of m: multipart/alternative (text, then HTML) when it has HTML,
// with a Date and a Message-ID fixed by the stored message, so a retried delivery is the same
// message to the receiver. go-mail encodes non-ASCII headers (RFC 2047) and quoted-printable bodies.
func (s SMTP) build(m Stored) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(s.From); err != nil {
		return nil, fmt.Errorf("from %q: %w", s.From, err)
	}
	if err := msg.To(m.To); err != nil {
		// A recipient the message cannot carry is refused on every retry.
		return nil, &refused{fmt.Errorf("to %q: %w", m.To, err)}
	}
	msg.Subject(oneLine(m.Subject))
	at := m.CreatedAt
	if at.IsZero() {
		at = time.Now()
	}
	msg.SetDateWithValue(at)
	msg.SetMessageIDWithValue(messageID(m, s.From))
	// Tells auto-responders (out of office) not to answer.
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, crlf(m.Body))
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, crlf(m.HTML))
	}
	return msg, nil
}

// messageID is <streamcart.ID.CREATED@DOMAIN>, DOMAIN the sender's.
func messageID(m Stored, from string) string {
	_, domain, _ := strings.Cut(from, "@")
	domain = strings.Trim(domain, "<> ")
	if domain == "" {
		domain = "streamcart.invalid"
	}
	return fmt.Sprintf("streamcart.%d.%d@%s", m.ID, m.CreatedAt.UnixNano(), domain)
}

func oneLine(s string) string { return strings.NewReplacer("\r", "", "\n", " ").Replace(s) }

func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// Format renders m as the RFC 5322 message delivery sends (streamcart mail show --raw, tests).
func Format(from string, m Stored) ([]byte, error) {
	msg, err := SMTP{From: from}.build(m)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// List returns the newest messages first.
func (o *Outbox) List(ctx context.Context, limit int) ([]Stored, error) {
	return o.store.ListMail(ctx, limit)
}

// Get reads one message.
func (o *Outbox) Get(ctx context.Context, id int64) (Stored, error) { return o.store.Mail(ctx, id) }
