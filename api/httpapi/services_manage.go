package httpapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	goahttp "goa.design/goa/v3/http"

	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// Buyer-facing messages of the service actions.
const (
	msgServiceNotFound  = "Service not found."
	msgInvalidMAC       = "Please enter a valid MAC address: six pairs of hex digits separated by ':' or '-', e.g. 00:1A:79:12:34:56."
	msgConfirmTerminate = "Please confirm that you want to terminate this service: send {\"confirm\": true}."
	msgPanelUnavailable = "The streaming panel is unavailable. Please try again in a few minutes."
	// msgWHMCSUnavailable: WHMCS mode, the seller's WHMCS (whose module acts on the line) failed.
	msgWHMCSUnavailable  = "The shop's billing system (WHMCS) did not answer: nothing was changed. Please try again in a few minutes."
	msgServiceNotActive  = "This service is not active, so this action is not available."
	msgServiceNotManaged = "This action is not available for this service right now."
)

// List returns the services the session may read.
func (s *servicesService) List(ctx context.Context, p *genservices.ListPayload) (*genservices.ListResult, error) {
	all, err := s.manage.List(ctx, claimsFrom(ctx))
	if err != nil {
		return nil, err
	}
	out := &genservices.ListResult{Services: genservices.ServiceResultCollection{}}
	for _, v := range all {
		r, err := s.result(ctx, v, p.Locale)
		if err != nil {
			return nil, err
		}
		out.Services = append(out.Services, r)
	}
	return out, nil
}

// manageError maps a service action's failure to a design error.
func manageError(err error) error {
	switch {
	case errors.Is(err, order.ErrNotFound):
		return genservices.MakeNotFound(errors.New(msgServiceNotFound))
	case errors.Is(err, manage.ErrInvalidMAC):
		return genservices.MakeInvalidMac(errors.New(msgInvalidMAC))
	case errors.Is(err, manage.ErrState):
		return genservices.MakeConflict(errors.New(msgServiceNotActive))
	case errors.Is(err, order.ErrUpstreamUnavailable):
		return genservices.MakeUnavailable(errors.New(msgWHMCSUnavailable))
	case errors.Is(err, panel.ErrUnavailable):
		return genservices.MakeUnavailable(errors.New(msgPanelUnavailable))
	case errors.Is(err, panel.ErrNotFound):
		// The panel lost the line: recreate is the way back.
		return genservices.MakeConflict(errors.New(msgServiceNotManaged))
	}
	return err
}

// managed answers a service action in the requested locale: s.managed(ctx, p.Locale)(action(…)).
func (s *servicesService) managed(ctx context.Context, loc *string) func(order.Service, error) (*genservices.ServiceResult, error) {
	return func(svc order.Service, err error) (*genservices.ServiceResult, error) {
		if err != nil {
			return nil, manageError(err)
		}
		return s.result(ctx, svc, loc)
	}
}

// Restart restarts the line.
func (s *servicesService) Restart(ctx context.Context, p *genservices.RestartPayload) (*genservices.ServiceResult, error) {
	return s.managed(ctx, p.Locale)(s.manage.Restart(ctx, claimsFrom(ctx), p.ServiceID))
}

// Recreate builds the line again.
func (s *servicesService) Recreate(ctx context.Context, p *genservices.RecreatePayload) (*genservices.ServiceResult, error) {
	return s.managed(ctx, p.Locale)(s.manage.Recreate(ctx, claimsFrom(ctx), p.ServiceID))
}

// Terminate deletes the line once confirmed.
func (s *servicesService) Terminate(ctx context.Context, p *genservices.TerminatePayload) (*genservices.ServiceResult, error) {
	if p.Confirm == nil || !*p.Confirm {
		// Ownership first: a foreign id answers not found whatever the body says.
		if _, err := s.manage.Managed(ctx, claimsFrom(ctx), p.ServiceID); err != nil {
			return nil, manageError(err)
		}
		return nil, genservices.MakeBadRequest(errors.New(msgConfirmTerminate))
	}
	return s.managed(ctx, p.Locale)(s.manage.Terminate(ctx, claimsFrom(ctx), p.ServiceID))
}

// SetMac changes the device MAC address.
func (s *servicesService) SetMac(ctx context.Context, p *genservices.SetMacPayload) (*genservices.ServiceResult, error) {
	return s.managed(ctx, p.Locale)(s.manage.SetMAC(ctx, claimsFrom(ctx), p.ServiceID, p.MacAddress))
}

// emptyAsObject reads an empty request body as {}: POST /services/{id}/terminate without a body
// then reaches the service, which answers the ownership check (404) or asks for the confirmation
// (400 bad_request), instead of a decoder's missing_payload.
func emptyAsObject(next func(*http.Request) goahttp.Decoder) func(*http.Request) goahttp.Decoder {
	return func(r *http.Request) goahttp.Decoder {
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			r.Body = io.NopCloser(strings.NewReader("{}"))
		}
		return next(r)
	}
}
