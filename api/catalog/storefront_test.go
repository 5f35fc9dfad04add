package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

func TestStorefronts(t *testing.T) {
	base := head + plan + "gateways: sandbox\nstorefronts:\n"
	tests := []struct {
		name    string
		src     string
		wantErr string // substring of the validation error; "" for valid
	}{
		{"default and keyed", `  - {key: pk_test_default, name: Shop, default: true}
  - key: pk_live_partner
    name: Partner
    allowedOrigins: ["https://partner.example", "http://127.0.0.1:8081"]
    logo: https://partner.example/logo.svg
    theme: {primary: "#0f766e", surface-2: "rgb(1 2 3)"}
    defaultLocale: de-de
    defaultCurrency: GBP
    plans: [1]
    affiliateId: "42"
`, ""},
		{"bad key", "  - {key: sk_secret, name: X}\n", `key "sk_secret" must be pk_`},
		{"repeated key", "  - {key: pk_a, name: A}\n  - {key: pk_a, name: B}\n", `storefront key "pk_a" repeated`},
		{"two defaults", "  - {key: pk_a, name: A, default: true}\n  - {key: pk_b, name: B, default: true}\n", "only one storefront may be the default"},
		{"origin with a path", "  - {key: pk_a, name: A, allowedOrigins: [\"https://a.example/shop\"]}\n", "must be scheme://host[:port]"},
		{"unknown plan", "  - {key: pk_a, name: A, plans: [99]}\n", "pid 99 is not a product"},
		{"unknown currency", "  - {key: pk_a, name: A, defaultCurrency: USD}\n", `currency "USD" is not in currencies`},
		{"unknown locale", "  - {key: pk_a, name: A, defaultLocale: fr-fr}\n", `locale "fr-fr" is not one of`},
		{"css injection in theme", "  - {key: pk_a, name: A, theme: {primary: \"red;}body{\"}}\n", "must be a CSS colour"},
		{"missing name", "  - {key: pk_a}\n", `missing required field "name"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := catalog.Parse("catalog.yaml", []byte(base+tt.src))
			if tt.wantErr != "" {
				if !errors.Is(err, catalog.ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			def, ok := c.DefaultStorefront()
			if !ok || def.Key != "pk_test_default" {
				t.Errorf("default = %+v, %v", def, ok)
			}
			p, ok := c.Storefront("pk_live_partner")
			if !ok || !p.AllowsOrigin("http://127.0.0.1:8081") || p.AllowsOrigin("http://127.0.0.1:8082") || p.AffiliateID != "42" || p.Theme["surface-2"] != "rgb(1 2 3)" {
				t.Errorf("partner = %+v", p)
			}
			if !c.AnyStorefrontAllows("https://partner.example") || c.AnyStorefrontAllows("https://evil.example") {
				t.Error("AnyStorefrontAllows disagrees with the origins")
			}
		})
	}
}

// Sells is the storefront rule: a plan list limits what it sells, no list sells every plan.
func TestStorefrontSells(t *testing.T) {
	tests := []struct {
		name  string
		plans []int
		pid   int
		want  bool
		every bool
	}{
		{"no list sells every plan", nil, 1, true, true},
		{"empty list sells every plan", []int{}, 7, true, true},
		{"a listed plan", []int{2, 3}, 3, true, false},
		{"an unlisted plan", []int{2, 3}, 1, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := catalog.Storefront{Key: "pk_x", Plans: tt.plans}
			if got := s.Sells(tt.pid); got != tt.want {
				t.Errorf("Sells(%d) = %v, want %v", tt.pid, got, tt.want)
			}
			if got := s.SellsEveryPlan(); got != tt.every {
				t.Errorf("SellsEveryPlan() = %v, want %v", got, tt.every)
			}
		})
	}
}
