// Package shoplink owns the addresses of the storefront's pages (spec §2): the base path, the
// locale prefixes, and the absolute links the shop sends buyers to in mail and pay links. api/web
// serves the pages by the same prefixes; a domain package writing a link needs no HTTP layer.
package shoplink

import (
	"net/url"
	"slices"
	"strings"
)

// Base is the path the storefront lives under.
const Base = "/checkout/"

// Prefixes are the locale path prefixes of the storefront; the default locale ("en") has none.
var Prefixes = []string{"de-de", "en-gb", "en-us", "es-es", "nl-nl", "pt-pt"}

// Prefix is locale's path prefix ("de-de"): "" for the default locale and any the storefront has
// no pages for, whose buyers get the default pages.
func Prefix(locale string) string {
	if slices.Contains(Prefixes, locale) {
		return locale
	}
	return ""
}

// Page is the link to the storefront's route in locale on base, the shop's origin (configuration,
// never a request's): base/checkout/de-de/success?order=ID. route "" is the index; query may be nil.
func Page(base, locale, route string, query url.Values) string {
	path := Base
	if p := Prefix(locale); p != "" {
		path += p + "/"
	}
	link := strings.TrimRight(base, "/") + path + route
	if len(query) > 0 {
		link += "?" + query.Encode()
	}
	return link
}
