// Package authz signs session tokens and decides, through ory/ladon policies,
// which orders, services and invoices a session may touch.
package authz

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Scope says how a session proved who it is, and so how much it may see.
type Scope string

const (
	// ScopeEmail is a session created with an email alone: it may buy, and may
	// read only what this very session bought. Anyone can type an email, so it
	// must never reveal another purchase's credentials.
	ScopeEmail Scope = "email"
	// ScopeProven is a session proven by a password or a sign-in link: it may
	// read everything of its client.
	ScopeProven Scope = "proven"
)

// KeySize is the length of keys made by NewKey and the minimum NewSigner accepts.
const KeySize = 32

// maxTokenLen bounds the work done on untrusted input before the MAC check.
const maxTokenLen = 4096

var (
	// ErrInvalidToken means the token is malformed, was not signed with this
	// key, or carries claims that make no sense.
	ErrInvalidToken = errors.New("authz: invalid token")
	// ErrExpiredToken means the token was genuine but its time is over.
	ErrExpiredToken = errors.New("authz: token expired")
	// ErrShortKey means the signing key is shorter than KeySize.
	ErrShortKey = errors.New("authz: signing key too short")
	// ErrInvalidClaims means Sign was asked to sign claims that Verify would reject.
	ErrInvalidClaims = errors.New("authz: invalid claims")
)

// Claims is what a session token asserts. Times travel as Unix seconds, so
// Verify returns them truncated to the second, in UTC.
type Claims struct {
	ClientID  int64
	SessionID string
	Scope     Scope
	Email     string
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// wireClaims is the token payload. The payload is signed, not encrypted: it
// holds nothing the bearer does not already know.
type wireClaims struct {
	ClientID  int64  `json:"cid"`
	SessionID string `json:"sid"`
	Scope     Scope  `json:"scp"`
	Email     string `json:"eml,omitempty"`
	IssuedAt  int64  `json:"iat"`
	ExpiresAt int64  `json:"exp"`
}

func (w wireClaims) claims() Claims {
	return Claims{
		ClientID:  w.ClientID,
		SessionID: w.SessionID,
		Scope:     w.Scope,
		Email:     w.Email,
		IssuedAt:  time.Unix(w.IssuedAt, 0).UTC(),
		ExpiresAt: time.Unix(w.ExpiresAt, 0).UTC(),
	}
}

func (w wireClaims) valid() bool {
	return w.ClientID > 0 && w.SessionID != "" && w.Scope.valid() && w.ExpiresAt > w.IssuedAt
}

func (s Scope) valid() bool { return s == ScopeEmail || s == ScopeProven }

// NewKey returns KeySize random bytes for a new signing key.
func NewKey() ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("authz: new key: %w", err)
	}
	return key, nil
}

// Signer signs and verifies session tokens with HMAC-SHA256. It is safe for
// concurrent use.
type Signer struct {
	key []byte

	// verified remembers the claims of tokens whose signature and claims passed, so a session's
	// every request does not recompute the HMAC and decode the JSON again (~4 % of an order's
	// CPU). A token's bytes fix its claims and this key fixes its signature's verdict, so what
	// is remembered never goes stale: expiry is still checked on every call, and revocation is
	// not a token's business (account.Authenticate reads the session's row every time).
	mu       sync.Mutex
	verified map[string]wireClaims
}

// verifiedMax bounds the tokens remembered; the memory is dropped whole when it is full. Only a
// token this key signed gets in, so a stranger cannot fill it with made-up ones.
const verifiedMax = 4096

// NewSigner returns a Signer for key, which must be at least KeySize bytes.
func NewSigner(key []byte) (*Signer, error) {
	if len(key) < KeySize {
		return nil, fmt.Errorf("authz: new signer: %w", ErrShortKey)
	}
	// Copied so a caller reusing its buffer cannot change the key under us.
	return &Signer{key: bytes.Clone(key)}, nil
}

// Strict so each token has exactly one spelling: lax decoding would accept
// variants of the last character of the signature.
var enc = base64.RawURLEncoding.Strict()

// Sign returns the compact, URL-safe token base64url(payload).base64url(mac).
func (s *Signer) Sign(c Claims) (string, error) {
	w := wireClaims{
		ClientID:  c.ClientID,
		SessionID: c.SessionID,
		Scope:     c.Scope,
		Email:     c.Email,
		IssuedAt:  c.IssuedAt.Unix(),
		ExpiresAt: c.ExpiresAt.Unix(),
	}
	if !w.valid() {
		return "", fmt.Errorf("authz: sign: %w", ErrInvalidClaims)
	}
	payload, err := json.Marshal(w)
	if err != nil {
		return "", fmt.Errorf("authz: sign: %w", err)
	}
	body := enc.EncodeToString(payload)
	return body + "." + enc.EncodeToString(s.mac(body)), nil
}

// Verify checks the token's signature in constant time, then its claims and
// expiry at now. It returns ErrInvalidToken or ErrExpiredToken (wrapped).
func (s *Signer) Verify(token string, now time.Time) (Claims, error) {
	s.mu.Lock()
	known, seen := s.verified[token]
	s.mu.Unlock()
	if seen {
		if now.Unix() >= known.ExpiresAt {
			return Claims{}, ErrExpiredToken
		}
		return known.claims(), nil
	}
	if len(token) > maxTokenLen {
		return Claims{}, fmt.Errorf("%w: too long", ErrInvalidToken)
	}
	body, sig, ok := strings.Cut(token, ".")
	if !ok || body == "" || strings.Contains(sig, ".") {
		return Claims{}, fmt.Errorf("%w: malformed", ErrInvalidToken)
	}
	got, err := enc.DecodeString(sig)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: malformed signature", ErrInvalidToken)
	}
	// The MAC is checked before the payload is parsed so that nothing an
	// attacker wrote is interpreted.
	if !hmac.Equal(got, s.mac(body)) {
		return Claims{}, fmt.Errorf("%w: bad signature", ErrInvalidToken)
	}
	payload, err := enc.DecodeString(body)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: malformed payload", ErrInvalidToken)
	}
	var w wireClaims
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil || !w.valid() {
		return Claims{}, fmt.Errorf("%w: bad claims", ErrInvalidToken)
	}
	if now.Unix() >= w.ExpiresAt {
		return Claims{}, ErrExpiredToken
	}
	s.mu.Lock()
	if len(s.verified) >= verifiedMax || s.verified == nil {
		s.verified = make(map[string]wireClaims)
	}
	s.verified[token] = w
	s.mu.Unlock()
	return w.claims(), nil
}

func (s *Signer) mac(body string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(body))
	return m.Sum(nil)
}
