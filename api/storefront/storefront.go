// Package storefront resolves the storefront of each API request from its publishable key (the
// Streamcart-Store header) and answers CORS for that key's allowed origins through go-chi/cors.
// Requests without a key belong to the default storefront and get no CORS headers: the shop's
// own pages call the API from the same origin.
package storefront

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/cors"
	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/catalog"
)

// Header carries the publishable key.
const Header = "Streamcart-Store"

// AllowedHeaders are the request headers the widget sends cross-origin.
var AllowedHeaders = []string{"Authorization", "Content-Type", "Idempotency-Key", "Accept-Language", Header}

// allowedMethods are every method the API serves.
var allowedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

type ctxKey struct{}

// varyOrigin is the Vary of an answer to a request without Origin; shared and read-only (its
// capacity is its length, so Header.Add copies it).
var varyOrigin = []string{"Origin"}

// FromContext is the request's storefront; false when the catalog defines none for it (no key and
// no default storefront).
func FromContext(ctx context.Context) (catalog.Storefront, bool) {
	if s, ok := ctx.Value(ctxKey{}).(*catalog.Storefront); ok {
		return *s, true
	}
	return catalog.Storefront{}, false
}

// NewContext returns ctx carrying s (tests and callers outside HTTP).
func NewContext(ctx context.Context, s catalog.Storefront) context.Context {
	return context.WithValue(ctx, ctxKey{}, &s)
}

// keeper is a request context that holds one more value itself: the site's request exchange
// (httpapi.Observed). The storefront is kept there rather than in a new context on a copy of the
// request: two allocations less on every API request (issue 24, the read path).
type keeper interface{ Keep(key, val any) bool }

// with is r carrying s, the catalog's own storefront.
func with(r *http.Request, s *catalog.Storefront) *http.Request {
	if k, ok := r.Context().(keeper); ok && k.Keep(ctxKey{}, s) {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), ctxKey{}, s))
}

// header is the first value of h's field key, which must be in canonical form: as Header.Get
// without canonicalising the key on every request.
func header(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Middleware resolves the storefront of every request to next. cat is read per request, so a
// catalog import changes keys and origins without a restart.
func Middleware(cat func() *catalog.Catalog, next http.Handler) http.Handler {
	// Preflights carry no key (browsers never send custom headers on them): answer them for any
	// origin some storefront allows; the actual request is then checked against its own key.
	preflight := cors.New(cors.Options{
		AllowOriginFunc: func(_ *http.Request, origin string) bool { return cat().AnyStorefrontAllows(origin) },
		AllowedMethods:  allowedMethods,
		AllowedHeaders:  AllowedHeaders,
		MaxAge:          600,
	})
	actual := cors.New(cors.Options{
		AllowOriginFunc: func(r *http.Request, origin string) bool {
			s, ok := FromContext(r.Context())
			return ok && s.AllowsOrigin(origin)
		},
		AllowedMethods: allowedMethods,
		AllowedHeaders: AllowedHeaders,
		ExposedHeaders: []string{"Retry-After"},
	})
	serve := actual.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions && header(r.Header, "Access-Control-Request-Method") != "" {
			preflight.Handler(next).ServeHTTP(w, r)
			return
		}
		c := cat()
		key := header(r.Header, Header)
		var s *catalog.Storefront
		var ok bool
		if key == "" {
			s, ok = c.DefaultStorefront()
			if !sameOrigin(r) && isWrite(r.Method) {
				// A keyless write from another site: the default storefront is same-origin only.
				refuse(w, http.StatusForbidden, "origin_not_allowed", "This site may not use this storefront.")
				return
			}
		} else {
			if s, ok = c.Storefront(key); !ok {
				refuse(w, http.StatusUnauthorized, "unknown_store", "Unknown storefront key.")
				return
			}
			if !sameOrigin(r) && !s.AllowsOrigin(header(r.Header, "Origin")) && isWrite(r.Method) {
				refuse(w, http.StatusForbidden, "origin_not_allowed", "This site may not use this storefront.")
				return
			}
		}
		if ok {
			r = with(r, s)
		}
		if _, cross := r.Header["Origin"]; !cross {
			// All CORS does for a request without Origin is name Origin in Vary: done here with
			// a shared value, where its Header.Add allocates on every request.
			if h := w.Header(); len(h["Vary"]) == 0 {
				h["Vary"] = varyOrigin
			} else {
				h.Add("Vary", "Origin")
			}
			next.ServeHTTP(w, r)
			return
		}
		serve.ServeHTTP(w, r)
	})
}

func isWrite(method string) bool {
	return slices.Contains([]string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}, method)
}

// sameOrigin reports whether the request has no Origin (not sent by a browser from another
// page) or one naming the host it reached. Only the host is compared: behind a TLS-terminating
// proxy the scheme the server sees differs from the browser's.
func sameOrigin(r *http.Request) bool {
	o := header(r.Header, "Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// refuse writes an error in the shape of the API's design errors.
func refuse(w http.ResponseWriter, status int, name, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Goa-Error", name)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"name": name, "id": goa.NewErrorID(), "message": message, "temporary": false, "timeout": false, "fault": false,
	})
}
