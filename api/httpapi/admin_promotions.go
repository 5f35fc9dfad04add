package httpapi

import (
	"context"
	"errors"

	genadminpromotions "github.com/streamcart/streamcart/gen/admin_promotions"
)

type adminPromotions struct{ admin }

func (s adminPromotions) List(ctx context.Context, p *genadminpromotions.ListPayload) (*genadminpromotions.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminPromotions) Create(ctx context.Context, p *genadminpromotions.CreatePayload) (*genadminpromotions.AdminPromotion, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminPromotions) Update(ctx context.Context, p *genadminpromotions.UpdatePayload) (*genadminpromotions.AdminPromotion, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
