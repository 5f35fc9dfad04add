package httpapi

import (
	"context"
	"errors"

	genadmincustomers "github.com/streamcart/streamcart/gen/admin_customers"
)

type adminCustomers struct{ admin }

func (s adminCustomers) List(ctx context.Context, p *genadmincustomers.ListPayload) (*genadmincustomers.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCustomers) Get(ctx context.Context, p *genadmincustomers.GetPayload) (*genadmincustomers.GetResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCustomers) Signout(ctx context.Context, p *genadmincustomers.SignoutPayload) (*genadmincustomers.SignoutResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminCustomers) SigninLink(ctx context.Context, p *genadmincustomers.SigninLinkPayload) (*genadmincustomers.SigninLinkResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
