package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/payment"
)

// TestCatalogCommandsRefuseTheSandboxBesideLive: `catalog check` and `catalog import` refuse a
// catalog enabling the sandbox next to a live gateway (nothing is imported), unless the
// gateway has test credentials or STREAMCART_TEST_MODE is set.
func TestCatalogCommandsRefuseTheSandboxBesideLive(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.yaml")
	demo := strings.Replace(string(catalog.DemoYAML()), "\ngateways: sandbox\n", "\ngateways: stripe-sandbox\n", 1)
	if err := os.WriteFile(file, []byte(demo), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		stripe  string
		test    bool
		refused bool
	}{
		{"live key", "sk_live_abc", false, true},
		{"no key", "", false, true},
		{"test key", "sk_test_abc", false, false},
		{"test mode", "sk_live_abc", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, sub := range []string{"check", "import"} {
				cfg := app.Config{CatalogFile: file, DB: filepath.Join(t.TempDir(), "s.db"),
					Payment: payment.Config{StripeSecretKey: tc.stripe, TestMode: tc.test}}
				var err error
				captureStdout(t, func() error { err = catalogCommand(t.Context(), sub, cfg); return nil })
				if refused := errors.Is(err, payment.ErrSandboxBesideLive); refused != tc.refused || (!refused && err != nil) {
					t.Fatalf("catalog %s: %v, want refused %v", sub, err, tc.refused)
				}
				if sub == "import" && tc.refused {
					if _, statErr := os.Stat(cfg.DB); statErr == nil {
						t.Fatalf("catalog import refused but opened %s", cfg.DB)
					}
				}
			}
		})
	}
}

// TestCatalogCommandsRefuseLegalFiles: `catalog check` and `catalog import` refuse a legal entry
// whose file is missing, absolute or outside the catalog's folder, naming the entry and its
// line; nothing is imported. With the files beside it the catalog is valid.
func TestCatalogCommandsRefuseLegalFiles(t *testing.T) {
	const entry = "  terms: {en: legal/terms.md, de: legal/terms.de.md}\n"
	demo := string(catalog.DemoYAML())
	if !strings.Contains(demo, entry) {
		t.Fatal("the demo catalog's terms entry moved")
	}
	cases := []struct {
		name, terms, problem string
	}{
		{"valid", entry, ""},
		{"missing", "  terms: legal/nope.md\n", `legal.terms: file "legal/nope.md" is missing`},
		{"missing locale", "  terms: {en: legal/terms.md, de: legal/agb.md}\n", `legal.terms.de: file "legal/agb.md" is missing`},
		{"traversal", "  terms: ../../etc/passwd\n", `legal.terms: file "../../etc/passwd" must not contain empty, . or .. segments`},
		{"absolute", "  terms: /etc/passwd\n", `legal.terms: file "/etc/passwd" must be relative to the catalog file`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "catalog.yaml")
			if err := os.WriteFile(file, []byte(strings.Replace(demo, entry, tc.terms, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := catalog.WriteDemoLegal(dir); err != nil {
				t.Fatal(err)
			}
			for _, sub := range []string{"check", "import"} {
				cfg := app.Config{CatalogFile: file, DB: filepath.Join(t.TempDir(), "s.db")}
				var err error
				captureStdout(t, func() error { err = catalogCommand(t.Context(), sub, cfg); return nil })
				if tc.problem == "" {
					if err != nil {
						t.Fatalf("catalog %s: %v", sub, err)
					}
					continue
				}
				if !errors.Is(err, catalog.ErrInvalid) || !strings.Contains(err.Error(), tc.problem) || !strings.Contains(err.Error(), file+":") {
					t.Fatalf("catalog %s: %v, want %q", sub, err, tc.problem)
				}
				if _, statErr := os.Stat(cfg.DB); sub == "import" && statErr == nil {
					t.Fatalf("catalog import refused but opened %s", cfg.DB)
				}
			}
		})
	}
}
