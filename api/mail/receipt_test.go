package mail_test

import (
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/mail"
)

// The order mail links the invoice's PDF with its number when it has one, in the buyer's
// language; without a receipt it says nothing of an invoice.
func TestOrderMailLinksTheReceipt(t *testing.T) {
	link := "https://shop.example/checkout/api/invoices/inv_1.pdf?t=abc&x=1"
	r, err := mail.Render(mail.KindOrderReceived, "de-DE", mail.Data{Store: "S", OrderID: "ord_1", Total: "12,99 €",
		Link: "https://shop.example/checkout/de-de/waiting?order=ord_1", Receipt: link, Invoice: "SC-2026-000007"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "Ihre Rechnung SC-2026-000007 (PDF):\n"+link+"\n") {
		t.Errorf("text: %s", r.Text)
	}
	if !strings.Contains(r.HTML, `href="https://shop.example/checkout/api/invoices/inv_1.pdf?t=abc&amp;x=1"`) || !strings.Contains(r.HTML, "Ihre Rechnung SC-2026-000007 (PDF):") {
		t.Errorf("html: %s", r.HTML)
	}
	r, err = mail.Render(mail.KindOrderReceived, "en", mail.Data{OrderID: "ord_1", Link: "https://shop.example/x"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Text, "invoice") || strings.Contains(r.HTML, "invoices/") {
		t.Errorf("an order mail without a receipt mentions one: %s", r.Text)
	}
}
