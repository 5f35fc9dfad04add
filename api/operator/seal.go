package operator

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// sealedPrefix marks a TOTP secret stored sealed (AES-256-GCM under a key derived from the shop's
// secret key); a stored secret without it is one kept in the clear before sealing existed.
const sealedPrefix = "sealed:v1:"

// ErrSealedSecret means a stored TOTP secret cannot be opened: the shop's secret key is not the
// one it was sealed with. `streamcart operator reset EMAIL` gives the operator a new setup link.
var ErrSealedSecret = errors.New("operator: TOTP secret sealed with another secret key")

// sealer keeps TOTP secrets unreadable to whoever reads the database without the shop's secret
// key (a dump, a backup, a read replica's logs). The operator's id is the additional data, so a
// sealed secret copied onto another operator's row does not open.
type sealer struct{ aead cipher.AEAD }

// newSealer derives the sealing key from the shop's secret key. It cannot fail: HKDF-SHA256 gives
// 32 bytes, an AES-256 key, and GCM takes any AES block.
func newSealer(secretKey []byte) *sealer {
	key, err := hkdf.Key(sha256.New, secretKey, nil, "streamcart operator totp secret", 32)
	if err != nil {
		panic(fmt.Sprintf("totp sealing key: %v", err))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(fmt.Sprintf("totp sealing key: %v", err))
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(fmt.Sprintf("totp sealing key: %v", err))
	}
	return &sealer{aead: aead}
}

func (s *sealer) seal(operatorID int64, secret string) string {
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce)
	out := s.aead.Seal(nonce, nonce, []byte(secret), []byte(strconv.FormatInt(operatorID, 10)))
	return sealedPrefix + base64.RawStdEncoding.EncodeToString(out)
}

// open answers the secret of a sealed stored value.
func (s *sealer) open(operatorID int64, stored string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(stored, sealedPrefix))
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", ErrSealedSecret
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(strconv.FormatInt(operatorID, 10)))
	if err != nil {
		return "", ErrSealedSecret
	}
	return string(plain), nil
}
