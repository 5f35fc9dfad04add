package web_test

import (
	"compress/gzip"
	"html"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/streamcart/streamcart/api/shoplink"
	"github.com/streamcart/streamcart/api/web"
	"github.com/streamcart/streamcart/examples/checkout"
)

const dashboard = "https://dashboard.example.test/login"

func newHost(t *testing.T, mod func(*web.HostConfig)) http.Handler {
	t.Helper()
	cfg := web.HostConfig{DashboardURL: dashboard, WidgetFS: builtWidget(), Logger: slog.New(slog.DiscardHandler)}
	if mod != nil {
		mod(&cfg)
	}
	return web.NewHost(cfg)
}

type response struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, h http.Handler, target string, headers ...string) response {
	t.Helper()
	return do(t, h, http.MethodGet, target, headers...)
}

func do(t *testing.T, h http.Handler, method, target string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	var r io.Reader = res.Body
	switch res.Header.Get("Content-Encoding") {
	case "gzip":
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatalf("%s %s: gzip: %v", method, target, err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(res.Body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s %s: read: %v", method, target, err)
	}
	return response{res.StatusCode, res.Header, string(b)}
}

func TestHostServesEveryRouteUnderEveryPrefix(t *testing.T) {
	h := newHost(t, nil)
	prefixes := append([]string{""}, shoplink.Prefixes...)
	for _, prefix := range prefixes {
		for _, route := range web.Routes {
			p := "/checkout/"
			if prefix != "" {
				p += prefix + "/"
			}
			p += route
			targets := []string{p}
			if !strings.HasSuffix(p, "/") {
				targets = append(targets, p+"/")
			} else if p != "/checkout/" {
				targets = append(targets, strings.TrimSuffix(p, "/"))
			}
			for _, target := range targets {
				t.Run(target, func(t *testing.T) {
					res := get(t, h, target)
					if res.status != http.StatusOK {
						t.Fatalf("status = %d, want 200", res.status)
					}
					if ct := res.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
						t.Errorf("Content-Type = %q", ct)
					}
					for _, want := range []string{
						`<streamcart-checkout api="/checkout/api" routing="history" base="/checkout/">`,
						`<meta name="theme-color" content="#405db1">`,
						`<meta name="viewport"`,
						`<meta name="streamcart:api" content="/checkout/api">`,
						`<meta name="streamcart:dashboard" content="` + dashboard + `">`,
						`data-testid="language-switcher"`,
						`data-testid="currency-select"`,
						`data-testid="signout-button"`,
						`href="` + dashboard + `"`,
					} {
						if !strings.Contains(res.body, want) {
							t.Errorf("body lacks %s", want)
						}
					}
					if strings.Contains(res.body, `data-testid="not-found"`) {
						t.Error("index page carries the not-found marker")
					}
				})
			}
		}
	}
}

// TestHostServicesRoute: "My services" (the index route with ?view=services, or a sign-in link)
// marks its page with a route of its own, which hides the landing's hero; the plans keep "index".
func TestHostServicesRoute(t *testing.T) {
	h := newHost(t, nil)
	for target, want := range map[string]string{
		"/checkout/":                          `data-route="index"`,
		"/checkout/?view=services":            `data-route="services"`,
		"/checkout/de-de/?view=services":      `data-route="services"`,
		"/checkout/?signin=abc&view=services": `data-route="services"`,
		"/checkout/?signin=abc":               `data-route="services"`,
		"/checkout/?plan=3":                   `data-route="index"`,
		"/checkout/success?view=services":     `data-route="success"`,
	} {
		if res := get(t, h, target); !strings.Contains(res.body, want) {
			t.Errorf("%s: lacks %s", target, want)
		}
	}
}

func TestHostAnswers404ForUnknownPaths(t *testing.T) {
	h := newHost(t, nil)
	for _, target := range []string{
		"/checkout/nope",
		"/checkout/does/not/exist",
		"/checkout/de-de/nope",
		"/checkout/en-en/",
		"/checkout/fr-fr/success",
		"/checkout/Success",
		"/checkout/resellers/upsell",
		"/checkout/success/extra",
		"/checkout/assets/missing.js",
		"/checkout/index.html",
		"/checkout/partials.html",
	} {
		t.Run(target, func(t *testing.T) {
			res := get(t, h, target, "Accept-Language", "en-US,en;q=0.9")
			if res.status != http.StatusNotFound {
				t.Fatalf("status = %d, want 404", res.status)
			}
			if !strings.Contains(res.header.Get("Content-Type"), "text/html") {
				t.Errorf("Content-Type = %q", res.header.Get("Content-Type"))
			}
			if target == "/checkout/de-de/nope" {
				for _, want := range []string{`data-testid="not-found"`, "Diese Seite wurde nicht gefunden", `href="/checkout/de-de/"`, "Zurück zur Startseite"} {
					if !strings.Contains(res.body, want) {
						t.Errorf("body lacks %q", want)
					}
				}
				return
			}
			for _, want := range []string{`data-testid="not-found"`, "This page could not be found", "Back to the home page", `href="/checkout/"`, "Premium IPTV Experience"} {
				if !strings.Contains(res.body, want) {
					t.Errorf("body lacks %q", want)
				}
			}
			if strings.Contains(res.body, "<streamcart-checkout") {
				t.Error("404 page embeds the widget")
			}
		})
	}
}

func TestHostRedirectsBareBase(t *testing.T) {
	res := get(t, newHost(t, nil), "/checkout")
	if res.status != http.StatusMovedPermanently || res.header.Get("Location") != "/checkout/" {
		t.Fatalf("got %d Location %q", res.status, res.header.Get("Location"))
	}
}

func TestHostPageSecurityHeaders(t *testing.T) {
	h := newHost(t, nil)
	for _, target := range []string{"/checkout/", "/checkout/nope"} {
		res := get(t, h, target)
		csp := res.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'", "frame-ancestors"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", target, csp, want)
			}
		}
		for _, bad := range []string{"unsafe-inline", "unsafe-eval"} {
			if strings.Contains(csp, bad) {
				t.Errorf("%s: CSP allows %s", target, bad)
			}
		}
		if res.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", target, res.header.Get("X-Content-Type-Options"))
		}
		if res.header.Get("Referrer-Policy") == "" {
			t.Errorf("%s: no Referrer-Policy", target)
		}
		// A strict CSP only works when the page has no inline code.
		if m := regexp.MustCompile(`<script(?:[^>]*)>`).FindAllString(res.body, -1); len(m) == 0 {
			t.Errorf("%s: no script tags", target)
		} else {
			for _, tag := range m {
				if !strings.Contains(tag, "src=") {
					t.Errorf("%s: inline script %s", target, tag)
				}
			}
		}
		if regexp.MustCompile(`\sstyle="|<style`).MatchString(res.body) {
			t.Errorf("%s: inline styles in page", target)
		}
		if regexp.MustCompile(`\son[a-z]+="`).MatchString(res.body) {
			t.Errorf("%s: inline event handler in page", target)
		}
	}
}

