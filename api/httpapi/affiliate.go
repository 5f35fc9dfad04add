package httpapi

import (
	"context"
	"errors"

	"github.com/streamcart/streamcart/api/affiliate"
	genaffiliates "github.com/streamcart/streamcart/gen/affiliates"
)

type affiliatesService struct {
	affiliates *affiliate.Affiliates
}

// NewAffiliates returns the affiliate click service.
func NewAffiliates(a *affiliate.Affiliates) genaffiliates.Service {
	return &affiliatesService{affiliates: a}
}

// Click records an affiliate click.
func (s *affiliatesService) Click(ctx context.Context, p *genaffiliates.ClickPayload) error {
	err := s.affiliates.RecordClick(ctx, p.AffID, deref(p.Referer), clientIP(ctx).String())
	if errors.Is(err, affiliate.ErrInvalidID) {
		return genaffiliates.MakeBadRequest(errors.New("The affiliate id must be a number."))
	}
	return err
}
