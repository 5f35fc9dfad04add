package geo_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/geo"
)

const failedMsg = "Country lookup failed"

func TestCountry(t *testing.T) {
	l, err := geo.Open(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })

	cases := []struct {
		name string
		ip   string // "" is the zero netip.Addr
		want string
	}{
		{"public v4 hit", "81.2.69.160", "GB"},
		{"public v4 hit 2", "8.8.8.8", "US"},
		{"lower-case record upper-cased", "2.17.1.1", "FR"},
		{"v4-mapped v6", "::ffff:81.2.69.160", "GB"},
		{"public v6 hit", "2a00:1450:4001::1", "IE"},
		{"public v6 hit 2", "2c0f:fb50:4002::2", "KE"},
		{"v6 with zone", "2a00:1450::1%eth0", "IE"},
		{"public v4 miss", "9.9.9.9", geo.Unknown},
		{"public v6 miss", "2a01:4f8::1", geo.Unknown},
		{"record without country_code", "7.7.7.7", geo.Unknown},
		{"invalid address", "", geo.Unknown},
		{"unspecified v4", "0.0.0.0", geo.Unknown},
		{"unspecified v6", "::", geo.Unknown},
		{"loopback v4", "127.0.0.1", geo.Unknown},
		{"loopback v6", "::1", geo.Unknown},
		{"private 10/8", "10.1.2.3", geo.Unknown},
		{"private mapped", "::ffff:10.1.2.3", geo.Unknown},
		{"CGNAT", "100.64.1.1", geo.Unknown},
		{"link-local v4", "169.254.1.1", geo.Unknown},
		{"documentation v4", "192.0.2.7", geo.Unknown},
		{"multicast v4", "224.0.0.1", geo.Unknown},
		{"reserved v4", "250.1.1.1", geo.Unknown},
		{"broadcast", "255.255.255.255", geo.Unknown},
		{"unique local v6", "fd00::1", geo.Unknown},
		{"link-local v6", "fe80::1", geo.Unknown},
		{"documentation v6", "2001:db8::1", geo.Unknown},
		{"country_code of wrong type", "5.5.5.5", geo.Failed},
		{"country_code too long", "6.6.6.6", geo.Failed},
		{"country_code not letters", "6.7.6.7", geo.Failed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLog(t)
			var ip netip.Addr
			if tc.ip != "" {
				ip = netip.MustParseAddr(tc.ip)
			}
			if got := l.Country(ip); got != tc.want {
				t.Fatalf("Country(%s) = %q, want %q", tc.ip, got, tc.want)
			}
			logged := strings.Contains(logs.String(), failedMsg)
			if logged != (tc.want == geo.Failed) {
				t.Fatalf("logged %q = %v, want %v; log: %s", failedMsg, logged, tc.want == geo.Failed, logs)
			}
		})
	}
}

func TestCountryWithoutDatabase(t *testing.T) {
	closed, err := geo.Open(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	var none *geo.Lookup
	if err := none.Close(); err != nil {
		t.Fatalf("nil Close: %v", err)
	}

	cases := []struct {
		name string
		l    *geo.Lookup
		ip   string
		want string
	}{
		{"nil lookup, public", none, "8.8.8.8", geo.Failed},
		{"closed lookup, public", closed, "81.2.69.160", geo.Failed},
		// Skipping comes first: nothing is looked up, so nothing failed.
		{"nil lookup, private", none, "192.168.1.1", geo.Unknown},
		{"closed lookup, loopback", closed, "::1", geo.Unknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLog(t)
			if got := tc.l.Country(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Fatalf("Country(%s) = %q, want %q", tc.ip, got, tc.want)
			}
			if logged := strings.Contains(logs.String(), failedMsg); logged != (tc.want == geo.Failed) {
				t.Fatalf("logged %q = %v; log: %s", failedMsg, logged, logs)
			}
		})
	}
}

func TestOpenRejects(t *testing.T) {
	good, err := os.ReadFile(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"empty":     {},
		"garbage":   []byte(strings.Repeat("not a maxmind database\n", 100)),
		"truncated": good[:len(good)/2],
	}
	cases := []string{filepath.Join(dir, "missing.mmdb")}
	for name, data := range files {
		p := filepath.Join(dir, name+".mmdb")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, p)
	}
	for _, p := range cases {
		t.Run(filepath.Base(p), func(t *testing.T) {
			l, err := geo.Open(p)
			if err == nil {
				l.Close()
				t.Fatal("Open succeeded, want an error")
			}
			if l != nil {
				t.Fatalf("Open returned a Lookup with error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "geo: open ") {
				t.Fatalf("error %q lacks the op prefix", err)
			}
		})
	}
}

// TestCountryConcurrentClose runs lookups against a Close (meaningful under
// -race): every answer is either the real country or Failed, never a crash.
func TestCountryConcurrentClose(t *testing.T) {
	l, err := geo.Open(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	captureLog(t)
	ip := netip.MustParseAddr("81.2.69.160")
	var wg sync.WaitGroup
	answers := make(chan string, 8*50)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				answers <- l.Country(ip)
			}
		})
	}
	wg.Go(func() { l.Close() })
	wg.Wait()
	close(answers)
	for a := range answers {
		if a != "GB" && a != geo.Failed {
			t.Fatalf("answer %q, want GB or %s", a, geo.Failed)
		}
	}
}

func TestAttribution(t *testing.T) {
	for _, want := range []string{"CC BY 4.0", "ip-location-db", "nro.net"} {
		if !strings.Contains(geo.Attribution, want) {
			t.Errorf("Attribution lacks %q", want)
		}
	}
}
