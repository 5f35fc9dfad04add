package operator

import (
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestUnknownEmailComparesAtThePasswordCost: a sign-in for an unknown email compares the password
// with a hash at the cost of the service's real ones (the default cost unless configured), so it
// takes as long as a known email's.
func TestUnknownEmailComparesAtThePasswordCost(t *testing.T) {
	for _, tc := range []struct{ configured, want int }{{0, bcrypt.DefaultCost}, {bcrypt.MinCost, bcrypt.MinCost}, {bcrypt.MinCost + 1, bcrypt.MinCost + 1}} {
		s := New(nil, Config{PasswordCost: tc.configured}, nil, nil)
		h := dummyHash(s.cost)
		if got, err := bcrypt.Cost(h); err != nil || got != tc.want {
			t.Errorf("configured cost %d: dummy hash cost %d (%v), want %d", tc.configured, got, err, tc.want)
		}
		if err := bcrypt.CompareHashAndPassword(h, []byte("streamcart operator timing")); err != nil {
			t.Errorf("configured cost %d: dummy hash %q: %v", tc.configured, h, err)
		}
	}
}
