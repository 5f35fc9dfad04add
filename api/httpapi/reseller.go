package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
)

// msgPasswordMismatch is the spec's exact message (§5).
const msgPasswordMismatch = "Not the same password"

type resellersService struct {
	authenticator
	catalog   func() *catalog.Catalog
	resellers *reseller.Resellers
}

// NewResellers returns the reseller service.
func NewResellers(cat func() *catalog.Catalog, accounts *account.Service, r *reseller.Resellers) genresellers.Service {
	return &resellersService{authenticator: authenticator{accounts: accounts, unauthorized: unauthorizedAs(genresellers.MakeUnauthorized)},
		catalog: cat, resellers: r}
}

// Me says whether the session's client is a reseller.
func (s *resellersService) Me(ctx context.Context, _ *genresellers.MePayload) (*genresellers.MeResult, error) {
	ok, balance, err := s.resellers.IsReseller(ctx, claimsFrom(ctx))
	if err != nil {
		return nil, err
	}
	return &genresellers.MeResult{IsReseller: ok, Balance: balance}, nil
}

func resellerError(err error) error {
	var changed *order.PriceChangedError
	switch {
	case errors.As(err, &changed):
		// WHMCS mode: WHMCS's invoice totals otherwise (its order was cancelled there).
		return &genresellers.PriceChanged{Name: "price_changed",
			Message: "The price has changed. Please review the new total before paying.", Quote: resellerQuote(changed.Quote)}
	case errors.Is(err, order.ErrUpstreamUnavailable):
		// WHMCS's own words stay in the log, with the action that failed.
		return genresellers.MakeUnavailable(errors.New(msgBillingUnavailable))
	case errors.Is(err, order.ErrNotFound):
		return genresellers.MakeNotFound(errors.New(msgServiceNotFound))
	case errors.Is(err, reseller.ErrNotReseller), errors.Is(err, pricing.ErrUnknownProduct):
		return genresellers.MakeNotFound(errors.New("Product not found."))
	case errors.Is(err, pricing.ErrUnknownCurrency):
		return genresellers.MakeBadRequest(errors.New(msgUnknownCurrency))
	case errors.Is(err, pricing.ErrCycleUnavailable):
		return genresellers.MakeBadRequest(errors.New("This plan has no monthly price."))
	case errors.Is(err, order.ErrUnknownGateway):
		return genresellers.MakeBadRequest(errors.New(msgUnknownGateway))
	case errors.Is(err, order.ErrBadReturnURL):
		return genresellers.MakeBadRequest(errors.New(msgBadReturnURL))
	case errors.Is(err, order.ErrGatewayUnavailable):
		return genresellers.MakeUnavailable(errors.New(msgGatewayUnavailable))
	case errors.Is(err, order.ErrIdempotencyMismatch):
		return genresellers.MakeIdempotencyMismatch(errors.New(msgIdempotencyMismatch))
	case errors.Is(err, signin.ErrWeakPassword):
		return genresellers.MakeWeakPassword(errors.New(msgWeakPassword))
	case errors.Is(err, account.ErrPasswordTooLong):
		return genresellers.MakeBadRequest(errors.New(msgLongPassword))
	}
	return err
}

// resellerQuote is q as the reseller service answers it: the design's one QuoteResult, generated
// once per service with the same fields, so the order service's conversion is reused.
func resellerQuote(q pricing.Quote) *genresellers.QuoteResult {
	var r genresellers.QuoteResult
	b, err := json.Marshal(orderQuote(q))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil { // cannot happen with one design type; the total at least
		total := &genresellers.Money{Amount: q.Total.Amount, Currency: q.Total.Currency}
		return &genresellers.QuoteResult{Pid: q.PID, BillingCycle: string(q.Cycle), Currency: q.Currency, Lines: []*genresellers.QuoteLine{},
			Subtotal: total, Total: total, Net: total}
	}
	return &r
}

// Order places a reseller order. Its password is the reseller panel account's: it proves nothing
// about the email, so the answer carries the caller's own session, unchanged.
func (s *resellersService) Order(ctx context.Context, p *genresellers.OrderPayload) (*genresellers.ResellerOrderResult, error) {
	if p.Password != p.ConfirmPassword {
		return nil, genresellers.MakePasswordMismatch(errors.New(msgPasswordMismatch))
	}
	claims := claimsFrom(ctx)
	o, err := s.resellers.Order(ctx, claims, reseller.Request{
		PID: p.Pid, ExistingReseller: p.ExistingReseller, Currency: deref(p.Currency), Gateway: deref(p.Gateway),
		ReturnURL: deref(p.ReturnURL), IP: clientIP(ctx).String(), Origin: origin(ctx), ReturnOrigins: storefrontOrigins(ctx),
		IdempotencyKey: deref(p.IdempotencyKey), Password: p.Password,
	})
	if err != nil {
		return nil, resellerError(err)
	}
	id, err := s.accounts.Current(ctx, claims, deref(p.Token))
	if err != nil {
		return nil, err
	}
	ses := sessionResult(id)
	r := &genresellers.ResellerOrderResult{
		OrderID: o.ID, InvoiceID: o.Invoice.ID, ServiceIds: o.ServiceIDs, Status: string(o.Status), Fraud: o.Fraud,
		Total:   &genresellers.Money{Amount: o.Quote.Total.Amount, Currency: o.Quote.Total.Currency},
		Session: &genresellers.SessionResult{Token: ses.Token, UserID: ses.UserID, Email: ses.Email, Scope: ses.Scope, ExpiresAt: ses.ExpiresAt},
	}
	if len(o.ServiceIDs) > 0 {
		r.ServiceID = o.ServiceIDs[0]
	}
	if o.Status == order.StatusPending && o.Invoice.Status == order.InvoiceUnpaid {
		r.PaymentURL, r.PaymentDeadline = o.Invoice.PaymentURL, o.Invoice.Deadline.Format(time.RFC3339)
	}
	return r, nil
}

// GetService reads a reseller plan's service.
func (s *resellersService) GetService(ctx context.Context, p *genresellers.GetServicePayload) (*genresellers.ResellerServiceResult, error) {
	v, err := s.resellers.Service(ctx, claimsFrom(ctx), p.ServiceID)
	if err != nil {
		return nil, resellerError(err)
	}
	return &genresellers.ResellerServiceResult{
		ServiceID: v.ID, OrderID: v.OrderID, Pid: v.PID, Name: serviceName(s.catalog(), v.PID, v.Name, p.Locale), Status: string(v.Status),
		Credits: v.Credits, Balance: v.Account.Credits, Account: v.Account.Account,
	}, nil
}
