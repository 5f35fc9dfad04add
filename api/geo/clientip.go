package geo

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the caller's address: the first X-Forwarded-For entry,
// else X-Real-IP, when trustProxy is set, else the connection's RemoteAddr.
// Those headers are written by whoever sends the request, so trustProxy is
// only safe behind a proxy that sets them itself. The result is invalid when
// nothing parses.
func ClientIP(r *http.Request, trustProxy bool) netip.Addr {
	if trustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if ip, ok := parseHost(first); ok {
				return ip
			}
		}
		if ip, ok := parseHost(r.Header.Get("X-Real-IP")); ok {
			return ip
		}
	}
	ip, _ := parseHost(r.RemoteAddr)
	return ip
}

// parseHost accepts "ip", "ip:port", "[ipv6]" and "[ipv6]:port".
func parseHost(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return netip.Addr{}, false
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return ip.Unmap().WithZone(""), true
}
