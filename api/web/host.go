// Package web serves the browser-facing parts of the binary: the /checkout/
// reference storefront (pages rendered from examples/checkout, its assets and
// service worker) and the embeddable widget bundle under /widget/.
package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	shop "github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/compress"
	"github.com/streamcart/streamcart/api/shoplink"
	"github.com/streamcart/streamcart/examples/checkout"
)

// Base is the path the storefront lives under (spec §2).
const Base = shoplink.Base

// HostConfig configures the /checkout/ reference host.
type HostConfig struct {
	// DashboardURL is the external account dashboard behind "Login" when it points off the shop
	// (loginHref); otherwise Login opens the shop's sign-in form.
	DashboardURL string
	// APIBase is the widget's API base; default "/checkout/api".
	APIBase string
	// Logger receives render failures; default slog.Default().
	Logger *slog.Logger
	// SupportURL is where the footer's support and legal links point
	// (with #help, #contact, #faq, #terms, #privacy, #dmca); default
	// DashboardURL. The storefront's supportUrl from the API replaces it
	// in the browser when set.
	SupportURL string
	// WidgetFS overrides the embedded widget build (rooted at the build
	// directory) the pages load; nil means the embedded one.
	WidgetFS fs.FS
	// Files overrides the embedded host files (examples/checkout); nil
	// means the embedded ones.
	Files fs.FS
	// Catalog is the shop's catalog in force: its legal pages (served at
	// legal/{name}) and seller (footer links and copyright). nil: none.
	Catalog func() *shop.Catalog
	// Now is the shop's clock (the copyright year); default time.Now.
	Now func() time.Time
}

// host is the http.Handler returned by NewHost.
type host struct {
	cfg     HostConfig
	log     *slog.Logger
	tmpl    *template.Template
	cat     *catalog
	assets  map[string]*asset
	sw      *asset
	version string
	widget  *bundle
	csp     string
	legal   legalCache
}

// NewHost returns the handler for everything under /checkout/ except the
// API (mount /checkout/api/ separately on the same mux): the storefront
// routes of spec §2 with and without a locale prefix, the static assets,
// /checkout/sw.js, and a 404 page for any other path. It panics when the
// embedded host files are broken, which a test of this package catches.
func NewHost(cfg HostConfig) http.Handler {
	h, err := newHost(cfg)
	if err != nil {
		panic(err)
	}
	return h
}

func newHost(cfg HostConfig) (*host, error) {
	if cfg.APIBase == "" {
		cfg.APIBase = "/checkout/api"
	}
	if cfg.SupportURL == "" {
		cfg.SupportURL = cfg.DashboardURL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	files := cfg.Files
	if files == nil {
		files = checkout.Files
	}
	h := &host{cfg: cfg, log: cfg.Logger}
	if h.log == nil {
		h.log = slog.Default()
	}
	if cfg.WidgetFS != nil {
		h.widget = loadBundle(cfg.WidgetFS)
	} else {
		h.widget = embedded()
	}
	var err error
	if h.assets, h.version, err = loadAssets(files, "assets"); err != nil {
		return nil, fmt.Errorf("new host: %w", err)
	}
	sw, err := fs.ReadFile(files, "sw.js")
	if err != nil {
		return nil, fmt.Errorf("new host: %w", err)
	}
	h.sw = newAsset("sw.js", sw)
	if h.cat, err = loadCatalog(files, "assets/i18n.json"); err != nil {
		return nil, fmt.Errorf("new host: %w", err)
	}
	h.tmpl, err = template.New("host").Funcs(template.FuncMap{
		"asset": h.assetURL,
		"flag":  func(code string) string { return h.assetURL("flags/" + code + ".svg") },
	}).ParseFS(files, "partials.html", "index.html", "error.html", "legal.html")
	if err != nil {
		return nil, fmt.Errorf("new host: %w", err)
	}
	h.csp = contentSecurityPolicy(cfg.APIBase)
	return h, nil
}

// assetURL versions an asset URL so browsers may keep it for a year.
func (h *host) assetURL(name string) string {
	return Base + "assets/" + name + "?v=" + h.version
}

func (h *host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.Error("checkout host panic", "path", r.URL.Path, "panic", v)
			h.serveError(w, r, http.StatusInternalServerError, "")
		}
	}()
	rest, ok := strings.CutPrefix(r.URL.Path, Base)
	if !ok {
		if r.URL.Path+"/" == Base {
			http.Redirect(w, r, Base, http.StatusMovedPermanently)
			return
		}
		h.serveNotFound(w, r, "")
		return
	}
	if rest == "sw.js" {
		if !allowRead(w, r) {
			return
		}
		w.Header().Set("Service-Worker-Allowed", Base)
		h.sw.serve(w, r, "no-cache")
		return
	}
	if name, ok := strings.CutPrefix(rest, "assets/"); ok {
		if a, found := h.assets[name]; found {
			if !allowRead(w, r) {
				return
			}
			cache := "no-cache"
			if r.URL.Query().Get("v") == h.version {
				cache = "public, max-age=31536000, immutable"
			}
			a.serve(w, r, cache)
			return
		}
	}
	prefix, route, ok := splitRoute(rest)
	if name, legal := strings.CutPrefix(route, LegalPath); !ok && legal {
		h.serveLegal(w, r, prefix, name)
		return
	}
	if !ok {
		h.serveNotFound(w, r, prefix)
		return
	}
	if !allowRead(w, r) {
		return
	}
	p := h.page(r, prefix, route)
	h.render(w, r, http.StatusOK, "index.html", p)
}

