package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
)

// TestSandboxPageFollowsTheCatalog: once an import turns the sandbox gateway off, its page and its
// Pay and Fail buttons answer 404 with a message saying so (an invoice left pending from before
// stays pending: nothing is settled for free); an import turning it back on serves them again.
func TestSandboxPageFollowsTheCatalog(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		fake := newFakeCoinbase(t) // a gateway to switch to; it takes no charge in this test
		s := newShop(t, func(c *app.Config) {
			c.PublicURL = "https://shop.example" // Coinbase needs it; the sandbox page then links there
			// The sandbox beside Coinbase (no test credentials) needs test mode.
			c.Payment = fake.config()
			c.Payment.TestMode = true
		})
		buyer := s.identify("sandbox-off@example.com", "")
		o := s.buy(buyer.Token, standard())
		page := strings.TrimPrefix(o.PaymentURL, "https://shop.example")
		if page != payment.SandboxPath+o.InvoiceID {
			t.Fatalf("payment URL = %q, want the sandbox page", o.PaymentURL)
		}
		if status, _, _ := s.raw(http.MethodGet, page, "", nil); status != http.StatusOK {
			t.Fatalf("sandbox page while enabled = %d, want 200", status)
		}

		setGateways := func(gateways string) {
			t.Helper()
			if _, err := app.ImportCatalog(t.Context(), s.app.Store(), catalogWithGateways(t, gateways)); err != nil {
				t.Fatal(err)
			}
			if changed, err := s.app.RefreshCatalog(t.Context()); err != nil || !changed {
				t.Fatalf("RefreshCatalog to gateways %s = %v, %v; want a change", gateways, changed, err)
			}
		}
		setGateways("coinbase")

		const msg = "Sandbox payments are turned off in this shop."
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			status, _, body := s.raw(method, page, "", nil)
			if status != http.StatusNotFound || strings.TrimSpace(string(body)) != msg {
				t.Errorf("%s sandbox page while disabled = %d %q, want 404 %q", method, status, body, msg)
			}
		}
		// An unknown invoice gets the same answer: the page says nothing about invoices while off.
		if status, _, body := s.raw(http.MethodGet, payment.SandboxPath+"inv_unknown", "", nil); status != http.StatusNotFound || strings.TrimSpace(string(body)) != msg {
			t.Errorf("unknown invoice while disabled = %d %q, want 404 %q", status, body, msg)
		}
		for _, action := range []string{"pay", "fail"} {
			if resp := s.sandbox(page, action); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("%s on the disabled sandbox = %d, want 404", action, resp.StatusCode)
			}
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "pending" {
			t.Fatalf("after paying on the disabled sandbox: %s, want pending", got.Status)
		}

		setGateways("coinbase-sandbox")
		if resp := s.sandbox(page, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay once the sandbox is enabled again = %d, want 303", resp.StatusCode)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "paid" {
			t.Fatalf("after paying on the re-enabled sandbox: %s, want paid", got.Status)
		}
	})
}
