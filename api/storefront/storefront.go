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

// FromContext is the request's storefront; false when the catalog defines none for it (no key and
// no default storefront).
func FromContext(ctx context.Context) (catalog.Storefront, bool) {
	s, ok := ctx.Value(ctxKey{}).(catalog.Storefront)
	return s, ok
}

// NewContext returns ctx carrying s (tests and callers outside HTTP).
func NewContext(ctx context.Context, s catalog.Storefront) context.Context {
	return context.WithValue(ctx, ctxKey{}, s)
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
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			preflight.Handler(next).ServeHTTP(w, r)
			return
		}
		c := cat()
		key := r.Header.Get(Header)
		var s catalog.Storefront
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
			if !sameOrigin(r) && !s.AllowsOrigin(r.Header.Get("Origin")) && isWrite(r.Method) {
				refuse(w, http.StatusForbidden, "origin_not_allowed", "This site may not use this storefront.")
				return
			}
		}
		if ok {
			r = r.WithContext(NewContext(r.Context(), s))
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
	o := r.Header.Get("Origin")
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