// allowRead answers 405 for anything but GET and HEAD.
func allowRead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
	return false
}

// option is one language-switcher entry.
type option struct {
	Code    string // data-code: the spec's code ("en-en", "de-de", …)
	Value   string // the widget's code passed to setLocale ("en", "de-de", …)
	ISO     string
	Name    string
	Flag    string
	Href    string // same route and query under the option's prefix
	Current bool
}

// page is the data every template gets.
type page struct {
	Locale    string
	Route     string // "index", "success", "resellers/waiting", …
	Current   option
	Shown     option // the switcher button's entry: Current, or its language's listed one
	Options   []option
	T         map[string]template.HTML // trusted catalog text, pre-escaped
	Base      string
	Home      string
	API       string
	Dashboard string
	Support   string
	Version   string

	WidgetSrc       string
	WidgetIntegrity template.HTMLAttr // integrity="…" or empty

	NotFound bool
	Status   int
	Message  string

	// The footer: its links by name (see links) and the copyright line.
	Links     map[string]link
	Year      int
	Owner     string
	Copyright string

	// A legal page: the rendered document and its language when it is not the page's.
	Doc     legalDoc
	DocLang string
}

// shop is the catalog in force, nil without one.
func (h *host) shop() *shop.Catalog {
	if h.cfg.Catalog == nil {
		return nil
	}
	return h.cfg.Catalog()
}

func (h *host) page(r *http.Request, prefix, route string) page {
	code := h.cat.resolve(r, prefix)
	info, _ := h.cat.info(code)
	query := ""
	if r.URL.RawQuery != "" {
		query = "?" + r.URL.RawQuery
	}
	hrefRoute := route
	if route == "" {
		route = "index"
	}
	// "My services" lives on the index route (?view=services, or a sign-in link's ?signin=): a route
	// of its own for the page, so the landing's marketing hero does not stand above it.
	if q := r.URL.Query(); route == "index" && (q.Get("view") == "services" || q.Get("signin") != "") {
		route = "services"
	}
	p := page{
		Locale:    code,
		Route:     route,
		T:         h.cat.html[code],
		Base:      Base,
		Home:      localePath(Base, prefix, ""),
		API:       h.cfg.APIBase,
		Dashboard: loginHref(h.cfg.DashboardURL, localePath(Base, prefix, "")),
		Support:   h.cfg.SupportURL,
		Version:   h.version,
		WidgetSrc: h.widget.src(widgetPrefix),
	}
	if h.widget.integrity != "" {
		// Built from a base64 digest only, so it is safe verbatim; it keeps
		// the raw page readable (no &#43; for every '+').
		p.WidgetIntegrity = template.HTMLAttr(`integrity="` + h.widget.integrity + `"`)
	}
	cat := h.shop()
	p.Links = h.links(cat, prefix)
	p.Year, p.Owner = h.cfg.Now().Year(), "Streamcart"
	if cat != nil && cat.Seller.Name != "" {
		p.Owner = cat.Seller.Name
	}
	p.Copyright = copyright(h.cat.Messages[code]["copyright"], p.Year, p.Owner)
	p.Current = option{Code: info.SwitcherCode, Value: info.Code, ISO: info.ISO, Name: info.Name, Flag: info.Flag}
	// The switcher's button shows the menu's entry: an unlisted locale (en-us, en-gb) its language's.
	shown := h.cat.shown(info)
	p.Shown = option{Code: shown.SwitcherCode, Value: shown.Code, ISO: shown.ISO, Name: shown.Name, Flag: shown.Flag}
	for _, l := range h.cat.Locales {
		if !l.Listed {
			continue
		}
		optPrefix := l.Code
		if optPrefix == h.cat.Default {
			optPrefix = ""
		}
		p.Options = append(p.Options, option{
			Code: l.SwitcherCode, Value: l.Code, ISO: l.ISO, Name: l.Name, Flag: l.Flag,
			Href:    localePath(Base, optPrefix, hrefRoute) + query,
			Current: l.Code == shown.Code,
		})
	}
	return p
}

// copyright fills the footer's line ("© {year} {name}. …").
func copyright(line string, year int, owner string) string {
	return strings.NewReplacer("{year}", strconv.Itoa(year), "{name}", owner).Replace(line)
}

