package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/web"
)

// legalShop loads a catalog with the given legal section and files, as `catalog check` would.
func legalShop(t *testing.T, section string, files map[string]string) *catalog.Catalog {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src := `defaultCurrency: EUR
currencies: [{code: EUR, rate: "1"}]
products: [{pid: 1, group: plan, name: Basic, cycles: {monthly: {EUR: "9.99"}}}]
gateways: sandbox
` + section
	file := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func shopHost(t *testing.T, c *catalog.Catalog) http.Handler {
	return newHost(t, func(cfg *web.HostConfig) {
		cfg.Catalog = func() *catalog.Catalog { return c }
		cfg.Now = func() time.Time { return time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC) }
	})
}

const evil = `# Terms <script>alert(1)</script>

Hello <img src=x onerror=alert(2)> <iframe src="https://evil.example"></iframe>

[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) <a href="javascript:alert(4)">raw</a>

<style>body{display:none}</style><div style="color:red" onclick="x()">styled</div>

| a | b |
|---|---|
| 1 | 2 |

[Refunds](refunds) and https://example.com/auto
`

func TestLegalPages(t *testing.T) {
	c := legalShop(t, `seller: {name: "Example Streams Ltd", email: help@example.com}
legal:
  terms: {en: legal/terms.md, de: legal/terms.de.md}
  privacy: "https://example.com/privacy"
  refunds: legal/refunds.md
  evil: legal/evil.md
`, map[string]string{
		"legal/terms.md":    "# Terms of Service\n\nThe *English* terms.\n",
		"legal/terms.de.md": "# Nutzungsbedingungen\n\nDie **deutschen** Bedingungen.\n",
		"legal/refunds.md":  "# Refund Policy\n\nWithin 7 days.\n",
		"legal/evil.md":     evil,
	})
	h := shopHost(t, c)
	tests := []struct {
		target string
		status int
		want   []string
		not    []string
	}{
		{"/checkout/legal/terms", 200, []string{`<html lang="en"`, "<title>Terms of Service · Example Streams Ltd</title>", "<h1>Terms of Service</h1>", "<em>English</em>", `data-testid="legal-page">`, "© 2027 Example Streams Ltd. All rights reserved."}, []string{"Nutzungsbedingungen"}},
		{"/checkout/legal/terms/", 200, []string{"<h1>Terms of Service</h1>"}, nil},
		{"/checkout/de-de/legal/terms", 200, []string{`<html lang="de-DE"`, "<h1>Nutzungsbedingungen</h1>", "<strong>deutschen</strong>", "© 2027 Example Streams Ltd. Alle Rechte vorbehalten."}, []string{"English"}},
		// No Spanish file: the English one, marked as English on the Spanish page.
		{"/checkout/es-es/legal/terms", 200, []string{`<html lang="es-ES"`, `data-testid="legal-page" lang="en">`, "The <em>English</em> terms."}, nil},
		{"/checkout/en-gb/legal/terms", 200, []string{`data-testid="legal-page">`, "The <em>English</em> terms."}, nil},
		{"/checkout/de-de/legal/refunds", 200, []string{`data-testid="legal-page">`, "Within 7 days."}, nil},
		{"/checkout/legal/evil", 200, []string{"<table>", "<td>1</td>", `href="refunds"`, `href="https://example.com/auto"`, "<p>click data raw</p>"},
			[]string{"<script", "<div", "styled", "onerror", "<iframe", "javascript:", "data:text/html", "<style", "style=", "onclick", "<img"}},
		// Unknown, a URL page (the seller's), traversal, upper case, nested, foreign prefix: the branded 404.
		{"/checkout/legal/nope", 404, []string{`data-testid="not-found"`, "This page could not be found"}, nil},
		{"/checkout/de-de/legal/nope", 404, []string{`data-testid="not-found"`, `<html lang="de-DE"`}, nil},
		{"/checkout/legal/privacy", 404, []string{`data-testid="not-found"`}, nil},
		{"/checkout/legal/..%2f..%2fetc%2fpasswd", 404, []string{`data-testid="not-found"`}, []string{"root:"}},
		{"/checkout/legal/Terms", 404, nil, nil},
		{"/checkout/legal/terms/x", 404, nil, nil},
		{"/checkout/legal/", 404, nil, nil},
		{"/checkout/xx-yy/legal/terms", 404, nil, nil},
		{"/checkout/de-de/../legal/terms", 404, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			res := get(t, h, tc.target)
			if res.status != tc.status {
				t.Fatalf("status %d, want %d", res.status, tc.status)
			}
			if ct := res.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
				t.Errorf("CSP %q", csp)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			// The page has its own script and images: what is refused is in the document.
			article, _, _ := strings.Cut(res.body, `class="legal-back"`)
			for _, n := range tc.not {
				if i := strings.Index(article, `data-testid="legal-page"`); i >= 0 && strings.Contains(article[i:], n) {
					t.Errorf("document has %q", n)
				}
			}
		})
	}
	if res := do(t, h, http.MethodPost, "/checkout/legal/terms"); res.status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", res.status)
	}
}

