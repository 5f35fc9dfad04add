package httpapi

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/invoice"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/planchange"
	"github.com/streamcart/streamcart/api/renewal"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
)

// msgPayLinkInvalid answers every token that does not open the invoice, whatever the reason
// (forged, another invoice's, expired, the invoice closed), so a caller learns nothing from it.
const msgPayLinkInvalid = "This payment link is not valid any more."

// invoicesService serves the renewal invoices to the holders of their pay links.
type invoicesService struct {
	catalog  func() *catalog.Catalog
	orders   *order.Orders
	renewals *renewal.Renewals
	links    *paylink.Signer
	base     string // the shop's origin, for the default return to the pay page
	now      func() time.Time
	docs     receipts     // the invoice and credit note PDFs
	changes  changeReader // the charge-now changes of lines (nil: none)
}

// changeReader reads the change of a line an order pays (planchange.Changes).
type changeReader interface {
	OfOrder(ctx context.Context, orderID string) (planchange.Change, order.Service, error)
}

// NewInvoices returns the pay-link invoice service.
func NewInvoices(cat func() *catalog.Catalog, orders *order.Orders, r *renewal.Renewals, links *paylink.Signer, base string,
	now func() time.Time, docs receipts, changes changeReader) geninvoices.Service {
	return &invoicesService{catalog: cat, orders: orders, renewals: r, links: links, base: base, now: now, docs: docs, changes: changes}
}

// Pdf answers a paid invoice's PDF to its buyer or pay-link holder (receipts).
func (s *invoicesService) Pdf(ctx context.Context, p *geninvoices.PdfPayload) (*geninvoices.DocumentResult, io.ReadCloser, error) {
	return s.docs.document(ctx, false, p.InvoiceID, deref(p.T), deref(p.Token))
}

// CreditNotePdf answers a credit note's PDF under its invoice's rule.
func (s *invoicesService) CreditNotePdf(ctx context.Context, p *geninvoices.CreditNotePdfPayload) (*geninvoices.DocumentResult, io.ReadCloser, error) {
	return s.docs.document(ctx, true, p.CreditNoteID, deref(p.T), deref(p.Token))
}

// held is what a pay link opens: the renewal order of the invoice its token names.
type held struct {
	order   order.Order
	renewal renewal.Renewal
	service order.Service
}

// open reads the invoice the token opens: a renewal's, unpaid and payable, or paid (so the
// holder sees the payment land). Anything else is not_found, as is a token not signed for it.
func (s *invoicesService) open(ctx context.Context, invoiceID, token string) (held, error) {
	notFound := geninvoices.MakeNotFound(errors.New(msgPayLinkInvalid))
	if s.links == nil || s.links.Check(invoiceID, token) != nil {
		return held{}, notFound
	}
	o, err := s.orders.InvoiceOrder(ctx, invoiceID)
	changed := err == nil && o.Kind == order.KindChange && s.changes != nil
	if errors.Is(err, order.ErrNotFound) || (err == nil && o.Kind != order.KindRenewal && !changed) {
		return held{}, notFound
	}
	if err != nil {
		return held{}, err
	}
	payable := o.Status == order.StatusPending && o.Invoice.Status == order.InvoiceUnpaid && s.now().Before(o.Invoice.Deadline)
	if !payable && o.Invoice.Status != order.InvoicePaid {
		return held{}, notFound // closed: cancelled, failed, expired
	}
	if changed {
		// A line's change paid through the same pay page: the period it pays runs from the
		// change to the line's (new) due date.
		ch, svc, err := s.changes.OfOrder(ctx, o.ID)
		if errors.Is(err, planchange.ErrNotFound) || errors.Is(err, order.ErrNotFound) {
			return held{}, notFound
		}
		if err != nil {
			return held{}, err
		}
		rn := renewal.Renewal{OrderID: o.ID, ServiceID: svc.ID, PeriodStart: ch.CreatedAt, PeriodEnd: ch.To.NextDueDate,
			BillingCycle: ch.To.BillingCycle, CreatedAt: ch.CreatedAt}
		return held{order: o, renewal: rn, service: svc}, nil
	}
	rn, svc, err := s.renewals.OfOrder(ctx, o.ID)
	if errors.Is(err, renewal.ErrNotFound) || errors.Is(err, order.ErrNotFound) {
		return held{}, notFound
	}
	if err != nil {
		return held{}, err
	}
	return held{order: o, renewal: rn, service: svc}, nil
}

// Get shows the invoice to the pay link's holder.
func (s *invoicesService) Get(ctx context.Context, p *geninvoices.GetPayload) (*geninvoices.InvoiceResult, error) {
	h, err := s.open(ctx, p.InvoiceID, deref(p.T))
	if err != nil {
		return nil, err
	}
	return s.result(h, p.Locale), nil
}

