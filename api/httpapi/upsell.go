package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/upsell"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

type upsellService struct {
	authenticator
	catalog func() *catalog.Catalog
	upsells *upsell.Upsells
	geo     *geo.Lookup // the buyer's country, for a service whose first order kept none (nil: none)
}

// NewUpsell returns the extra-connection upsell service.
func NewUpsell(cat func() *catalog.Catalog, accounts *account.Service, u *upsell.Upsells, g *geo.Lookup) genupsell.Service {
	return &upsellService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(genupsell.MakeUnauthorized)},
		catalog: cat, upsells: u, geo: g}
}

func upsellMoney(m money.Money) *genupsell.Money {
	return &genupsell.Money{Amount: m.Amount, Currency: m.Currency}
}

func upsellTax(t *pricing.Tax) *genupsell.TaxResult {
	if t == nil {
		return nil
	}
	return &genupsell.TaxResult{Country: t.Country, Rate: t.Rate, Amount: t.Amount, Currency: t.Currency, PricesIncludeTax: t.Included, IPCountry: t.IPCountry}
}

func upsellOffer(o upsell.Offer, name string) *genupsell.UpsellOffer {
	return &genupsell.UpsellOffer{
		ServiceID: o.Service.ID, Name: name, Pid: o.Service.PID, BillingCycle: o.Service.BillingCycle,
		PricingCycle: string(o.PricingCycle), MaxConnections: o.Service.MaxConnections, MaxExtra: o.MaxExtra, UnitPrice: upsellMoney(o.UnitPrice),
	}
}

func upsellError(err error) error {
	switch {
	case errors.Is(err, order.ErrNotFound):
		return genupsell.MakeNotFound(errors.New(msgServiceNotFound))
	case errors.Is(err, upsell.ErrServiceNotActive):
		return genupsell.MakeServiceNotActive(errors.New("This service is not active, so it cannot take more connections."))
	case errors.Is(err, upsell.ErrNotEligible):
		return genupsell.MakeConflict(errors.New("This service cannot take more connections."))
	case errors.Is(err, upsell.ErrQuantity):
		return genupsell.MakeBadRequest(errors.New("This number of extra connections is not available for this service."))
	case errors.Is(err, pricing.ErrUnknownCurrency):
		return genupsell.MakeBadRequest(errors.New(msgUnknownCurrency))
	case errors.Is(err, order.ErrUnknownGateway):
		return genupsell.MakeBadRequest(errors.New(msgUnknownGateway))
	case errors.Is(err, order.ErrBadReturnURL):
		return genupsell.MakeBadRequest(errors.New(msgBadReturnURL))
	case errors.Is(err, order.ErrGatewayUnavailable):
		return genupsell.MakeUnavailable(errors.New(msgGatewayUnavailable))
	case errors.Is(err, order.ErrIdempotencyMismatch):
		return genupsell.MakeIdempotencyMismatch(errors.New(msgIdempotencyMismatch))
	case errors.As(err, new(*order.PriceChangedError)):
		// The billing system (WHMCS) prices the upgrade otherwise than it quoted: nothing stored.
		return genupsell.MakeConflict(errors.New(msgUpsellPriceChanged))
	case errors.Is(err, order.ErrUpstreamUnavailable):
		return genupsell.MakeUnavailable(errors.New(msgBillingUnavailable))
	}
	return err
}

// msgUpsellPriceChanged answers an upsell the billing system prices otherwise than quoted.
const msgUpsellPriceChanged = "The price of these connections has just changed. Please look at the new price and order again. Nothing was charged."

// Offers lists the session's services that can take more connections.
func (s *upsellService) Offers(ctx context.Context, p *genupsell.OffersPayload) (*genupsell.OffersResult, error) {
	offers, err := s.upsells.Offers(ctx, claimsFrom(ctx), deref(p.Currency))
	if err != nil {
		return nil, upsellError(err)
	}
	out := &genupsell.OffersResult{Offers: []*genupsell.UpsellOffer{}}
	for _, o := range offers {
		out.Offers = append(out.Offers, upsellOffer(o, serviceName(s.catalog(), o.Service.PID, o.Service.Name, p.Locale)))
	}
	return out, nil
}

// Quote prices extra connections.
func (s *upsellService) Quote(ctx context.Context, p *genupsell.QuotePayload) (*genupsell.UpsellQuote, error) {
	q, err := s.upsells.Quote(ctx, claimsFrom(ctx), upsell.Request{ServiceID: p.ServiceID, ExtraQuantity: p.ExtraQuantity,
		Currency: deref(p.Currency), IPCountry: s.geo.Locate(clientIP(ctx))})
	if err != nil {
		return nil, upsellError(err)
	}
	return &genupsell.UpsellQuote{
		ServiceID: q.Service.ID, ExtraQuantity: q.ExtraQuantity, PricingCycle: string(q.PricingCycle),
		UnitPrice: upsellMoney(q.UnitPrice), Total: upsellMoney(q.Total), MaxConnections: q.Service.MaxConnections + q.ExtraQuantity,
		Net: upsellMoney(q.Priced.NetAmount()), Tax: upsellTax(q.Tax),
	}, nil
}

// Order places an upsell order.
func (s *upsellService) Order(ctx context.Context, p *genupsell.OrderPayload) (*genupsell.UpsellOrderResult, error) {
	o, q, err := s.upsells.Order(ctx, claimsFrom(ctx), upsell.Request{
		ServiceID: p.ServiceID, ExtraQuantity: p.ExtraQuantity, Currency: deref(p.Currency), Gateway: deref(p.Gateway),
		ReturnURL: deref(p.ReturnURL), IP: clientIP(ctx).String(), IPCountry: s.geo.Locate(clientIP(ctx)), Origin: origin(ctx), ReturnOrigins: storefrontOrigins(ctx),
		IdempotencyKey: deref(p.IdempotencyKey),
	})
	if err != nil {
		return nil, upsellError(err)
	}
	r := &genupsell.UpsellOrderResult{
		OrderID: o.ID, InvoiceID: o.Invoice.ID, ServiceID: q.Service.ID, ExtraQuantity: q.ExtraQuantity,
		Status: string(o.Status), Fraud: o.Fraud, Total: upsellMoney(o.Quote.Total), Net: upsellMoney(o.Quote.NetAmount()), Tax: upsellTax(o.Quote.Tax),
	}
	if o.Status == order.StatusPending && o.Invoice.Status == order.InvoiceUnpaid {
		r.PaymentURL, r.PaymentDeadline = o.Invoice.PaymentURL, o.Invoice.Deadline.Format(time.RFC3339)
	}
	return r, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
