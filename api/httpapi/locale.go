package httpapi

import (
	"context"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/storefront"
)

// buyerLocale is the language the shop writes to the buyer in: the request's Accept-Language
// (a browser sends its own; the widget may send its page's locale) matched to mail.Locales, else
// the storefront's default locale, else "" (English).
func buyerLocale(ctx context.Context) string {
	if c, ok := ctx.Value(callerKey).(caller); ok {
		if l := mail.MatchAcceptLanguage(c.r.Header.Get("Accept-Language")); l != "" {
			return l
		}
	}
	if sf, ok := storefront.FromContext(ctx); ok {
		return mail.Locale(sf.DefaultLocale)
	}
	return ""
}