// Pay gives the holder a payment link for the invoice through the gateway asked.
func (s *invoicesService) Pay(ctx context.Context, p *geninvoices.PayPayload) (*geninvoices.PayResult, error) {
	h, err := s.open(ctx, p.InvoiceID, deref(p.T))
	if err != nil {
		return nil, err
	}
	if h.order.Invoice.Status == order.InvoicePaid {
		return nil, geninvoices.MakeConflict(errors.New("This invoice is already paid."))
	}
	back := deref(p.ReturnURL)
	if back == "" {
		back = s.payPage(h.order, deref(p.T)) // the holder has no session to read the order with
	}
	o, err := s.orders.Relink(ctx, h.order, deref(p.Gateway), back, append([]string{origin(ctx), s.base}, storefrontOrigins(ctx)...)...)
	switch {
	case errors.Is(err, order.ErrUnknownGateway):
		return nil, geninvoices.MakeBadRequest(errors.New(msgUnknownGateway))
	case errors.Is(err, order.ErrBadReturnURL):
		return nil, geninvoices.MakeBadRequest(errors.New(msgReturnURL))
	case errors.Is(err, order.ErrGatewayUnavailable):
		return nil, geninvoices.MakeUnavailable(errors.New(msgGatewayUnavailable))
	case errors.Is(err, order.ErrNotPending):
		return nil, geninvoices.MakeConflict(errors.New("This invoice is already paid."))
	case err != nil:
		return nil, err
	}
	return &geninvoices.PayResult{PaymentURL: o.Invoice.PaymentURL, OrderID: o.ID, InvoiceID: o.Invoice.ID}, nil
}

// payPage is the storefront's pay page of the order's invoice, where the gateway sends the holder
// back: the token's holder has no session to read the order with.
func (s *invoicesService) payPage(o order.Order, token string) string {
	return paylink.URL(s.base, o.Locale, o.Invoice.ID, token)
}

func (s *invoicesService) result(h held, loc *string) *geninvoices.InvoiceResult {
	cat := s.catalog()
	o, rn, svc := h.order, h.renewal, h.service
	money := func(amount int64, currency string) *geninvoices.Money {
		return &geninvoices.Money{Amount: amount, Currency: currency}
	}
	status := "unpaid"
	if o.Invoice.Status == order.InvoicePaid {
		status = "paid"
	}
	cycle := rn.BillingCycle
	if cycle == "" {
		cycle = string(o.Quote.Cycle)
	}
	r := &geninvoices.InvoiceResult{
		InvoiceID: o.Invoice.ID, OrderID: o.ID, ServiceID: svc.ID, ServiceName: serviceName(cat, svc.PID, svc.Name, loc),
		Username: svc.Username, Status: status, BillingCycle: cycle,
		PeriodStart: rn.PeriodStart.Format(time.DateOnly), PeriodEnd: rn.PeriodEnd.Format(time.DateOnly),
		ServiceStatus: string(svc.Status), Total: money(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency),
		Gateway: o.Invoice.Gateway, PaymentDeadline: o.Invoice.Deadline.Format(time.RFC3339),
		Lines: []*geninvoices.InvoiceLine{}, Gateways: []*geninvoices.GatewayResult{},
	}
	if !svc.NextDueDate.IsZero() {
		r.NextDueDate = svc.NextDueDate.Format(time.DateOnly)
	}
	if !rn.AppliedAt.IsZero() {
		r.PeriodEnd = svc.NextDueDate.Format(time.DateOnly) // a suspended line: counted from the payment
	}
	// The lines in the page's language, as its PDF words them (they were the catalog's English);
	// a taxed order's net and tax, as the PDF and the order show them.
	inLocale := o
	if l := locale(loc); l != "" {
		inLocale.Locale = l
	}
	doc := invoice.ForInvoice(inLocale, cat, "")
	for _, l := range doc.Lines {
		r.Lines = append(r.Lines, &geninvoices.InvoiceLine{Description: l.Description, Amount: money(l.Amount.Amount, l.Amount.Currency)})
	}
	if d := doc.Discount; d != nil {
		r.Lines = append(r.Lines, &geninvoices.InvoiceLine{Description: d.Description, Amount: money(d.Amount.Amount, d.Amount.Currency)})
	}
	if t := o.Quote.Tax; t != nil {
		r.Net = money(doc.Net.Amount, doc.Net.Currency)
		r.Tax = &geninvoices.TaxResult{Country: t.Country, Rate: t.Rate, Amount: t.Amount, Currency: t.Currency,
			PricesIncludeTax: t.Included, IPCountry: t.IPCountry}
	}
	for _, g := range cat.Gateways {
		r.Gateways = append(r.Gateways, &geninvoices.GatewayResult{Module: g.Module, DisplayName: cat.GatewayName(g.Module, locale(loc))})
	}
	return r
}
