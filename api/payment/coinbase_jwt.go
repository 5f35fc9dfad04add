package payment

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// cdpJWTLifetime is how long a CDP request JWT is valid: CDP takes at most two minutes.
const cdpJWTLifetime = 2 * time.Minute

// ErrBadKey means STREAMCART_COINBASE_KEY_SECRET is not a CDP secret API key.
var ErrBadKey = errors.New("payment: not a CDP secret API key")

// cdpKey is a CDP secret API key: Ed25519 (signs EdDSA) or ECDSA P-256 (signs ES256).
type cdpKey struct {
	id     string
	signer crypto.Signer
	method jwt.SigningMethod
}

// parseCDPKey reads the secret as the CDP portal gives it: an Ed25519 key as base64 of its
// 64 bytes (seed and public key), or an ECDSA key as a PEM block ("EC PRIVATE KEY" or PKCS #8),
// whose newlines may arrive escaped as \n from an environment variable.
func parseCDPKey(id, secret string) (cdpKey, error) {
	secret = strings.TrimSpace(secret)
	if strings.Contains(secret, "-----BEGIN") {
		block, _ := pem.Decode([]byte(strings.ReplaceAll(secret, `\n`, "\n")))
		if block == nil {
			return cdpKey{}, fmt.Errorf("%w: unreadable PEM block", ErrBadKey)
		}
		var k any
		var err error
		if block.Type == "EC PRIVATE KEY" {
			k, err = x509.ParseECPrivateKey(block.Bytes)
		} else {
			k, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		}
		if err != nil {
			return cdpKey{}, fmt.Errorf("%w: %v", ErrBadKey, err)
		}
		switch k := k.(type) {
		case *ecdsa.PrivateKey:
			if k.Curve != elliptic.P256() {
				return cdpKey{}, fmt.Errorf("%w: ECDSA key is not on P-256", ErrBadKey)
			}
			return cdpKey{id: id, signer: k, method: jwt.SigningMethodES256}, nil
		case ed25519.PrivateKey:
			return cdpKey{id: id, signer: k, method: jwt.SigningMethodEdDSA}, nil
		}
		return cdpKey{}, fmt.Errorf("%w: %T keys are not CDP keys", ErrBadKey, k)
	}
	raw, err := base64.StdEncoding.DecodeString(secret)
	if err != nil {
		return cdpKey{}, fmt.Errorf("%w: neither a PEM ECDSA key nor base64 Ed25519", ErrBadKey)
	}
	switch len(raw) {
	case ed25519.PrivateKeySize:
		k := ed25519.PrivateKey(raw)
		// The second half must be the first half's public key, or every signature is refused.
		if !ed25519.NewKeyFromSeed(k.Seed()).Equal(k) {
			return cdpKey{}, fmt.Errorf("%w: Ed25519 public half does not match its seed", ErrBadKey)
		}
		return cdpKey{id: id, signer: k, method: jwt.SigningMethodEdDSA}, nil
	case ed25519.SeedSize:
		return cdpKey{id: id, signer: ed25519.NewKeyFromSeed(raw), method: jwt.SigningMethodEdDSA}, nil
	}
	return cdpKey{}, fmt.Errorf("%w: an Ed25519 key is 64 bytes, not %d", ErrBadKey, len(raw))
}

// token signs the JWT of one request as CDP wants it: header kid (the key id) and a fresh
// nonce; claims sub (the key id), iss "cdp", nbf now, exp two minutes on, and uri, the request's
// "METHOD host/path". It is good for that request only.
func (k cdpKey) token(method, host, path string, now time.Time) (string, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	t := jwt.NewWithClaims(k.method, jwt.MapClaims{
		"sub": k.id, "iss": "cdp",
		"nbf": now.Unix(), "exp": now.Add(cdpJWTLifetime).Unix(),
		"uri": method + " " + host + path,
	})
	t.Header["kid"] = k.id
	t.Header["nonce"] = hex.EncodeToString(nonce)
	return t.SignedString(k.signer)
}
