// Package account identifies buyers: a client is created on first sight of an email, and every
// sign-in opens a session whose signed token names the client and what it may see.
package account

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/authz"
)

// emailRule is the spec's rule: non-space, at sign, non-space, dot, non-space.
var emailRule = regexp.MustCompile(`^\S+@\S+\.\S+$`)

// ValidEmail reports whether email passes the spec's rule.
func ValidEmail(email string) bool { return emailRule.MatchString(email) }

var (
	ErrInvalidEmail       = errors.New("invalid email")
	ErrInvalidCredentials = errors.New("invalid credentials")
	ErrUnauthorized       = errors.New("unauthorized")
)

// SessionTTL is how long a token lasts: as long as the storefront's "checkout" cookie.
const SessionTTL = 30 * 24 * time.Hour

// PasswordCost is the bcrypt cost of stored passwords. Tests lower it to bcrypt.MinCost: under
// the race detector one hash at the default cost takes about a second.
var PasswordCost = bcrypt.DefaultCost

// Client is a buyer account.
type Client struct {
	ID           int64
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
	// ClientByEmail creates the client when absent (password hash only set on creation).
	EnsureClient(ctx context.Context, email, passwordHash string) (c Client, created bool, err error)
	CreateSession(ctx context.Context, s Session) error
	Session(ctx context.Context, id string) (Session, error)
	RevokeSession(ctx context.Context, id string, at time.Time) error
	SubscribeEmail(ctx context.Context, clientID int64, at time.Time) error
}

// Service signs buyers in and checks their tokens.
type Service struct {
	store  Store
	signer *authz.Signer
	now    func() time.Time
}

// New returns the account service.
func New(store Store, signer *authz.Signer) *Service {
	return &Service{store: store, signer: signer, now: time.Now}
}

// Identified is the answer to a sign-in.
type Identified struct {
	Token  string
	Claims authz.Claims
}

// Identify opens a session for email. Without a password the session may buy and see only its own
// purchases; with the client's password it is proven. A new client given a password keeps it.
func (s *Service) Identify(ctx context.Context, email, password string) (Identified, error) {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return Identified{}, ErrInvalidEmail
	}
	email = strings.ToLower(email)
	var hash string
	if password != "" {
		h, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
		if err != nil {
			return Identified{}, fmt.Errorf("identify: %w", err)
		}
		hash = string(h)
	}
	c, created, err := s.store.EnsureClient(ctx, email, hash)
	if err != nil {
		return Identified{}, fmt.Errorf("identify: %w", err)
	}
	scope := authz.ScopeEmail
	if password != "" {
		if !created && (c.PasswordHash == "" || bcrypt.CompareHashAndPassword([]byte(c.PasswordHash), []byte(password)) != nil) {
			return Identified{}, ErrInvalidCredentials
		}
		scope = authz.ScopeProven
	}
	now := s.now().UTC()
	sess := Session{ID: NewID("ses_"), ClientID: c.ID, Scope: scope, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return Identified{}, fmt.Errorf("identify: %w", err)
	}
	claims := authz.Claims{ClientID: c.ID, SessionID: sess.ID, Scope: scope, Email: c.Email, IssuedAt: now, ExpiresAt: sess.ExpiresAt}
	token, err := s.signer.Sign(claims)
	if err != nil {
		return Identified{}, fmt.Errorf("identify: %w", err)
	}
	return Identified{Token: token, Claims: claims}, nil
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

// SignOut revokes the session of claims.
func (s *Service) SignOut(ctx context.Context, claims authz.Claims) error {
	if err := s.store.RevokeSession(ctx, claims.SessionID, s.now()); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}

var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// NewID returns prefix followed by 80 random bits, so ids reveal neither counts nor order.
func NewID(prefix string) string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + idEncoding.EncodeToString(b[:])
}
