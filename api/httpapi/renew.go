package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// Buyer-facing messages of renewals.
const (
	msgNotRenewable   = "This service cannot be renewed in its current state."
	msgNotSold        = "This billing cycle or plan is not available for renewal."
	msgBeingApplied   = "The renewal of this period is paid and being applied. Please reload in a minute."
	msgNotCancellable = "Auto-renew cannot be cancelled for this service: it is already cancelled, or the service does not renew."
	msgNotResumable   = "Auto-renew cannot be resumed: it was not cancelled, or the service has already ended."
	msgReturnURL      = "The return URL must be a path or a URL on this site."
	// msgTrialConversion: WHMCS mode, where a free trial is not turned into a paid plan in place.
	msgTrialConversion = "This free trial cannot be turned into a paid plan here. Please order the plan you want: it comes with its own line, and your trial keeps running until it ends. Nothing was charged."
)

// Renew answers the order paying the service's next period.
func (s *servicesService) Renew(ctx context.Context, p *genservices.RenewPayload) (*genservices.OrderResult, error) {
	claims := claimsFrom(ctx)
	svc, err := s.service(ctx, p.ServiceID)
	if err != nil {
		return nil, err
	}
	req := renewal.Request{Cycle: catalog.Cycle(deref(p.BillingCycle)), PID: deref(p.Pid), Gateway: deref(p.Gateway),
		ReturnURL: deref(p.ReturnURL), Origins: append([]string{origin(ctx)}, storefrontOrigins(ctx)...)}
	renew := s.renewals.Renew
	if s.upstreamRenew != nil {
		renew = s.upstreamRenew.Renew
	}
	o, err := renew(ctx, claims, svc, req)
	if err != nil {
		return nil, renewError(err)
	}
	r, err := s.orderResults.result(ctx, o)
	if err != nil {
		return nil, err
	}
	var out genservices.OrderResult
	if err := sameShape(r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// renewError maps a renewal's failure to a design error.
func renewError(err error) error {
	switch {
	case errors.Is(err, renewal.ErrTrialConversion):
		return genservices.MakeConflict(errors.New(msgTrialConversion))
	case errors.Is(err, renewal.ErrNotRenewable):
		return genservices.MakeConflict(errors.New(msgNotRenewable))
	case errors.Is(err, renewal.ErrBeingApplied), errors.Is(err, order.ErrNotPending):
		return genservices.MakeConflict(errors.New(msgBeingApplied))
	case errors.Is(err, renewal.ErrNotSold):
		return genservices.MakeBadRequest(errors.New(msgNotSold))
	case errors.Is(err, order.ErrUnknownGateway):
		return genservices.MakeBadRequest(errors.New(msgUnknownGateway))
	case errors.Is(err, order.ErrBadReturnURL):
		return genservices.MakeBadRequest(errors.New(msgReturnURL))
	case errors.Is(err, order.ErrGatewayUnavailable):
		return genservices.MakeUnavailable(errors.New(msgGatewayUnavailable))
	case errors.Is(err, order.ErrUpstreamUnavailable):
		return genservices.MakeUnavailable(errors.New(msgBillingUnavailable))
	case errors.Is(err, order.ErrOutOfStock):
		return genservices.MakeOutOfStock(errors.New(msgOutOfStock))
	}
	return err
}

// Cancel cancels the service's auto-renew.
func (s *servicesService) Cancel(ctx context.Context, p *genservices.CancelPayload) (*genservices.ServiceResult, error) {
	return s.autoRenew(ctx, p.ServiceID, p.Locale, "cancel-auto-renew", s.renewals.CancelAutoRenew, msgNotCancellable)
}

// Resume undoes a cancelled auto-renew.
func (s *servicesService) Resume(ctx context.Context, p *genservices.ResumePayload) (*genservices.ServiceResult, error) {
	return s.autoRenew(ctx, p.ServiceID, p.Locale, "resume-auto-renew", s.renewals.ResumeAutoRenew, msgNotResumable)
}

// autoRenew runs a change of auto-renew for a proven session of the service's client, audited.
func (s *servicesService) autoRenew(ctx context.Context, id string, loc *string, action string,
	change func(context.Context, order.Service) (order.Service, error), refused string) (*genservices.ServiceResult, error) {
	claims := claimsFrom(ctx)
	svc, err := s.manage.Managed(ctx, claims, id)
	if err != nil {
		return nil, manageError(err)
	}
	got, err := change(ctx, svc)
	s.manage.Audit(ctx, claims, action, id, err)
	if errors.Is(err, renewal.ErrNotRenewable) {
		return nil, genservices.MakeConflict(errors.New(refused))
	}
	if err != nil {
		return nil, err
	}
	return s.result(ctx, got, loc)
}

// sameShape copies a Goa result into the same result type generated for another service
// (OrderResult is shared by the order and services services; Goa generates one Go type for each).
func sameShape(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return fmt.Errorf("copy result: %w", err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		return fmt.Errorf("copy result: %w", err)
	}
	return nil
}
