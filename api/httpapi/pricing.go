package httpapi

import (
	"context"
	"errors"
	"strings"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/storefront"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

type pricingService struct {
	orders *order.Orders
	geo    *geo.Lookup
}

// NewPricing returns the quote service; l places the caller's address in a country (the default
// billing country), nil: nowhere.
func NewPricing(orders *order.Orders, l *geo.Lookup) genpricing.Service {
	return &pricingService{orders: orders, geo: l}
}

// Quote prices a selection.
func (s *pricingService) Quote(ctx context.Context, p *genpricing.QuoteRequest) (*genpricing.QuoteResult, error) {
	r := quoteRequest(ctx, p.Pid, p.BillingCycle, p.Currency, p.ExtraConnections, p.ProxyProtection, p.PromoCode)
	buyerCountry(ctx, s.geo, &r, p.BillingCountry)
	q, err := s.orders.Quote(ctx, r)
	if errors.Is(err, pricing.ErrInvalidCountry) {
		return nil, genpricing.MakeInvalidCountry(errors.New(msgInvalidCountry))
	}
	if err != nil {
		return nil, pricingError(err, genpricing.MakeNotFound, genpricing.MakeBadRequest, genpricing.MakeNotApplicable)
	}
	return pricingQuote(q), nil
}

// msgInvalidCountry answers a billing country that is not an ISO 3166-1 alpha-2 code.
const msgInvalidCountry = "The billing country must be a two-letter ISO 3166 country code (DE, FR, …)."

// buyerCountry fills in r's billing country (the buyer's, if given) and the country of the
// caller's address, l's answer ("" where it cannot place it): the default billing country and
// the evidence kept with an order. Without a tax block pricing only checks the billing country.
func buyerCountry(ctx context.Context, l *geo.Lookup, r *pricing.Request, billing *string) {
	if billing != nil {
		r.BillingCountry = *billing
	}
	if l != nil {
		r.IPCountry = l.Locate(clientIP(ctx))
	}
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
	r.Net = amount(q.NetAmount())
	if t := q.Tax; t != nil {
		r.Tax = &genpricing.TaxResult{Country: t.Country, Rate: t.Rate, Amount: t.Amount, Currency: t.Currency,
			PricesIncludeTax: t.Included, IPCountry: t.IPCountry}
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
