package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/netip"

	"goa.design/goa/v3/security"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/storefront"
)

type ctxKey int

const (
	claimsKey ctxKey = iota
	callerKey
)

// authenticator is the JWTAuth of every secured service: it verifies the Bearer token and puts
// its claims in the context.
type authenticator struct {
	accounts     *account.Service
	unauthorized func(error) error
}

// JWTAuth implements the generated Auther interfaces.
func (a authenticator) JWTAuth(ctx context.Context, token string, _ *security.JWTScheme) (context.Context, error) {
	claims, err := a.accounts.Authenticate(ctx, token)
	if err != nil {
		return ctx, a.unauthorized(errors.New("Your session has expired or is invalid. Please sign in again."))
	}
	return context.WithValue(ctx, claimsKey, claims), nil
}

func claimsFrom(ctx context.Context) authz.Claims {
	c, _ := ctx.Value(claimsKey).(authz.Claims)
	return c
}

// caller is where a request came from, worked out only when asked (the product lists, the
// hottest read, never ask), and the shop's configured origin.
type caller struct {
	r         *http.Request
	trusted   []netip.Prefix
	publicURL string
}

// withClientIP records the caller's address (for the fraud check and the geo lookup) and the
// shop's origin.
func withClientIP(next http.Handler, trusted []netip.Prefix, publicURL string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey, caller{r, trusted, publicURL})))
	})
}

func clientIP(ctx context.Context) netip.Addr {
	c, ok := ctx.Value(callerKey).(caller)
	if !ok {
		return netip.Addr{}
	}
	return geo.ClientIP(c.r, c.trusted)
}

// origin is the shop's own origin, where links and return URLs may point: the configured one.
// Never the request's Host, X-Forwarded-Host or Origin, which the caller chooses: a link built on
// them mails a buyer's sign-in token, or sends a payer, to the caller's site.
func origin(ctx context.Context) string {
	c, _ := ctx.Value(callerKey).(caller)
	return c.publicURL
}

// storefrontOrigins are the sites of the request's storefront: buyers may be sent back to them.
func storefrontOrigins(ctx context.Context) []string {
	sf, _ := storefront.FromContext(ctx)
	return sf.AllowedOrigins
}
