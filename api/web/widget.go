package web

import (
	"crypto/sha512"
	"encoding/base64"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/streamcart/streamcart/widget"
)

// WidgetEntry is the ES module that defines <streamcart-checkout>.
const WidgetEntry = "streamcart.js"

// widgetNotBuilt is the whole answer while widget/dist holds no bundle.
const widgetNotBuilt = "widget not built: run make build\n"

// bundle is a loaded widget build.
type bundle struct {
	files     map[string]*asset
	version   string // content hash of the whole build
	integrity string // SRI of the entry module
	err       error
}

func (b *bundle) built() bool { return b.err == nil && b.files[WidgetEntry] != nil }

// src is the URL of the entry module: versioned (immutable) when built.
func (b *bundle) src(prefix string) string {
	if !b.built() {
		return prefix + WidgetEntry
	}
	return prefix + b.version + "/" + WidgetEntry
}

func loadBundle(fsys fs.FS) *bundle {
	files, version, err := loadAssets(fsys, ".")
	b := &bundle{files: files, version: version, err: err}
	if b.built() {
		b.integrity = SRI(files[WidgetEntry].body)
	}
	return b
}

// embedded is the build compiled into the binary, read once.
var embedded = sync.OnceValue(func() *bundle {
	sub, err := fs.Sub(widget.Dist, "dist")
	if err != nil {
		return &bundle{err: err}
	}
	return loadBundle(sub)
})

// SRI returns the Subresource Integrity value (sha384) of data, for an
// integrity attribute.
func SRI(data []byte) string {
	sum := sha512.Sum384(data)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}

// WidgetVersion returns the content hash of the embedded widget build, the
// path segment of its immutable URL /widget/<version>/streamcart.js; "" when
// the widget was not built.
func WidgetVersion() string {
	if b := embedded(); b.built() {
		return b.version
	}
	return ""
}

// WidgetIntegrity returns the SRI value of the embedded streamcart.js; ""
// when the widget was not built.
func WidgetIntegrity() string { return embedded().integrity }

// NewWidget serves the embedded widget build under /widget/: the files by
// name (short cache) and under /widget/<version>/ (immutable for a year).
func NewWidget() http.Handler { return widgetHandler{embedded()} }

// NewWidgetFS serves the widget build found in fsys (rooted at the build
// directory) like NewWidget; tests and alternative builds use it.
func NewWidgetFS(fsys fs.FS) http.Handler { return widgetHandler{loadBundle(fsys)} }

type widgetHandler struct{ b *bundle }

const widgetPrefix = "/widget/"

func (h widgetHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	// The bundle is public and loaded as a module script by other origins
	// (reseller sites), which fetch it in CORS mode.
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cross-Origin-Resource-Policy", "cross-origin")
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !h.b.built() {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		writeBody(w, r, http.StatusServiceUnavailable, []byte(widgetNotBuilt))
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, widgetPrefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	cache := "public, max-age=300"
	if first, file, found := strings.Cut(rest, "/"); found && isHash(first) {
		if first != h.b.version {
			// An old or foreign version: serving today's bytes under it
			// would poison immutable caches and fail SRI anyway.
			http.NotFound(w, r)
			return
		}
		rest, cache = file, "public, max-age=31536000, immutable"
	}
	a, ok := h.b.files[rest]
	if !ok {
		http.NotFound(w, r)
		return
	}
	a.serve(w, r, cache)
}

// isHash reports whether s looks like a build version (16 hex digits).
func isHash(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
