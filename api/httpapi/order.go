package httpapi

import (
	"context"
	"errors"
	"time"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/storefront"
	genorder "github.com/streamcart/streamcart/gen/order"
)

// msgTrialUsed answers a free trial beyond the limits; the widget shows its own translation.
// msgBillingUnavailable: the shop's billing system (WHMCS) could not take the order.
const msgBillingUnavailable = "The shop's billing system is unavailable right now. Nothing was charged. Please try again in a moment."

const msgTrialUsed = "The free trial has already been used. Please choose a plan."

// msgTrialUnavailable answers a free trial refused to a throwaway (or seller-refused) address.
// msgOutOfStock: the panel's credits cannot cover the plan (nothing stored, nothing charged).
const msgOutOfStock = "This plan is temporarily unavailable. Please try again later or choose another plan."

const msgTrialUnavailable = "Free trials are not available for this email address. Please use your own email address or choose a plan."

type orderService struct {
	authenticator
	orders   *order.Orders
	quotes   payment.Quotes     // nil: no gateway quotes another currency
	progress payment.Progress   // zero: no payment is shown as seen and confirming
	notes    refund.CreditNotes // nil: no credit note is listed
	geo      *geo.Lookup        // places the buyer's address in a country; nil: nowhere
	streams  *OrderStreams      // the open order streams (events.go)
}

// NewOrder returns the order service; quotes are what gateways paid in another currency asked
// for invoices (nil: none), progress which pending invoices' payments a provider has seen and
// is confirming, l the country of the buyer's address (the default billing country, kept as
// evidence with a taxed order), streams the replica's order streams (nil: streams of their own,
// re-reading their orders every orderwatch.DefaultSafetyTick).
func NewOrder(accounts *account.Service, orders *order.Orders, quotes payment.Quotes, progress payment.Progress, notes refund.CreditNotes,
	l *geo.Lookup, streams *OrderStreams) genorder.Service {
	if streams == nil {
		streams = NewOrderStreams(nil, nil, StreamSettings{}, nil)
	}
	return &orderService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(genorder.MakeUnauthorized)}, orders: orders,
		quotes: quotes, progress: progress, notes: notes, geo: l, streams: streams}
}

// result is orderResult with the invoice's quote in the gateway's currency, if it has one: the
// buyer sees the amount and rate before paying; and, while the order waits for its payment, the
// payment's state at the provider when it has seen it (processing).
func (s *orderService) result(ctx context.Context, o order.Order) (*genorder.OrderResult, error) {
	r := orderResult(o)
	if o.Invoice.Number != "" {
		r.InvoiceNumber = strPtr(o.Invoice.Number)
		r.ReceiptURL = strPtr(InvoicePDFURL(origin(ctx), o.Invoice.ID))
	}
	// Only a refund issues credit notes, and every refund moves the order to one of these.
	if s.notes != nil && (o.Status == order.StatusPartiallyRefunded || o.Status == order.StatusRefunded) {
		notes, err := s.notes.OrderCreditNotes(ctx, o.ID)
		if err != nil {
			return nil, err
		}
		for _, n := range notes {
			ref := &genorder.CreditNoteRef{ID: n.ID, Number: n.Number,
				Amount: &genorder.Money{Amount: n.Amount.Amount, Currency: n.Amount.Currency}, PdfURL: CreditNotePDFURL(origin(ctx), n.ID)}
			if o.Quote.Tax != nil {
				ref.Tax = &genorder.Money{Amount: n.Tax.Amount, Currency: n.Amount.Currency}
			}
			r.CreditNotes = append(r.CreditNotes, ref)
		}
	}
	// Only a gateway paying in another currency (Coinbase) keeps quotes and reports a payment seen
	// before it settles: the answer of every other order skips both database reads.
	if o.Invoice.ID == "" || !s.quoting(o.Gateway) {
		return r, nil
	}
	if o.Status == order.StatusPending && o.Invoice.Status == order.InvoiceUnpaid {
		seen, err := s.progress.Processing(ctx, o.Invoice.ID)
		if err != nil {
			return nil, err
		}
		if seen {
			r.PaymentState = strPtr(string(payment.KindProcessing))
		}
	}
	if s.quotes == nil {
		return r, nil
	}
	q, err := s.quotes.Quote(ctx, o.Invoice.ID)
	if errors.Is(err, payment.ErrNotFound) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	r.PaymentQuote = &genorder.PaymentQuote{Amount: q.Amount, Currency: q.Currency, Network: q.Network, Rate: q.Rate,
		RateTakenAt: q.TakenAt.UTC().Format(time.RFC3339)}
	return r, nil
}

