package web_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamcart/streamcart/api/web"
)

const consolePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Streamcart console</title>` +
	`<script type="module" crossorigin src="/checkout/admin/assets/index-AbC123.js"></script>` +
	`<link rel="stylesheet" crossorigin href="/checkout/admin/assets/index-DeF456.css"></head>` +
	`<body><div id="root"></div></body></html>`

func builtConsole() fstest.MapFS {
	return fstest.MapFS{
		"index.html":              {Data: []byte(consolePage)},
		"assets/index-AbC123.js":  {Data: []byte("console.log('console');\n" + strings.Repeat("// padding to make gzip worth it\n", 40))},
		"assets/index-DeF456.css": {Data: []byte("body{margin:0}\n")},
		"favicon.svg":             {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		".gitkeep":                {Data: nil},
	}
}

func TestConsoleServesAppForEveryRoute(t *testing.T) {
	h := web.NewConsoleFS(builtConsole())
	for _, target := range []string{
		"/checkout/admin/", "/checkout/admin/setup?token=abc", "/checkout/admin/orders",
		"/checkout/admin/orders/ord_123", "/checkout/admin/customers/usr_1/", "/checkout/admin/index.html",
	} {
		res := get(t, h, target, "Accept-Encoding", "gzip")
		if res.status != http.StatusOK {
			t.Errorf("%s: status = %d, want 200", target, res.status)
			continue
		}
		if res.body != consolePage {
			t.Errorf("%s: body is not the app's page: %.80q", target, res.body)
		}
		for name, want := range map[string]string{
			"Content-Type":    "text/html; charset=utf-8",
			"Cache-Control":   "no-cache",
			"Referrer-Policy": "no-referrer",
			"X-Frame-Options": "DENY",
		} {
			if got := res.header.Get(name); got != want {
				t.Errorf("%s: %s = %q, want %q", target, name, got, want)
			}
		}
		csp := res.header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s: CSP %q lacks %q", target, csp, d)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "https:") {
			t.Errorf("%s: CSP %q allows inline code or other origins", target, csp)
		}
	}
}

func TestConsoleAssets(t *testing.T) {
	h := web.NewConsoleFS(builtConsole())
	cases := []struct {
		target, cache, encoding string
		status                  int
		body                    string
	}{
		{"/checkout/admin/assets/index-AbC123.js", "public, max-age=31536000, immutable", "gzip", 200, "console.log('console');"},
		{"/checkout/admin/assets/index-DeF456.css", "public, max-age=31536000, immutable", "", 200, "body{margin:0}"},
		{"/checkout/admin/favicon.svg", "no-cache", "", 200, "<svg"},
		{"/checkout/admin/assets/index-old.js", "", "", 404, ""},
		{"/checkout/admin/assets/.gitkeep", "", "", 404, ""},
	}
	for _, c := range cases {
		res := get(t, h, c.target, "Accept-Encoding", "gzip")
		if res.status != c.status {
			t.Errorf("%s: status = %d, want %d", c.target, res.status, c.status)
			continue
		}
		if c.status != 200 {
			continue
		}
		if got := res.header.Get("Cache-Control"); got != c.cache {
			t.Errorf("%s: Cache-Control = %q, want %q", c.target, got, c.cache)
		}
		if got := res.header.Get("Content-Encoding"); got != c.encoding {
			t.Errorf("%s: Content-Encoding = %q, want %q", c.target, got, c.encoding)
		}
		if !strings.HasPrefix(res.body, c.body) {
			t.Errorf("%s: body = %.60q, want it to start with %q", c.target, res.body, c.body)
		}
	}
}

func TestConsoleMethodsAndRedirect(t *testing.T) {
	h := web.NewConsoleFS(builtConsole())
	if res := do(t, h, http.MethodPost, "/checkout/admin/orders"); res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status = %d, Allow = %q; want 405, GET, HEAD", res.status, res.header.Get("Allow"))
	}
	res := do(t, h, http.MethodHead, "/checkout/admin/")
	if res.status != http.StatusOK || res.body != "" {
		t.Errorf("HEAD: status = %d, body %q; want 200 and no body", res.status, res.body)
	}
	res = get(t, h, "/checkout/admin?x=1")
	if res.status != http.StatusMovedPermanently || res.header.Get("Location") != "/checkout/admin/?x=1" {
		t.Errorf("/checkout/admin: status = %d, Location = %q", res.status, res.header.Get("Location"))
	}
}

func TestConsoleNotBuilt(t *testing.T) {
	h := web.NewConsoleFS(fstest.MapFS{".gitkeep": {Data: nil}})
	for _, target := range []string{"/checkout/admin/", "/checkout/admin/assets/index-AbC123.js"} {
		res := get(t, h, target)
		if res.status != http.StatusServiceUnavailable || res.body != "console not built: run make build\n" {
			t.Errorf("%s: status = %d, body %q; want 503", target, res.status, res.body)
		}
	}
}
