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
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
)

func ptr(s string) *string { return &s }

func TestCatalogLocale(t *testing.T) {
	svc := httpapi.NewCatalog(func() *catalog.Catalog { return catalog.Demo() }, httpapi.Storefront{})
	ctx := t.Context()
	tests := []struct {
		locale          *string
		trial, premium  string
		sold, option    string
		reseller, field string
		card            string
	}{
		{nil, "Free Trial", "Premium", "Best seller", "Extra connections", "Reseller Starter", "MAC address", "Setup guide"},
		{ptr("en-us"), "Free Trial", "Premium", "Best seller", "Extra connections", "Reseller Starter", "MAC address", "Setup guide"},
		{ptr("de-de"), "Kostenlose Testversion", "Premium", "Bestseller", "Zusätzliche Verbindungen", "Reseller-Einstieg", "MAC-Adresse", "Einrichtungsanleitung"},
		{ptr("es-es"), "Prueba gratuita", "Premium", "El más vendido", "Conexiones adicionales", "Revendedor Inicial", "Dirección MAC", "Guía de configuración"},
		{ptr("nl-nl"), "Gratis proefperiode", "Premium", "Bestseller", "Extra verbindingen", "Reseller Start", "MAC-adres", "Installatiehandleiding"},
		{ptr("pt-pt"), "Teste gratuito", "Premium", "O mais vendido", "Ligações adicionais", "Revendedor Inicial", "Endereço MAC", "Guia de configuração"},
	}
	for _, tt := range tests {
		name := "none"
		if tt.locale != nil {
			name = *tt.locale
		}
		t.Run(name, func(t *testing.T) {
			// Twice: the second answer comes from the per-locale cache.
			for range 2 {
				list, err := svc.ListProducts(ctx, &gencatalog.ListProductsPayload{Locale: tt.locale})
				if err != nil {
					t.Fatal(err)
				}
				if got := list.Products[0].Name; got != tt.trial {
					t.Errorf("trial name = %q, want %q", got, tt.trial)
				}
				if got := list.Products[2].SoldBadge; got != tt.sold {
					t.Errorf("sold badge = %q, want %q", got, tt.sold)
				}
			}
			p, err := svc.GetProduct(ctx, &gencatalog.GetProductPayload{Pid: 3, Currency: ptr("GBP"), Locale: tt.locale})
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tt.premium || p.ConfigOptions[0].Name != tt.option || p.CustomFields[0].Name != tt.field || p.Currency != "GBP" {
				t.Errorf("product 3 = %q, option %q, field %q", p.Name, p.ConfigOptions[0].Name, p.CustomFields[0].Name)
			}
			rs, err := svc.ListResellerProducts(ctx, &gencatalog.ListResellerProductsPayload{Locale: tt.locale})
			if err != nil {
				t.Fatal(err)
			}
			if rs.Products[0].Name != tt.reseller {
				t.Errorf("reseller name = %q, want %q", rs.Products[0].Name, tt.reseller)
			}
			sf, err := svc.Storefront(ctx, &gencatalog.StorefrontPayload{Locale: tt.locale})
			if err != nil {
				t.Fatal(err)
			}
			if sf.Cards[0].Title != tt.card || sf.Apps[0].Name != "IPTV Smarters Pro" {
				t.Errorf("card = %q, app = %q", sf.Cards[0].Title, sf.Apps[0].Name)
			}
		})
	}
}

// GET /devices: the demo catalog's apps with how each takes a line, and its set-top box families.
func TestCatalogDevices(t *testing.T) {
	svc := httpapi.NewCatalog(func() *catalog.Catalog { return catalog.Demo() }, httpapi.Storefront{})
	res, err := svc.Devices(t.Context(), &gencatalog.DevicesPayload{})
	if err != nil {
		t.Fatal(err)
	}
	var setups []string
	for _, a := range res.Apps {
		setups = append(setups, a.Name+":"+a.Setup)
	}
	want := []string{"IPTV Smarters Pro:xtream", "IPTV Smarters Player:xtream", "TiviMate:xtream", "VLC media player:m3u", "Kodi:m3u"}
	if !slices.Equal(setups, want) {
		t.Errorf("apps = %v, want %v", setups, want)
	}
	if len(res.Devices) != 2 || res.Devices[0].Family != "mag" || res.Devices[0].Portal != "http://{server}/c/" ||
		res.Devices[1].Family != "enigma2" || res.Devices[1].Portal != "" {
		t.Fatalf("devices = %+v %+v", res.Devices[0], res.Devices[1])
	}
	cmd := catalog.ExpandCommand(res.Devices[1].Command, "line.example:8000", "u1", "p1")
	if want := `wget -O /etc/enigma2/iptv.sh 'http://line.example:8000/get.php?username=u1&password=p1&type=enigma22_script&output=mpegts' && chmod 755 /etc/enigma2/iptv.sh && /etc/enigma2/iptv.sh`; cmd != want {
		t.Errorf("enigma2 command = %s, want %s", cmd, want)
	}
}

// Over HTTP: the locale reaches every catalog read, and one outside the enum is refused.
func TestCatalogLocaleHTTP(t *testing.T) {
	h := httpapi.New(httpapi.Deps{Catalog: func() *catalog.Catalog { return catalog.Demo() }, Logger: slog.New(slog.DiscardHandler)})
	tests := []struct {
		path string
		code int
		want string // a text the German answer holds
	}{
		{"/checkout/api/products?locale=de-de", http.StatusOK, "35 % sparen"},
		{"/checkout/api/products/2?locale=de-de", http.StatusOK, "30 Tage Geld-zurück-Garantie"},
		{"/checkout/api/resellers/products?locale=de-de", http.StatusOK, "Reseller-Profi"},
		{"/checkout/api/storefront?locale=de-de", http.StatusOK, "Geschwindigkeitstest"},
		{"/checkout/api/devices?locale=de-de", http.StatusOK, "Fire TV, Android, Computer"},
		{"/checkout/api/products?locale=fr-fr", http.StatusBadRequest, ""},
		{"/checkout/api/products/2?locale=de", http.StatusBadRequest, ""},
		{"/checkout/api/resellers/products?locale=DE-DE", http.StatusBadRequest, ""},
		{"/checkout/api/storefront?locale=xx", http.StatusBadRequest, ""},
		{"/checkout/api/devices?locale=xx", http.StatusBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.code, rec.Body)
			}
			if tt.want == "" {
				return
			}
			var texts []string
			var walk func(any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					texts = append(texts, v)
				case []any:
					for _, x := range v {
						walk(x)
					}
				case map[string]any:
					for _, x := range v {
						walk(x)
					}
				}
			}
			var body any
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			walk(body)
			if !slices.Contains(texts, tt.want) {
				t.Errorf("answer lacks %q: %s", tt.want, rec.Body)
			}
		})
	}
}
