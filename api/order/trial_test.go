package order_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/order"
)

// Every spelling of one mailbox has one canonical form: case, a +tag and, at Gmail only, dots.
func TestCanonicalEmail(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"foo@gmail.com", "foo@gmail.com"},
		{"Foo+x@gmail.com", "foo@gmail.com"},
		{"f.o.o@googlemail.com", "foo@gmail.com"},
		{" F.O.O+a+b@GMail.COM ", "foo@gmail.com"},
		{"f.oo@example.com", "f.oo@example.com"},
		{"Ana+shop@Example.com", "ana@example.com"},
		{"no-at-sign", "no-at-sign"},
	} {
		if got := order.CanonicalEmail(c.in); got != c.want {
			t.Errorf("CanonicalEmail(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
