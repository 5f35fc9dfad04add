package web

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/streamcart/streamcart/widget/console"
)

// ConsolePath is where the seller's console (a single-page app) lives.
const ConsolePath = "/checkout/admin/"

// consoleIndex is the app's page, answered for every path that is not a file.
const consoleIndex = "index.html"

const consoleNotBuilt = "console not built: run make build\n"

// consoleCSP is stricter than the storefront's: the console loads nothing but
// its own script and style sheet and talks to its own API. No images from
// elsewhere, no frames (the console is never embedded), no <base>. The one
// inline style allowed, by its hash, is react-aria's: on iOS a modal dialog
// prepends a <style> that stops the page behind it from scrolling.
var consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self' " + styleHash(reactAriaIOSStyle) +
	"; img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// reactAriaIOSStyle is the text of that <style> (react-aria's usePreventScroll,
// preventScrollMobileWebKit); e2e/console-375.test.js opens a dialog as an
// iPhone and fails on the CSP violation if react-aria changes it.
const reactAriaIOSStyle = "@layer {\n  * {\n    overscroll-behavior: contain;\n  }\n}"

// styleHash is the CSP source allowing an inline <style> whose text is s.
func styleHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

type consoleHandler struct {
	files map[string]*asset
	err   error
}

var embeddedConsole = sync.OnceValue(func() consoleHandler {
	sub, err := fs.Sub(console.Dist, "dist")
	if err != nil {
		return consoleHandler{err: err}
	}
	return loadConsole(sub)
})

func loadConsole(fsys fs.FS) consoleHandler {
	files, _, err := loadAssets(fsys, ".")
	return consoleHandler{files: files, err: err}
}

// NewConsole serves the embedded console build under /checkout/admin/: its
// hashed assets (immutable), and the app's page for every other path (the
// app routes in the browser: /checkout/admin/setup?token=…, /orders/…).
func NewConsole() http.Handler { return embeddedConsole() }

// NewConsoleFS serves the console build found in fsys (rooted at the build
// directory) like NewConsole; tests use it.
func NewConsoleFS(fsys fs.FS) http.Handler { return loadConsole(fsys) }

func (h consoleHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !allowRead(w, r) {
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, ConsolePath)
	if !ok {
		if r.URL.Path+"/" == ConsolePath {
			target := ConsolePath
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	index := h.files[consoleIndex]
	if h.err != nil || index == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		writeBody(w, r, http.StatusServiceUnavailable, []byte(consoleNotBuilt))
		return
	}
	if strings.HasPrefix(rest, "assets/") {
		// Vite names every asset by its content hash.
		if a := h.files[rest]; a != nil {
			a.serve(w, r, "public, max-age=31536000, immutable")
			return
		}
		http.NotFound(w, r)
		return
	}
	if a := h.files[rest]; a != nil && rest != consoleIndex {
		a.serve(w, r, "no-cache")
		return
	}
	hd := w.Header()
	setSecurityHeaders(hd, consoleCSP)
	// The setup link carries its token in the query: no page may learn it.
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	index.serve(w, r, "no-cache")
}
