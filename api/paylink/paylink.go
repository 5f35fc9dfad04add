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
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
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

// URL is the storefront's pay page of invoiceID with token, in locale (a storefront prefix such
// as "de-de"; "" or an unknown one: none): base/checkout/de-de/renew?invoice=…&t=….
func URL(base, prefix, invoiceID, token string) string {
	path := "/checkout/"
	if prefix != "" {
		path += prefix + "/"
	}
	q := url.Values{"invoice": {invoiceID}, "t": {token}}
	return strings.TrimRight(base, "/") + path + "renew?" + q.Encode()
}
