package httpapi

import (
	"context"
	"errors"

	genservices "github.com/streamcart/streamcart/gen/services"
)

// errRenewPending marks the renewal endpoints while they are being built this session.
var errRenewPending = errors.New("Renewal from the storefront is not available yet.")

// Renew places or reuses the service's renewal invoice.
func (s *servicesService) Renew(context.Context, *genservices.RenewPayload) (*genservices.OrderResult, error) {
	return nil, genservices.MakeUnavailable(errRenewPending)
}

// Cancel cancels the service's auto-renew.
func (s *servicesService) Cancel(context.Context, *genservices.CancelPayload) (*genservices.ServiceResult, error) {
	return nil, genservices.MakeUnavailable(errRenewPending)
}

// Resume undoes a cancelled auto-renew.
func (s *servicesService) Resume(context.Context, *genservices.ResumePayload) (*genservices.ServiceResult, error) {
	return nil, genservices.MakeUnavailable(errRenewPending)
}
