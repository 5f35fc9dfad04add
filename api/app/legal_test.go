package app_test

import (
	"encoding/json"
	"errors"
	"github.com/streamcart/streamcart/api/web"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	genadmincatalog "github.com/streamcart/streamcart/gen/admin_catalog"
)

// storefrontJSON is GET /storefront's seller, legal and consent.
type storefrontJSON struct {
	Seller  map[string]string `json:"seller"`
	Legal   map[string]string `json:"legal"`
	Consent *struct {
		Checkbox bool `json:"checkbox"`
	} `json:"consent"`
}

func (s *shop) storefrontLegal(t *testing.T, query string) storefrontJSON {
	t.Helper()
	status, _, body := s.raw(http.MethodGet, "/checkout/api/storefront"+query, "", nil)
	var sf storefrontJSON
	if err := json.Unmarshal(body, &sf); status != http.StatusOK || err != nil {
		t.Fatalf("GET /storefront%s: %d %s %v", query, status, body, err)
	}
	return sf
}

// page GETs a storefront path and returns its status and body.
func (s *shop) page(t *testing.T, path string) (int, string, http.Header) {
	t.Helper()
	status, h, body := s.raw(http.MethodGet, path, "", nil)
	return status, string(body), h
}

// TestLegalDemo: the demo shop answers its seller, legal pages and consent on GET /storefront,
// serves the pages in English and German, and any unknown path gets the branded 404 while the
// API keeps its JSON errors.
func TestLegalDemo(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		sf := s.storefrontLegal(t, "")
		if sf.Seller["name"] != "Streamcart Demo Shop" || sf.Consent == nil || sf.Consent.Checkbox {
			t.Errorf("seller %v consent %+v", sf.Seller, sf.Consent)
		}
		for _, name := range []string{"terms", "privacy", "refunds", "dmca"} {
			if want := s.base + "/checkout/legal/" + name; sf.Legal[name] != want {
				t.Errorf("legal.%s = %q, want %q", name, sf.Legal[name], want)
			}
		}
		if de := s.storefrontLegal(t, "?locale=de-de"); de.Legal["terms"] != s.base+"/checkout/de-de/legal/terms" {
			t.Errorf("German terms link %q", de.Legal["terms"])
		}
		tests := []struct {
			path   string
			status int
			want   string
		}{
			{"/checkout/legal/terms", 200, "<h1>Terms of Service</h1>"},
			{"/checkout/de-de/legal/terms", 200, "<h1>Nutzungsbedingungen</h1>"},
			{"/checkout/legal/refunds", 200, "<h1>Refund Policy</h1>"},
			{"/checkout/legal/unknown", 404, `data-testid="not-found"`},
			{"/nope", 404, `data-testid="not-found"`},
			{"/checkout/nope-x/y", 404, `data-testid="not-found"`},
			{"/checkout/api/nope", 404, ""}, // the API's own answer, not the page
		}
		if web.WidgetVersion() != "" {
			// Without a widget build (go test before make build) /widget/ answers 503 "not built".
			tests = append(tests, struct {
				path   string
				status int
				want   string
			}{"/widget/nope.js", 404, `data-testid="not-found"`})
		}
		for _, tc := range tests {
			status, body, h := s.page(t, tc.path)
			if status != tc.status || !strings.Contains(body, tc.want) {
				t.Errorf("%s: %d %.300q, want %d with %q", tc.path, status, body, tc.status, tc.want)
			}
			if strings.HasPrefix(tc.path, "/checkout/api/") == strings.HasPrefix(h.Get("Content-Type"), "text/html") {
				t.Errorf("%s: Content-Type %q", tc.path, h.Get("Content-Type"))
			}
		}
	})
}

