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
	ErrNotFound = errors.New("signin: not found")
)

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
}

// Service signs buyers in.
type Service struct {
	store    Store
	accounts *account.Service
	mailer   Mailer
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
}

// New returns the sign-in service.
func New(store Store, accounts *account.Service, mailer Mailer, cfg Config, log *slog.Logger) *Service {
	if cfg.StoreName == "" {
		cfg.StoreName = "Streamcart"
	}
	return &Service{store: store, accounts: accounts, mailer: mailer, cfg: cfg, log: log, now: time.Now}
}

// LinkRequest asks for a sign-in link.
type LinkRequest struct {
	Email     string
	ReturnURL string // path or same-origin URL; /checkout/ when empty
	IP        string
	// ReturnOrigins are further sites the link may open: the request's storefront's own.
	ReturnOrigins []string
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
	body := fmt.Sprintf("Hello,\n\nUse this link to sign in to %s. It works once, within 15 minutes:\n\n%s\n\n"+
		"If you did not ask for it, ignore this email: nobody can sign in without the link.\n", s.cfg.StoreName, target.String())
	if err := s.mailer.Send(ctx, mail.Message{To: c.Email, Subject: "Your sign-in link for " + s.cfg.StoreName, Body: body}); err != nil {
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

// Password opens a session with email and password, throttled: after MaxFailuresPerEmail wrong
// passwords for the email, or MaxFailuresPerIP from the address, within Window, every attempt
// answers ErrTooManyAttempts, right password or not. Without a password the session is email-only.
func (s *Service) Password(ctx context.Context, email, password, ip string) (account.Identified, error) {
	if password == "" {
		return s.accounts.Identify(ctx, email, "")
	}
	key := strings.ToLower(strings.TrimSpace(email))
	if err := s.throttled(ctx, key, ip); err != nil {
		return account.Identified{}, err
	}
	id, err := s.accounts.Identify(ctx, email, password)
	if errors.Is(err, account.ErrInvalidCredentials) {
		if ferr := s.failed(ctx, key, ip); ferr != nil {
			return account.Identified{}, ferr
		}
	}
	return id, err
}

func (s *Service) throttled(ctx context.Context, email, ip string) error {
	since := s.now().UTC().Add(-Window)
	n, err := s.store.CountAttempts(ctx, scopePasswordEmail, email, since)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if n >= MaxFailuresPerEmail {
		return ErrTooManyAttempts
	}
	if ip == "" {
		return nil
	}
	if n, err = s.store.CountAttempts(ctx, scopePasswordIP, ip, since); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if n >= MaxFailuresPerIP {
		return ErrTooManyAttempts
	}
	return nil
}

func (s *Service) failed(ctx context.Context, email, ip string) error {
	now := s.now().UTC()
	if err := s.store.AddAttempt(ctx, scopePasswordEmail, email, now); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	if ip != "" {
		if err := s.store.AddAttempt(ctx, scopePasswordIP, ip, now); err != nil {
			return fmt.Errorf("sign in: %w", err)
		}
	}
	return nil
}

// SetPassword sets the password of a proven session's client.
func (s *Service) SetPassword(ctx context.Context, claims authz.Claims, password string) error {
	if claims.Scope != authz.ScopeProven {
		return ErrNotProven
	}
	return s.setPassword(ctx, claims.ClientID, password)
}

func (s *Service) setPassword(ctx context.Context, clientID int64, password string) error {
	if len([]rune(password)) < MinPasswordLen {
		return ErrWeakPassword
	}
	if len(password) > account.MaxPasswordBytes {
		return account.ErrPasswordTooLong
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), account.PasswordCost)
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	if err := s.store.SetPasswordHash(ctx, clientID, string(h)); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// Claim proves the session's client with password for a signup (the reseller order): a client
// without a password takes this one; a client with one must give it (throttled like Password).
// It answers a proven session.
func (s *Service) Claim(ctx context.Context, claims authz.Claims, password, ip string) (account.Identified, error) {
	c, err := s.store.ClientByID(ctx, claims.ClientID)
	if err != nil {
		return account.Identified{}, fmt.Errorf("claim: %w", err)
	}
	if c.PasswordHash == "" {
		if err := s.setPassword(ctx, c.ID, password); err != nil {
			return account.Identified{}, err
		}
		return s.accounts.Prove(ctx, c.Email)
	}
	id, err := s.Password(ctx, c.Email, password, ip)
	if errors.Is(err, account.ErrInvalidCredentials) {
		return account.Identified{}, ErrInvalidCredentials
	}
	return id, err
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
