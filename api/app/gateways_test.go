package app_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/payment"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
)

// catalogWithGateways writes the demo catalog with its gateway setting (hyphen list) replaced.
func catalogWithGateways(t *testing.T, gateways string) string {
	t.Helper()
	demo := string(catalog.DemoYAML())
	const old = "\ngateways: sandbox\n"
	if strings.Count(demo, old) != 1 {
		t.Fatalf("the demo catalog no longer says %q", old)
	}
	path := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(demo, old, "\ngateways: "+gateways+"\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	return path
}

// run serves the shop's background work as `streamcart serve` does (job worker, catalog watch)
// until the test ends; requests still go through the test server.
func (s *shop) run() {
	s.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.app.Run(ctx) }()
	s.t.Cleanup(func() { // registered after openShop's: runs before the app is closed
		cancel()
		if err := <-done; err != nil {
			s.t.Errorf("Run: %v", err)
		}
	})
}

// TestCatalogImportChangesTheGateways runs two shops on one database, with Coinbase configured
// but not enabled by the catalog. A catalog import through one that enables it reaches the
// other, running, shop within its poll: it lists Coinbase, takes orders through it and settles
// them by webhook — no restart. A catalog enabling a gateway the process has no settings for is
// refused, once, and the catalog in force stays.
func TestCatalogImportChangesTheGateways(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		fake := newFakeCoinbase(t)
		one := newShop(t, func(c *app.Config) {
			c.PublicURL = "https://shop.example"
			// The sandbox beside Coinbase (no test credentials) needs test mode.
			c.Payment = fake.config()
			c.Payment.TestMode = true
		})
		cfg := one.cfg
		cfg.Addr, cfg.CatalogPoll = freeAddr(t), 20*time.Millisecond
		two := openShop(t, cfg)
		two.run()

		buyer := two.identify("gateways@example.com", "")
		coinbase := standard()
		coinbase.Gateway = ptr("coinbase")
		coinbase.Token = ptr(buyer.Token)
		_, err := two.order.Create(t.Context(), &coinbase)
		wantErr(t, err, "bad_request", "")

		if _, err := app.ImportCatalog(t.Context(), one.app.Store(), catalogWithGateways(t, "coinbase-sandbox")); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the running shop to list the imported gateways", func() bool {
			gw, err := two.catalog.ListGateways(t.Context(), &gencatalog.ListGatewaysPayload{})
			if err != nil {
				t.Fatal(err)
			}
			return gw.Default == "coinbase" && len(gw.Gateways) == 2
		})
		o := two.buy(buyer.Token, standard()) // the new default
		if !strings.HasPrefix(o.PaymentURL, "https://payments.coinbase.com/payment-links/") || fake.charges() != 1 {
			t.Fatalf("payment URL = %q after %d charges, want Coinbase's", o.PaymentURL, fake.charges())
		}

		// The sandbox page pays sandbox invoices only: a Coinbase invoice is not found there.
		if resp := two.sandbox(payment.SandboxPath+o.InvoiceID, "pay"); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("sandbox payment of a Coinbase invoice = %d, want 404", resp.StatusCode)
		}
		if got := two.getOrder(buyer.Token, o.OrderID); got.Status != "pending" {
			t.Fatalf("after the sandbox attempt: %s, want pending", got.Status)
		}

		link := fake.last()
		if got := postCoinbaseEvent(t, two, link, "checkout.payment.success", coinbaseSecret, time.Now()); got != http.StatusOK {
			t.Fatalf("Coinbase webhook = %d, want 200", got)
		}
		eventually(t, "the running shop's worker to settle and provision the Coinbase order", func() bool {
			return two.getOrder(buyer.Token, o.OrderID).Status == "active"
		})

		// Stripe has no settings in these processes: its catalog is refused, once.
		if changed, err := one.app.RefreshCatalog(t.Context()); err != nil || !changed {
			t.Fatalf("RefreshCatalog after the Coinbase import = %v, %v; want a change", changed, err)
		}
		if _, err := app.ImportCatalog(t.Context(), one.app.Store(), catalogWithGateways(t, "stripe")); err != nil {
			t.Fatal(err)
		}
		if changed, err := one.app.RefreshCatalog(t.Context()); changed || !errors.Is(err, payment.ErrNotConfigured) || !strings.Contains(err.Error(), "gateway stripe") {
			t.Fatalf("RefreshCatalog enabling unconfigured Stripe = %v, %v; want refused naming stripe", changed, err)
		}
		if changed, err := one.app.RefreshCatalog(t.Context()); changed || err != nil {
			t.Fatalf("RefreshCatalog of the refused catalog again = %v, %v; want no change, no error", changed, err)
		}
		if got := one.app.Catalog().DefaultGateway().Module; got != "coinbase" {
			t.Fatalf("default gateway after the refused import = %s, want coinbase (the catalog in force)", got)
		}
		// Once another catalog was taken, the refused one is reported again.
		for _, tc := range []struct {
			gateways string
			refused  bool
		}{{"sandbox-coinbase", false}, {"stripe", true}} {
			if _, err := app.ImportCatalog(t.Context(), one.app.Store(), catalogWithGateways(t, tc.gateways)); err != nil {
				t.Fatal(err)
			}
			if changed, err := one.app.RefreshCatalog(t.Context()); changed == tc.refused || (err != nil) != tc.refused {
				t.Fatalf("RefreshCatalog of gateways %s = %v, %v; want refused %v", tc.gateways, changed, err, tc.refused)
			}
		}
	})
}

// TestGatewaysListFixedByConfig: STREAMCART_GATEWAYS wins over any catalog, before and after an
// import.
func TestGatewaysListFixedByConfig(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.Payment.Modules = []string{"sandbox"} })
		if _, err := app.ImportCatalog(t.Context(), s.app.Store(), catalogWithGateways(t, "stripe-coinbase")); err != nil {
			t.Fatal(err)
		}
		if changed, err := s.app.RefreshCatalog(t.Context()); err != nil || !changed {
			t.Fatalf("RefreshCatalog = %v, %v; want a change", changed, err)
		}
		gw, err := s.catalog.ListGateways(t.Context(), &gencatalog.ListGatewaysPayload{})
		if err != nil {
			t.Fatal(err)
		}
		if gw.Default != "sandbox" || len(gw.Gateways) != 1 {
			t.Fatalf("gateways = %+v default %q, want sandbox only", gw.Gateways, gw.Default)
		}
		if o := s.buy(s.identify("fixed@example.com", "").Token, standard()); !strings.Contains(o.PaymentURL, payment.SandboxPath) {
			t.Fatalf("payment URL = %q, want the sandbox's", o.PaymentURL)
		}
	})
}