// quoting reports whether gateway keeps a quote per invoice: only then is there one to read (a
// database read the answer of every other order skips). A gateway no longer configured is
// looked up, as its invoices may have one.
func (s *orderService) quoting(gateway string) bool {
	g, ok := s.orders.Gateway(gateway)
	_, quoter := g.(payment.Quoter)
	return !ok || quoter
}

func unauthorizedAs(f func(error) *goa.ServiceError) func(error) error {
	return func(err error) error { return f(err) }
}

// Create places an order priced by the server.
func (s *orderService) Create(ctx context.Context, p *genorder.CreatePayload) (*genorder.OrderResult, error) {
	r := order.Request{
		Quote:  quoteRequest(ctx, p.Pid, p.BillingCycle, p.Currency, p.ExtraConnections, p.ProxyProtection, p.PromoCode),
		IP:     clientIP(ctx).String(),
		Origin: origin(ctx),
		Locale: buyerLocale(ctx),
	}
	buyerCountry(ctx, s.geo, &r.Quote, p.BillingCountry)
	r.ConfirmCountry = p.ConfirmCountry != nil && *p.ConfirmCountry
	if p.IdempotencyKey != nil {
		r.IdempotencyKey = *p.IdempotencyKey
	}
	if p.Gateway != nil {
		r.Gateway = *p.Gateway
	}
	if p.AffiliateID != nil {
		r.AffiliateID = *p.AffiliateID
	}
	if p.ReturnURL != nil {
		r.ReturnURL = *p.ReturnURL
	}
	r.RenewWithCard = p.RenewWithCard != nil && *p.RenewWithCard
	if sf, ok := storefront.FromContext(ctx); ok {
		// A storefront's sites are where its buyers come back to, and its affiliate is credited
		// when the order names none.
		r.ReturnOrigins = storefrontOrigins(ctx)
		if r.AffiliateID == "" {
			r.AffiliateID = sf.AffiliateID
		}
	}
	if m := p.ExpectedTotal; m != nil {
		r.ExpectedTotal = &money.Money{Amount: m.Amount, Currency: m.Currency}
	}
	o, err := s.orders.Create(ctx, claimsFrom(ctx), r)
	var changed *order.PriceChangedError
	switch {
	case err == nil:
		// After the order, so a refused order records nothing; a failure here is a 500 the
		// buyer's retry (same Idempotency-Key) repairs without a second order.
		if p.EmailSubscription != nil && *p.EmailSubscription {
			if err := s.accounts.SubscribeEmail(ctx, claimsFrom(ctx)); err != nil {
				return nil, err
			}
		}
		return s.result(ctx, o)
	case errors.As(err, &changed):
		return nil, &genorder.PriceChanged{
			Name:    "price_changed",
			Message: "The price has changed. Please review the new total before paying.",
			Quote:   orderQuote(changed.Quote),
		}
	case errors.Is(err, order.ErrIdempotencyMismatch):
		return nil, genorder.MakeIdempotencyMismatch(errors.New(msgIdempotencyMismatch))
	case errors.Is(err, pricing.ErrInvalidCountry):
		return nil, genorder.MakeInvalidCountry(errors.New(msgInvalidCountry))
	case errors.Is(err, order.ErrCountryUnknown):
		return nil, genorder.MakeInvalidCountry(errors.New("Choose the country of your billing address (billingCountry): the shop charges the tax of your country."))
	case errors.Is(err, order.ErrCountryUnconfirmed):
		return nil, genorder.MakeCountryUnconfirmed(errors.New("Your billing country differs from the country of your internet address: please confirm it (confirmCountry)."))
	case errors.Is(err, order.ErrTrialUsed):
		return nil, genorder.MakeTrialUsed(errors.New(msgTrialUsed))
	case errors.Is(err, order.ErrTrialUnavailable):
		return nil, genorder.MakeTrialUnavailable(errors.New(msgTrialUnavailable))
	case errors.Is(err, order.ErrOutOfStock):
		return nil, genorder.MakeOutOfStock(errors.New(msgOutOfStock))
	case errors.Is(err, order.ErrUnknownGateway):
		return nil, genorder.MakeBadRequest(errors.New(msgUnknownGateway))
	case errors.Is(err, order.ErrCardGateway):
		return nil, genorder.MakeBadRequest(errors.New("Automatic renewal with a saved card needs the card gateway (stripe): choose it, or untick \"Renew automatically with this card\"."))
	case errors.Is(err, order.ErrCardCycle):
		return nil, genorder.MakeBadRequest(errors.New("Automatic renewal with a saved card needs a plan that renews (a monthly or longer billing cycle): a trial or one-time plan has nothing to renew."))
	case errors.Is(err, order.ErrBadReturnURL):
		return nil, genorder.MakeBadRequest(errors.New("The return URL must be a path or a URL on this site."))
	case errors.Is(err, order.ErrGatewayUnavailable):
		return nil, genorder.MakeUnavailable(errors.New(msgGatewayUnavailable))
	case errors.Is(err, order.ErrUpstreamUnavailable):
		// WHMCS's own words stay in the log, with the action that failed.
		return nil, genorder.MakeUnavailable(errors.New(msgBillingUnavailable))
	}
	return nil, pricingError(err, genorder.MakeNotFound, genorder.MakeBadRequest, genorder.MakeNotApplicable)
}

