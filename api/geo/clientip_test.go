package geo_test

import (
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/streamcart/streamcart/api/geo"
)

func TestClientIP(t *testing.T) {
	cases := []struct {
		name       string
		remote     string
		xff        []string
		realIP     string
		trustProxy bool
		want       string // "" is the zero netip.Addr
	}{
		{"remote v4", "203.0.113.9:5555", nil, "", false, "203.0.113.9"},
		{"remote v6", "[2a00:1450::1]:443", nil, "", false, "2a00:1450::1"},
		{"remote v6 with zone", "[fe80::1%eth0]:443", nil, "", false, "fe80::1"},
		{"remote without port", "81.2.69.160", nil, "", false, "81.2.69.160"},
		{"remote v4-mapped", "[::ffff:81.2.69.160]:80", nil, "", false, "81.2.69.160"},
		{"remote garbage", "pipe", nil, "", false, ""},
		{"headers ignored when not trusted", "10.0.0.1:1", []string{"81.2.69.160"}, "8.8.8.8", false, "10.0.0.1"},
		{"first forwarded entry", "10.0.0.1:1", []string{" 81.2.69.160 , 10.0.0.2"}, "8.8.8.8", true, "81.2.69.160"},
		{"first forwarded header line", "10.0.0.1:1", []string{"81.2.69.160", "8.8.4.4"}, "", true, "81.2.69.160"},
		{"forwarded entry with port", "10.0.0.1:1", []string{"81.2.69.160:9000"}, "", true, "81.2.69.160"},
		{"forwarded bracketed v6", "10.0.0.1:1", []string{"[2a00:1450::1]"}, "", true, "2a00:1450::1"},
		{"real ip when no forwarded", "10.0.0.1:1", nil, "8.8.8.8", true, "8.8.8.8"},
		{"real ip when forwarded unparsable", "10.0.0.1:1", []string{"unknown"}, "8.8.8.8", true, "8.8.8.8"},
		{"remote when headers unparsable", "10.0.0.1:1", []string{"unknown"}, "nope", true, "10.0.0.1"},
		{"remote when no headers", "10.0.0.1:1", nil, "", true, "10.0.0.1"},
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
			if got := geo.ClientIP(r, tc.trustProxy); got != want {
				t.Fatalf("ClientIP = %v, want %v", got, want)
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
