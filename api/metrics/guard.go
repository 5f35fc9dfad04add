package metrics

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/netip"
	"strings"
)

// Access says who may read /metrics on the shop's main listener.
type Access struct {
	// Token, when set, is required as "Authorization: Bearer TOKEN" from every caller.
	Token string
	// Loopback, without a token, serves callers whose connection comes from a loopback address.
	// It must be false when a proxy runs in front of the shop: every request then arrives from
	// the proxy, often on the same host.
	Loopback bool
}

// Guard serves h to the callers a allows. Without a token, a loopback connection is judged by
// the connection's own address (RemoteAddr), never by X-Forwarded-For or X-Real-IP, which any
// caller writes; a request carrying such a header came through a proxy and is refused too. The
// refused get a 404, as if there were no /metrics, except a wrong or missing token (401).
func Guard(h http.Handler, a Access) http.Handler {
	want := sha256.Sum256([]byte(a.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			sum := sha256.Sum256([]byte(got))
			if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				http.Error(w, "A valid bearer token is required.", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
			return
		}
		if !a.Loopback || !fromLoopback(r) {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fromLoopback reports a direct connection from this host: a loopback RemoteAddr and no
// forwarding header (a local reverse proxy connects from loopback for every client).
func fromLoopback(r *http.Request) bool {
	for _, h := range []string{"X-Forwarded-For", "X-Real-Ip", "Forwarded"} {
		if _, ok := r.Header[h]; ok {
			return false
		}
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	return err == nil && ap.Addr().Unmap().IsLoopback()
}
