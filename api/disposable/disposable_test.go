package disposable_test

import (
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/disposable"
)

func TestBlocked(t *testing.T) {
	on := disposable.New(true, disposable.ParseDomains(" @Shop-Refuses.example, bücher.example ,"))
	off := disposable.New(false, disposable.ParseDomains("shop-refuses.example"))
	for _, c := range []struct {
		email   string
		on, off bool
	}{
		{"a@mailinator.com", true, false},
		{"a@MAILINATOR.COM", true, false},
		{"a@mail.mailinator.com", true, false},     // a subdomain of a listed domain
		{"a@mailinator.com.", true, false},         // the root's trailing dot
		{"a@unlistedmailinator.com", false, false}, // a suffix is no subdomain
		{"a@gmail.com", false, false},
		{"a@example.com", false, false},
		{"a@shop-refuses.example", true, true}, // the seller's, whether the list is on or off
		{"a@x.shop-refuses.example", true, true},
		{"a@xn--bcher-kva.example", true, false}, // IDNA: bücher.example
		{"a@BÜCHER.example", true, false},
		{"no-domain", false, false},
	} {
		if got := on.Blocked(c.email); got != c.on {
			t.Errorf("list on: Blocked(%q) = %v, want %v", c.email, got, c.on)
		}
		if got := off.Blocked(c.email); got != c.off {
			t.Errorf("list off: Blocked(%q) = %v, want %v", c.email, got, c.off)
		}
	}
}

// The list is a pinned release of a maintained one, named and dated in its header.
func TestSourceIsNamedAndDated(t *testing.T) {
	src := disposable.Source()
	if !strings.HasPrefix(src, "mailchecker@") || !strings.Contains(src, "published 20") || !strings.Contains(src, "MIT") {
		t.Fatalf("Source() = %q, want the package, its version, its date and licence", src)
	}
}
