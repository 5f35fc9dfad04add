package app_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
)

// TestStorefrontConsent: GET /storefront answers the catalog's consent: a ticked box asked for
// before paying, or (without the block, as the demo) none.
func TestStorefrontConsent(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		status, _, body := s.raw(http.MethodGet, "/checkout/api/storefront", "", nil)
		if status != http.StatusOK || !bytes.Contains(body, []byte(`"consent":{"checkbox":false}`)) {
			t.Fatalf("GET /storefront = %d %s, want consent.checkbox false", status, body)
		}
		demo, err := os.ReadFile(filepath.Join("..", "catalog", "demo.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		asked := strings.Replace(string(demo), "\nconsent: {checkbox: false}\n", "\nconsent: {checkbox: true}\n", 1)
		if asked == string(demo) {
			t.Fatal("the demo catalog no longer says consent: {checkbox: false}")
		}
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		if err := os.WriteFile(file, []byte(asked), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		asks := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		status, _, body = asks.raw(http.MethodGet, "/checkout/api/storefront", "", nil)
		if status != http.StatusOK || !bytes.Contains(body, []byte(`"consent":{"checkbox":true}`)) {
			t.Fatalf("GET /storefront = %d %s, want consent.checkbox true", status, body)
		}
	})
}
