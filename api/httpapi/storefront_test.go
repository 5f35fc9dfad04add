package httpapi_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/storefront"
)

// A storefront's key decides which plans the catalog reads show, their default currency, and the
// settings the widget applies (name, logo, theme, default locale).
func TestStorefrontCatalog(t *testing.T) {
	demo := *catalog.Demo()
	demo.Storefronts = append(slices.Clone(demo.Storefronts), catalog.Storefront{
		Key: "pk_test_partner", Name: "Partner TV", AllowedOrigins: []string{"https://partner.example"},
		Logo: "https://partner.example/logo.svg", Theme: map[string]string{"primary": "#123456"},
		DefaultLocale: "de-de", DefaultCurrency: "GBP", Plans: []int{2, 3},
	})
	cat := func() *catalog.Catalog { return &demo }
	h := storefront.Middleware(cat, httpapi.New(httpapi.Deps{Catalog: cat, Logger: slog.New(slog.DiscardHandler)}))
	get := func(t *testing.T, key, path string, want int, into any) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if key != "" {
			req.Header.Set(storefront.Header, key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Fatalf("GET %s (%q): status %d, want %d: %s", path, key, rec.Code, want, rec.Body)
		}
		if into != nil {
			if err := json.Unmarshal(rec.Body.Bytes(), into); err != nil {
				t.Fatal(err)
			}
		}
	}
	type products struct {
		Products []struct {
			Pid      int
			Currency string
		}
	}
	tests := []struct {
		name, key, path string
		pids            []int
		currency        string
	}{
		{"default storefront sells every plan", "", "/checkout/api/products", []int{1, 2, 3}, "EUR"},
		{"partner sells its plans in its currency", "pk_test_partner", "/checkout/api/products", []int{2, 3}, "GBP"},
		{"asked currency wins", "pk_test_partner", "/checkout/api/products?currency=usd", []int{2, 3}, "USD"},
		{"through Goa (non-JSON Accept path aside, locale)", "pk_test_partner", "/checkout/api/products?locale=de-de", []int{2, 3}, "GBP"},
		{"default again after the partner's cached list", "", "/checkout/api/products", []int{1, 2, 3}, "EUR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got products
			get(t, tt.key, tt.path, http.StatusOK, &got)
			var pids []int
			for _, p := range got.Products {
				pids = append(pids, p.Pid)
				if p.Currency != tt.currency {
					t.Errorf("pid %d in %s, want %s", p.Pid, p.Currency, tt.currency)
				}
			}
			if !slices.Equal(pids, tt.pids) {
				t.Errorf("pids %v, want %v", pids, tt.pids)
			}
		})
	}

	t.Run("a plan the storefront does not sell is not found", func(t *testing.T) {
		get(t, "pk_test_partner", "/checkout/api/products/1", http.StatusNotFound, nil)
		var p struct {
			Pid      int
			Currency string
		}
		get(t, "pk_test_partner", "/checkout/api/products/2", http.StatusOK, &p)
		if p.Currency != "GBP" {
			t.Errorf("product 2 in %s, want GBP", p.Currency)
		}
		get(t, "", "/checkout/api/products/1", http.StatusOK, nil)
	})

	type settings struct {
		Name, Key, Logo, DefaultLocale, DefaultCurrency string
		Theme                                           map[string]string
		Plans                                           []int
	}
	t.Run("settings", func(t *testing.T) {
		var sf settings
		get(t, "pk_test_partner", "/checkout/api/storefront", http.StatusOK, &sf)
		if sf.Name != "Partner TV" || sf.Key != "pk_test_partner" || sf.Logo != "https://partner.example/logo.svg" ||
			sf.DefaultLocale != "de-de" || sf.DefaultCurrency != "GBP" || sf.Theme["primary"] != "#123456" || !slices.Equal(sf.Plans, []int{2, 3}) {
			t.Errorf("partner storefront = %+v", sf)
		}
		var def settings
		get(t, "", "/checkout/api/storefront", http.StatusOK, &def)
		if def.Name != "" || def.Key != "pk_test_default" || def.DefaultCurrency != "EUR" || def.Theme == nil || def.Plans == nil || len(def.Plans) != 0 {
			t.Errorf("default storefront = %+v", def)
		}
	})

	t.Run("unknown key", func(t *testing.T) {
		get(t, "pk_test_nobody", "/checkout/api/storefront", http.StatusUnauthorized, nil)
	})
}
