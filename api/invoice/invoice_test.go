package invoice

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/unicode"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
)

func paidOrder() (order.Order, *catalog.Catalog) {
	eur := func(a int64) money.Money { return money.Money{Amount: a, Currency: "EUR"} }
	at := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	o := order.Order{ID: "ord_1", Email: "jürgen@example.com", Locale: "de-de", CreatedAt: at,
		Quote: pricing.Quote{Cycle: "quarterly", ExtraConnections: 2, ProxyProtection: true, Lines: []pricing.Line{
			{Key: pricing.LinePlan, Label: "Premium Ñandú — Quarterly", Amount: eur(4599)},
			{Key: pricing.LineExtraConnections, Label: "Extra connections", Amount: eur(1000)},
			{Key: pricing.LineProxyProtection, Label: "Proxy protection", Amount: eur(500)},
		}, Discount: &pricing.Discount{Code: "PROMO10", Amount: eur(610)}, Total: eur(5489)},
		Invoice: order.Invoice{ID: "inv_1", Number: "SC-2026-000042", Amount: eur(5489), Status: order.InvoicePaid, Gateway: "stripe", PaidAt: at}}
	cat := &catalog.Catalog{Seller: catalog.Seller{Name: "Façade Streams Ltd", Address: "1 Main St, Dublin", Country: "IE", TaxID: "IE1234567X"},
		GatewayNames: map[string]string{"stripe": "Card"}}
	return o, cat
}

// utf16 is how fpdf writes text of a Unicode font in a content stream.
func utf16(s string) []byte {
	b, err := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(err)
	}
	return b
}

// pdfString is s as it stands in a PDF string literal: UTF-16, with (, ) and \ escaped.
func pdfString(s string) []byte {
	b := utf16(s)
	b = bytes.ReplaceAll(b, []byte(`\`), []byte(`\\`))
	b = bytes.ReplaceAll(b, []byte("("), []byte(`\(`))
	return bytes.ReplaceAll(b, []byte(")"), []byte(`\)`))
}

func TestInvoicePDF(t *testing.T) {
	o, cat := paidOrder()
	d := ForInvoice(o, cat, "DE")
	if d.Tax != nil || d.Net != d.Total {
		t.Fatalf("an order without tax: net %v, total %v, tax %v", d.Net, d.Total, d.Tax)
	}
	pdf, err := render(d, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf, []byte("%%EOF")) {
		t.Fatalf("not a PDF: %q…", pdf[:min(20, len(pdf))])
	}
	// The Unicode font is embedded (TrueType subset) and the text is written in it.
	for _, want := range []string{"/FontFile2", "/utf8dejavu", "/ToUnicode"} {
		if !bytes.Contains(pdf, []byte(want)) {
			t.Errorf("PDF has no %s", want)
		}
	}
	for _, want := range []string{"SC-2026-000042", "Rechnung", "Façade Streams Ltd", "jürgen@example.com", "Premium Ñandú — vierteljährlich",
		"Zusätzliche Verbindungen × 2", "Proxy-Schutz", "Rabatt (PROMO10)", money.FormatLocale(5489, "EUR", "de-de"),
		money.FormatLocale(-610, "EUR", "de-de"), "USt-IdNr.: IE1234567X", "Bezahlt mit Card am 07.03.2026"} {
		if !bytes.Contains(pdf, pdfString(want)) {
			t.Errorf("PDF does not show %q", want)
		}
	}
	if bytes.Contains(pdf, pdfString("MwSt.")) {
		t.Error("a tax line on an order without tax")
	}
	// Compressed (as served) it is still a PDF, and smaller.
	small, err := Render(d)
	if err != nil || !bytes.HasPrefix(small, []byte("%PDF-")) || len(small) >= len(pdf) {
		t.Fatalf("Render: %d bytes, %v", len(small), err)
	}
}

// A long email address stays whole on the bill-to block (it used to wrap mid-word, "…@example.co"
// over "m"), and so does a long support URL on the seller's; a short one keeps the 10 pt text.
func TestPartiesKeepLongAddressesWhole(t *testing.T) {
	o, cat := paidOrder()
	o.Email = "walk-en-1280-1795924244974@subscriptions.example.com"
	cat.Seller.SupportURL = "https://help.example-streams-online.com/support/contact"
	pdf, err := render(ForInvoice(o, cat, "DE"), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{o.Email, cat.Seller.SupportURL, "Façade Streams Ltd"} {
		if !bytes.Contains(pdf, pdfString(want)) {
			t.Errorf("PDF does not show %q in one piece", want)
		}
	}
}

func TestCreditNotePDFAndLocales(t *testing.T) {
	o, cat := paidOrder()
	c := refund.CreditNote{ID: "cn_1", Number: "CN-2026-000003", Amount: money.Money{Amount: 300, Currency: "EUR"},
		CreatedAt: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}
	for _, loc := range Locales {
		o.Locale = loc
		pdf, err := render(ForCreditNote(o, c, cat, "ES"), false)
		if err != nil {
			t.Fatal(err)
		}
		l := texts[loc]
		for _, want := range []string{"CN-2026-000003", "SC-2026-000042", l.CreditNote, l.Refers} {
			if !bytes.Contains(pdf, pdfString(want)) {
				t.Errorf("%s: credit note does not show %q", loc, want)
			}
		}
	}
}

// Every locale's table is complete: no label left empty.
func TestLabelsComplete(t *testing.T) {
	for _, loc := range Locales {
		l, ok := texts[loc]
		if !ok {
			t.Fatalf("no labels for %s", loc)
		}
		for _, v := range []string{l.Invoice, l.CreditNote, l.Number, l.Refers, l.Issued, l.OrderDate, l.Order, l.Seller, l.Buyer,
			l.TaxID, l.Email, l.Country, l.Description, l.Amount, l.Discount, l.Net, l.Tax, l.Total, l.PaidWith, l.PaidOn, l.Refunded,
			l.ExtraConnections, l.Proxy} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: an empty label", loc)
			}
		}
		if len(l.Cycles) != 7 {
			t.Errorf("%s: %d cycles", loc, len(l.Cycles))
		}
	}
	if normLocale("DE") != "de-de" || normLocale("fr-fr") != "en" || normLocale("pt-br") != "pt-pt" {
		t.Error("normLocale")
	}
}
