package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/netip"
	"strings"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/invoice"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/refund"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
)

// The PDFs' routes (design/invoice.go).
const (
	invoicePDFPrefix    = "/checkout/api/invoices/"
	creditNotePDFPrefix = "/checkout/api/credit-notes/"
)

// InvoicePDFURL is the PDF of invoice id on the shop's origin base.
func InvoicePDFURL(base, id string) string {
	return strings.TrimRight(base, "/") + invoicePDFPrefix + id + ".pdf"
}

// CreditNotePDFURL is the PDF of credit note id on the shop's origin base.
func CreditNotePDFURL(base, id string) string {
	return strings.TrimRight(base, "/") + creditNotePDFPrefix + id + ".pdf"
}

// receipts serves the invoice and credit note PDFs to who may read the order: the buyer's
// proven or buying session (the Authorization header, the rule of GET /orders/{id}) or the
// holder of the invoice's pay-link token (?t=). Anyone else, and any invoice not numbered
// (unpaid), is answered 404 like an id that does not exist: the answer never says it exists.
type receipts struct {
	accounts *account.Service
	orders   *order.Orders
	notes    refund.CreditNotes
	links    *paylink.Signer
	catalog  func() *catalog.Catalog
	geo      *geo.Lookup
}

// document answers a PDF request: credit says a credit note, id is its or the invoice's id, t
// the pay-link token and auth the Authorization header, both maybe empty.
func (rc receipts) document(ctx context.Context, credit bool, id, t, auth string) (*geninvoices.DocumentResult, io.ReadCloser, error) {
	msg := "Invoice not found."
	if credit {
		msg = "Credit note not found."
	}
	notFound := geninvoices.MakeNotFound(errors.New(msg))
	invoiceID := id
	var note refund.CreditNote
	if credit {
		if rc.notes == nil {
			return nil, nil, notFound
		}
		var err error
		if note, err = rc.notes.CreditNote(ctx, id); errors.Is(err, refund.ErrNoCreditNote) {
			return nil, nil, notFound
		} else if err != nil {
			return nil, nil, err
		}
		invoiceID = note.InvoiceID
	}
	o, err := rc.orders.InvoiceOrder(ctx, invoiceID)
	if errors.Is(err, order.ErrNotFound) {
		return nil, nil, notFound
	}
	if err != nil {
		return nil, nil, err
	}
	if !rc.allowed(ctx, o, t, auth) || (!credit && o.Invoice.Number == "") {
		return nil, nil, notFound
	}
	country := ""
	if ip, err := netip.ParseAddr(o.IP); err == nil && rc.geo != nil {
		country = rc.geo.Country(ip)
	}
	doc := invoice.ForInvoice(o, rc.catalog(), country)
	if credit {
		doc = invoice.ForCreditNote(o, note, rc.catalog(), country)
	}
	pdf, err := invoice.Render(doc)
	if err != nil {
		return nil, nil, err
	}
	return &geninvoices.DocumentResult{ContentType: "application/pdf",
		ContentDisposition: `inline; filename="` + safeFilename(doc.Number) + `.pdf"`,
		CacheControl:       "private, no-store", // a buyer's document: never in a shared cache
	}, io.NopCloser(bytes.NewReader(pdf)), nil
}

// allowed reports whether the request may read o: its pay-link token for o's invoice, or a
// session token the order's ownership rule lets read it.
func (rc receipts) allowed(ctx context.Context, o order.Order, t, auth string) bool {
	if t != "" && rc.links != nil && rc.links.Check(o.Invoice.ID, t) == nil {
		return true
	}
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || token == "" || rc.accounts == nil {
		return false
	}
	claims, err := rc.accounts.Authenticate(ctx, token)
	if err != nil {
		return false
	}
	_, err = rc.orders.Get(ctx, claims, o.ID)
	return err == nil
}

// safeFilename keeps a number's letters, digits and - _ . (a seller's pattern may hold /).
func safeFilename(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}
