package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/streamcart/streamcart/api/web"
)

// precompressedWidget is a build as `make widget` leaves it: each script
// with the .br and .gz copies widget/scripts/compress.mjs writes beside it.
func precompressedWidget(t *testing.T) (fstest.MapFS, []byte) {
	t.Helper()
	body := []byte(entrySource + strings.Repeat("// padding to make compression worth it\n", 60))
	var br, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(body)
	bw.Close()
	gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	gw.Write(body)
	gw.Close()
	return fstest.MapFS{
		"streamcart.js":    {Data: body},
		"streamcart.js.br": {Data: br.Bytes()},
		"streamcart.js.gz": {Data: gz.Bytes()},
	}, body
}

// fetchRaw answers target with Accept-Encoding set to accept ("" sends none), undecoded.
func fetchRaw(t *testing.T, h http.Handler, target, accept string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if accept != "" {
		req.Header.Set("Accept-Encoding", accept)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func decode(t *testing.T, encoding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch encoding {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "":
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s: %v", encoding, err)
	}
	return out
}

func TestWidgetContentNegotiation(t *testing.T) {
	dist, body := precompressedWidget(t)
	h := web.NewWidgetFS(dist)
	cases := []struct {
		accept, want string
	}{
		{"gzip, deflate, br, zstd", "br"}, // Chromium's header: brotli first
		{"br", "br"},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"deflate", ""},
		{"", ""},
		{"identity", ""},
		{"br;q=0, gzip", "gzip"},
		{"br;q=0.5, gzip;q=0.8", "gzip"},
		{"br;q=0.8, gzip;q=0.8", "br"}, // a tie goes to the smaller body
		{"gzip;q=0, br;q=0", ""},
		{"*", "br"},
		{"*;q=0.5, br;q=0", "gzip"},
		{"*;q=0", ""},
		{"BR", "br"},
		{"br;q=abc, gzip", "gzip"}, // a malformed weight accepts nothing
		{"br; q=0 , gzip ; q=1", "gzip"},
	}
	etags := map[string]string{}
	for _, c := range cases {
		t.Run(c.accept, func(t *testing.T) {
			res, b := fetchRaw(t, h, "/widget/streamcart.js", c.accept)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status = %d", res.StatusCode)
			}
			if got := res.Header.Get("Content-Encoding"); got != c.want {
				t.Fatalf("Content-Encoding = %q, want %q", got, c.want)
			}
			if got := res.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q", got)
			}
			if got := decode(t, c.want, b); !bytes.Equal(got, body) {
				t.Errorf("decoded body differs from the file (%d vs %d bytes)", len(got), len(body))
			}
			if c.want == "br" && !bytes.Equal(b, dist["streamcart.js.br"].Data) {
				t.Error("brotli body is not the build-time copy")
			}
			if c.want == "gzip" && !bytes.Equal(b, dist["streamcart.js.gz"].Data) {
				t.Error("gzip body is not the build-time copy")
			}
			if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(b)) {
				t.Errorf("Content-Length = %s, body %d", got, len(b))
			}
			etag := res.Header.Get("ETag")
			if prev, ok := etags[c.want]; ok && prev != etag {
				t.Errorf("ETag of %q changed: %s then %s", c.want, prev, etag)
			}
			etags[c.want] = etag
		})
	}
	// One validator per representation.
	if etags[""] == etags["br"] || etags[""] == etags["gzip"] || etags["br"] == etags["gzip"] {
		t.Errorf("ETags not distinct per encoding: %v", etags)
	}
	// A revalidation names the representation it holds.
	res, b := fetchRaw(t, h, "/widget/streamcart.js", "br, gzip", "If-None-Match", etags["br"])
	if res.StatusCode != http.StatusNotModified || len(b) != 0 || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("If-None-Match br: %d, %d bytes, encoding %q", res.StatusCode, len(b), res.Header.Get("Content-Encoding"))
	}
	if res, _ := fetchRaw(t, h, "/widget/streamcart.js", "gzip", "If-None-Match", etags["br"]); res.StatusCode != http.StatusOK {
		t.Errorf("gzip client with the br ETag: %d, want 200", res.StatusCode)
	}
	// The copies are encodings, never files of their own, and do not change the build's version.
	if res, _ := fetchRaw(t, h, "/widget/streamcart.js.br", ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET streamcart.js.br = %d, want 404", res.StatusCode)
	}
	if a, b := versionOf(t, dist), versionOf(t, fstest.MapFS{"streamcart.js": {Data: body}}); a != b {
		t.Errorf("version with copies %s, without %s", a, b)
	}
}

func TestWidgetIgnoresStaleCopies(t *testing.T) {
	dist, body := precompressedWidget(t)
	stale, _ := precompressedWidget(t)
	// A rebuild changed the file but left the copies of the old one.
	dist["streamcart.js"] = &fstest.MapFile{Data: append(bytes.Clone(body), "// rebuilt\n"...)}
	dist["streamcart.js.br"], dist["streamcart.js.gz"] = stale["streamcart.js.br"], stale["streamcart.js.gz"]
	h := web.NewWidgetFS(dist)
	for _, accept := range []string{"br", "gzip", "br, gzip", ""} {
		res, b := fetchRaw(t, h, "/widget/streamcart.js", accept)
		enc := res.Header.Get("Content-Encoding")
		if enc == "br" {
			t.Errorf("%q: a stale brotli copy was served", accept)
		}
		if got := decode(t, enc, b); !bytes.Equal(got, dist["streamcart.js"].Data) {
			t.Errorf("%q (%s): served bytes are not the rebuilt file", accept, enc)
		}
	}
}

// versionOf is the build version a host page serving fsys links to.
func versionOf(t *testing.T, fsys fstest.MapFS) string {
	t.Helper()
	page := get(t, newHost(t, func(c *web.HostConfig) { c.WidgetFS = fsys }), "/checkout/")
	m := regexp.MustCompile(`src="/widget/([0-9a-f]{16})/streamcart\.js"`).FindStringSubmatch(page.body)
	if m == nil {
		t.Fatal("host page names no versioned widget")
	}
	return m[1]
}
