package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/streamcart/streamcart/api/httpapi"
)

// TestExactFirst: only the pattern's own method and exact, unescaped path skip the mux, with the
// pattern noted on the request as the mux notes it; every other spelling reaches the mux.
func TestExactFirst(t *testing.T) {
	const pattern = "GET /checkout/api/products"
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-By", "mux")
		w.Write([]byte(r.Pattern))
	})
	h := httpapi.ExactFirst(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-By", "exact")
		w.Write([]byte(r.Pattern))
	}), mux)
	for _, tt := range []struct{ method, target, by, pattern string }{
		{"GET", "/checkout/api/products", "exact", pattern},
		{"GET", "/checkout/api/products?currency=USD", "exact", pattern},
		{"HEAD", "/checkout/api/products", "mux", "/"},
		{"POST", "/checkout/api/products", "mux", "/"},
		{"GET", "/checkout/api/products/", "mux", "/"},
		{"GET", "/checkout/api/product%73", "mux", "/"},
		{"GET", "/checkout/api/../api/products", "mux", ""}, // the mux redirects to the clean path
	} {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(tt.method, tt.target, nil))
			if got := w.Header().Get("X-By"); got != tt.by && !(tt.pattern == "" && w.Code/100 == 3) {
				t.Fatalf("served by %q (status %d), want %q", got, w.Code, tt.by)
			}
			if tt.pattern != "" && tt.method != "HEAD" && w.Body.String() != tt.pattern {
				t.Errorf("pattern on the request = %q, want %q", w.Body.String(), tt.pattern)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("a pattern with a wildcard was taken")
		}
	}()
	httpapi.ExactFirst("GET /checkout/api/orders/{id}", mux, mux)
}
