package catalog_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

const base = head + plan + "gateways: sandbox\n"

func TestLegalParse(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		problem string // "" = valid
	}{
		{"url and file", "legal: {terms: legal/terms.md, privacy: \"https://example.com/privacy\"}\n", ""},
		{"per locale", "legal:\n  terms: {en: legal/terms.md, de: legal/terms.de.md, pt-PT: t.pt.md}\n", ""},
		{"any other name", "legal: {shipping-info: docs/ship.markdown}\n", ""},
		{"seller and consent", "seller: {name: \"Example Streams Ltd\", address: \"1 Main St, Dublin\", country: ie, taxId: IE1234567X, email: billing@example.com, supportUrl: \"https://help.example.com\"}\nconsent: {checkbox: true}\n", ""},
		{"parent", "legal: {terms: ../../etc/passwd.md}\n", `legal.terms: file "../../etc/passwd.md" must not contain empty, . or .. segments`},
		{"inner parent", "legal: {terms: legal/../../x.md}\n", "must not contain empty, . or .. segments"},
		{"passwd", "legal: {terms: ../../etc/passwd}\n", "must not contain empty, . or .. segments"},
		{"absolute", "legal: {terms: /etc/passwd.md}\n", "must be relative to the catalog file, not absolute"},
		{"windows drive", "legal: {terms: \"C:\\\\x.md\"}\n", "must not contain control characters"},
		{"backslash", "legal: {terms: \"legal\\\\..\\\\x.md\"}\n", "must not contain control characters"},
		{"control", "legal: {terms: \"legal/t\\u0000.md\"}\n", "must not contain control characters"},
		{"not markdown", "legal: {terms: legal/terms.html}\n", "must be a Markdown file"},
		{"empty", "legal: {terms: \"\"}\n", "is empty"},
		{"bad name", "legal: {Terms..x: t.md}\n", "page name \"Terms..x\" must be lower-case"},
		{"bad locale", "legal:\n  terms: {fr: t.md}\n", `locale "fr" is not one of`},
		{"url per locale", "legal:\n  terms: {en: \"https://example.com/t\"}\n", "give the page one URL"},
		{"javascript url", "legal: {terms: \"javascript:alert(1)\"}\n", "must not contain control characters"},
		{"bad country", "seller: {country: Ireland}\n", "ISO 3166 alpha-2"},
		{"bad support url", "seller: {supportUrl: \"javascript:alert(1)\"}\n", "must start with https://"},
		{"unknown seller field", "seller: {vat: x}\n", `unknown field "vat"`},
		{"consent not bool", "consent: {checkbox: maybe}\n", "is not true or false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := catalog.Parse("catalog.yaml", []byte(base+tc.src))
			if tc.problem == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if c.Seller.Country != "" && c.Seller.Country != "IE" {
					t.Errorf("country %q, want upper case", c.Seller.Country)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Fatalf("Parse = %v, want a problem with %q", err, tc.problem)
			}
			if !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%v is not ErrInvalid", err)
			}
		})
	}
}