func TestHostCSPAllowsCrossOriginAPI(t *testing.T) {
	h := newHost(t, func(c *web.HostConfig) { c.APIBase = "https://api.example.test/checkout/api" })
	res := get(t, h, "/checkout/")
	if !strings.Contains(res.header.Get("Content-Security-Policy"), "connect-src 'self' https://api.example.test") {
		t.Errorf("CSP = %q", res.header.Get("Content-Security-Policy"))
	}
	if !strings.Contains(res.body, `api="https://api.example.test/checkout/api"`) {
		t.Error("widget api attribute not set from APIBase")
	}
}

func TestHostServiceWorker(t *testing.T) {
	h := newHost(t, nil)
	res := get(t, h, "/checkout/sw.js")
	if res.status != http.StatusOK {
		t.Fatalf("status = %d", res.status)
	}
	for k, want := range map[string]string{
		"Service-Worker-Allowed": "/checkout/",
		"Cache-Control":          "no-cache",
		"Content-Type":           "text/javascript; charset=utf-8",
	} {
		if got := res.header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if !strings.Contains(res.body, "addEventListener('fetch'") {
		t.Error("sw.js body is not the service worker")
	}
	etag := res.header.Get("ETag")
	again := get(t, h, "/checkout/sw.js", "If-None-Match", etag)
	if again.status != http.StatusNotModified {
		t.Errorf("revalidation status = %d, want 304", again.status)
	}
}

func TestHostAssets(t *testing.T) {
	h := newHost(t, nil)
	page := get(t, h, "/checkout/")
	m := regexp.MustCompile(`href="(/checkout/assets/host\.css\?v=([0-9a-f]+))"`).FindStringSubmatch(page.body)
	if m == nil {
		t.Fatal("page does not link a versioned host.css")
	}
	cases := []struct {
		target, ctype, cache string
	}{
		{m[1], "text/css; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/checkout/assets/host.css", "text/css; charset=utf-8", "no-cache"},
		{"/checkout/assets/host.js?v=" + m[2], "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/checkout/assets/policy.js", "text/javascript; charset=utf-8", "no-cache"},
		{"/checkout/assets/i18n.json", "application/json; charset=utf-8", "no-cache"},
		{"/checkout/assets/flags/de.svg", "image/svg+xml", "no-cache"},
		{"/checkout/assets/host.css?v=stale", "text/css; charset=utf-8", "no-cache"},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			res := get(t, h, c.target, "Accept-Encoding", "gzip, br")
			if res.status != http.StatusOK {
				t.Fatalf("status = %d", res.status)
			}
			if got := res.header.Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type = %q, want %q", got, c.ctype)
			}
			if got := res.header.Get("Cache-Control"); got != c.cache {
				t.Errorf("Cache-Control = %q, want %q", got, c.cache)
			}
			if len(res.body) == 0 {
				t.Error("empty body")
			}
		})
	}
	zipped := get(t, h, "/checkout/assets/host.css", "Accept-Encoding", "gzip")
	if zipped.header.Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.body, "prefers-reduced-motion") {
		t.Errorf("host.css not served gzipped: %q", zipped.header.Get("Content-Encoding"))
	}
	plain := get(t, h, "/checkout/assets/host.css", "Accept-Encoding", "gzip;q=0")
	if plain.header.Get("Content-Encoding") != "" || plain.body != zipped.body {
		t.Error("gzip;q=0 still got gzip, or bodies differ")
	}
}

