package account_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/account"
)

// TestValidEmail: an address is the spec's shape and reads as typed (issue 24, finding 8): no
// invalid UTF-8 nor the U+FFFD the JSON decoder puts in its place, no bidi control, zero-width
// character or line/paragraph separator.
func TestValidEmail(t *testing.T) {
	for _, tc := range []struct {
		email string
		want  bool
	}{
		{"buyer@example.com", true},
		{"Ünïcödé@exämple.com", true},
		{"käufer+tag@bücher.de", true},
		{"no-at.example.com", false},
		{"u\xff@example.com", false},
		{"u\xfe@example.com", false},
		{"u\ufffd@example.com", false},
		{"\u202emoc.elpmaxe@u", false},
		{"u\u202a@example.com", false},
		{"u\u202b@example.com", false},
		{"u\u202c@example.com", false},
		{"u\u202d@example.com", false},
		{"u\u2066@example.com", false},
		{"u\u2067@example.com", false},
		{"u\u2068@example.com", false},
		{"u\u2069@example.com", false},
		{"u\u200e@example.com", false},
		{"u\u200f@example.com", false},
		{"u\u061c@example.com", false},
		{"u\u2028@example.com", false},
		{"u\u2029@example.com", false},
		{"u\u200b@example.com", false},
		{"u\u200c@example.com", false},
		{"u\u200d@example.com", false},
		{"u\u2060@example.com", false},
		{"\ufeffu@example.com", false},
		{"u\u00a0v@example.com", false},
		{"u\u0085@example.com", false},
	} {
		if got := account.ValidEmail(tc.email); got != tc.want {
			t.Errorf("ValidEmail(%+q) = %v, want %v", tc.email, got, tc.want)
		}
	}
}
