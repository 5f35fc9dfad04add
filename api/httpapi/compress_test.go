package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/httpapi"
)

// decode is body as the client reads it after undoing coding ("" for none).
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch coding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("unexpected Content-Encoding %q", coding)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return plain
}

// Answers of 1 KB or more go out in the coding the client prefers of brotli and gzip (brotli on a
// tie), and decode to the same bytes as the plain answer; small answers and clients that take
// neither get plain bodies. The product list, compressed once, says its length.
func TestCompression(t *testing.T) {
	h := httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)})
	get := func(path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	const products, storefront = "/checkout/api/products?currency=GBP&locale=de-de", "/checkout/api/storefront?locale=en-us"
	tests := []struct {
		name, path, acceptEncoding string
		status                     int
		coding                     string
	}{
		{"product list (compressed once), Chromium", products, "gzip, deflate, br, zstd", http.StatusOK, "br"},
		{"product list, gzip only", products, "gzip", http.StatusOK, "gzip"},
		{"product list, gzip preferred", products, "gzip, br;q=0.5", http.StatusOK, "gzip"},
		{"product list, br refused", products, "br;q=0, gzip", http.StatusOK, "gzip"},
		{"product list, gzip refused", products, "gzip;q=0, br", http.StatusOK, "br"},
		{"product list, anything", products, "*", http.StatusOK, "br"},
		{"product list, identity", products, "identity", http.StatusOK, ""},
		{"product list, everything refused", products, "*;q=0", http.StatusOK, ""},
		{"storefront through Goa, br preferred", storefront, "br;q=1.0, gzip;q=0.8", http.StatusOK, "br"},
		{"storefront, gzip preferred", storefront, "gzip;q=1.0, br;q=0.8", http.StatusOK, "gzip"},
		{"storefront, anything", storefront, "*", http.StatusOK, "br"},
		{"storefront, both refused", storefront, "br;q=0, gzip;q=0, identity", http.StatusOK, ""},
		{"reseller plans (under 1 KB)", "/checkout/api/resellers/products", "br, gzip", http.StatusOK, ""},
		{"OpenAPI document in br", "/checkout/api/openapi.json", "br", http.StatusOK, "br"},
		{"OpenAPI document in gzip", "/checkout/api/openapi.json", "gzip", http.StatusOK, "gzip"},
		{"no Accept-Encoding", storefront, "", http.StatusOK, ""},
		{"small answer", "/checkout/api/products/99", "br, gzip", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(tt.path, tt.acceptEncoding)
			plain := get(tt.path, "")
			if rec.Code != tt.status || plain.Code != tt.status {
				t.Fatalf("status %d / plain %d, want %d: %s", rec.Code, plain.Code, tt.status, plain.Body)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.coding {
				t.Fatalf("Content-Encoding %q, want %q", got, tt.coding)
			}
			body := decode(t, tt.coding, rec.Body.Bytes())
			if tt.coding != "" {
				if rec.Header().Get("Vary") != "Accept-Encoding" {
					t.Errorf("Vary = %q", rec.Header().Get("Vary"))
				}
				if rec.Body.Len() >= len(body) {
					t.Errorf("compressed %d bytes ≥ plain %d", rec.Body.Len(), len(body))
				}
			}
			if cl := rec.Header().Get("Content-Length"); cl != "" && cl != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("Content-Length %s, body %d bytes", cl, rec.Body.Len())
			}
			// (Error answers carry a fresh id each time.)
			if tt.status == http.StatusOK && !bytes.Equal(body, plain.Body.Bytes()) {
				t.Errorf("decoded body differs from the plain answer:\n%s\n%s", body, plain.Body)
			}
		})
	}
}

// The cases of the middleware no endpoint shows: a large JSON error is compressed like any
// answer, a body written in pieces across the threshold decodes whole, and HEAD, 204, 304,
// bodies already encoded and types not worth it are left as the handler made them.
func TestCompressionCases(t *testing.T) {
	bigError := []byte(`{"name":"invalid","message":"` + strings.Repeat("too long ", 200) + `"}`)
	smallJSON := []byte(`{"pid":2}`)
	tests := []struct {
		name, method, acceptEncoding string
		status                       int
		header                       map[string]string
		writes                       [][]byte
		coding                       string
	}{
		{"large JSON error in br", "GET", "gzip, br", http.StatusUnprocessableEntity, map[string]string{"Content-Type": "application/json"}, [][]byte{bigError}, "br"},
		{"large JSON error in gzip", "GET", "gzip, br;q=0.1", http.StatusInternalServerError, map[string]string{"Content-Type": "application/json"}, [][]byte{bigError}, "gzip"},
		{"large JSON error, identity", "GET", "identity", http.StatusInternalServerError, map[string]string{"Content-Type": "application/json"}, [][]byte{bigError}, ""},
		{"written in pieces", "GET", "br", http.StatusOK, map[string]string{"Content-Type": "text/plain"}, [][]byte{bigError[:10], bigError[10:1500], bigError[1500:]}, "br"},
		{"small JSON", "GET", "br, gzip", http.StatusOK, map[string]string{"Content-Type": "application/json"}, [][]byte{smallJSON}, ""},
		{"HEAD", "HEAD", "br, gzip", http.StatusOK, map[string]string{"Content-Type": "application/json", "Content-Length": strconv.Itoa(len(bigError))}, nil, ""},
		{"204", "DELETE", "br, gzip", http.StatusNoContent, nil, nil, ""},
		{"304", "GET", "br, gzip", http.StatusNotModified, map[string]string{"ETag": `"x"`}, nil, ""},
		{"already encoded", "GET", "br, gzip", http.StatusOK, map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}, [][]byte{bigError}, "gzip"},
		{"not a text type", "GET", "br, gzip", http.StatusOK, map[string]string{"Content-Type": "image/png"}, [][]byte{bigError}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := httpapi.WithCompression(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				for _, p := range tt.writes {
					w.Write(p)
				}
			}))
			req := httptest.NewRequest(tt.method, "/checkout/api/x", nil)
			req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.coding {
				t.Fatalf("Content-Encoding %q, want %q", got, tt.coding)
			}
			want := bytes.Join(tt.writes, nil)
			got := rec.Body.Bytes()
			if tt.header["Content-Encoding"] == "" {
				got = decode(t, tt.coding, got)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("body %q, want %q", got, want)
			}
			if tt.header["Content-Length"] != "" && rec.Header().Get("Content-Length") != tt.header["Content-Length"] {
				t.Errorf("Content-Length %q, want the handler's %q", rec.Header().Get("Content-Length"), tt.header["Content-Length"])
			}
			if tt.method == "HEAD" && rec.Header().Get("Vary") != "" {
				t.Errorf("HEAD: Vary = %q, want the handler's headers only", rec.Header().Get("Vary"))
			}
			if tt.status == http.StatusNotModified && rec.Header().Get("ETag") != `"x"` {
				t.Errorf("304 lost its ETag")
			}
		})
	}
}
