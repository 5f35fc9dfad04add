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

// The order and renewal mails list their items above the total, in the text and the HTML part;
// a mail without items has no list and no total line.
func TestMailsListTheirItems(t *testing.T) {
	items := []mail.Item{{Text: "Premium — vierteljährlich", Amount: "9,99 €"}, {Text: "Proxy-Schutz", Amount: "2,50 €"},
		{Text: "Rabatt (WELCOME)", Amount: "−1,50 €"}}
	for _, kind := range []mail.Kind{mail.KindOrderReceived, mail.KindRenewalInvoice, mail.KindRenewalOverdue, mail.KindRenewalPaid} {
		t.Run(string(kind), func(t *testing.T) {
			r, err := mail.Render(kind, "de-de", mail.Data{Store: "S", OrderID: "ord_1", Total: "10,99 €", Link: "https://shop.example/x", Items: items})
			if err != nil {
				t.Fatal(err)
			}
			want := "Premium — vierteljährlich: 9,99 €\nProxy-Schutz: 2,50 €\nRabatt (WELCOME): −1,50 €\nGesamt: 10,99 €\n"
			if !strings.Contains(r.Text, want) {
				t.Errorf("text lacks the items:\n%s", r.Text)
			}
			for _, w := range []string{"<td style=\"padding:6px 0;border-top:1px solid #e4e4e7\">Premium — vierteljährlich</td>", ">−1,50 €</td>", ">Gesamt</td>", ">10,99 €</td>"} {
				if !strings.Contains(r.HTML, w) {
					t.Errorf("html lacks %q:\n%s", w, r.HTML)
				}
			}
		})
	}
	r, err := mail.Render(mail.KindOrderReceived, "en", mail.Data{OrderID: "ord_1", Total: "€10.99", Link: "https://shop.example/x"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Text, "Total:") || strings.Contains(r.HTML, "<table") {
		t.Errorf("a mail without items lists some:\n%s", r.Text)
	}
}

// The renewal-paid mail links the invoice's PDF like the order mail does.
func TestRenewalPaidMailLinksTheReceipt(t *testing.T) {
	link := "https://shop.example/checkout/api/invoices/inv_2.pdf?t=abc"
	r, err := mail.Render(mail.KindRenewalPaid, "nl-nl", mail.Data{Store: "S", OrderID: "ord_2", Total: "€ 12,99", Due: "24 december 2026",
		Link: "https://shop.example/checkout/nl-nl/?view=services", Receipt: link, Invoice: "SC-2026-000009"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Je verlenging bij S is betaald" || !strings.Contains(r.Text, "Je factuur SC-2026-000009 (pdf):\n"+link+"\n") ||
		!strings.Contains(r.Text, "tot 24 december 2026") || !strings.Contains(r.HTML, `href="`+link+`"`) {
		t.Errorf("%s\n%s", r.Subject, r.Text)
	}
}
