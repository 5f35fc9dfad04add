// Package strictcsp shows the checkout on a page whose Content-Security-Policy has no
// 'unsafe-inline' or 'unsafe-eval': the widget needs neither (its styles are constructed
// stylesheets in its shadow root, its code is one same-origin script). The binary serves it at
// /examples/strict-csp/.
package strictcsp

import (
	"embed"
	"net/http"
)

//go:embed index.html page.css
var files embed.FS

// CSP is the page's policy, sent as a response header.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Handler serves the example's files (below its prefix, which the caller strips) under CSP.
func Handler() http.Handler {
	fs := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", CSP)
		fs.ServeHTTP(w, r)
	})
}
