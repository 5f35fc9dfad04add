package geo

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the caller's address. The connection's peer is the caller unless it is one of
// the trusted proxies; then X-Forwarded-For is read from the right, where each proxy appended
// the address it was reached from, and the first address that is not a trusted proxy is the
// caller. Entries to its left were written by that caller, so they choose nothing: a forged
// entry neither hides a buyer from the per-address limits nor pins another buyer's address.
// When every entry is a trusted proxy the left-most is taken; a trusted peer sending no
// X-Forwarded-For may name the caller in X-Real-IP. An entry that does not parse stops the walk
// at the proxy that wrote it. The result is invalid when RemoteAddr does not parse.
func ClientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok {
		return peer
	}
	return ClientIPFrom(r, peer, trusted)
}

// ClientIPFrom is ClientIP for a request whose connection's address, ClientIP(r, nil), the
// caller has parsed already (the access line has, for the request id's trust check).
func ClientIPFrom(r *http.Request, peer netip.Addr, trusted []netip.Prefix) netip.Addr {
	if !peer.IsValid() || !Trusted(trusted, peer) {
		return peer
	}
	var hops []string
	for _, line := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(line, ",")...)
	}
	if len(hops) == 0 {
		// The canonical key, looked up directly: Get("X-Real-IP") allocates its canonical form
		// on every request.
		if ip, ok := parseHost(first(r.Header["X-Real-Ip"])); ok {
			return ip
		}
		return peer
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		ip, ok := parseHost(hops[i])
		if !ok {
			return client
		}
		client = ip
		if !Trusted(trusted, ip) {
			break
		}
	}
	return client
}

// Trusted reports whether ip is in one of the ranges.
func Trusted(ranges []netip.Prefix, ip netip.Addr) bool {
	for _, p := range ranges {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// LocalNetworks are loopback and the private ranges (RFC 1918, unique local IPv6): the proxies
// the deprecated STREAMCART_TRUST_PROXY=true trusts.
func LocalNetworks() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
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

// first is a header's first value, "" for none.
func first(values []string) string {
	if len(values) > 0 {
		return values[0]
	}
	return ""
}
