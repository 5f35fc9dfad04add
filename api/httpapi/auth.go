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
)

type ctxKey int

const (
	claimsKey ctxKey = iota
	clientIPKey
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

// withClientIP records the caller's address for the fraud check and the geo lookup.
func withClientIP(next http.Handler, trustProxy bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := geo.ClientIP(r, trustProxy)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey, ip)))
	})
}

func clientIP(ctx context.Context) netip.Addr {
	ip, _ := ctx.Value(clientIPKey).(netip.Addr)
	return ip
}
