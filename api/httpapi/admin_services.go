package httpapi

import (
	"context"
	"errors"

	genadminservices "github.com/streamcart/streamcart/gen/admin_services"
)

type adminServices struct{ admin }

func (s adminServices) Suspend(ctx context.Context, p *genadminservices.SuspendPayload) (*genadminservices.AdminLine, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminServices) Unsuspend(ctx context.Context, p *genadminservices.UnsuspendPayload) (*genadminservices.AdminLine, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminServices) Extend(ctx context.Context, p *genadminservices.ExtendPayload) (*genadminservices.AdminLine, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminServices) Terminate(ctx context.Context, p *genadminservices.TerminatePayload) (*genadminservices.AdminLine, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
