package authz_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// signRaw builds a token over an arbitrary payload, as the wire format
// documents it, to feed Verify what Sign would never produce.
func signRaw(key []byte, payload string) string {
	enc := base64.RawURLEncoding
	body := enc.EncodeToString([]byte(payload))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(body))
	return body + "." + enc.EncodeToString(m.Sum(nil))
}

// flipSig changes the first character of the signature: unlike the last one,
// it always changes the decoded bytes.
func flipSig(token string) string {
	body, sig, _ := strings.Cut(token, ".")
	c := byte('A')
	if sig[0] == 'A' {
		c = 'B'
	}
	return body + "." + string(c) + sig[1:]
}

// tail returns a last signature character that decodes to the same bytes as
// sig's own but sets the unused low bits, which strict decoding must refuse.
// A 32-byte MAC is 43 characters; the last carries 4 bits and 2 unused ones.
func tail(sig string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, sig[len(sig)-1])
	return string(alphabet[i|1])
}