// TestLegalFooterLinks: the footer's links go to the catalog's pages (under the page's locale
// prefix) or the seller's URLs, then the seller's support site, then the configured one.
func TestLegalFooterLinks(t *testing.T) {
	href := func(body, name string) string {
		m := regexp.MustCompile(`href="([^"]*)" data-support-link="` + name + `"( data-legal-link)?`).FindStringSubmatch(body)
		if m == nil {
			return "(none)"
		}
		return m[1] + m[2]
	}
	withPages := legalShop(t, `seller: {name: Example, email: help@example.com}
legal: {terms: {en: t.md, de: t.de.md}, privacy: "https://example.com/privacy", faq: faq.md}
`, map[string]string{"t.md": "# T", "t.de.md": "# T", "faq.md": "# FAQ"})
	withSite := legalShop(t, "seller: {supportUrl: \"https://help.example.com/#x\"}\n", nil)
	tests := []struct {
		name string
		cat  *catalog.Catalog
		page string
		want map[string]string
	}{
		{"pages", withPages, "/checkout/", map[string]string{
			"terms": "/checkout/legal/terms data-legal-link", "privacy": "https://example.com/privacy data-legal-link",
			"faq": "/checkout/legal/faq data-legal-link", "contact": "mailto:help@example.com data-legal-link",
			"dmca": "https://support.example.test#dmca", "help": "https://support.example.test#help"}},
		{"pages in German", withPages, "/checkout/de-de/resellers", map[string]string{
			"terms": "/checkout/de-de/legal/terms data-legal-link", "faq": "/checkout/de-de/legal/faq data-legal-link"}},
		{"on the 404 page", withPages, "/checkout/nope-x/y", map[string]string{"terms": "/checkout/legal/terms data-legal-link"}},
		{"seller's site", withSite, "/checkout/", map[string]string{
			"terms": "https://help.example.com/#terms data-legal-link", "contact": "https://help.example.com/#contact data-legal-link"}},
		{"no catalog", nil, "/checkout/", map[string]string{"terms": "https://support.example.test#terms"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHost(t, func(cfg *web.HostConfig) {
				cfg.SupportURL = "https://support.example.test"
				if tc.cat != nil {
					cfg.Catalog = func() *catalog.Catalog { return tc.cat }
				}
			})
			body := get(t, h, tc.page).body
			for name, want := range tc.want {
				if got := href(body, name); got != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestNotFoundAnywhere: any path the host is given that is no page of its own answers the
// branded 404 (app.go mounts it at "/" too), in the visitor's language.
func TestNotFoundAnywhere(t *testing.T) {
	h := shopHost(t, catalog.Demo())
	for _, target := range []string{"/nope", "/checkout/nope-x/y", "/favicon.ico", "/.env", "/checkout/de-de/nope", "/a/b/c?x=1"} {
		res := get(t, h, target, "Accept-Language", "de-DE")
		if res.status != 404 || !strings.Contains(res.body, `data-testid="not-found"`) || !strings.Contains(res.body, "Streamcart Demo Shop") {
			t.Errorf("%s: %d %.200q", target, res.status, res.body)
		}
		if strings.Contains(res.body, "404 page not found") {
			t.Errorf("%s: Go's bare 404", target)
		}
		// The language switcher's links are the shop's paths, never "/checkout//nope".
		if strings.Contains(res.body, web.Base+"/") || strings.Contains(res.body, `de-de//`) {
			t.Errorf("%s: a switcher link with a doubled slash", target)
		}
	}
	// Outside the shop, each language's link is its shop's home; below it, the same path.
	if res := get(t, h, "/nope/de"); !strings.Contains(res.body, `href="/checkout/de-de/"`) {
		t.Errorf("/nope/de: no link to the German shop: %.600q", res.body)
	}
	if res := get(t, h, "/checkout/nope-x"); !strings.Contains(res.body, `href="/checkout/de-de/nope-x"`) {
		t.Errorf("/checkout/nope-x: no link to the same path in German")
	}
}

// TestBrandedNotFound: a handler's bare 404 becomes the branded page; its other answers, and a
// 404 of its own making (JSON, say), pass untouched.
func TestBrandedNotFound(t *testing.T) {
	page := shopHost(t, catalog.Demo())
	inner := http.NewServeMux()
	inner.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("fine")) })
	inner.HandleFunc("/json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"name":"not_found"}`))
	})
	h := web.BrandedNotFound(inner, page)
	tests := []struct {
		target string
		status int
		want   string
	}{
		{"/ok", 200, "fine"},
		{"/json", 404, `{"name":"not_found"}`},
		{"/missing", 404, `data-testid="not-found"`},
	}
	for _, tc := range tests {
		res := get(t, h, tc.target)
		if res.status != tc.status || !strings.Contains(res.body, tc.want) || strings.Contains(res.body, "404 page not found") {
			t.Errorf("%s: %d %.120q, want %d with %q", tc.target, res.status, res.body, tc.status, tc.want)
		}
	}
	// The widget's own handler: a file it does not have.
	res := get(t, web.BrandedNotFound(web.NewWidgetFS(builtWidget()), page), "/widget/nope.js")
	if res.status != 404 || !strings.Contains(res.body, `data-testid="not-found"`) || res.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("/widget/nope.js: %d %q %.120q", res.status, res.header.Get("Content-Type"), res.body)
	}
}