// loginHref is where the header's "Login" goes: the seller's external account dashboard when the
// setting points off the shop, else (the default, /checkout/) the shop's own sign-in form, the
// services view of home, which asks a visitor without a session to sign in.
func loginHref(dashboard, home string) string {
	if offShop(dashboard) {
		return dashboard
	}
	return home + "?view=services"
}

// offShop reports whether a dashboard URL leads out of the storefront: an absolute http(s) URL,
// or a path outside /checkout/ (another application on the same site).
func offShop(dashboard string) bool {
	u, err := url.Parse(strings.TrimSpace(dashboard))
	if err != nil || dashboard == "" {
		return false
	}
	if u.Scheme != "" || u.Host != "" {
		return u.Scheme == "http" || u.Scheme == "https"
	}
	return strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(u.Path, Base) && u.Path+"/" != Base
}

func (h *host) serveNotFound(w http.ResponseWriter, r *http.Request, prefix string) {
	// Below the shop, the language switcher offers the same path in each language; a path outside
	// it (/nope) has no such page, so there it leads to each language's shop (it made
	// "/checkout//nope" of it).
	rest, inShop := strings.CutPrefix(r.URL.Path, Base)
	if !inShop {
		rest = ""
	}
	if prefix != "" {
		rest = strings.TrimPrefix(rest, prefix+"/")
	}
	p := h.page(r, prefix, rest)
	p.NotFound, p.Status = true, http.StatusNotFound
	h.render(w, r, http.StatusNotFound, "error.html", p)
}

// serveError shows the generic error page: message default "Error" in the
// visitor's language, status default 500 (spec §8).
func (h *host) serveError(w http.ResponseWriter, r *http.Request, status int, message string) {
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	prefix, _, _ := splitRoute(strings.TrimPrefix(r.URL.Path, Base))
	p := h.page(r, prefix, "")
	if message == "" {
		message = h.cat.Messages[p.Locale]["error"]
	}
	p.Status, p.Message = status, message
	p.NotFound = status == http.StatusNotFound
	h.render(w, r, status, "error.html", p)
}

// render executes a page into memory first, so a template failure can still
// become a clean error page instead of half a document.
func (h *host) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	var buf bytes.Buffer
	err := h.tmpl.ExecuteTemplate(&buf, name, p)
	if err != nil {
		h.log.Error("checkout host render", "template", name, "path", r.URL.Path, "err", err)
		if name != "error.html" {
			h.serveError(w, r, http.StatusInternalServerError, "")
			return
		}
		h.writeErrorFallback(w, r, p)
		return
	}
	h.writeHTML(w, r, status, buf.Bytes())
}

// writeErrorFallback is the page of last resort when the error page itself
// fails (spec §8): plain markup, no template.
func (h *host) writeErrorFallback(w http.ResponseWriter, r *http.Request, p page) {
	msg := func(k string) string {
		if s := h.cat.Messages[p.Locale][k]; s != "" {
			return template.HTMLEscapeString(s)
		}
		return template.HTMLEscapeString(h.cat.Messages[h.cat.Default][k])
	}
	lang := p.Current.ISO
	if lang == "" {
		lang = "en"
	}
	body := fmt.Sprintf(`<!doctype html><html lang="%s"><head><meta charset="utf-8">`+
		`<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="#405db1">`+
		`<title>%s</title></head><body><main data-testid="error-page-failed"><h1>%s</h1><p><a href="%s">%s</a></p></main></body></html>`,
		template.HTMLEscapeString(lang), msg("errorPageFailed"), msg("errorPageFailed"),
		template.HTMLEscapeString(Base), msg("goHome"))
	h.writeHTML(w, r, http.StatusInternalServerError, []byte(body))
}

func (h *host) writeHTML(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	hd := w.Header()
	setSecurityHeaders(hd, h.csp)
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	// The page is rendered in the visitor's language.
	hd.Set("Vary", "Accept-Encoding, Accept-Language, Cookie")
	// Brotli when the client weighs it at least as high as gzip (every current browser), as the
	// widget's files and the API's JSON.
	if coding := compress.Prefer(r, "br", "gzip"); len(body) >= minGzip && coding != "" {
		body = compress.Encode(coding, body)
		hd.Set("Content-Encoding", coding)
	}
	writeBody(w, r, status, body)
}

// setSecurityHeaders adds the headers every storefront page carries.
func setSecurityHeaders(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), usb=()")
}

// contentSecurityPolicy allows only same-origin code. No 'unsafe-inline'
// for styles: the widget adopts constructed style sheets into its shadow
// root, which CSP does not gate. Images may come from https (app icons from
// the catalog). A cross-origin API base is added to connect-src.
func contentSecurityPolicy(apiBase string) string {
	connect := "'self'"
	if u, err := url.Parse(apiBase); err == nil && u.Scheme != "" && u.Host != "" {
		connect += " " + u.Scheme + "://" + u.Host
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' data: blob: https:",
		"font-src 'self'",
		"connect-src " + connect,
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'self'",
	}, "; ")
}
