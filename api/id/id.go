// Package id makes the shop's opaque ids: a short prefix naming what the id is ("ord_", "inv_",
// "ses_") and 26 characters of a lower-case base-32 alphabet. Every id the Go code invents comes
// from here; a store's own sequences and a provider's references are not ours to make.
package id

import (
	"crypto/rand"
	"encoding/base32"
	"time"
)

// alphabet is in ASCII order, so ids sort as the numbers they encode.
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

var encoding = base32.NewEncoding(alphabet).WithPadding(base32.NoPadding)

// New returns prefix, the time in milliseconds (10 characters) and 80 random bits (16): ids
// sort by creation, so each new row goes to the end of its indexes (a few pages shared by a
// commit instead of a random page per index and row), and still reveal nothing about counts.
// The time an id shows is the creation time of a row its reader already knows of.
func New(prefix string) string { return at(prefix, time.Now()) }

func at(prefix string, now time.Time) string {
	var r [10]byte
	if _, err := rand.Read(r[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	var t [10]byte
	ms := uint64(now.UnixMilli())
	for i := len(t) - 1; i >= 0; i-- {
		t[i] = alphabet[ms&31]
		ms >>= 5
	}
	return prefix + string(t[:]) + encoding.EncodeToString(r[:])
}

// Public returns prefix and 26 random characters of New's alphabet: an id that looks like the
// others but tells neither when nor in which order its row was made (client ids).
func Public(prefix string) string {
	var r [17]byte // 136 bits: 26 characters of 5 bits, and a few more
	if _, err := rand.Read(r[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + encoding.EncodeToString(r[:])[:26]
}
