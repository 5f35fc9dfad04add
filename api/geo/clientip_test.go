package geo_test

import (
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/streamcart/streamcart/api/geo"
)

func TestClientIP(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}
	cases := []struct {
		name    string
		remote  string
		xff     []string
		realIP  string
		trusted []netip.Prefix
		want    string // "" is the zero netip.Addr
	}{
		{"remote v4", "203.0.113.9:5555", nil, "", nil, "203.0.113.9"},
		{"remote v6", "[2a00:1450::1]:443", nil, "", nil, "2a00:1450::1"},
		{"remote v6 with zone", "[fe80::1%eth0]:443", nil, "", nil, "fe80::1"},
		{"remote without port", "81.2.69.160", nil, "", nil, "81.2.69.160"},
		{"remote v4-mapped", "[::ffff:81.2.69.160]:80", nil, "", nil, "81.2.69.160"},
		{"remote garbage", "pipe", []string{"81.2.69.160"}, "", proxies, ""},
		{"headers ignored when no proxy is trusted", "10.0.0.1:1", []string{"81.2.69.160"}, "8.8.8.8", nil, "10.0.0.1"},
		{"spoofed headers from an untrusted peer ignored", "198.51.100.7:1", []string{"81.2.69.160"}, "8.8.8.8", proxies, "198.51.100.7"},
		{"spoofed headers from an untrusted v4-mapped peer ignored", "[::ffff:198.51.100.7]:1", []string{"10.0.0.3"}, "", proxies, "198.51.100.7"},
		{"one proxy", "10.0.0.1:1", []string{"81.2.69.160"}, "8.8.8.8", proxies, "81.2.69.160"},
		{"caller's own entries skipped", "10.0.0.1:1", []string{" 1.1.1.1, 9.9.9.9 , 81.2.69.160 "}, "", proxies, "81.2.69.160"},
		{"chain of trusted proxies", "10.0.0.1:1", []string{"81.2.69.160, 10.0.0.9", "10.2.3.4"}, "", proxies, "81.2.69.160"},
		{"forged trusted entry left of the caller", "10.0.0.1:1", []string{"10.9.9.9, 81.2.69.160"}, "", proxies, "81.2.69.160"},
		{"all trusted: the left-most", "10.0.0.1:1", []string{"10.0.0.7, 10.0.0.8"}, "", proxies, "10.0.0.7"},
		{"forwarded entry with port", "10.0.0.1:1", []string{"81.2.69.160:9000"}, "", proxies, "81.2.69.160"},
		{"forwarded bracketed v6", "[2001:db8::5]:1", []string{"[2a00:1450::1]"}, "", proxies, "2a00:1450::1"},
		{"real ip when no forwarded", "10.0.0.1:1", nil, "8.8.8.8", proxies, "8.8.8.8"},
		{"unparsable entry stops at the proxy that wrote it", "10.0.0.1:1", []string{"81.2.69.160, unknown, 10.0.0.2"}, "8.8.8.8", proxies, "10.0.0.2"},
		{"unparsable last entry: the peer", "10.0.0.1:1", []string{"unknown"}, "8.8.8.8", proxies, "10.0.0.1"},
		{"remote when no headers", "10.0.0.1:1", nil, "nope", proxies, "10.0.0.1"},
		{"local networks trust loopback", "127.0.0.1:1", []string{"198.51.100.1"}, "", geo.LocalNetworks(), "198.51.100.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/geo", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if tc.realIP != "" {
				r.Header.Set("X-Real-IP", tc.realIP)
			}
			var want netip.Addr
			if tc.want != "" {
				want = netip.MustParseAddr(tc.want)
			}
			if got := geo.ClientIP(r, tc.trusted); got != want {
				t.Fatalf("ClientIP = %v, want %v", got, want)
			}
			if got := geo.ClientIPFrom(r, geo.ClientIP(r, nil), tc.trusted); got != want {
				t.Fatalf("ClientIPFrom = %v, want %v", got, want)
			}
		})
	}
}

func TestSkipped(t *testing.T) {
	cases := []struct {
		ip   string
		want bool
	}{
		{"8.8.8.8", false},
		{"81.2.69.160", false},
		{"1.1.1.1", false},
		{"100.63.255.255", false},
		{"100.128.0.0", false},
		{"2a00:1450::1", false},
		{"2002:5102:45a0::1", false},
		{"::ffff:8.8.8.8", false},
		{"0.1.2.3", true},
		{"10.0.0.1", true},
		{"100.64.0.1", true},
		{"100.127.255.255", true},
		{"127.0.0.53", true},
		{"169.254.169.254", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.0.0.8", true},
		{"192.0.2.1", true},
		{"192.168.0.1", true},
		{"198.18.0.1", true},
		{"198.51.100.1", true},
		{"203.0.113.1", true},
		{"224.0.0.251", true},
		{"239.255.255.250", true},
		{"240.0.0.1", true},
		{"255.255.255.255", true},
		{"::ffff:192.168.0.1", true},
		{"::", true},
		{"::1", true},
		{"100::1", true},
		{"2001::1", true},
		{"2001:db8::1", true},
		{"3fff::1", true},
		{"fc00::1", true},
		{"fd12:3456::1", true},
		{"fe80::1", true},
		{"fec0::1", true},
		{"ff02::1", true},
	}
	for _, tc := range cases {
		t.Run(tc.ip, func(t *testing.T) {
			if got := geo.Skipped(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Fatalf("Skipped(%s) = %v, want %v", tc.ip, got, tc.want)
			}
		})
	}
	if !geo.Skipped(netip.Addr{}) {
		t.Fatal("Skipped(zero Addr) = false, want true")
	}
}
