// Package paylink signs and checks the tokens of renewal pay links
// (/checkout/renew?invoice=…&t=…): a JWT (HS256) naming one invoice, good until the invoice's
// deadline. The signature says which invoice; whether it is still open is the caller's check, so
// a token dies with its invoice (paid long ago, cancelled, expired).
package paylink

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/streamcart/streamcart/api/shoplink"
)

// audience keeps these tokens apart from any other JWT the shop may sign with a key derived from
// the same secret.
const audience = "streamcart:invoice"

// ErrInvalid is any token that does not name the invoice: forged, another invoice's, expired.
var ErrInvalid = errors.New("paylink: invalid token")

// Signer signs and checks pay-link tokens.
type Signer struct {
	key []byte
	now func() time.Time
}

// New derives the pay-link key from the shop's secret key, so a session token's key never signs
// a pay link. now is the business clock (the test clock moves token expiry too).
func New(secret []byte, now func() time.Time) *Signer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("streamcart pay link v1"))
	return &Signer{key: m.Sum(nil), now: now}
}

// Sign returns the token of invoiceID, good until expires.
func (s *Signer) Sign(invoiceID string, expires time.Time) (string, error) {
	claims := jwt.RegisteredClaims{
		Subject:   invoiceID,
		Audience:  jwt.ClaimStrings{audience},
		IssuedAt:  jwt.NewNumericDate(s.now()),
		ExpiresAt: jwt.NewNumericDate(expires),
	}
	t, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	if err != nil {
		return "", fmt.Errorf("paylink: sign %s: %w", invoiceID, err)
	}
	return t, nil
}

// Check reports nil when token was signed here for invoiceID and has not expired.
func (s *Signer) Check(invoiceID, token string) error {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithAudience(audience),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(s.now), jwt.WithSubject(invoiceID))
	if err != nil || !slices.Contains(claims.Audience, audience) {
		return ErrInvalid
	}
	return nil
}

// URL is the storefront's pay page of invoiceID with token, in locale (one without storefront
// pages: the default ones): base/checkout/de-de/renew?invoice=…&t=….
func URL(base, locale, invoiceID, token string) string {
	return shoplink.Page(base, locale, "renew", url.Values{"invoice": {invoiceID}, "t": {token}})
}

// Link is the signed pay link of invoiceID on base, in locale, good until deadline (the invoice's
// payment deadline): the page a renewal mail opens without signing in.
func (s *Signer) Link(base, locale, invoiceID string, deadline time.Time) (string, error) {
	token, err := s.Sign(invoiceID, deadline)
	if err != nil {
		return "", err
	}
	return URL(base, locale, invoiceID, token), nil
}
