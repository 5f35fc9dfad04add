package httpapi

import (
	"context"
	"errors"

	genadminoperators "github.com/streamcart/streamcart/gen/admin_operators"
)

type adminOperators struct{ admin }

func (s adminOperators) List(ctx context.Context, p *genadminoperators.ListPayload) (*genadminoperators.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminOperators) Invite(ctx context.Context, p *genadminoperators.InvitePayload) (*genadminoperators.InviteResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminOperators) Disable(ctx context.Context, p *genadminoperators.DisablePayload) (*genadminoperators.AdminOperator, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
