// Package account identifies buyers: a client is created on first sight of an email, and every
// sign-in opens a session whose signed token names the client and what it may see.
package account

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/id"
)

// emailRule is the spec's rule: non-space, at sign, non-space, dot, non-space.
var emailRule = regexp.MustCompile(`^\S+@\S+\.\S+$`)

// ValidEmail reports whether email passes the spec's rule and is text that reads as typed: valid
// UTF-8 without U+FFFD (the JSON decoder turns invalid bytes into it, so "u\xff@" and "u\xfe@"
// would be one client), and no character that is invisible or moves others: controls, format
// characters (bidi controls such as U+202E, zero-width ones, U+FEFF) and any space or
// line/paragraph separator beyond the ASCII ones the rule already refuses.
func ValidEmail(email string) bool {
	if !utf8.ValidString(email) {
		return false
	}
	for _, r := range email {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return emailRule.MatchString(email)
}

var (
	ErrInvalidEmail       = errors.New("invalid email")
	ErrInvalidCredentials = errors.New("invalid credentials")
	ErrUnauthorized       = errors.New("unauthorized")
	// ErrNotFound is what Store answers for an unknown client.
	ErrNotFound = errors.New("account: not found")
	// ErrPasswordTooLong: bcrypt reads only MaxPasswordBytes; a longer password is refused
	// rather than silently cut.
	ErrPasswordTooLong = bcrypt.ErrPasswordTooLong
)

// SessionTTL is how long a token lasts: as long as the storefront's "checkout" cookie.
const SessionTTL = 30 * 24 * time.Hour

// PasswordCost is the bcrypt cost of stored passwords. Tests lower it to bcrypt.MinCost: under
// the race detector one hash at the default cost takes about a second.
var PasswordCost = bcrypt.DefaultCost

// Client is a buyer account. ID is the database's and never leaves the server; PublicID
// (usr_…, random) is the one answers show.
type Client struct {
	ID           int64
	PublicID     string
	Email        string
	PasswordHash string
}

// Session is one sign-in.
type Session struct {
	ID        string
	ClientID  int64
	Scope     authz.Scope
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt time.Time
}

// Store is what the account service needs from persistence.
type Store interface {
	// EnsureClient creates the client, without a password, when absent.
	EnsureClient(ctx context.Context, email string) (c Client, created bool, err error)
	// ClientByEmail reads a client by (lower-case) email; ErrNotFound when there is none.
	ClientByEmail(ctx context.Context, email string) (Client, error)
	// ClientByID reads a client; ErrNotFound when there is none.
	ClientByID(ctx context.Context, id int64) (Client, error)
	CreateSession(ctx context.Context, s Session) error
	Session(ctx context.Context, id string) (Session, error)
	RevokeSession(ctx context.Context, id string, at time.Time) error
	// RevokeClientSessions signs out every live session of the client but keep, and returns them.
	RevokeClientSessions(ctx context.Context, clientID int64, keep string, at time.Time) ([]string, error)
	SubscribeEmail(ctx context.Context, clientID int64, at time.Time) error
}

// Service signs buyers in and checks their tokens.
type Service struct {
	store     Store
	signer    *authz.Signer
	now       func() time.Time
	passwords hasher
}

// New returns the account service; now is the business clock (session expiry), nil: real time.
func New(store Store, signer *authz.Signer, now func() time.Time) *Service {
	return &Service{store: store, signer: signer, now: clock.OrReal(now), passwords: bcryptHasher{}}
}

// hasher is the password work of a sign-in: one bcrypt computation each way, the cost of a
// sign-in (tests count the calls).
type hasher interface {
	Hash(password string) (string, error)
	Compare(hash, password string) error
}

// MaxPasswordBytes is the longest password bcrypt reads.
const MaxPasswordBytes = 72

type bcryptHasher struct{}

func (bcryptHasher) Hash(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	return string(h), err
}

func (bcryptHasher) Compare(hash, password string) error {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password))
}

// Identified is the answer to a sign-in.
type Identified struct {
	Token  string
	Claims authz.Claims
	// UserID is the client's public id (usr_…).
	UserID string
}

