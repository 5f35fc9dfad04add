package httpapi_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/httpapi"
)

// BenchmarkCompression is the cost of the first-paint reads per coding: the product list (made
// once per catalog, so per request only a lookup) and the storefront (compressed per request).
// "wire-B" is the body as sent. Method and figures: docs/benchmarks.md, "API JSON in brotli".
func BenchmarkCompression(b *testing.B) {
	h := httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)})
	for _, path := range []string{"/checkout/api/products?locale=en-us", "/checkout/api/storefront?locale=en-us"} {
		for _, accept := range []string{"br, gzip", "gzip", ""} {
			b.Run(path[len("/checkout/api/"):]+"/"+accept, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				if accept != "" {
					req.Header.Set("Accept-Encoding", accept)
				}
				h.ServeHTTP(httptest.NewRecorder(), req) // the list's copies are made on the first read
				var wire int
				b.ReportAllocs()
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					wire = rec.Body.Len()
				}
				b.ReportMetric(float64(wire), "wire-B")
			})
		}
	}
}
