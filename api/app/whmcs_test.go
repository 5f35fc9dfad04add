package app_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

// whmcsShop opens a shop in WHMCS mode in front of a fake WHMCS with the demo data, its
// configuration changed by opts.
func whmcsShop(t *testing.T, opts ...func(*app.Config)) (*shop, *whmcsfake.Fake) {
	t.Helper()
	f := whmcsfake.New(whmcsfake.Demo())
	srv := httptest.NewServer(f.Handler())
	t.Cleanup(srv.Close)
	return newShop(t, append([]func(*app.Config){func(c *app.Config) { c.Backend, c.WHMCS = app.BackendWHMCS, whmcsSettings(srv.URL) }}, opts...)...), f
}

func whmcsSettings(url string) whmcs.Settings {
	return whmcs.Settings{URL: url + whmcsfake.Path, Identifier: "demo-identifier", Secret: "demo-secret",
		PlansGroup: 1, ResellerGroup: 2, Gateways: map[string]string{"sandbox": "banktransfer"},
		ExtraOption: whmcs.DefaultExtraOption, ProxyOption: whmcs.DefaultProxyOption, MACField: whmcs.DefaultMACField,
		RestartFunction: whmcs.DefaultRestartFunction}
}

// TestWHMCSCatalog: in WHMCS mode the storefront's plans are WHMCS's (names and prices, read
// again on the poll, the last good read kept while WHMCS is down) dressed by the catalog file;
// the reseller group's products are the reseller plans (TestWHMCSResellerOrder buys one).
func TestWHMCSCatalog(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		products := func() string {
			t.Helper()
			status, _, body := s.raw(http.MethodGet, "/checkout/api/products?currency=EUR", "", nil)
			if status != http.StatusOK {
				t.Fatalf("GET /products: %d %s", status, body)
			}
			return string(body)
		}
		body := products()
		for _, want := range []string{`"name":"Standard"`, `"name":"Premium"`, "Every sports pack included", `"amount":1299`} {
			if !strings.Contains(body, want) {
				t.Fatalf("products lack %s: %s", want, body)
			}
		}
		f.EditProduct(2, func(p *whmcsfake.Product) {
			p.Name = "Standard HD"
			p.Pricing["EUR"]["monthly"] = "13.49"
		})
		if changed, err := s.app.RefreshWHMCS(t.Context()); err != nil || !changed {
			t.Fatalf("refresh: changed %v, %v", changed, err)
		}
		if body = products(); !strings.Contains(body, `"name":"Standard HD"`) || !strings.Contains(body, `"amount":1349`) {
			t.Fatalf("the WHMCS change is not served: %s", body)
		}
		// WHMCS down: the last catalog read stays.
		f.SetStatus(http.StatusBadGateway)
		if _, err := s.app.RefreshWHMCS(t.Context()); err == nil || !strings.Contains(err.Error(), "HTTP 502") {
			t.Fatalf("refresh with WHMCS down: %v", err)
		}
		if body = products(); !strings.Contains(body, `"name":"Standard HD"`) {
			t.Fatalf("the catalog was lost while WHMCS was down: %s", body)
		}
		f.SetStatus(0)

		// The reseller group's products are the reseller plans, dressed with the catalog file's credits.
		status, _, body2 := s.raw(http.MethodGet, "/checkout/api/resellers/products?currency=EUR", "", nil)
		if status != http.StatusOK || !strings.Contains(string(body2), `"name":"Reseller Starter"`) || !strings.Contains(string(body2), `"amount":14900`) {
			t.Fatalf("GET /products (resellers): %d %s", status, body2)
		}
	})
}

// TestWHMCSStartRefused: a start in WHMCS mode stops on a wrong setting, naming it, and on a
// refusal by WHMCS, saying what WHMCS answered and what to change.
func TestWHMCSStartRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := whmcsfake.New(whmcsfake.Demo())
		srv := httptest.NewServer(f.Handler())
		defer srv.Close()
		cases := []struct {
			name   string
			change func(*app.Config)
			want   string
		}{
			{"no url", func(c *app.Config) { c.WHMCS.URL = "" }, "STREAMCART_WHMCS_URL is required"},
			{"no gateway module", func(c *app.Config) { c.WHMCS.Gateways = nil }, "STREAMCART_WHMCS_GATEWAYS has no WHMCS payment module for gateway sandbox"},
			{"invalid ip", func(*app.Config) { f.SetInvalidIP("1.2.3.4") }, `WHMCS answered "Invalid IP 1.2.3.4": add this shop's address (1.2.3.4) to WHMCS's API IP allow-list`},
			{"unknown backend", func(c *app.Config) { c.Backend = "odoo" }, `STREAMCART_BACKEND="odoo": want builtin or whmcs`},
		}
		for _, c := range cases {
			cfg := testConfig(t)
			cfg.Backend, cfg.WHMCS = app.BackendWHMCS, whmcsSettings(srv.URL)
			c.change(&cfg)
			a, err := app.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
			f.SetInvalidIP("")
			if err == nil {
				a.Close()
				t.Fatalf("%s: started", c.name)
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "demo-secret") {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
		}
	})
}