// TestLegalImported: a catalog's legal files are read beside it when imported and stored with
// it, so the shop (and a second replica on the database) serves them after the folder is gone;
// the console then refuses a legal entry whose file the import did not store.
func TestLegalImported(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "catalog.yaml")
		demo := string(catalog.DemoYAML())
		i := strings.Index(demo, "seller:")
		j := strings.Index(demo, "consent:")
		custom := demo[:i] + `seller: {name: "Example Streams Ltd", address: "1 Main St, Dublin", country: IE, taxId: IE1234567X, email: billing@example.com, supportUrl: "https://help.example.com"}
legal:
  terms: {en: docs/terms.md, de: docs/terms.de.md}
  privacy: "https://example.com/privacy"
` + demo[j:]
		write := func(rel, s string) {
			p := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write("catalog.yaml", custom)
		write("docs/terms.md", "# Example terms\n")
		write("docs/terms.de.md", "# Beispiel-AGB\n")
		c := newConsole(t, func(cfg *app.Config) { cfg.CatalogFile = file })
		if err := os.RemoveAll(filepath.Join(dir, "docs")); err != nil {
			t.Fatal(err)
		}
		sf := c.storefrontLegal(t, "")
		if sf.Seller["taxId"] != "IE1234567X" || sf.Seller["country"] != "IE" || sf.Seller["supportUrl"] != "https://help.example.com" ||
			sf.Legal["privacy"] != "https://example.com/privacy" || sf.Legal["terms"] != c.base+"/checkout/legal/terms" || len(sf.Legal) != 2 {
			t.Errorf("storefront %+v", sf)
		}
		again := c.cfg
		again.CatalogFile = "" // a replica started on the database alone
		replica := openShop(t, again)
		for _, sh := range []*shop{c.shop, replica} {
			if status, body, _ := sh.page(t, "/checkout/de-de/legal/terms"); status != 200 || !strings.Contains(body, "<h1>Beispiel-AGB</h1>") {
				t.Errorf("German terms: %d %.200q", status, body)
			}
			// A URL page is the seller's: no page of ours.
			if status, _, _ := sh.page(t, "/checkout/legal/privacy"); status != 404 {
				t.Errorf("privacy: %d, want 404", status)
			}
		}

		cl := c.clientsOf()
		o := c.roles()["owner"]
		cur, err := cl.catalog.Get(t.Context(), &genadmincatalog.GetPayload{Session: &o.cookie})
		if err != nil {
			t.Fatal(err)
		}
		// A file the import did not store: refused, with its path and line.
		added := strings.Replace(cur.Source, "  privacy: ", "  refunds: docs/refunds.md\n  privacy: ", 1)
		_, err = cl.catalog.Put(t.Context(), &genadmincatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: added})
		var ic *genadmincatalog.InvalidCatalog
		if !errors.As(err, &ic) || len(ic.Problems) != 1 || ic.Problems[0].Path != "legal.refunds" || !strings.Contains(ic.Problems[0].Message, "catalog import") {
			t.Fatalf("console save with a new file: %v %+v", err, ic)
		}
		// The stored files still serve an edited catalog.
		edited := strings.Replace(cur.Source, `"Example Streams Ltd"`, `"Example Streams Limited"`, 1)
		if _, err := cl.catalog.Put(t.Context(), &genadmincatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: edited}); err != nil {
			t.Fatal(err)
		}
		if status, body, _ := c.page(t, "/checkout/legal/terms"); status != 200 || !strings.Contains(body, "Example Streams Limited") || !strings.Contains(body, "<h1>Example terms</h1>") {
			t.Errorf("terms after a console edit: %d %.200q", status, body)
		}
	})
}

// TestLegalCatalogCheck: starting on (importing) a catalog whose legal file is missing or
// outside its folder is refused, naming the entry.
func TestLegalCatalogCheck(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, entry := range []string{"terms: docs/missing.md", "terms: ../../etc/passwd", "terms: /etc/passwd.md"} {
			dir := t.TempDir()
			file := filepath.Join(dir, "catalog.yaml")
			demo := string(catalog.DemoYAML())
			src := strings.Replace(demo, "  terms: {en: legal/terms.md, de: legal/terms.de.md}\n", "  "+entry+"\n", 1)
			if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := catalog.WriteDemoLegal(dir); err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(t)
			cfg.CatalogFile = file
			a, err := app.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
			if err == nil {
				a.Close()
				t.Fatalf("%s: opened", entry)
			}
			if !strings.Contains(err.Error(), "legal.terms") {
				t.Errorf("%s: %v", entry, err)
			}
		}
	})
}
