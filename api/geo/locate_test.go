package geo_test

import (
	"net/netip"
	"testing"

	"github.com/streamcart/streamcart/api/geo"
)

// Locate answers a country only where the database places the address: never the storefront's
// fallbacks (MA, XX), which are real-looking codes.
func TestLocate(t *testing.T) {
	l, err := geo.Open(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	for _, tc := range []struct{ ip, want string }{
		{"81.2.69.160", "GB"}, {"2.17.1.1", "FR"}, {"::ffff:81.2.69.160", "GB"},
		{"9.9.9.9", ""}, {"7.7.7.7", ""}, {"127.0.0.1", ""}, {"10.1.2.3", ""}, {"6.6.6.6", ""},
	} {
		if got := l.Locate(netip.MustParseAddr(tc.ip)); got != tc.want {
			t.Errorf("Locate(%s) = %q, want %q", tc.ip, got, tc.want)
		}
	}
	if got := l.Locate(netip.Addr{}); got != "" {
		t.Errorf("Locate(invalid) = %q", got)
	}
	var none *geo.Lookup
	if got := none.Locate(netip.MustParseAddr("81.2.69.160")); got != "" {
		t.Errorf("nil Lookup located %q", got)
	}
}
