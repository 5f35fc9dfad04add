package console_test

import (
	"fmt"
	"testing"

	"github.com/streamcart/streamcart/api/console"
)

// TestAuditArgs: the details the handlers write in English come back in parts; a typed reason or
// a value stays without.
func TestAuditArgs(t *testing.T) {
	cases := []struct {
		action, detail string
		want           []string
	}{
		{"order-approve", "payment requested", []string{"payment-requested"}},
		{"order-approve", "provisioned unpaid", []string{"provisioned-unpaid"}},
		{"order-refund", "12.99 EUR by stripe: asked by phone", []string{"refund", "1299", "EUR", "stripe", "asked by phone", ""}},
		{"order-refund", "replayed (nothing more refunded): 500 JPY by hand: x", []string{"refund", "500", "JPY", "hand", "x", "replayed"}},
		{"order-refund", "asked by phone", nil},
		{"catalog-save", "version 4: new prices", []string{"version", "4", "new prices"}},
		{"customer-signout", "3 session(s)", []string{"sessions", "3"}},
		{"console-signin-failed", "bad_password", []string{"signin-failed", "bad_password"}},
		{"mac", "aa:bb:cc:dd:ee:ff", nil},
	}
	for _, c := range cases {
		if got := console.AuditArgs(c.action, c.detail); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("%s %q: %q, want %q", c.action, c.detail, got, c.want)
		}
	}
}
