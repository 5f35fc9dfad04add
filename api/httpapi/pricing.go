package httpapi

import (
	"context"
	"errors"
	"strings"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/storefront"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

type pricingService struct{ orders *order.Orders }

// NewPricing returns the quote service.
func NewPricing(orders *order.Orders) genpricing.Service { return &pricingService{orders: orders} }

// Quote prices a selection.
func (s *pricingService) Quote(ctx context.Context, p *genpricing.QuoteRequest) (*genpricing.QuoteResult, error) {
	q, err := s.orders.Quote(ctx, quoteRequest(ctx, p.Pid, p.BillingCycle, p.Currency, p.ExtraConnections, p.ProxyProtection, p.PromoCode))
	if err != nil {
		return nil, pricingError(err, genpricing.MakeNotFound, genpricing.MakeBadRequest, genpricing.MakeNotApplicable)
	}
	return pricingQuote(q), nil
}

func pricingQuote(q pricing.Quote) *genpricing.QuoteResult {
	amount := func(m money.Money) *genpricing.Money {
		return &genpricing.Money{Amount: m.Amount, Currency: m.Currency}
	}
	r := &genpricing.QuoteResult{
		Pid: q.PID, BillingCycle: string(q.Cycle), Currency: q.Currency, ExtraConnections: q.ExtraConnections,
		ProxyProtection: q.ProxyProtection, Subtotal: amount(q.Subtotal), Total: amount(q.Total), Lines: []*genpricing.QuoteLine{},
	}
	for _, l := range q.Lines {
		r.Lines = append(r.Lines, &genpricing.QuoteLine{Key: l.Key, Label: l.Label, Amount: amount(l.Amount)})
	}
	if d := q.Discount; d != nil {
		r.Discount = &genpricing.DiscountResult{Code: d.Code, Type: d.Type, Value: d.Value, Amount: amount(d.Amount)}
	}
	if rc := q.Recurring; rc != nil {
		r.Recurring = &genpricing.RecurringResult{Amount: rc.Amount, Currency: rc.Currency, BillingCycle: string(rc.Cycle)}
	}
	return r
}

// quoteRequest is what the buyer asks priced, in the request's storefront (which refuses the
// plans it does not sell).
func quoteRequest(ctx context.Context, pid int, cycle string, currency *string, extra int, proxy bool, promo *string) pricing.Request {
	r := pricing.Request{PID: pid, Cycle: catalog.Cycle(cycle), ExtraConnections: extra, ProxyProtection: proxy}
	if sf, ok := storefront.FromContext(ctx); ok {
		r.Storefront = &sf
	}
	if currency != nil {
		r.Currency = *currency
	}
	if promo != nil {
		r.PromoCode = strings.TrimSpace(*promo)
	}
	return r
}

// pricingError maps the pricing package's errors to the design's, with messages for buyers.
func pricingError(err error, notFound, badRequest, notApplicable func(error) *goa.ServiceError) error {
	pick := func(f func(error) *goa.ServiceError, msg string) error { return f(errors.New(msg)) }
	switch {
	case errors.Is(err, pricing.ErrUnknownProduct):
		return pick(notFound, "Product not found.")
	case errors.Is(err, pricing.ErrCycleUnavailable):
		return pick(badRequest, "This billing cycle is not available for this product.")
	case errors.Is(err, pricing.ErrUnknownCurrency):
		return pick(badRequest, msgUnknownCurrency)
	case errors.Is(err, pricing.ErrInvalidExtras):
		return pick(badRequest, "These extras are not available for this product.")
	case errors.Is(err, pricing.ErrPromoNotApplicable):
		return pick(notApplicable, msgPromoNotApplicable)
	case errors.Is(err, pricing.ErrPromoNotFound):
		return pick(notFound, msgPromoNotFound)
	}
	return err
}
