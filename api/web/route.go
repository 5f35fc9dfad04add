package web

import (
	"strings"

	"github.com/streamcart/streamcart/api/shoplink"
)

// Routes are the history-mode routes of the storefront (spec §2), relative to
// the base path and the optional locale prefix; "" is the index. "renew" is
// the page of a renewal's pay link (/checkout/renew?invoice=…&t=…, issue 13).
var Routes = []string{"", "creatingOrder", "resellers", "success", "upsell", "waiting", "resellers/success", "resellers/waiting", "renew"}

// splitRoute reports whether rest (the path below the base, without its
// leading slash) is a storefront page, and returns its locale prefix and
// route. One trailing slash is tolerated.
func splitRoute(rest string) (prefix, route string, ok bool) {
	rest = strings.TrimSuffix(rest, "/")
	for _, p := range shoplink.Prefixes {
		if rest == p {
			return p, "", true
		}
		if r, found := strings.CutPrefix(rest, p+"/"); found {
			if isRoute(r) {
				return p, r, true
			}
			return p, r, false
		}
	}
	return "", rest, isRoute(rest)
}

func isRoute(r string) bool {
	for _, known := range Routes {
		if r == known {
			return true
		}
	}
	return false
}

// localePath builds base + prefix + route, the URL the widget's history mode
// uses for a page.
func localePath(base, prefix, route string) string {
	p := base
	if prefix != "" {
		p += prefix + "/"
	}
	return p + route
}
