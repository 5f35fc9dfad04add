package app_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestProductListHeaders: the product lists (answered from bytes encoded once) say their length,
// so they go out in one piece, and vary on both Origin (CORS) and Accept-Encoding, each once.
func TestProductListHeaders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		for _, tt := range []struct {
			name, acceptEncoding string
		}{{"plain", "identity"}, {"gzip", "gzip"}} {
			t.Run(tt.name, func(t *testing.T) {
				req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.base+"/checkout/api/products?currency=USD", nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", tt.acceptEncoding) // set by hand: the transport does not decompress
				resp, err := s.noJump.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				n, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
				if resp.StatusCode != http.StatusOK || err != nil || n != resp.ContentLength || len(resp.TransferEncoding) != 0 {
					t.Fatalf("status %d, Content-Length %q, transfer encoding %v: want 200 with a length",
						resp.StatusCode, resp.Header.Get("Content-Length"), resp.TransferEncoding)
				}
				if gz := resp.Header.Get("Content-Encoding") == "gzip"; gz != (tt.acceptEncoding == "gzip") {
					t.Fatalf("Content-Encoding %q for Accept-Encoding %q", resp.Header.Get("Content-Encoding"), tt.acceptEncoding)
				}
				var vary []string
				for _, v := range resp.Header.Values("Vary") {
					for f := range strings.SplitSeq(v, ",") {
						vary = append(vary, strings.TrimSpace(f))
					}
				}
				slices.Sort(vary)
				if !slices.Equal(vary, []string{"Accept-Encoding", "Origin"}) {
					t.Fatalf("Vary = %q, want Accept-Encoding and Origin once each", resp.Header.Values("Vary"))
				}
			})
		}
	})
}