// write makes dir/rel with content.
func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLegalLoad(t *testing.T) {
	tests := []struct {
		name    string
		legal   string
		files   map[string]string
		problem string
	}{
		{"present", "legal:\n  terms: {en: legal/terms.md, de: legal/terms.de.md}\n  refunds: legal/refunds.md\n",
			map[string]string{"legal/terms.md": "# Terms", "legal/terms.de.md": "# AGB", "legal/refunds.md": "\ufeff# Refunds"}, ""},
		{"missing", "legal: {terms: legal/terms.md}\n", nil, `catalog.yaml:12: legal.terms: file "legal/terms.md" is missing`},
		{"missing locale", "legal:\n  terms: {en: legal/terms.md, de: legal/terms.de.md}\n",
			map[string]string{"legal/terms.md": "# Terms"}, `legal.terms.de: file "legal/terms.de.md" is missing`},
		{"too large", "legal: {terms: big.md}\n", map[string]string{"big.md": strings.Repeat("a", catalog.MaxLegalFile+1)}, "is larger than 256 KiB"},
		{"binary", "legal: {terms: bin.md}\n", map[string]string{"bin.md": "ok\x00\x01"}, "contains a control character"},
		{"not utf-8", "legal: {terms: l1.md}\n", map[string]string{"l1.md": "caf\xe9"}, "is not UTF-8 text"},
		{"a folder", "legal: {terms: dir.md}\n", map[string]string{"dir.md/x": "x"}, "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, content := range tc.files {
				write(t, dir, rel, content)
			}
			write(t, dir, "catalog.yaml", base+tc.legal)
			c, err := catalog.Load(filepath.Join(dir, "catalog.yaml"))
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) || !errors.Is(err, catalog.ErrInvalid) {
					t.Fatalf("Load = %v, want a problem with %q", err, tc.problem)
				}
				if strings.Contains(err.Error(), dir+string(filepath.Separator)+"legal") {
					t.Errorf("problem names the absolute path: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			terms, _ := c.LegalPage("terms")
			for _, want := range []struct{ locale, md, key string }{
				{"en", "# Terms", "en"}, {"en-gb", "# Terms", "en"}, {"de-de", "# AGB", "de"}, {"pt-pt", "# Terms", "en"},
			} {
				md, key, ok := terms.Doc(want.locale)
				if !ok || string(md) != want.md || key != want.key {
					t.Errorf("Doc(%s) = %q %q %v, want %q %q", want.locale, md, key, ok, want.md, want.key)
				}
			}
			if md, _, _ := mustPage(t, c, "refunds").Doc("de-de"); string(md) != "# Refunds" {
				t.Errorf("refunds = %q, want its BOM dropped", md)
			}
			files := c.LegalFiles()
			if len(files) != 3 || string(files["legal/terms.de.md"]) != "# AGB" {
				t.Errorf("LegalFiles = %v", files)
			}
		})
	}
}

func mustPage(t *testing.T, c *catalog.Catalog, name string) catalog.LegalPage {
	t.Helper()
	p, ok := c.LegalPage(name)
	if !ok {
		t.Fatalf("no legal page %q", name)
	}
	return p
}

// TestLegalSymlinkOut: a legal file that is a link out of the catalog's folder is never read,
// whatever its name says.
func TestLegalSymlinkOut(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.md", "secret")
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "terms.md")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "catalog.yaml", base+"legal: {terms: terms.md}\n")
	_, err := catalog.Load(filepath.Join(dir, "catalog.yaml"))
	if err == nil || !strings.Contains(err.Error(), `legal.terms: file "terms.md"`) {
		t.Fatalf("Load = %v, want the link refused", err)
	}
}

// TestDemoLegal: the demo's pages are all files, all read, and WriteDemoLegal puts them where a
// copy of demo.yaml finds them.
func TestDemoLegal(t *testing.T) {
	c := catalog.Demo()
	for _, name := range []string{"terms", "privacy", "refunds", "dmca"} {
		if md, _, ok := mustPage(t, c, name).Doc("en"); !ok || len(md) < 200 {
			t.Errorf("demo %s: %d bytes", name, len(md))
		}
	}
	if md, key, _ := mustPage(t, c, "terms").Doc("de-de"); key != "de" || !strings.Contains(string(md), "Nutzungsbedingungen") {
		t.Errorf("demo terms in German: %q", key)
	}
	dir := t.TempDir()
	write(t, dir, "catalog.yaml", string(catalog.DemoYAML()))
	if _, err := catalog.Load(filepath.Join(dir, "catalog.yaml")); err == nil {
		t.Fatal("demo.yaml loaded without its legal files")
	}
	if err := catalog.WriteDemoLegal(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Load(filepath.Join(dir, "catalog.yaml")); err != nil {
		t.Fatal(err)
	}
}

// TestLegalLoadListsEverything: a file with other problems still has its legal files checked, so
// one run of `catalog check` lists them all.
func TestLegalLoadListsEverything(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "catalog.yaml", base+"legal: {terms: ../x.md, faq: faq.md}\nseller: {country: Ireland}\n")
	_, err := catalog.Load(filepath.Join(dir, "catalog.yaml"))
	var ve *catalog.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 3 {
		t.Fatalf("Load = %v, want 3 problems (traversal, missing file, country)", err)
	}
	if !strings.Contains(err.Error(), `legal.faq: file "faq.md" is missing`) {
		t.Errorf("missing file not listed: %v", err)
	}
}