// Identify opens a session for email. Without a password the session may buy and see only its own
// purchases (the client is created on first sight); with the client's password it is proven. A
// password never creates a client nor becomes one's: only a proven session sets it (signin).
func (s *Service) Identify(ctx context.Context, email, password string) (Identified, error) {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return Identified{}, ErrInvalidEmail
	}
	email = strings.ToLower(email)
	if password == "" {
		c, _, err := s.store.EnsureClient(ctx, email)
		if err != nil {
			return Identified{}, fmt.Errorf("identify: %w", err)
		}
		return s.open(ctx, c, authz.ScopeEmail)
	}
	c, err := s.withPassword(ctx, email, password)
	if err != nil {
		return Identified{}, err
	}
	return s.open(ctx, c, authz.ScopeProven)
}

// open starts a session of scope for c and signs its token.
func (s *Service) open(ctx context.Context, c Client, scope authz.Scope) (Identified, error) {
	now := s.now().UTC()
	sess := Session{ID: id.New("ses_"), ClientID: c.ID, Scope: scope, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return Identified{}, fmt.Errorf("open session: %w", err)
	}
	claims := authz.Claims{ClientID: c.ID, SessionID: sess.ID, Scope: scope, Email: c.Email, IssuedAt: now, ExpiresAt: sess.ExpiresAt}
	token, err := s.signer.Sign(claims)
	if err != nil {
		return Identified{}, fmt.Errorf("open session: %w", err)
	}
	return Identified{Token: token, Claims: claims, UserID: c.PublicID}, nil
}

// dummyHash stands in for a missing password: comparing with it costs what comparing with a
// real one does. Made at first use, at the PasswordCost then in force (tests lower it first).
var dummyHash = sync.OnceValue(func() string {
	h, err := bcrypt.GenerateFromPassword([]byte("streamcart: no password to compare with"), PasswordCost)
	if err != nil {
		panic(err) // only a cost out of range, fixed at build time
	}
	return string(h)
})

// withPassword returns the client of email once password is proven for it. An unknown email, a
// client without a password and a wrong password are the same ErrInvalidCredentials after the
// same work, one bcrypt comparison, so neither the answer nor its time tells which it was.
func (s *Service) withPassword(ctx context.Context, email, password string) (Client, error) {
	if len(password) > MaxPasswordBytes {
		// Refused before any read: a comparison would silently ignore the bytes past bcrypt's limit.
		return Client{}, ErrPasswordTooLong
	}
	c, err := s.store.ClientByEmail(ctx, email)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Client{}, fmt.Errorf("identify: %w", err)
	}
	if err != nil || c.PasswordHash == "" {
		s.passwords.Compare(dummyHash(), password)
		return Client{}, ErrInvalidCredentials
	}
	if s.passwords.Compare(c.PasswordHash, password) != nil {
		return Client{}, ErrInvalidCredentials
	}
	return c, nil
}

// Authenticate verifies a token and that its session was not signed out.
func (s *Service) Authenticate(ctx context.Context, token string) (authz.Claims, error) {
	claims, err := s.signer.Verify(token, s.now())
	if err != nil {
		return authz.Claims{}, ErrUnauthorized
	}
	sess, err := s.store.Session(ctx, claims.SessionID)
	if err != nil || !sess.RevokedAt.IsZero() || sess.ClientID != claims.ClientID {
		return authz.Claims{}, ErrUnauthorized
	}
	return claims, nil
}

// SubscribeEmail records that the client of claims agreed to receive offers by email.
func (s *Service) SubscribeEmail(ctx context.Context, claims authz.Claims) error {
	if err := s.store.SubscribeEmail(ctx, claims.ClientID, s.now()); err != nil {
		return fmt.Errorf("subscribe email: %w", err)
	}
	return nil
}

// EndOtherSessions signs out every session of claims' client but claims' own (after a password
// change, whoever knew the old one is out).
func (s *Service) EndOtherSessions(ctx context.Context, claims authz.Claims) error {
	if _, err := s.store.RevokeClientSessions(ctx, claims.ClientID, claims.SessionID, s.now().UTC()); err != nil {
		return fmt.Errorf("end other sessions: %w", err)
	}
	return nil
}

// Current answers claims' own session (token unchanged) with its client's public id.
func (s *Service) Current(ctx context.Context, claims authz.Claims, token string) (Identified, error) {
	c, err := s.store.ClientByID(ctx, claims.ClientID)
	if err != nil {
		return Identified{}, fmt.Errorf("current session: %w", err)
	}
	return Identified{Token: token, Claims: claims, UserID: c.PublicID}, nil
}

// SignOut revokes the session of claims.
func (s *Service) SignOut(ctx context.Context, claims authz.Claims) error {
	if err := s.store.RevokeSession(ctx, claims.SessionID, s.now()); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}
