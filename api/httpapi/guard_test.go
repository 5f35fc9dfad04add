package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/httpapi"
)

// TestRefuseControl: a control character in the path, the query (raw or percent-escaped, in
// either case) or any header value is 400 bad_request before the handler runs; text that only
// looks like an escape, other escapes and characters beyond ASCII pass, without an allocation.
func TestRefuseControl(t *testing.T) {
	reached := false
	h := httpapi.RefuseControl(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	for _, tc := range []struct {
		target string
		header http.Header
		refuse bool
	}{
		{"/checkout/api/products", nil, false},
		{"/checkout/api/products?store=pk_live&currency=EUR", nil, false},
		{"/checkout/api/products?x=%2500", nil, false}, // the text "%00"
		{"/checkout/api/products?x=%20+%e2%80%ae", nil, false},
		{"/checkout/api/products?x=%zz&y=%0", nil, false},
		{"/checkout/api/products?x=%", nil, false},
		{"/checkout/api/products?x=%00", nil, true},
		{"/checkout/api/products?store=pk%0d%0aX", nil, true},
		{"/checkout/api/products?x=%7f", nil, true},
		{"/checkout/api/products?x=%7F", nil, true},
		{"/checkout/api/products?x=%1B", nil, true},
		{"/checkout/api/products?%09=x", nil, true},
		{"/checkout/%00", nil, true},
		{"/widget/a%0ab.js", nil, true},
		{"/checkout/", http.Header{"Streamcart-Store": {"pk\tx"}}, true},
		{"/checkout/", http.Header{"X-Any": {"fine", "a\tb"}}, true},
		{"/checkout/", http.Header{"User-Agent": {"Mozilla/5.0 (X11; Linux x86_64)"}, "Accept-Language": {"fr-CH, fr;q=0.9"}}, false},
	} {
		reached = false
		r := httptest.NewRequest(http.MethodGet, tc.target, nil)
		for k, v := range tc.header {
			r.Header[k] = v
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		refused := w.Code == http.StatusBadRequest && strings.Contains(w.Body.String(), `"name":"bad_request"`) &&
			strings.Contains(w.Body.String(), "The request contains a control character.")
		if refused != tc.refuse || reached == tc.refuse {
			t.Errorf("%s %v: status %d, reached %v: %s", tc.target, tc.header, w.Code, reached, w.Body)
		}
	}

	// The product list's speed is measured: a clean request costs the guard no allocation.
	r := httptest.NewRequest(http.MethodGet, "/checkout/api/products?store=pk_live&currency=EUR", nil)
	r.Header.Set("User-Agent", "wrk")
	r.Header.Set("Accept-Encoding", "gzip, br")
	noop := httpapi.RefuseControl(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	if n := testing.AllocsPerRun(100, func() { noop.ServeHTTP(nil, r) }); n != 0 {
		t.Fatalf("%v allocations per clean request", n)
	}
}
