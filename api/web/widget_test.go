package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamcart/streamcart/api/web"
)

const entrySource = "customElements.define('streamcart-checkout', class extends HTMLElement {});\n"

func builtWidget() fstest.MapFS {
	return fstest.MapFS{
		"streamcart.js":      {Data: []byte(entrySource + strings.Repeat("// padding to make gzip worth it\n", 40))},
		"streamcart.iife.js": {Data: []byte("(function(){" + entrySource + "})();\n")},
		"chunk-a1b2.js":      {Data: []byte("export const x = 1;\n")},
		".gitkeep":           {Data: nil},
	}
}

func TestWidgetNotBuilt(t *testing.T) {
	h := web.NewWidgetFS(fstest.MapFS{".gitkeep": {Data: nil}})
	for _, target := range []string{"/widget/streamcart.js", "/widget/streamcart.iife.js", "/widget/0123456789abcdef/streamcart.js"} {
		res := get(t, h, target)
		if res.status != http.StatusServiceUnavailable {
			t.Errorf("%s: status = %d, want 503", target, res.status)
		}
		if res.body != "widget not built: run make build\n" {
			t.Errorf("%s: body = %q", target, res.body)
		}
	}
}

func TestWidgetServesBuild(t *testing.T) {
	dist := builtWidget()
	h := web.NewWidgetFS(dist)

	page := get(t, newHost(t, nil), "/checkout/")
	m := regexp.MustCompile(`<script type="module" src="/widget/([0-9a-f]{16})/streamcart\.js" integrity="(sha384-[^"]+)" crossorigin="anonymous">`).FindStringSubmatch(page.body)
	if m == nil {
		t.Fatal("host page does not load the versioned widget with SRI")
	}
	version, integrity := m[1], m[2]
	if want := web.SRI(dist["streamcart.js"].Data); integrity != want {
		t.Errorf("integrity = %s, want %s", integrity, want)
	}

	cases := []struct {
		target, cache string
		status        int
		body          string
	}{
		{"/widget/streamcart.js", "public, max-age=300", 200, entrySource},
		{"/widget/streamcart.iife.js", "public, max-age=300", 200, "(function(){"},
		{"/widget/" + version + "/streamcart.js", "public, max-age=31536000, immutable", 200, entrySource},
		{"/widget/" + version + "/chunk-a1b2.js", "public, max-age=31536000, immutable", 200, "export const x"},
		{"/widget/0123456789abcdef/streamcart.js", "", 404, ""},
		{"/widget/missing.js", "", 404, ""},
		{"/widget/.gitkeep", "", 404, ""},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			res := get(t, h, c.target, "Accept-Encoding", "gzip")
			if res.status != c.status {
				t.Fatalf("status = %d, want %d", res.status, c.status)
			}
			if res.header.Get("Access-Control-Allow-Origin") != "*" {
				t.Error("widget files must be loadable cross-origin")
			}
			if c.status != 200 {
				return
			}
			if got := res.header.Get("Cache-Control"); got != c.cache {
				t.Errorf("Cache-Control = %q, want %q", got, c.cache)
			}
			if got := res.header.Get("Content-Type"); got != "text/javascript; charset=utf-8" {
				t.Errorf("Content-Type = %q", got)
			}
			if !strings.Contains(res.body, c.body) {
				t.Errorf("body = %.60q", res.body)
			}
		})
	}
	if res := do(t, h, http.MethodPost, "/widget/streamcart.js"); res.status != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d, want 405", res.status)
	}
}

func TestHostWithoutWidgetStillRenders(t *testing.T) {
	h := newHost(t, func(c *web.HostConfig) { c.WidgetFS = fstest.MapFS{".gitkeep": {}} })
	res := get(t, h, "/checkout/")
	if res.status != http.StatusOK {
		t.Fatalf("status = %d", res.status)
	}
	if !strings.Contains(res.body, `<script type="module" src="/widget/streamcart.js" crossorigin="anonymous">`) {
		t.Error("unbuilt widget should be loaded from its unversioned URL")
	}
}

func TestSRI(t *testing.T) {
	// sha384 of "abc" from FIPS 180-2, base64.
	if got, want := web.SRI([]byte("abc")), "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"; got != want {
		t.Errorf("SRI = %s, want %s", got, want)
	}
}

func TestEmbeddedWidgetAccessors(t *testing.T) {
	// The embedded build may or may not exist in this checkout; the
	// accessors must agree with what NewWidget serves either way.
	res := get(t, web.NewWidget(), "/widget/streamcart.js")
	switch res.status {
	case http.StatusServiceUnavailable:
		if web.WidgetVersion() != "" || web.WidgetIntegrity() != "" {
			t.Error("version or integrity set for a missing build")
		}
	case http.StatusOK:
		if web.WidgetIntegrity() != web.SRI([]byte(res.body)) {
			t.Error("WidgetIntegrity does not match the served entry")
		}
		v := get(t, web.NewWidget(), "/widget/"+web.WidgetVersion()+"/streamcart.js")
		if v.status != http.StatusOK || v.body != res.body {
			t.Errorf("versioned path = %d", v.status)
		}
	default:
		t.Fatalf("status = %d", res.status)
	}
}