func TestHostRejectsWrites(t *testing.T) {
	h := newHost(t, nil)
	for _, target := range []string{"/checkout/", "/checkout/de-de/success", "/checkout/sw.js"} {
		if res := do(t, h, http.MethodPost, target); res.status != http.StatusMethodNotAllowed {
			t.Errorf("POST %s = %d, want 405", target, res.status)
		}
	}
	if res := do(t, h, http.MethodHead, "/checkout/waiting"); res.status != http.StatusOK || res.body != "" {
		t.Errorf("HEAD = %d with %d bytes", res.status, len(res.body))
	}
}

func TestHostLocale(t *testing.T) {
	h := newHost(t, nil)
	cases := []struct {
		name, target string
		headers      []string
		lang, want   string
	}{
		{"default", "/checkout/", nil, "en", "Already have an account?"},
		{"prefix", "/checkout/de-de/success", nil, "de-DE", "Sie haben bereits ein Konto?"},
		{"prefix beats header", "/checkout/nl-nl/", []string{"Accept-Language", "de-DE"}, "nl-NL", "Heb je al een account?"},
		{"cookie", "/checkout/waiting", []string{"Cookie", "browserLang=es-es", "Accept-Language", "de"}, "es-ES", "¿Ya tienes una cuenta?"},
		{"cookie beats prefix", "/checkout/de-de/waiting", []string{"Cookie", "browserLang=nl-nl"}, "nl-NL", "Heb je al een account?"},
		{"inexact cookie ignored", "/checkout/de-de/", []string{"Cookie", "browserLang=es"}, "de-DE", "Sie haben bereits ein Konto?"},
		{"cookie en-en", "/checkout/", []string{"Cookie", "browserLang=en-en", "Accept-Language", "de"}, "en", "Login"},
		{"accept-language", "/checkout/", []string{"Accept-Language", "fr-FR;q=0.9, pt-BR;q=0.8"}, "pt-PT", "Já tem uma conta?"},
		{"accept-language q order", "/checkout/", []string{"Accept-Language", "de;q=0.2, en-GB;q=0.9"}, "en-GB", "Login"},
		{"unknown everything", "/checkout/", []string{"Accept-Language", "fr-FR", "Cookie", "browserLang=zz"}, "en", "Login"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := get(t, h, c.target, c.headers...)
			if !strings.Contains(res.body, `<html lang="`+c.lang+`"`) {
				t.Errorf("html lang is not %q", c.lang)
			}
			if !strings.Contains(res.body, c.want) {
				t.Errorf("body lacks %q", c.want)
			}
		})
	}
}

