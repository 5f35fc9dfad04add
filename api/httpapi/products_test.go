package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/andybalholm/brotli"

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

// The product list taken without a content coding skips four layers (productsFirst): it is still
// noted under its route in the access line, leaves the request's pattern as it found it, and
// answers as the list asked with a coding does, less the coding.
func TestProductListFirst(t *testing.T) {
	var out bytes.Buffer
	h := httpapi.Observed(httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)}),
		httpapi.Observe{Log: slog.New(slog.NewJSONHandler(&out, nil)), JSON: &out})
	var plain []byte
	for _, coding := range []string{"", "identity", "gzip", "br"} {
		out.Reset()
		r := httptest.NewRequest(http.MethodGet, "/checkout/api/products", nil)
		r.Pattern = "/checkout/api/"
		if coding != "" {
			r.Header.Set("Accept-Encoding", coding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var line struct{ Route string }
		if err := json.Unmarshal(out.Bytes(), &line); err != nil || line.Route != "/checkout/api/products" {
			t.Fatalf("%q: access line %s (%v), want the product list's route", coding, out.Bytes(), err)
		}
		if r.Pattern != "/checkout/api/" {
			t.Fatalf("%q: pattern left %q", coding, r.Pattern)
		}
		if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Fatalf("%q: Vary %q", coding, got)
		}
		body := rec.Body.Bytes()
		switch rec.Header().Get("Content-Encoding") {
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		case "br":
			body, _ = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		}
		if plain == nil {
			plain = body
		} else if !bytes.Equal(body, plain) {
			t.Fatalf("%q: body differs from the plain one", coding)
		}
		if rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
			t.Fatalf("%q: Content-Length %q for %d bytes", coding, rec.Header().Get("Content-Length"), rec.Body.Len())
		}
	}
}

// fakeStock sells every plan but those marked out, and tells the list when that changes.
type fakeStock struct {
	out      map[int]bool
	onChange func()
}

func (f *fakeStock) Available(p catalog.Product) bool { return !f.out[p.PID] }
func (f *fakeStock) OnChange(fn func())               { f.onChange = fn }

// The usual product list (no query), served without the lock, follows the stock and a new
// catalog as the other lists do.
func TestUsualProductListFollowsChanges(t *testing.T) {
	var cat atomic.Pointer[catalog.Catalog]
	cat.Store(catalog.Demo())
	stock := &fakeStock{out: map[int]bool{}}
	h := httpapi.New(httpapi.Deps{Catalog: cat.Load, Logger: slog.New(slog.DiscardHandler), Stock: stock})
	get := func() map[int]bool {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/checkout/api/products", nil))
		var l struct {
			Products []struct {
				PID       int
				Name      string
				Available bool
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &l); err != nil || len(l.Products) == 0 {
			t.Fatalf("products: %d %s", rec.Code, rec.Body.Bytes())
		}
		avail := map[int]bool{}
		for _, p := range l.Products {
			avail[p.PID] = p.Available
		}
		return avail
	}
	first := get()
	pid := 0
	for p := range first {
		pid = p
		break
	}
	if !get()[pid] {
		t.Fatalf("plan %d unavailable before any change", pid)
	}
	stock.out[pid] = true
	stock.onChange()
	if get()[pid] {
		t.Fatalf("plan %d still available after the stock ran out", pid)
	}
	next := *catalog.Demo() // a new catalog (Demo may answer the same one)
	next.Products = slices.DeleteFunc(slices.Clone(next.Products), func(p catalog.Product) bool { return p.PID == pid })
	cat.Store(&next)
	if _, listed := get()[pid]; listed {
		t.Fatalf("plan %d still listed after the catalog dropped it", pid)
	}
}

// The product list's other answers (another media type asked, a locale outside the enum) are
// compressed for a client taking a coding, as every other answer is, with Vary once.
func TestProductListFallbackCompressed(t *testing.T) {
	h := httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)})
	for _, tc := range []struct{ target, accept string }{
		{"/checkout/api/products", "text/html"},
		{"/checkout/api/products?locale=xx", ""},
	} {
		get := func(coding string) *httptest.ResponseRecorder {
			r := httptest.NewRequest(http.MethodGet, tc.target, nil)
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			if coding != "" {
				r.Header.Set("Accept-Encoding", coding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			return rec
		}
		plain, gz := get(""), get("gzip")
		if plain.Code != gz.Code {
			t.Fatalf("%s %q: status %d plain, %d gzip", tc.target, tc.accept, plain.Code, gz.Code)
		}
		if v := gz.Header().Values("Vary"); len(v) != 1 || v[0] != "Accept-Encoding" {
			t.Fatalf("%s %q: Vary %q", tc.target, tc.accept, v)
		}
		body := gz.Body.Bytes()
		if gz.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		} else if plain.Body.Len() >= 1024 {
			t.Fatalf("%s %q: %d bytes sent uncompressed to a gzip client", tc.target, tc.accept, plain.Body.Len())
		}
		errorID := regexp.MustCompile(`"id":"[^"]*"`) // an error's id is new on every answer
		if !bytes.Equal(errorID.ReplaceAll(body, nil), errorID.ReplaceAll(plain.Body.Bytes(), nil)) {
			t.Fatalf("%s %q: bodies differ:\n%s\n%s", tc.target, tc.accept, body, plain.Body.Bytes())
		}
	}
}

// Behind CORS (which names Origin in Vary first), the product list's Vary lines are those the
// layers always wrote: one line for a client taking no coding, Origin then Accept-Encoding as
// two lines (Header.Add's) for one taking br or gzip.
func TestProductListVaryBehindCORS(t *testing.T) {
	api := httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Vary"] = []string{"Origin"}
		api.ServeHTTP(w, r)
	})
	for coding, want := range map[string][]string{"": {"Origin, Accept-Encoding"}, "br": {"Origin", "Accept-Encoding"}, "gzip": {"Origin", "Accept-Encoding"}} {
		r := httptest.NewRequest(http.MethodGet, "/checkout/api/products", nil)
		if coding != "" {
			r.Header.Set("Accept-Encoding", coding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if got := rec.Header().Values("Vary"); !slices.Equal(got, want) {
			t.Errorf("%q: Vary %q, want %q", coding, got, want)
		}
	}
}
