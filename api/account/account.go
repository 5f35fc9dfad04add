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
	// ErrPasswordTooLong: bcrypt reads only MaxPasswordBytes; a longer password is refused
	// rather than silently cut.
	ErrPasswordTooLong = bcrypt.ErrPasswordTooLong
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
	// EnsureClient creates the client when absent (password hash only set on creation).
	EnsureClient(ctx context.Context, email, passwordHash string) (c Client, created bool, err error)
	// ClientByEmail reads a client by (lower-case) email; an error when there is none.
	ClientByEmail(ctx context.Context, email string) (Client, error)
	CreateSession(ctx context.Context, s Session) error
	Session(ctx context.Context, id string) (Session, error)
	RevokeSession(ctx context.Context, id string, at time.Time) error
	SubscribeEmail(ctx context.Context, clientID int64, at time.Time) error
}

// Service signs buyers in and checks their tokens.
type Service struct {
	store     Store
	signer    *authz.Signer
	now       func() time.Time
	passwords hasher
}

// New returns the account service.
func New(store Store, signer *authz.Signer) *Service {
	return &Service{store: store, signer: signer, now: time.Now, passwords: bcryptHasher{}}
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
}

// Identify opens a session for email. Without a password the session may buy and see only its own
// purchases; with the client's password it is proven. A new client given a password keeps it.
func (s *Service) Identify(ctx context.Context, email, password string) (Identified, error) {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return Identified{}, ErrInvalidEmail
	}
	email = strings.ToLower(email)
	scope := authz.ScopeEmail
	var c Client
	if password == "" {
		var err error
		if c, _, err = s.store.EnsureClient(ctx, email, ""); err != nil {
			return Identified{}, fmt.Errorf("identify: %w", err)
		}
	} else {
		var err error
		if c, err = s.withPassword(ctx, email, password); err != nil {
			return Identified{}, err
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

// withPassword returns the client of email once password is proven for it, creating the client
// with that password when absent. Every answer costs one bcrypt computation, so its time tells no
// more than the answer does: a comparison for a client with a password, a hash for a new client,
// and a hash thrown away for a client without one.
func (s *Service) withPassword(ctx context.Context, email, password string) (Client, error) {
	if len(password) > MaxPasswordBytes {
		// Refused before any read, as when every sign-in hashed first: a comparison would
		// silently ignore the bytes past bcrypt's limit.
		return Client{}, ErrPasswordTooLong
	}
	// Any failed read (none, or a blip) falls through to EnsureClient, which decides and reports.
	if c, err := s.store.ClientByEmail(ctx, email); err == nil {
		return s.check(c, password)
	}
	hash, err := s.passwords.Hash(password)
	if err != nil {
		return Client{}, fmt.Errorf("identify: %w", err)
	}
	c, created, err := s.store.EnsureClient(ctx, email, hash)
	if err != nil {
		return Client{}, fmt.Errorf("identify: %w", err)
	}
	if created {
		return c, nil
	}
	// Created by another sign-in since the read (a race): this one costs a second computation.
	return s.check(c, password)
}

// check proves password for the existing client c.
func (s *Service) check(c Client, password string) (Client, error) {
	if c.PasswordHash == "" {
		// Nothing to compare with: one computation anyway, so this refusal takes as long as a
		// wrong password's.
		if _, err := s.passwords.Hash(password); err != nil {
			return Client{}, fmt.Errorf("identify: %w", err)
		}
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

// SignOut revokes the session of claims.
func (s *Service) SignOut(ctx context.Context, claims authz.Claims) error {
	if err := s.store.RevokeSession(ctx, claims.SessionID, s.now()); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}

// idAlphabet is in ASCII order, so ids sort as the numbers they encode.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

var idEncoding = base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding)

// NewID returns prefix, the time in milliseconds (10 characters) and 80 random bits (16): ids
// sort by creation, so each new row goes to the end of its indexes (a few pages shared by a
// commit instead of a random page per index and row), and still reveal nothing about counts.
// The time an id shows is the creation time of a row its reader already knows of.
func NewID(prefix string) string {
	var r [10]byte
	if _, err := rand.Read(r[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	var t [10]byte
	ms := uint64(time.Now().UnixMilli())
	for i := len(t) - 1; i >= 0; i-- {
		t[i] = idAlphabet[ms&31]
		ms >>= 5
	}
	return prefix + string(t[:]) + idEncoding.EncodeToString(r[:])
}