func TestHostGermanPageHasNoEnglish(t *testing.T) {
	res := get(t, newHost(t, nil), "/checkout/de-de/")
	for _, english := range []string{
		"Already have an account?", ">Login<", "Sign out", "Premium IPTV Experience", "Quick Links",
		"Help Center", "Contact Us", "Terms of Service", "Privacy Policy", "All rights reserved",
		"Free trial", "No credit card required", "24/7 support", "Loading the checkout",
	} {
		if strings.Contains(res.body, english) {
			t.Errorf("German page contains %q", english)
		}
	}
}

func TestHostFooterAndClaims(t *testing.T) {
	// The copyright year is the shop clock's.
	res := get(t, newHost(t, func(c *web.HostConfig) {
		c.Now = func() time.Time { return time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC) }
	}), "/checkout/")
	for _, want := range []string{
		"Premium IPTV Experience", "Quick Links", ">Home<", ">Features<", ">Support<",
		"Help Center", "Contact Us", ">FAQ<", ">Legal<", "Terms of Service", "Privacy Policy", ">DMCA<",
		"© 2031 Streamcart. All rights reserved.", "Free trial", "10,000+ channels", "No credit card required", "24/7 support",
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHostLanguageSwitcherKeepsRouteAndQuery(t *testing.T) {
	res := get(t, newHost(t, nil), "/checkout/de-de/resellers/waiting?serviceid=7&aff_id=3")
	opts := regexp.MustCompile(`data-testid="language-option" data-code="([a-z-]+)" data-locale="[a-z-]+" href="([^"]+)"`).FindAllStringSubmatch(res.body, -1)
	want := map[string]string{
		"en-en": "/checkout/resellers/waiting?serviceid=7&amp;aff_id=3",
		"es-es": "/checkout/es-es/resellers/waiting?serviceid=7&amp;aff_id=3",
		"de-de": "/checkout/de-de/resellers/waiting?serviceid=7&amp;aff_id=3",
		"pt-pt": "/checkout/pt-pt/resellers/waiting?serviceid=7&amp;aff_id=3",
		"nl-nl": "/checkout/nl-nl/resellers/waiting?serviceid=7&amp;aff_id=3",
	}
	if len(opts) != len(want) {
		t.Fatalf("got %d options, want %d", len(opts), len(want))
	}
	order := []string{"en-en", "es-es", "de-de", "pt-pt", "nl-nl"}
	for i, o := range opts {
		if o[1] != order[i] {
			t.Errorf("option %d = %s, want %s", i, o[1], order[i])
		}
		if o[2] != want[o[1]] {
			t.Errorf("%s href = %s, want %s", o[1], o[2], want[o[1]])
		}
	}
	for _, name := range []string{"English", "Español", "Deutsch", "Português", "Nederlands"} {
		if !strings.Contains(res.body, "<span>"+name+"</span>") {
			t.Errorf("switcher lacks %s", name)
		}
	}
}

func TestHostCompressesPages(t *testing.T) {
	h := newHost(t, nil)
	cases := []struct{ accept, encoding string }{
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br;q=0.5, gzip", "gzip"},
		{"br, gzip;q=0", "br"},
		{"br;q=0, gzip;q=0", ""},
		{"identity", ""},
		{"*", "br"},
	}
	for _, c := range cases {
		t.Run(c.accept, func(t *testing.T) {
			res := get(t, h, "/checkout/", "Accept-Encoding", c.accept)
			if got := res.header.Get("Content-Encoding"); got != c.encoding {
				t.Errorf("Content-Encoding = %q, want %q", got, c.encoding)
			}
			if !strings.Contains(res.body, "<streamcart-checkout") {
				t.Errorf("the page does not decode to itself: %.80q", res.body)
			}
			for _, v := range []string{"Accept-Encoding", "Accept-Language"} {
				if !strings.Contains(res.header.Get("Vary"), v) {
					t.Errorf("Vary = %q, lacks %s", res.header.Get("Vary"), v)
				}
			}
		})
	}
}

// hostFiles copies the embedded host files so a test can break one.
func hostFiles(t *testing.T, replace map[string]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(checkout.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(checkout.Files, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range replace {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

func TestHostErrorPages(t *testing.T) {
	// index.html fails while executing: the generic error page shows the
	// default message and status 500.
	broken := hostFiles(t, map[string]string{"index.html": `{{template "nowhere" .}}`})
	h := newHost(t, func(c *web.HostConfig) { c.Files = broken })
	res := get(t, h, "/checkout/")
	if res.status != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", res.status)
	}
	for _, want := range []string{`data-testid="error-page"`, `<h1 class="error-title">Error</h1>`, ">500<", "Back to the home page"} {
		if !strings.Contains(res.body, want) {
			t.Errorf("error page lacks %q", want)
		}
	}

	// error.html fails too: the last-resort text of spec §8.
	worse := hostFiles(t, map[string]string{"error.html": `{{template "nowhere" .}}`})
	h = newHost(t, func(c *web.HostConfig) { c.Files = worse })
	res = get(t, h, "/checkout/missing")
	if res.status != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", res.status)
	}
	for _, want := range []string{"An error occurred while showing the error page", "Go back to home", `href="/checkout/"`} {
		if !strings.Contains(res.body, want) {
			t.Errorf("fallback page lacks %q", want)
		}
	}
	res = get(t, h, "/checkout/de-de/missing")
	if !strings.Contains(res.body, "Beim Anzeigen der Fehlerseite ist ein Fehler aufgetreten") {
		t.Error("fallback page not translated")
	}
}

func TestNewHostRejectsIncompleteCatalog(t *testing.T) {
	files := hostFiles(t, map[string]string{"assets/i18n.json": `{"default":"en","locales":[{"code":"en"},{"code":"de-de"}],"messages":{"en":{"a":"A","b":"B"},"de-de":{"a":"A"}}}`})
	defer func() {
		if recover() == nil {
			t.Error("NewHost accepted a catalog where de-de lacks a key")
		}
	}()
	web.NewHost(web.HostConfig{Files: files})
}

// A renewal's pay link (issue 13) opens the widget's /renew page, prefixed or not, with its query
// intact for the widget to read; its token must not leak to other origins through the Referer.
func TestHostServesThePayLinkPage(t *testing.T) {
	h := newHost(t, nil)
	for _, target := range []string{
		"/checkout/renew?invoice=inv_01&t=tok.sig",
		"/checkout/renew/?invoice=inv_01&t=tok.sig",
		"/checkout/de-de/renew?invoice=inv_01&t=tok.sig",
		"/checkout/pt-pt/renew",
	} {
		t.Run(target, func(t *testing.T) {
			res := get(t, h, target)
			if res.status != http.StatusOK {
				t.Fatalf("status = %d, want 200", res.status)
			}
			if !strings.Contains(res.body, `<streamcart-checkout api="/checkout/api" routing="history" base="/checkout/">`) {
				t.Error("page does not embed the widget")
			}
			switch rp := res.header.Get("Referrer-Policy"); rp {
			case "no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin", "origin":
			default:
				t.Errorf("Referrer-Policy = %q sends the pay link's token to other origins", rp)
			}
		})
	}
	if res := get(t, h, "/checkout/renewal?invoice=inv_01&t=tok.sig"); res.status != http.StatusNotFound {
		t.Errorf("/checkout/renewal: status = %d, want 404", res.status)
	}
}

// TestLoginTarget: the header's Login goes to the seller's external account dashboard when the
// setting points off the shop; otherwise (the default, /checkout/) it opens the shop's sign-in
// form (the services view, under the page's locale prefix), never the page it is on.
func TestLoginTarget(t *testing.T) {
	for _, tc := range []struct{ setting, path, want string }{
		{"https://dashboard.example.test/login", "/checkout/", "https://dashboard.example.test/login"},
		{"/account/", "/checkout/de-de/", "/account/"},
		{"/checkout/", "/checkout/", "/checkout/?view=services"},
		{"/checkout/", "/checkout/de-de/success", "/checkout/de-de/?view=services"},
		{"/checkout", "/checkout/", "/checkout/?view=services"},
		{"", "/checkout/", "/checkout/?view=services"},
		{"javascript:alert(1)", "/checkout/", "/checkout/?view=services"},
	} {
		t.Run(tc.setting+" "+tc.path, func(t *testing.T) {
			h := newHost(t, func(c *web.HostConfig) { c.DashboardURL = tc.setting })
			res := get(t, h, tc.path)
			want := `class="account-login" href="` + html.EscapeString(tc.want) + `"`
			if !strings.Contains(res.body, want) {
				i := strings.Index(res.body, `class="account-login"`)
				t.Fatalf("%s lacks %s; has %s", tc.path, want, res.body[max(i, 0):min(len(res.body), max(i, 0)+120)])
			}
			if !strings.Contains(res.body, `<meta name="streamcart:dashboard" content="`+html.EscapeString(tc.want)+`">`) {
				t.Errorf("meta streamcart:dashboard is not %s", tc.want)
			}
		})
	}
}

// The language button shows the menu's entry: English (US) and (UK) are not listed, so a visitor
// in en-us sees the menu's English with its flag, checked in the menu, never a US flag the menu
// does not list.
func TestHostSwitcherShowsTheMenusEntry(t *testing.T) {
	h := newHost(t, nil)
	for _, tc := range []struct{ target, flag, name, checked string }{
		{"/checkout/en-us/", "flags/gb.svg", ">English<", `data-code="en-en"`},
		{"/checkout/en-gb/", "flags/gb.svg", ">English<", `data-code="en-en"`},
		{"/checkout/de-de/", "flags/de.svg", ">Deutsch<", `data-code="de-de"`},
	} {
		t.Run(tc.target, func(t *testing.T) {
			body := get(t, h, tc.target).body
			i := strings.Index(body, `class="lang-current"`)
			j := strings.Index(body, `class="lang-menu"`)
			if i < 0 || j < i {
				t.Fatal("no language switcher")
			}
			button := body[i:j]
			if !strings.Contains(button, tc.flag) || !strings.Contains(button, tc.name) || strings.Contains(button, "flags/us.svg") {
				t.Errorf("button %s: want %s and %s", button, tc.flag, tc.name)
			}
			if !strings.Contains(body, `aria-checked="true" data-testid="language-option" `+tc.checked) {
				t.Errorf("the menu does not check %s", tc.checked)
			}
		})
	}
}
