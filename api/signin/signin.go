// Package signin proves who a buyer is: a one-time link sent by email, or a password checked
// under throttling. Only a proven session may see or act on purchases it did not make itself.
package signin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/mail"
)

// Limits.
const (
	LinkTTL = 15 * time.Minute
	// Window is the period every counter below looks back over.
	Window = 15 * time.Minute
	// MaxFailuresPerEmail and MaxFailuresPerIP bound wrong passwords per Window.
	MaxFailuresPerEmail = 5
	MaxFailuresPerIP    = 20
	// MaxLinksPerEmail and MaxLinksPerIP bound link emails per Window; beyond, nothing is sent.
	MaxLinksPerEmail = 3
	MaxLinksPerIP    = 10
	// MinPasswordLen is the shortest password a client may set.
	MinPasswordLen = 8
)

// Attempt scopes.
const (
	scopePasswordEmail = "password-email"
	scopePasswordIP    = "password-ip"
	scopeLinkIP        = "link-ip"
)

var (
	ErrInvalidLink        = errors.New("signin: link unknown, used or expired")
	ErrTooManyAttempts    = errors.New("signin: too many attempts")
	ErrInvalidCredentials = errors.New("signin: invalid credentials")
	ErrWeakPassword       = errors.New("signin: password too short")
	ErrBadReturnURL       = errors.New("signin: return URL must be a path or a URL on this site")
	ErrNotProven          = errors.New("signin: only a proven session may do this")
	// ErrNotFound is what Store answers for an unknown client or link.
	ErrNotFound = account.ErrNotFound
)

// ThrottledError is ErrTooManyAttempts with the wait until an attempt may be tried again.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string { return ErrTooManyAttempts.Error() }

// Is makes errors.Is(err, ErrTooManyAttempts) hold.
func (e *ThrottledError) Is(target error) bool { return target == ErrTooManyAttempts }

// Store is what sign-in persists.
type Store interface {
	ClientByEmail(ctx context.Context, email string) (account.Client, error)
	ClientByID(ctx context.Context, id int64) (account.Client, error)
	SetPasswordHash(ctx context.Context, clientID int64, hash string) error
	InsertSigninLink(ctx context.Context, tokenHash string, clientID int64, created, expires time.Time) error
	CountSigninLinks(ctx context.Context, clientID int64, since time.Time) (int, error)
	// UseSigninLink marks an unused, unexpired link used and returns its client; ErrNotFound otherwise.
	UseSigninLink(ctx context.Context, tokenHash string, now time.Time) (int64, error)
	AddAttempt(ctx context.Context, scope, key string, at time.Time) error
	CountAttempts(ctx context.Context, scope, key string, since time.Time) (int, error)
	// ReserveAttempt records an attempt unless max are recorded since since (then ok is false and
	// oldest is the first of them), atomically for every replica.
	ReserveAttempt(ctx context.Context, scope, key string, at, since time.Time, max int) (id int64, oldest time.Time, ok bool, err error)
	RemoveAttempt(ctx context.Context, id int64) error
}

// Mailer sends a message.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Config holds sign-in settings.
type Config struct {
	StoreName string
	// PublicURL is the shop's origin, the base of every link (https://shop.example): from
	// configuration, never from a request, whose Host the caller chooses.
	PublicURL string
	// Passwords, when set, checks buyers' passwords instead of the shop's own hashes: the seller's
	// WHMCS (ValidateLogin), which keeps them in WHMCS mode. Behind the same throttling.
	Passwords PasswordChecker
}

// PasswordChecker checks a buyer's password with the system that keeps it.
type PasswordChecker interface {
	// CheckPassword answers nil when password is email's, ErrInvalidCredentials when it is not
	// (or proves nothing: two-factor sign-in), and any other error when it cannot tell now.
	CheckPassword(ctx context.Context, email, password string) error
}

// ErrPasswordsElsewhere means passwords are kept by another system (Config.Passwords: the
// seller's WHMCS), so this shop does not set them.
var ErrPasswordsElsewhere = errors.New("signin: passwords are kept elsewhere")

// ErrPasswordsUnavailable means the system that checks passwords could not be reached.
var ErrPasswordsUnavailable = errors.New("signin: password check unavailable")

// Service signs buyers in.
type Service struct {
	store    Store
	accounts *account.Service
	mailer   Mailer
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
}

// New returns the sign-in service; now is the business clock (sign-in link expiry and the
// attempt window), nil: real time.
func New(store Store, accounts *account.Service, mailer Mailer, cfg Config, log *slog.Logger, now func() time.Time) *Service {
	if cfg.StoreName == "" {
		cfg.StoreName = "Streamcart"
	}
	return &Service{store: store, accounts: accounts, mailer: mailer, cfg: cfg, log: log, now: clock.OrReal(now)}
}

