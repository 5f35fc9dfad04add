package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/httpapi"
)

// Answers of 1 KB or more are gzip-compressed for clients that take it, and decode to the same
// bytes as the plain answer; small answers and clients that refuse gzip get plain bodies.
func TestGzip(t *testing.T) {
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
	tests := []struct {
		name, path, acceptEncoding string
		status                     int
		gzipped                    bool
	}{
		{"product list (compressed once)", "/checkout/api/products?currency=GBP&locale=de-de", "gzip, deflate, br", http.StatusOK, true},
		{"storefront through Goa", "/checkout/api/storefront", "br;q=1.0, gzip;q=0.8", http.StatusOK, true},
		{"OpenAPI document", "/checkout/api/openapi.json", "gzip", http.StatusOK, true},
		{"gzip refused", "/checkout/api/products", "gzip;q=0, br", http.StatusOK, false},
		{"no Accept-Encoding", "/checkout/api/storefront", "", http.StatusOK, false},
		{"small answer", "/checkout/api/products/99", "gzip", http.StatusNotFound, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(tt.path, tt.acceptEncoding)
			plain := get(tt.path, "")
			if rec.Code != tt.status || plain.Code != tt.status {
				t.Fatalf("status %d / plain %d, want %d: %s", rec.Code, plain.Code, tt.status, plain.Body)
			}
			body := rec.Body.Bytes()
			if got := rec.Header().Get("Content-Encoding") == "gzip"; got != tt.gzipped {
				t.Fatalf("Content-Encoding %q, gzipped = %v, want %v", rec.Header().Get("Content-Encoding"), got, tt.gzipped)
			}
			if tt.gzipped {
				if rec.Header().Get("Vary") != "Accept-Encoding" {
					t.Errorf("Vary = %q", rec.Header().Get("Vary"))
				}
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
				if rec.Body.Len() >= len(body) {
					t.Errorf("compressed %d bytes ≥ plain %d", rec.Body.Len(), len(body))
				}
			}
			// (Error answers carry a fresh id each time.)
			if tt.status == http.StatusOK && !bytes.Equal(body, plain.Body.Bytes()) {
				t.Errorf("decoded body differs from the plain answer:\n%s\n%s", body, plain.Body)
			}
		})
	}
}
