package operator

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/streamcart/streamcart/api/mail"
)

// The sign-in guard (issue 24, finding 5). A lock per account let anyone lock the owner out with
// five wrong passwords; instead an address is limited, and an account only slowed, never locked:
// the right password and code always get in after at most MaxDelay, whatever strangers do.
const (
	// MaxPerAddress sign-in attempts from one address (an IPv6 /64) within AddressWindow; beyond,
	// the address is answered 429 too_many_attempts, nothing checked, until its oldest attempt
	// leaves the window. A sign-in that succeeds gives its place back.
	MaxPerAddress = 10
	AddressWindow = 15 * time.Minute
	// FreeFailures refused sign-ins of one account within DelayWindow cost nothing; each further
	// one doubles the delay (from 1 s) the account's next check waits after its latest failure, up
	// to MaxDelay. The server waits before it checks (Guard.Sleep), so no one can hold the
	// account: a request's wait is fixed when it arrives. 30 s keeps the delayed answer inside the
	// server's 60 s write timeout and a proxy's usual 60 s read timeout.
	FreeFailures = 5
	DelayWindow  = 15 * time.Minute
	MaxDelay     = 30 * time.Second
	// AlertFailures refused sign-ins of one operator within AlertWindow mail the active owners, at
	// most once an AlertWindow per operator.
	AlertFailures = 20
	AlertWindow   = time.Hour
	// AttemptsKept is how long the guard's attempts must be kept (the prune's retention).
	AttemptsKept = AlertWindow
)

// Attempt scopes of the shared auth_attempts table.
const (
	scopeAddress   = "operator-signin-ip"        // attempts from an address
	scopeThrottled = "operator-signin-throttled" // an address's first refusal past its limit, audited
	scopeAccount   = "operator-signin-failure"   // refused sign-ins of an email
	scopeAlert     = "operator-signin-alert"     // the owners were mailed about an email
)

// Reasons a sign-in was refused, for the audit log (the caller is told only invalid_credentials,
// bad_request or too_many_attempts).
const (
	ReasonUnknownEmail = "unknown_email"
	ReasonNotSetUp     = "not_set_up"
	ReasonDisabled     = "disabled"
	ReasonBadPassword  = "bad_password"
	ReasonBadCode      = "bad_code"
	ReasonReplayedCode = "replayed_code"
	ReasonSealedSecret = "sealed_secret" // the TOTP secret cannot be opened with this shop's key
	ReasonThrottled    = "throttled"
)

// Refusal is a refused sign-in: its error is the caller's answer, the rest is for the audit log.
type Refusal struct {
	Email  string // as tried, lower case
	IP     string
	Reason string
	// Audit is false for the refusals of an address over its limit after the first of its
	// window: an attacker's flood is one audit row per address per AddressWindow.
	Audit bool
	err   error
}

func (r *Refusal) Error() string { return r.err.Error() }
func (r *Refusal) Unwrap() error { return r.err }

// Mailer sends the owners' alert (package mail's Outbox).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Guard is what the sign-in guard runs on.
type Guard struct {
	// Now is real time: security time never follows the test clock. nil: time.Now.
	Now func() time.Time
	// Sleep waits d unless ctx ends first. nil: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Mailer mails the owners; nil: the alert is only logged.
	Mailer Mailer
	// ConsoleURL is the console's address, linked from the alert.
	ConsoleURL string
}

