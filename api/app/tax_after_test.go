package app_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/tax"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// pdfShows fails t for each of want the PDF at path (read with token) does not write.
func (c *console) pdfShows(t *testing.T, what, path, token string, want ...string) {
	t.Helper()
	status, _, pdf := c.raw(http.MethodGet, path, token, nil)
	if status != http.StatusOK {
		t.Fatalf("%s PDF %s: %d", what, path, status)
	}
	text := pdfText(t, pdf)
	for _, w := range want {
		if !bytes.Contains(text, utf16be(w)) {
			t.Errorf("the %s PDF does not show %q", what, w)
		}
	}
}

// TestTaxAfterTheSale: the orders that follow a first order on its line are taxed as it was,
// at the rate of the country kept as its evidence, whatever address they come from: extra
// connections bought later (net, VAT and total on the order, kept with the order's evidence, on
// its invoice PDF and in its mail; a partial refund gives back the tax in proportion), the
// renewal, and a plan change charged now from the console.
func TestTaxAfterTheSale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := taxShop(t, withPayKey)
		de, us := c.shop.from(ipDE), c.shop.from(ipUS)
		ctx, st := t.Context(), c.app.Store()
		const buyer = "nachkauf@example.de"
		token := c.register(buyer, "nachkauf-password").Token
		_, svcID := de.activeService(token, standard())

		// Two extra connections, bought from a US address: 2 × 3.00 = 6.00 with German VAT
		// included (6.00 / 1.19 = 5.042 → 5.04 net, 0.96 VAT), not the US's none.
		q, err := us.after.upsell.Quote(ctx, &genupsell.QuotePayload{Token: ptr(token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil || q.Total.Amount != 600 || q.Net == nil || q.Net.Amount != 504 || q.Tax == nil || q.Tax.Country != "DE" ||
			q.Tax.Rate != "19" || q.Tax.Amount != 96 || q.Tax.IPCountry != "DE" {
			t.Fatalf("upsell quote: %+v tax %+v, %v", q, q.Tax, err)
		}
		up, err := us.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil || up.Total.Amount != 600 || up.Net == nil || up.Net.Amount != 504 || up.Tax == nil || up.Tax.Amount != 96 {
			t.Fatalf("upsell order: %+v %v", up, err)
		}
		got := c.getOrder(token, up.OrderID)
		if got.Net == nil || got.Net.Amount != 504 || got.Tax == nil || got.Tax.Country != "DE" || got.Tax.Rate != "19" ||
			got.Tax.Amount != 96 || !got.Tax.PricesIncludeTax || got.Total.Amount != 600 {
			t.Fatalf("GET /orders/%s: net %+v tax %+v total %+v", up.OrderID, got.Net, got.Tax, got.Total)
		}
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND kind = 'upsell' AND billing_country = 'DE' AND ip_country = 'DE'
			AND tax_country = 'DE' AND tax_rate = '19' AND tax_amount = 96 AND net_amount = 504 AND total_amount = 600`, up.OrderID); n != 1 {
			t.Fatalf("the upsell's evidence and tax are not kept (%d rows)", n)
		}
		if resp := c.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		c.drain()
		got = c.getOrder(token, up.OrderID)
		if got.Status != "active" || got.ReceiptURL == nil {
			t.Fatalf("paid upsell: %s, receipt %v", got.Status, got.ReceiptURL)
		}
		c.pdfShows(t, "upsell invoice", *got.ReceiptURL, token, "Net", "€5.04", "VAT 19% (DE)", "€0.96", "Total", "€6.00", "Country: DE")
		var mailed bool
		for _, m := range c.mailsTo(buyer) {
			if strings.Contains(m.Body, up.OrderID) && strings.Contains(m.Body, "VAT 19% (DE)") && strings.Contains(m.Body, "€0.96") &&
				strings.Contains(m.Body, "€5.04") {
				mailed = true
			}
		}
		if !mailed {
			t.Error("no mail of the upsell lists its net and VAT")
		}

		// A partial refund in the console: 3.00 back with half the VAT (0.48).
		owner := c.roles()["owner"]
		cl := c.clientsOf()
		if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: up.OrderID,
			Amount: ptr(int64(300)), Reason: "goodwill", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		got = c.getOrder(token, up.OrderID)
		if len(got.CreditNotes) != 1 || got.CreditNotes[0].Tax == nil || got.CreditNotes[0].Tax.Amount != 48 || got.CreditNotes[0].Amount.Amount != 300 {
			t.Fatalf("credit notes %+v", got.CreditNotes)
		}
		c.pdfShows(t, "credit note", got.CreditNotes[0].PdfURL, token, "Credit note", "€2.52", "VAT 19% (DE)", "€0.48", "€3.00")
		// The console's order: net, VAT and total; its refund with the VAT it gave back.
		detail, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &owner.cookie, ID: up.OrderID})
		if err != nil || detail.Tax == nil || detail.Tax.Country != "DE" || detail.Tax.Rate != "19" || detail.Tax.Amount.Amount != 96 ||
			!detail.Tax.PricesIncludeTax || detail.BeforeTax == nil || detail.BeforeTax.Amount != 504 || detail.Order.Total.Amount != 600 {
			t.Fatalf("GET /admin/orders/%s: tax %+v before tax %+v, %v", up.OrderID, detail.Tax, detail.BeforeTax, err)
		}
		refunds, err := cl.actions.Refunds(ctx, &genactions.RefundsPayload{Session: &owner.cookie, ID: up.OrderID})
		if err != nil || len(refunds.Refunds) != 1 || refunds.Refunds[0].Tax == nil || refunds.Refunds[0].Tax.Amount != 48 {
			t.Fatalf("refunds: %+v %v", refunds, err)
		}

		// A plan change charged now (one more connection for the rest of the period): the
		// prorated amount with its German VAT taken out, kept, on the pay page and the PDF.
		ch, err := cl.services.Change(ctx, &genservices.ChangePayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
			ID: svcID, MaxConnections: ptr(4), Charge: "now", Reason: "asked by phone"})
		if err != nil || ch.OrderID == "" || ch.Amount.Amount <= 0 {
			t.Fatalf("change: %+v %v", ch, err)
		}
		split, err := tax.Apply(ch.Amount.Amount, "19", true)
		if err != nil {
			t.Fatal(err)
		}
		co, err := st.Order(ctx, ch.OrderID)
		if err != nil || co.Kind != order.KindChange || co.Quote.Tax == nil || co.Quote.Tax.Country != "DE" || co.Quote.Tax.Rate != "19" ||
			co.Quote.Tax.Amount != split.Tax || co.Quote.Net.Amount != split.Net || co.Quote.Total.Amount != ch.Amount.Amount ||
			!co.Quote.Tax.Included || co.BillingCountry != "DE" || co.IPCountry != "DE" {
			t.Fatalf("change order: %+v tax %+v, %v (want %+v)", co.Quote, co.Quote.Tax, err, split)
		}
		msgs := c.renewalMails(buyer)
		_, invoice, payToken := payLink(t, msgs[len(msgs)-1])
		paid, err := c.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: invoice, T: ptr(payToken), Gateway: ptr("sandbox")})
		if err != nil || paid.OrderID != ch.OrderID {
			t.Fatalf("pay the change: %+v %v", paid, err)
		}
		if resp := c.sandbox(paid.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox: %d", resp.StatusCode)
		}
		c.drain()
		got = c.getOrder(token, ch.OrderID)
		if got.Status != "active" || got.ReceiptURL == nil || got.Tax == nil || got.Tax.Amount != split.Tax {
			t.Fatalf("paid change: %s receipt %v tax %+v", got.Status, got.ReceiptURL, got.Tax)
		}
		c.pdfShows(t, "change invoice", *got.ReceiptURL, token, "VAT 19% (DE)", eur(split.Tax), eur(split.Net), eur(split.Gross))
		// The renewal: 12.99 + the 3 extra connections (3 × 3.00) = 21.99 with German VAT
		// (21.99 / 1.19 = 18.479 → 18.48 net, 3.51 VAT), the evidence kept with it.
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		c.clock.Add(svc.NextDueDate.Add(-6 * 24 * time.Hour).Sub(c.clock.Now()))
		if n, err := c.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		rn, err := st.OpenRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		ro, err := st.Order(ctx, rn.OrderID)
		if err != nil || ro.Quote.Tax == nil || ro.Quote.Tax.Country != "DE" || ro.Quote.Tax.Amount != 351 || ro.Quote.Net.Amount != 1848 ||
			ro.Quote.Total.Amount != 2199 || ro.BillingCountry != "DE" || ro.IPCountry != "DE" {
			t.Fatalf("renewal order: %+v tax %+v, %v", ro.Quote, ro.Quote.Tax, err)
		}

	})
}

// eur is a euro amount as the English PDF writes it (below 1,000).
func eur(cents int64) string { return fmt.Sprintf("€%d.%02d", cents/100, cents%100) }

// TestTaxAfterTheSaleExcluded: with prices before tax, extra connections bought later are taxed
// on top as a first order is (2 × 3.00 + 19 % = 7.14), and a plan change's prorated amount (two
// taxed periods' difference) keeps its VAT inside: its line is the net, line and VAT make the total.
func TestTaxAfterTheSaleExcluded(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		src := bytes.Replace(euCatalog(t), []byte("pricesIncludeTax: true"), []byte("pricesIncludeTax: false"), 1)
		c := taxShopOf(t, src, withPayKey)
		de := c.shop.from(ipDE)
		ctx, st := t.Context(), c.app.Store()
		token := c.register("netto@example.de", "netto-password").Token
		_, svcID := de.activeService(token, standard())
		up, err := de.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil || up.Total.Amount != 714 {
			t.Fatalf("upsell order: %+v %v", up, err)
		}
		got := c.getOrder(token, up.OrderID)
		if got.Net.Amount != 600 || got.Tax == nil || got.Tax.Amount != 114 || got.Tax.PricesIncludeTax {
			t.Fatalf("upsell: net %+v tax %+v", got.Net, got.Tax)
		}
		if resp := c.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		c.drain()
		c.clock.Add(10 * 24 * time.Hour)
		s := c.roles()
		ch, err := c.clientsOf().services.Change(ctx, &genservices.ChangePayload{Session: ptr(s["owner"].cookie), CsrfToken: ptr(s["owner"].csrf),
			ID: svcID, MaxConnections: ptr(4), Charge: "now", Reason: "asked by phone"})
		if err != nil {
			t.Fatal(err)
		}
		split, _ := tax.Apply(ch.Amount.Amount, "19", true)
		co, err := st.Order(ctx, ch.OrderID)
		if err != nil || co.Quote.Tax == nil || co.Quote.Tax.Included || co.Quote.Tax.Amount != split.Tax || co.Quote.Lines[0].Amount.Amount != split.Net ||
			co.Quote.Total.Amount != ch.Amount.Amount || co.Invoice.Amount.Amount != ch.Amount.Amount {
			t.Fatalf("change order: %+v tax %+v, %v (want %+v)", co.Quote, co.Quote.Tax, err, split)
		}
	})
}

// TestRenewalTaxedWhereTheBuyerIs: a line bought before the shop had a tax block renews taxed
// in its buyer's country (the country of the address the first order came from: Germany, 19 %),
// not the seller's (Ireland, 23 %), with that evidence kept with the renewal.
func TestRenewalTaxedWhereTheBuyerIs(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		seller := []byte("seller: {name: Streamcart Demo Shop, country: IE}")
		plain := bytes.Replace(catalog.DemoYAML(), []byte("seller: {name: Streamcart Demo Shop}"), seller, 1)
		if bytes.Equal(plain, catalog.DemoYAML()) {
			t.Fatal("the demo catalog's seller line moved")
		}
		c := taxShopOf(t, plain)
		de := c.shop.from(ipDE)
		ctx, st := t.Context(), c.app.Store()
		token := c.identify("alt@example.de", "").Token
		first, svcID := de.activeService(token, standard())
		if o, err := st.Order(ctx, first); err != nil || o.Quote.Tax != nil || o.BillingCountry != "" || o.IPCountry != "" {
			t.Fatalf("the first order, without a tax block: tax %+v evidence %q %q, %v", o.Quote.Tax, o.BillingCountry, o.IPCountry, err)
		}
		owner := c.roles()["owner"]
		if d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &owner.cookie, ID: first}); err != nil || d.Tax != nil || d.BeforeTax != nil {
			t.Fatalf("the console's untaxed order: %+v %+v, %v", d.Tax, d.BeforeTax, err)
		}

		// The seller adds the EU VAT block.
		taxed := bytes.Replace(euCatalog(t), []byte("seller: {name: Streamcart Demo Shop}"), seller, 1)
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, taxed, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := app.ImportCatalog(ctx, st, file); err != nil {
			t.Fatal(err)
		}
		if changed, err := c.app.RefreshCatalog(ctx); err != nil || !changed || c.app.Catalog().Tax == nil {
			t.Fatalf("refresh: %v %v", changed, err)
		}

		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		c.clock.Add(svc.NextDueDate.Add(-6 * 24 * time.Hour).Sub(c.clock.Now()))
		if n, err := c.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		rn, err := st.OpenRenewal(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		// 12.99 / 1.19 = 10.916 → 10.92 net, 2.07 VAT (Ireland's 23 % would be 2.43).
		ro, err := st.Order(ctx, rn.OrderID)
		if err != nil || ro.Quote.Tax == nil || ro.Quote.Tax.Country != "DE" || ro.Quote.Tax.Rate != "19" || ro.Quote.Tax.Amount != 207 ||
			ro.Quote.Net.Amount != 1092 || ro.Quote.Total.Amount != 1299 || ro.BillingCountry != "DE" || ro.IPCountry != "DE" {
			t.Fatalf("renewal order: %+v tax %+v evidence %q %q, %v", ro.Quote, ro.Quote.Tax, ro.BillingCountry, ro.IPCountry, err)
		}

		// Its pay link's page shows the renewal's net and VAT, and its lines in the page's language
		// (they were the catalog's English: "Standard — Monthly" on a German page).
		_, tok := c.payLink(ro.Invoice.ID)
		inv, err := c.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: ro.Invoice.ID, T: &tok, Locale: ptr("de-de")})
		if err != nil {
			t.Fatal(err)
		}
		if inv.Net == nil || inv.Net.Amount != 1092 || inv.Tax == nil || inv.Tax.Amount != 207 || inv.Tax.Country != "DE" || inv.Tax.Rate != "19" ||
			inv.Total.Amount != 1299 {
			t.Fatalf("GET /invoices/%s: net %+v tax %+v total %+v", ro.Invoice.ID, inv.Net, inv.Tax, inv.Total)
		}
		if len(inv.Lines) == 0 || inv.Lines[0].Description != "Standard — monatlich" {
			t.Fatalf("GET /invoices/%s in German: lines %+v", ro.Invoice.ID, inv.Lines[0])
		}
	})
}