// Get reads an order of the session.
func (s *orderService) Get(ctx context.Context, p *genorder.GetPayload) (*genorder.OrderResult, error) {
	o, err := s.orders.Get(ctx, claimsFrom(ctx), p.OrderID)
	if errors.Is(err, order.ErrNotFound) {
		return nil, genorder.MakeNotFound(errors.New("Order not found."))
	}
	if err != nil {
		return nil, err
	}
	return s.result(ctx, o)
}

// List reads the session's orders, newest first.
func (s *orderService) List(ctx context.Context, _ *genorder.ListPayload) (*genorder.ListResult, error) {
	os, err := s.orders.List(ctx, claimsFrom(ctx))
	if err != nil {
		return nil, err
	}
	out := &genorder.ListResult{Orders: make([]*genorder.OrderResult, 0, len(os))}
	for _, o := range os {
		r, err := s.result(ctx, o)
		if err != nil {
			return nil, err
		}
		out.Orders = append(out.Orders, r)
	}
	return out, nil
}

// Cancel cancels a pending order.
func (s *orderService) Cancel(ctx context.Context, p *genorder.CancelPayload) (*genorder.OrderResult, error) {
	o, err := s.orders.Cancel(ctx, claimsFrom(ctx), p.OrderID)
	switch {
	case errors.Is(err, order.ErrNotFound):
		return nil, genorder.MakeNotFound(errors.New("Order not found."))
	case errors.Is(err, order.ErrNotPending):
		return nil, genorder.MakeConflict(errors.New("Only a pending order can be cancelled."))
	case err != nil:
		return nil, err
	}
	return s.result(ctx, o)
}

func orderResult(o order.Order) *genorder.OrderResult {
	r := &genorder.OrderResult{
		OrderID: o.ID, InvoiceID: o.Invoice.ID, Status: string(o.Status), Fraud: o.Fraud, ServiceIds: o.ServiceIDs,
		Total: &genorder.Money{Amount: o.Quote.Total.Amount, Currency: o.Quote.Total.Currency}, CreatedAt: o.CreatedAt.Format(time.RFC3339),
		Quote: orderQuote(o.Quote),
	}
	r.Recurring = r.Quote.Recurring
	r.Net, r.Tax = r.Quote.Net, r.Quote.Tax
	if o.Status == order.StatusPending && o.Invoice.Status == order.InvoiceUnpaid {
		r.PaymentURL = o.Invoice.PaymentURL
		r.PaymentDeadline = o.Invoice.Deadline.Format(time.RFC3339)
	}
	if r.ServiceIds == nil {
		r.ServiceIds = []string{}
	}
	r.CreditNotes = []*genorder.CreditNoteRef{}
	return r
}

func orderQuote(q pricing.Quote) *genorder.QuoteResult {
	amount := func(m money.Money) *genorder.Money { return &genorder.Money{Amount: m.Amount, Currency: m.Currency} }
	r := &genorder.QuoteResult{
		Pid: q.PID, BillingCycle: string(q.Cycle), Currency: q.Currency, ExtraConnections: q.ExtraConnections,
		ProxyProtection: q.ProxyProtection, Subtotal: amount(q.Subtotal), Total: amount(q.Total), Lines: []*genorder.QuoteLine{},
	}
	for _, l := range q.Lines {
		r.Lines = append(r.Lines, &genorder.QuoteLine{Key: l.Key, Label: l.Label, Amount: amount(l.Amount)})
	}
	if d := q.Discount; d != nil {
		r.Discount = &genorder.DiscountResult{Code: d.Code, Type: d.Type, Value: d.Value, Amount: amount(d.Amount)}
	}
	if rc := q.Recurring; rc != nil {
		r.Recurring = &genorder.RecurringResult{Amount: rc.Amount, Currency: rc.Currency, BillingCycle: string(rc.Cycle)}
	}
	r.Net = amount(q.NetAmount())
	if t := q.Tax; t != nil {
		r.Tax = &genorder.TaxResult{Country: t.Country, Rate: t.Rate, Amount: t.Amount, Currency: t.Currency,
			PricesIncludeTax: t.Included, IPCountry: t.IPCountry}
	}
	return r
}
