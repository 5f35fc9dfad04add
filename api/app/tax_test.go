package app_test

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
	"golang.org/x/text/encoding/unicode"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/tax"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

// Addresses the test country database places: a buyer in Germany, in France, in the US.
const (
	ipDE = "2.16.1.1"
	ipFR = "81.2.69.160"
	ipUS = "8.8.8.8"
)

// taxShop is a console shop whose catalog is the demo's with the documented EU VAT block
// (docs/tax-eu-vat.yaml: prices include tax, DE 19 %, FR 20 %), a country database placing the
// addresses above, and loopback trusted as a proxy so a test buys "from" them.
func taxShop(t *testing.T, opts ...func(*app.Config)) *console {
	t.Helper()
	return taxShopOf(t, euCatalog(t), opts...)
}

// euCatalog is the demo catalog with the documented EU VAT block.
func euCatalog(t *testing.T) []byte {
	t.Helper()
	block, err := os.ReadFile(filepath.Join("..", "..", "docs", "tax-eu-vat.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return append(catalog.DemoYAML(), append([]byte("\n"), block...)...)
}

// taxShopOf is taxShop selling the catalog src (YAML).
func taxShopOf(t *testing.T, src []byte, opts ...func(*app.Config)) *console {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(file, src, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(dir); err != nil {
		t.Fatal(err)
	}
	mmdb := countryDB(t, map[string]string{"2.16.0.0/13": "DE", "81.2.69.0/24": "FR", "8.8.8.0/24": "US"})
	return newConsole(t, append([]func(*app.Config){func(c *app.Config) {
		c.CatalogFile, c.GeoDB, c.TrustedProxies = file, mmdb, prefixes("127.0.0.0/8")
	}}, opts...)...)
}

// countryDB writes an offline country database placing each CIDR in its country and answers its
// path.
func countryDB(t *testing.T, places map[string]string) string {
	t.Helper()
	w, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "streamcart-test-country", RecordSize: 24})
	if err != nil {
		t.Fatal(err)
	}
	for cidr, code := range places {
		_, n, _ := net.ParseCIDR(cidr)
		if err := w.Insert(n, mmdbtype.Map{"country_code": mmdbtype.String(code)}); err != nil {
			t.Fatal(err)
		}
	}
	var db bytes.Buffer
	if _, err := w.WriteTo(&db); err != nil {
		t.Fatal(err)
	}
	mmdb := filepath.Join(t.TempDir(), "country.mmdb")
	if err := os.WriteFile(mmdb, db.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return mmdb
}

// premium is the purchase: Premium quarterly 39.99 + 2 extra connections 16.00 + proxy
// 5.00 = 60.99, WELCOME10 once: 54.89.
func premium() genorder.CreatePayload {
	return genorder.CreatePayload{Pid: 3, BillingCycle: "quarterly", ExtraConnections: 2, ProxyProtection: true, PromoCode: ptr("WELCOME10")}
}

// pdfText is the text a served (compressed) PDF writes: its content streams inflated, where
// fpdf writes a Unicode font's strings in UTF-16.
func pdfText(t *testing.T, pdf []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, m := range regexp.MustCompile(`(?s)stream\r?\n(.*?)endstream`).FindAllSubmatch(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue // not a Flate stream (the font file's header)
		}
		b, _ := io.ReadAll(r)
		out.Write(b)
	}
	return out.Bytes()
}

func utf16be(s string) []byte {
	b, _ := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte(s))
	b = bytes.ReplaceAll(b, []byte(`\`), []byte(`\\`))
	b = bytes.ReplaceAll(b, []byte("("), []byte(`\(`))
	return bytes.ReplaceAll(b, []byte(")"), []byte(`\)`))
}

// TestTax is the acceptance: a buyer in Germany buys Premium quarterly with extras, proxy
// and a one-time promotion from a shop whose catalog has the EU VAT block with prices including
// tax. The quote and the order answer the net, the German VAT and the total; the order keeps the
// evidence (billing and IP country) and its tax; the invoice PDF shows net, VAT 19 % (DE) and
// total; a partial refund in the console issues a credit note giving back the tax in
// proportion; the tax report sums per country and rate, credit notes subtracted. A billing
// country other than the address's needs the buyer's confirmation; a bad one is refused.
func TestTax(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := taxShop(t)
		de, fr, us := c.shop.from(ipDE), c.shop.from(ipFR), c.shop.from(ipUS)
		ctx := t.Context()

		// The quote: from a German address, Germany's rate by default.
		p := premium()
		q, err := de.pricing.Quote(ctx, &genpricing.QuoteRequest{Pid: p.Pid, BillingCycle: p.BillingCycle, ExtraConnections: 2,
			ProxyProtection: true, PromoCode: p.PromoCode})
		if err != nil {
			t.Fatal(err)
		}
		// 54.89 / 1.19 = 46.1261 → 46.13 net, 8.76 VAT.
		wantTax := genpricing.TaxResult{Country: "DE", Rate: "19", Amount: 876, Currency: "EUR", PricesIncludeTax: true, IPCountry: "DE"}
		if q.Total.Amount != 5489 || q.Net == nil || q.Net.Amount != 4613 || q.Tax == nil || *q.Tax != wantTax ||
			q.Recurring == nil || q.Recurring.Amount != 6099 {
			t.Fatalf("quote: total %+v net %+v tax %+v recurring %+v", q.Total, q.Net, q.Tax, q.Recurring)
		}
		// Another billing country, in any case: its rate. 54.89 / 1.2 = 45.74 net.
		q, err = de.pricing.Quote(ctx, &genpricing.QuoteRequest{Pid: 3, BillingCycle: "quarterly", ExtraConnections: 2,
			ProxyProtection: true, PromoCode: ptr("WELCOME10"), BillingCountry: ptr("fr")})
		if err != nil || q.Tax.Country != "FR" || q.Tax.Rate != "20" || q.Tax.Amount != 915 || q.Net.Amount != 4574 ||
			q.Total.Amount != 5489 || q.Tax.IPCountry != "DE" {
			t.Fatalf("quote for FR: %+v %+v, %v", q, q.Tax, err)
		}
		// A country without a rate (outside the EU) pays none.
		q, err = us.pricing.Quote(ctx, &genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly"})
		if err != nil || q.Tax.Country != "US" || q.Tax.Rate != "0" || q.Tax.Amount != 0 || q.Net.Amount != 1299 || q.Total.Amount != 1299 {
			t.Fatalf("quote for US: %+v %+v, %v", q, q.Tax, err)
		}
		for _, bad := range []string{"XX", "EL", "UK", "DEU", "", "1"} {
			_, err := de.pricing.Quote(ctx, &genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", BillingCountry: ptr(bad)})
			if bad == "" {
				if err != nil {
					t.Fatalf("an empty billing country (the default): %v", err)
				}
				continue
			}
			wantErr(t, err, "invalid_country", "")
		}
		status, _, body := c.rawWith(http.MethodPost, "/checkout/api/quote", "", strings.NewReader(`{"pid":2,"billingCycle":"monthly","billingCountry":"ZZ"}`), nil)
		if status != http.StatusBadRequest || !bytes.Contains(body, []byte(`"name":"invalid_country"`)) {
			t.Fatalf("POST /quote with ZZ = %d %s", status, body)
		}

		// The order from Germany, paid: the answer, the evidence kept, the invoice.
		token := c.identify("kunde@example.de", "").Token
		o := de.buy(token, premium())
		wantOrderTax := genorder.TaxResult(wantTax)
		if o.Total.Amount != 5489 || o.Net == nil || o.Net.Amount != 4613 || o.Tax == nil || *o.Tax != wantOrderTax ||
			o.Quote.Tax == nil || *o.Quote.Tax != wantOrderTax || o.Quote.Net.Amount != 4613 {
			t.Fatalf("POST /orders: total %+v net %+v tax %+v quote.tax %+v", o.Total, o.Net, o.Tax, o.Quote.Tax)
		}
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND billing_country = 'DE' AND ip_country = 'DE' AND NOT country_confirmed
			AND tax_country = 'DE' AND tax_rate = '19' AND tax_amount = 876 AND net_amount = 4613 AND total_amount = 5489`, o.OrderID); n != 1 {
			t.Fatalf("the order's evidence and tax are not kept (%d rows)", n)
		}
		if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		c.drain()
		got := c.getOrder(token, o.OrderID)
		if got.Tax == nil || *got.Tax != wantOrderTax || got.Net.Amount != 4613 || got.ReceiptURL == nil {
			t.Fatalf("GET /orders/%s: tax %+v net %+v receipt %v", o.OrderID, got.Tax, got.Net, got.ReceiptURL)
		}
		status, _, pdf := c.raw(http.MethodGet, *got.ReceiptURL, token, nil)
		if status != http.StatusOK {
			t.Fatalf("invoice PDF: %d", status)
		}
		text := pdfText(t, pdf)
		for _, want := range []string{"Net", "€46.13", "VAT 19% (DE)", "€8.76", "Total", "€54.89", "Country: DE"} {
			if !bytes.Contains(text, utf16be(want)) {
				t.Errorf("the invoice PDF does not show %q", want)
			}
		}

		// A billing country other than the address's: refused until the buyer confirms it; then
		// kept, confirmation included.
		fp := premium()
		fp.BillingCountry = ptr("FR")
		_, err = de.order.Create(ctx, &genorder.CreatePayload{Token: ptr(token), Pid: fp.Pid, BillingCycle: fp.BillingCycle,
			ExtraConnections: 2, ProxyProtection: true, PromoCode: fp.PromoCode, BillingCountry: fp.BillingCountry})
		wantErr(t, err, "country_unconfirmed", "")
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE client_id = (SELECT client_id FROM orders WHERE id = ?)`, o.OrderID); n != 1 {
			t.Fatalf("a refused order was stored: %d orders", n)
		}
		_, err = de.order.Create(ctx, &genorder.CreatePayload{Token: ptr(token), Pid: 2, BillingCycle: "monthly", BillingCountry: ptr("EL"),
			ConfirmCountry: ptr(true)})
		wantErr(t, err, "invalid_country", "")
		fp.ConfirmCountry = ptr(true)
		frOrder := de.buy(token, fp)
		if frOrder.Tax == nil || frOrder.Tax.Country != "FR" || frOrder.Tax.Amount != 915 || frOrder.Tax.IPCountry != "DE" || frOrder.Net.Amount != 4574 {
			t.Fatalf("confirmed FR order: %+v %+v", frOrder.Tax, frOrder.Net)
		}
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND billing_country = 'FR' AND ip_country = 'DE' AND country_confirmed
			AND tax_country = 'FR' AND tax_rate = '20' AND tax_amount = 915 AND net_amount = 4574`, frOrder.OrderID); n != 1 {
			t.Fatal("the confirmed order's evidence is not kept")
		}
		if resp := c.sandbox(frOrder.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		// Buying in France from France needs no confirmation; a US buyer pays no VAT.
		frToken := c.identify("client@example.fr", "").Token
		fr.buy(frToken, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", BillingCountry: ptr("FR")}) // left unpaid: not reported
		usToken := c.identify("buyer@example.com", "").Token
		usOrder := us.buy(usToken, standard())
		if usOrder.Tax == nil || usOrder.Tax.Rate != "0" || usOrder.Total.Amount != 1299 {
			t.Fatalf("US order: %+v", usOrder.Tax)
		}
		if resp := c.sandbox(usOrder.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		c.drain()

		// A partial refund in the console: the credit note gives back 27.44 with 4.38 VAT
		// (8.76 × 27.44 / 54.89 = 4.379 → 4.38); its PDF shows it.
		owner := c.roles()["owner"]
		cl := c.clientsOf()
		if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: o.OrderID,
			Amount: ptr(int64(2744)), Reason: "goodwill", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		got = c.getOrder(token, o.OrderID)
		if len(got.CreditNotes) != 1 || got.CreditNotes[0].Tax == nil || got.CreditNotes[0].Tax.Amount != 438 || got.CreditNotes[0].Amount.Amount != 2744 {
			t.Fatalf("credit notes %+v", got.CreditNotes)
		}
		status, _, pdf = c.raw(http.MethodGet, got.CreditNotes[0].PdfURL, token, nil)
		text = pdfText(t, pdf)
		for _, want := range []string{"Credit note", "€23.06", "VAT 19% (DE)", "€4.38", "€27.44"} {
			if status != http.StatusOK || !bytes.Contains(text, utf16be(want)) {
				t.Errorf("the credit note PDF (%d) does not show %q", status, want)
			}
		}

		// The tax report of today: one row per country and rate, the refund subtracted.
		st, err := store.OpenURL(ctx, c.cfg.DB)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		day := c.clock.Now().UTC().Format("2006-01-02")
		rep, err := tax.Build(ctx, st, day, day)
		if err != nil {
			t.Fatal(err)
		}
		want := []tax.Row{
			{Country: "DE", Rate: "19", Currency: "EUR", Invoices: 1, CreditNotes: 1, Net: 4613 - 2306, Tax: 876 - 438, Gross: 5489 - 2744},
			{Country: "FR", Rate: "20", Currency: "EUR", Invoices: 1, Net: 4574, Tax: 915, Gross: 5489},
			{Country: "US", Rate: "0", Currency: "EUR", Invoices: 1, Net: 1299, Gross: 1299},
		}
		if !slices.Equal(rep.Rows, want) {
			t.Fatalf("tax report rows\n got %+v\nwant %+v", rep.Rows, want)
		}
		var csv bytes.Buffer
		if err := rep.WriteCSV(&csv); err != nil || !strings.Contains(csv.String(), "DE,19,EUR,1,1,23.07,4.38,27.45\n") {
			t.Fatalf("CSV: %s, %v", csv.String(), err)
		}
		if rep, err := tax.Build(ctx, st, "2020-01-01", "2020-03-31"); err != nil || len(rep.Rows) != 0 {
			t.Fatalf("another quarter: %+v, %v", rep, err)
		}
	})
}

// TestNoTaxBlock: a shop whose catalog has no tax block answers as before, with "tax": null and
// the net (the total) besides; it keeps no evidence and asks no confirmation, whatever the
// billing country; a bad billing country is still refused.
func TestNoTaxBlock(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.TrustedProxies = prefixes("127.0.0.0/8") })
		status, _, body := s.raw(http.MethodPost, "/checkout/api/quote", "", strings.NewReader(`{"pid":3,"billingCycle":"quarterly","extraConnections":2,"proxyProtection":true,"promoCode":"WELCOME10","billingCountry":"FR"}`))
		var quote map[string]json.RawMessage
		if err := json.Unmarshal(body, &quote); status != http.StatusOK || err != nil {
			t.Fatalf("POST /quote = %d %s", status, body)
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range quote {
				if !yield(k) {
					return
				}
			}
		})
		want := []string{"billingCycle", "currency", "discount", "extraConnections", "lines", "net", "pid", "proxyProtection", "recurring", "subtotal", "tax", "total"}
		if !slices.Equal(keys, want) || string(quote["tax"]) != "null" || string(quote["net"]) != string(quote["total"]) ||
			string(quote["total"]) != `{"amount":5489,"currency":"EUR"}` {
			t.Fatalf("POST /quote = %s", body)
		}
		token := s.identify("plain@example.com", "").Token
		status, _, body = s.raw(http.MethodPost, "/checkout/api/orders", token, strings.NewReader(`{"pid":2,"billingCycle":"monthly","billingCountry":"FR"}`))
		if status != http.StatusCreated || !bytes.Contains(body, []byte(`"tax":null`)) || !bytes.Contains(body, []byte(`"net":{"amount":1299,"currency":"EUR"}`)) {
			t.Fatalf("POST /orders = %d %s", status, body)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE billing_country IS NULL AND ip_country IS NULL AND tax_country IS NULL AND tax_amount IS NULL AND net_amount IS NULL`); n != 1 {
			t.Fatalf("an untaxed order kept evidence or tax (%d clean rows)", n)
		}
		o := s.buy(token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", BillingCountry: ptr("nl"), ConfirmCountry: ptr(true)})
		if o.Tax != nil || o.Net.Amount != 1299 || o.Total.Amount != 1299 {
			t.Fatalf("order: tax %+v net %+v", o.Tax, o.Net)
		}
		_, err := s.order.Create(t.Context(), &genorder.CreatePayload{Token: ptr(token), Pid: 2, BillingCycle: "monthly", BillingCountry: ptr("XX")})
		wantErr(t, err, "invalid_country", "")
	})
}
