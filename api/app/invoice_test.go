package app_test

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genorder "github.com/streamcart/streamcart/gen/order"
)

var receiptLink = regexp.MustCompile(`https?://\S+/checkout/api/invoices/\S+\.pdf\?t=\S+`)

// A paid order answers its invoice's number and PDF; the PDF opens for the buyer's session and
// the invoice's pay-link token only: another buyer's session, another invoice's token, no
// credentials, an unpaid invoice and an unknown id are all the same 404. A refund (partial, then
// the rest) lists numbered credit notes on the order, each a PDF under the same rule; GET /orders
// lists the session's orders newest first.
func TestInvoiceNumbersPDFsAndCreditNotes(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		owner := c.roles()["owner"]
		year := time.Now().UTC().Year()

		id, _, token := c.paidOrder("buyer@example.com")
		o := c.getOrder(token, id)
		if o.InvoiceNumber == nil || *o.InvoiceNumber != fmt.Sprintf("SC-%d-000001", year) {
			t.Fatalf("invoiceNumber %v", o.InvoiceNumber)
		}
		if o.ReceiptURL == nil || !strings.HasSuffix(*o.ReceiptURL, "/checkout/api/invoices/"+o.InvoiceID+".pdf") || len(o.CreditNotes) != 0 {
			t.Fatalf("receiptUrl %v, creditNotes %v", o.ReceiptURL, o.CreditNotes)
		}
		pdf := func(url, token string, wantStatus int) []byte {
			t.Helper()
			status, h, body := c.raw(http.MethodGet, url, token, nil)
			if status != wantStatus {
				t.Fatalf("GET %s: %d %s, want %d", url, status, body, wantStatus)
			}
			if status == http.StatusOK && (h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) ||
				!strings.Contains(h.Get("Cache-Control"), "no-store")) {
				t.Fatalf("GET %s: %s, %q…", url, h, body[:min(len(body), 10)])
			}
			return body
		}
		pdf(*o.ReceiptURL, token, http.StatusOK)

		// Another buyer, with an order of their own still unpaid.
		other := c.identify("other@example.com", "").Token
		unpaid := c.buy(other, standard())
		if unpaid.InvoiceNumber != nil || unpaid.ReceiptURL != nil {
			t.Fatalf("an unpaid order has %v, %v", unpaid.InvoiceNumber, unpaid.ReceiptURL)
		}
		pdf(*o.ReceiptURL, other, http.StatusNotFound)
		pdf(*o.ReceiptURL, "", http.StatusNotFound)
		pdf(*o.ReceiptURL, "not-a-token", http.StatusNotFound)
		pdf("/checkout/api/invoices/"+unpaid.InvoiceID+".pdf", other, http.StatusNotFound)
		pdf("/checkout/api/invoices/inv_missing.pdf", token, http.StatusNotFound)

		// The pay-link token of the mails: its own invoice only.
		link, err := c.app.ReceiptLink(o.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		pdf(link, "", http.StatusOK)
		// The order mail links the PDF the same way: it opens without signing in.
		var mailed string
		for _, m := range c.mailsTo("buyer@example.com") {
			if strings.Contains(m.Body, *o.InvoiceNumber) {
				mailed = receiptLink.FindString(m.Body)
			}
		}
		if mailed == "" {
			t.Fatal("no order mail links the invoice PDF")
		}
		pdf(mailed, "", http.StatusOK)
		otherLink, err := c.app.ReceiptLink(unpaid.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		_, tOther, _ := strings.Cut(otherLink, "?t=")
		pdf(*o.ReceiptURL+"?t="+tOther, "", http.StatusNotFound)

		// Refunds: a partial one, then the rest, each a credit note.
		for _, amount := range []*int64{ptr(int64(500)), nil} {
			if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id,
				Amount: amount, Reason: "goodwill", KeepLine: true}); err != nil {
				t.Fatal(err)
			}
		}
		o = c.getOrder(token, id)
		if len(o.CreditNotes) != 2 {
			t.Fatalf("creditNotes %+v", o.CreditNotes)
		}
		for i, want := range []int64{500, 799} {
			n := o.CreditNotes[i]
			if n.Number != fmt.Sprintf("CN-%d-%06d", year, i+1) || n.Amount.Amount != want || n.Amount.Currency != "EUR" ||
				!strings.HasSuffix(n.PdfURL, "/checkout/api/credit-notes/"+n.ID+".pdf") {
				t.Errorf("credit note %d: %+v", i, n)
			}
			pdf(n.PdfURL, token, http.StatusOK)
			pdf(n.PdfURL, other, http.StatusNotFound)
			pdf(n.PdfURL, "", http.StatusNotFound)
			pdf(n.PdfURL+"?t="+tOther, "", http.StatusNotFound)
		}
		pdf("/checkout/api/credit-notes/cn_missing.pdf", token, http.StatusNotFound)

		// The order history: each session sees its own orders, newest first.
		second := c.buy(token, standard())
		list, err := c.order.List(ctx, &genorder.ListPayload{Token: ptr(token)})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Orders) != 2 || list.Orders[0].OrderID != second.OrderID || list.Orders[1].OrderID != id || len(list.Orders[1].CreditNotes) != 2 {
			t.Fatalf("GET /orders: %+v", list.Orders)
		}
		list, err = c.order.List(ctx, &genorder.ListPayload{Token: ptr(other)})
		if err != nil || len(list.Orders) != 1 || list.Orders[0].OrderID != unpaid.OrderID {
			t.Fatalf("other's GET /orders: %+v, %v", list, err)
		}
	})
}