// LinkRequest asks for a sign-in link.
type LinkRequest struct {
	Email     string
	ReturnURL string // path or same-origin URL; /checkout/ when empty
	IP        string
	// ReturnOrigins are further sites the link may open: the request's storefront's own.
	ReturnOrigins []string
	// Locale is the language of the mail (one of mail.Locales; English when empty).
	Locale string
}

// RequestLink emails a sign-in link when the email is a client's and no limit is reached. Unknown
// emails and limits are not errors: the caller answers alike, so nobody learns who is a client.
// Only a malformed email or return URL is an error.
func (s *Service) RequestLink(ctx context.Context, r LinkRequest) error {
	email := strings.ToLower(strings.TrimSpace(r.Email))
	if !account.ValidEmail(email) {
		return account.ErrInvalidEmail
	}
	target, err := s.linkBase(r.ReturnURL, r.ReturnOrigins)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	since := now.Add(-Window)
	if r.IP != "" {
		n, err := s.store.CountAttempts(ctx, scopeLinkIP, r.IP, since)
		if err != nil {
			return fmt.Errorf("request link: %w", err)
		}
		if err := s.store.AddAttempt(ctx, scopeLinkIP, r.IP, now); err != nil {
			return fmt.Errorf("request link: %w", err)
		}
		if n >= MaxLinksPerIP {
			s.log.Warn("sign-in link not sent: too many requests from this address", "ip", r.IP)
			return nil
		}
	}
	c, err := s.store.ClientByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("request link: %w", err)
	}
	n, err := s.store.CountSigninLinks(ctx, c.ID, since)
	if err != nil {
		return fmt.Errorf("request link: %w", err)
	}
	if n >= MaxLinksPerEmail {
		s.log.Warn("sign-in link not sent: too many requests for this client", "client", c.ID)
		return nil
	}
	token := newToken()
	if err := s.store.InsertSigninLink(ctx, hashToken(token), c.ID, now, now.Add(LinkTTL)); err != nil {
		return fmt.Errorf("request link: %w", err)
	}
	q := target.Query()
	q.Set("signin", token)
	target.RawQuery = q.Encode()
	msg, err := mail.Render(mail.KindSigninLink, r.Locale, mail.Data{Store: s.cfg.StoreName, Link: target.String(), Minutes: int(LinkTTL / time.Minute)})
	if err != nil {
		return fmt.Errorf("request link: %w", err)
	}
	if err := s.mailer.Send(ctx, msg.Message(c.Email)); err != nil {
		return fmt.Errorf("request link: %w", err)
	}
	return nil
}