func (g Guard) orDefaults() Guard {
	if g.Now == nil {
		g.Now = time.Now
	}
	if g.Sleep == nil {
		g.Sleep = sleep
	}
	return g
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Delay is the wait after an account's latest failure that its next check serves when it has
// failures refused sign-ins within DelayWindow.
func Delay(failures int) time.Duration {
	k := failures - FreeFailures - 1
	switch {
	case k < 0:
		return 0
	case k >= 5: // 32 s and beyond
		return MaxDelay
	}
	return min(time.Second<<k, MaxDelay)
}

// addressKey is the key an address is counted under: an IPv6 address by its /64, which one
// subscriber usually holds whole.
func addressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// reserveAddress takes the attempt's place in its address's count; over the limit it answers a
// throttled *Refusal. No address (a caller outside HTTP) is not limited.
func (s *Operators) reserveAddress(ctx context.Context, email, ip string) (int64, error) {
	if ip == "" {
		return 0, nil
	}
	key := addressKey(ip)
	at := s.guard.Now().UTC()
	id, oldest, ok, err := s.store.ReserveAttempt(ctx, scopeAddress, key, at, at.Add(-AddressWindow), MaxPerAddress)
	if err != nil {
		return 0, fmt.Errorf("sign in: %w", err)
	}
	if ok {
		return id, nil
	}
	// The window includes its first instant and the store keeps microseconds: the address is
	// let in one microsecond after its oldest attempt is AddressWindow old.
	wait := min(oldest.Add(AddressWindow+time.Microsecond).Sub(s.guard.Now()), AddressWindow+time.Microsecond)
	_, _, first, err := s.store.ReserveAttempt(ctx, scopeThrottled, key, at, at.Add(-AddressWindow), 1)
	if err != nil {
		s.log.Error("operator sign-in: throttled attempt not counted", "err", err)
	}
	s.log.Warn("operator sign-in refused: too many attempts from the address", "operator", email, "ip", ip)
	return 0, &Refusal{Email: auditEmail(email), IP: ip, Reason: ReasonThrottled, Audit: first,
		err: &ThrottledError{RetryAfter: max(wait, time.Second)}}
}

// waitDelay serves the delay the account's failures earned, counted from the latest of them.
func (s *Operators) waitDelay(ctx context.Context, email string) error {
	at := s.guard.Now().UTC()
	n, last, err := s.store.AttemptsSince(ctx, scopeAccount, email, at.Add(-DelayWindow))
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	wait := min(last.Add(Delay(n)).Sub(at), MaxDelay)
	if wait <= 0 {
		return nil
	}
	s.log.Info("operator sign-in delayed", "operator", email, "failures", n, "wait", wait)
	if err := s.guard.Sleep(ctx, wait); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	return nil
}

// refused counts a refused sign-in against its account (when one was tried) and answers its
// *Refusal; an operator's failures may alert the owners.
func (s *Operators) refused(ctx context.Context, email, ip, reason string, err error, o Operator, account bool) error {
	s.log.Info("operator sign-in refused", "operator", email, "ip", ip, "reason", reason)
	if account {
		ctx := context.WithoutCancel(ctx)
		at := s.guard.Now().UTC()
		if err := s.store.AddAttempt(ctx, scopeAccount, email, at); err != nil {
			s.log.Error("operator sign-in failure not counted", "err", err)
		} else if o.ID != 0 {
			s.alert(ctx, o.Email, ip, at)
		}
	}
	return &Refusal{Email: auditEmail(email), IP: ip, Reason: reason, Audit: true, err: err}
}

// alert mails the active owners once AlertFailures sign-ins of email were refused within
// AlertWindow, once an AlertWindow whatever the number of replicas.
func (s *Operators) alert(ctx context.Context, email, ip string, at time.Time) {
	n, _, err := s.store.AttemptsSince(ctx, scopeAccount, email, at.Add(-AlertWindow))
	if err != nil || n < AlertFailures {
		return
	}
	_, _, first, err := s.store.ReserveAttempt(ctx, scopeAlert, email, at, at.Add(-AlertWindow), 1)
	if err != nil || !first {
		return
	}
	s.log.Warn("operator sign-in: many failures, owners alerted", "operator", email, "failures", n)
	if s.guard.Mailer == nil {
		return
	}
	list, err := s.store.ListOperators(ctx)
	if err != nil {
		s.log.Error("operator sign-in alert not sent", "err", err)
		return
	}
	link := strings.TrimRight(s.guard.ConsoleURL, "/") + "/audit?action=console-signin-failed&target=operator:" + email
	m := mail.Message{
		Subject: fmt.Sprintf("%s: %d failed console sign-ins as %s", s.issuer, n, email),
		Body: fmt.Sprintf("The console refused %d sign-ins as %s within the last hour, the latest from %s.\n\n"+
			"The account is not locked: each further attempt waits up to %s before it is checked, and each address "+
			"may try %d times in %s. If these were not you or a colleague, see who tried in the audit log:\n\n%s\n\n"+
			"You will not be mailed about %s again for an hour.\n", n, email, ip, MaxDelay, MaxPerAddress, AddressWindow, link, email),
	}
	for _, o := range list {
		if o.Role != RoleOwner || o.Status != StatusActive {
			continue
		}
		m.To = o.Email
		if err := s.guard.Mailer.Send(ctx, m); err != nil {
			s.log.Error("operator sign-in alert not sent", "to", o.Email, "err", err)
		}
	}
}

// validEmail reports whether a sign-in's email may be an operator's: the rule Add checks, in
// printable UTF-8 (the store and the audit log take it as it is).
func validEmail(email string) bool {
	return emailRule.MatchString(email) && len(email) <= 254 && utf8.ValidString(email) &&
		strings.IndexFunc(email, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

// auditEmail is an email as tried, fit for the audit log: a malformed one quoted (no control
// characters) and cut short.
func auditEmail(email string) string {
	if validEmail(email) {
		return email
	}
	if len(email) > 100 {
		email = email[:100]
	}
	return strconv.QuoteToASCII(email)
}
