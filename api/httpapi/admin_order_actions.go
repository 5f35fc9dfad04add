package httpapi

import (
	"context"
	"errors"

	genadminorderactions "github.com/streamcart/streamcart/gen/admin_order_actions"
)

type adminOrderActions struct{ admin }

func (s adminOrderActions) Approve(ctx context.Context, p *genadminorderactions.ApprovePayload) (*genadminorderactions.AdminOrder, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminOrderActions) Reject(ctx context.Context, p *genadminorderactions.RejectPayload) (*genadminorderactions.RejectResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminOrderActions) Refund(ctx context.Context, p *genadminorderactions.RefundPayload) (*genadminorderactions.RefundResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminOrderActions) Refunds(ctx context.Context, p *genadminorderactions.RefundsPayload) (*genadminorderactions.RefundsResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
