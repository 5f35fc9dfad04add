package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/pricing"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
)

// Messages shared with the widget: spec §5 gives the exact text of the not-applicable answer.
const (
	msgPromoNotApplicable = "This Coupon is not available for this product."
	msgPromoNotFound      = "This promo code does not exist or has expired."
)

// PromoUses counts how often a promotion was used, and reads the catalog a code is checked
// against (order.Orders: in WHMCS mode with the code's promotion as WHMCS has it now).
type PromoUses interface {
	PromoUses(ctx context.Context, code string) (int, error)
	PromoCatalog(ctx context.Context, code string) *catalog.Catalog
}

type promotionService struct {
	uses PromoUses
	now  func() time.Time
}

// NewPromotion returns the promotion service, checking codes against uses.PromoCatalog; now is the business clock promotion dates are
// checked on (the orders' clock), time.Now when nil.
func NewPromotion(uses PromoUses, now func() time.Time) genpromotion.Service {
	return &promotionService{uses: uses, now: clock.OrReal(now)}
}

// Get looks a promo code up.
func (s *promotionService) Get(ctx context.Context, p *genpromotion.GetPayload) (*genpromotion.PromotionResult, error) {
	cat := s.uses.PromoCatalog(ctx, p.Code)
	promo, ok := cat.Promotion(p.Code)
	if !ok {
		return nil, genpromotion.MakeNotFound(errors.New(msgPromoNotFound))
	}
	uses := 0
	if promo.MaxUses > 0 {
		n, err := s.uses.PromoUses(ctx, promo.Code)
		if err != nil {
			return nil, err
		}
		uses = n
	}
	pid := 0
	if p.Pid != nil {
		pid = *p.Pid
	}
	promo, err := pricing.CheckPromotion(cat, p.Code, pid, uses, s.now())
	switch {
	case errors.Is(err, pricing.ErrPromoNotApplicable):
		return nil, genpromotion.MakeNotApplicable(errors.New(msgPromoNotApplicable))
	case errors.Is(err, pricing.ErrPromoNotFound):
		return nil, genpromotion.MakeNotFound(errors.New(msgPromoNotFound))
	case err != nil:
		return nil, err
	}
	return &genpromotion.PromotionResult{
		Code: promo.Code, Type: promo.Type, Value: promo.Value, AppliesTo: nonNilInts(promo.AppliesTo),
		StartDate: promo.StartDate, ExpirationDate: promo.ExpirationDate,
	}, nil
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
