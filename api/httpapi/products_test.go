package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	goahttp "goa.design/goa/v3/http"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/httpapi"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	catalogsrv "github.com/streamcart/streamcart/gen/http/catalog/server"
)

// The products fast path must answer byte for byte what the Goa handler answers.
func TestProductsFastPathMatchesGoa(t *testing.T) {
	cat := func() *catalog.Catalog { return catalog.Demo() }
	fast := httpapi.New(httpapi.Deps{Catalog: cat, Logger: slog.New(slog.DiscardHandler)})

	mux := goahttp.NewMuxer()
	e := gencatalog.NewEndpoints(httpapi.NewCatalog(cat, httpapi.Storefront{}))
	catalogsrv.Mount(mux, catalogsrv.New(e, mux, goahttp.RequestDecoder, goahttp.ResponseEncoder, nil, nil))

	for _, query := range []string{
		"", "?currency=USD", "?currency=gbp", "?currency=XYZ", "?currency=e",
		"?locale=de-de", "?currency=GBP&locale=pt-pt", "?locale=en-us", "?locale=en", "?locale=",
		"?locale=de-de&currency=GBP", "?currency=USD&locale=nl-nl", "?locale=fr-fr", "?locale=DE-DE", "?locale=xx&currency=XYZ",
	} {
		t.Run(query, func(t *testing.T) {
			get := func(h http.Handler) (int, string, string) {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/checkout/api/products"+query, nil))
				body, _ := io.ReadAll(rec.Body)
				return rec.Code, rec.Header().Get("Content-Type"), string(body)
			}
			fc, fct, fb := get(fast)
			gc, gct, gb := get(mux)
			if fc != gc || fct != gct {
				t.Fatalf("fast path %d %q, Goa %d %q", fc, fct, gc, gct)
			}
			if gc == http.StatusOK && fb != gb {
				t.Fatalf("bodies differ:\nfast %s\ngoa  %s", fb, gb)
			}
			// A second request is served from the cache and must not differ either.
			if _, _, again := get(fast); gc == http.StatusOK && again != fb {
				t.Fatalf("cached answer differs:\nfirst  %s\nsecond %s", fb, again)
			}
		})
	}
}