// linkBase is the absolute URL the link opens.
func (s *Service) linkBase(raw string, others []string) (*url.URL, error) {
	if raw == "" {
		raw = "/checkout/"
	}
	u, err := url.Parse(raw)
	if err != nil || strings.Contains(raw, `\`) || strings.HasPrefix(raw, "//") {
		return nil, ErrBadReturnURL
	}
	base := strings.TrimRight(s.cfg.PublicURL, "/")
	if u.Scheme == "" && u.Host == "" {
		if !strings.HasPrefix(u.Path, "/") {
			return nil, ErrBadReturnURL
		}
		return url.Parse(base + u.RequestURI() + fragment(u))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, ErrBadReturnURL
	}
	// The token must never travel to another site: only this shop's origins and the sites of the
	// storefront that asked (listed in the catalog) are allowed.
	got := u.Scheme + "://" + u.Host
	for _, o := range append([]string{s.cfg.PublicURL}, others...) {
		if o != "" && strings.EqualFold(strings.TrimRight(o, "/"), got) {
			return u, nil
		}
	}
	return nil, ErrBadReturnURL
}

func fragment(u *url.URL) string {
	if u.Fragment == "" {
		return ""
	}
	return "#" + u.EscapedFragment()
}

// RedeemLink trades a link's token for a proven session; a token works once.
func (s *Service) RedeemLink(ctx context.Context, token string) (account.Identified, error) {
	if token == "" {
		return account.Identified{}, ErrInvalidLink
	}
	clientID, err := s.store.UseSigninLink(ctx, hashToken(token), s.now().UTC())
	if errors.Is(err, ErrNotFound) {
		return account.Identified{}, ErrInvalidLink
	}
	if err != nil {
		return account.Identified{}, fmt.Errorf("redeem link: %w", err)
	}
	c, err := s.store.ClientByID(ctx, clientID)
	if err != nil {
		return account.Identified{}, fmt.Errorf("redeem link: %w", err)
	}
	return s.accounts.Prove(ctx, c.Email)
}

// Password opens a session with email and password, throttled: at most MaxFailuresPerEmail
// password attempts for the email, and MaxFailuresPerIP from the address, within Window; beyond,
// every attempt answers a ThrottledError, right password or not, without any bcrypt work. Each
// attempt takes its place in the count before its password is checked, so concurrent guesses
// are counted too; a right password gives its place back. Without a password the session is
// email-only.
func (s *Service) Password(ctx context.Context, email, password, ip string) (account.Identified, error) {
	if password == "" {
		return s.accounts.Identify(ctx, email, "")
	}
	key := strings.ToLower(strings.TrimSpace(email))
	if !account.ValidEmail(key) {
		return account.Identified{}, account.ErrInvalidEmail
	}
	if len(password) > account.MaxPasswordBytes {
		return account.Identified{}, account.ErrPasswordTooLong
	}
	places, err := s.reserve(ctx, key, ip)
	if err != nil {
		return account.Identified{}, err
	}
	var id account.Identified
	if s.cfg.Passwords != nil {
		id, err = s.checked(ctx, key, password)
	} else {
		id, err = s.accounts.Identify(ctx, key, password)
	}
	switch {
	case err == nil:
		for _, p := range places {
			if rerr := s.store.RemoveAttempt(ctx, p); rerr != nil {
				s.log.Error("sign-in attempt not given back", "err", rerr)
			}
		}
	case errors.Is(err, account.ErrInvalidCredentials):
		s.log.Info("sign-in refused: wrong password", "email", hashEmail(key), "ip", ip)
	}
	return id, err
}

// checked opens a proven session for email once Config.Passwords accepts password; the client
// is made here on first sight, as WHMCS knew it first.
func (s *Service) checked(ctx context.Context, email, password string) (account.Identified, error) {
	err := s.cfg.Passwords.CheckPassword(ctx, email, password)
	switch {
	case errors.Is(err, ErrInvalidCredentials):
		return account.Identified{}, account.ErrInvalidCredentials
	case err != nil:
		s.log.Error("password check failed", "email", hashEmail(email), "err", err)
		return account.Identified{}, fmt.Errorf("sign in: %w", ErrPasswordsUnavailable)
	}
	return s.accounts.ProveClient(ctx, email)
}

// reserve takes a place for one password attempt for email and from ip (when known).
func (s *Service) reserve(ctx context.Context, email, ip string) ([]int64, error) {
	now := s.now().UTC()
	since := now.Add(-Window)
	limits := []struct {
		scope, key string
		max        int
	}{{scopePasswordIP, ip, MaxFailuresPerIP}, {scopePasswordEmail, email, MaxFailuresPerEmail}}
	var places []int64
	for _, l := range limits {
		if l.key == "" {
			continue
		}
		id, oldest, ok, err := s.store.ReserveAttempt(ctx, l.scope, l.key, now, since, l.max)
		if err == nil && ok {
			places = append(places, id)
			continue
		}
		// A place already taken stays: an address over its email's limit keeps paying for it, and
		// the address goes first, so one over its own limit takes none of the email's places.
		if err != nil {
			return nil, fmt.Errorf("sign in: %w", err)
		}
		// Counted from the time now (the lock may have made this attempt wait behind later ones).
		wait := min(oldest.Add(Window).Sub(s.now().UTC()), Window)
		s.log.Warn("sign-in refused: too many attempts", "limit", l.scope, "email", hashEmail(email), "ip", ip)
		return nil, &ThrottledError{RetryAfter: max(wait, time.Second)}
	}
	return places, nil
}

// hashEmail names an address in the logs without writing it down.
func hashEmail(email string) string {
	sum := sha256.Sum256([]byte("streamcart sign-in log:" + email))
	return hex.EncodeToString(sum[:8])
}

// SetPassword sets the password of a proven session's client and ends the client's other
// sessions: whoever knew the old password, or held a session, is signed out.
func (s *Service) SetPassword(ctx context.Context, claims authz.Claims, password string) error {
	if claims.Scope != authz.ScopeProven {
		return ErrNotProven
	}
	if s.cfg.Passwords != nil {
		// A password stored here would never sign in: Config.Passwords checks them.
		return ErrPasswordsElsewhere
	}
	h, err := HashPassword(password)
	if err != nil {
		return err
	}
	if err := s.store.SetPasswordHash(ctx, claims.ClientID, h); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return s.accounts.EndOtherSessions(ctx, claims)
}

// HashPassword checks a new password (ErrWeakPassword, account.ErrPasswordTooLong) and
// returns its bcrypt hash.
func HashPassword(password string) (string, error) {
	if err := CheckPassword(password); err != nil {
		return "", err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), account.PasswordCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// CheckPassword refuses a password too short to set or too long for bcrypt.
func CheckPassword(password string) error {
	if len([]rune(password)) < MinPasswordLen {
		return ErrWeakPassword
	}
	if len(password) > account.MaxPasswordBytes {
		return account.ErrPasswordTooLong
	}
	return nil
}

// newToken returns 256 random bits, URL-safe.
func newToken() string {
	var b [32]byte
	rand.Read(b[:]) // never fails since Go 1.24
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
