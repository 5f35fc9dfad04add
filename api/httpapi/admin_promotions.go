package httpapi

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/money"
	gen "github.com/streamcart/streamcart/gen/admin_promotions"
)

const (
	msgNoPromotion     = "No such promotion."
	msgPromotionExists = "A promotion has this code already."
)

type adminPromotions struct{ admin }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func (s adminPromotions) promotion(ctx context.Context, p catalog.Promotion) (*gen.AdminPromotion, error) {
	uses, err := s.Catalog.PromoUses(ctx, p.Code)
	if err != nil {
		return nil, err
	}
	date := func(d string) string {
		if d == catalog.NoDate {
			return ""
		}
		return d
	}
	applies := append([]int{}, p.AppliesTo...)
	var amount *gen.Money
	if p.Type == catalog.PromoFixed {
		cur := s.Catalog.Catalog().DefaultCurrency
		if a, err := money.Parse(p.Value, cur); err == nil {
			amount = &gen.Money{Amount: a, Currency: cur}
		}
	}
	return &gen.AdminPromotion{Amount: amount, Code: p.Code, Type: p.Type, Value: p.Value, AppliesTo: applies, StartDate: date(p.StartDate),
		ExpirationDate: date(p.ExpirationDate), MaxUses: p.MaxUses, Recurring: p.Recurring, Disabled: p.Disabled, Uses: uses,
		Products: console.ProductNames(s.Catalog.Catalog(), applies), Status: s.Catalog.PromoStatus(p)}, nil
}

func (s adminPromotions) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	res := &gen.ListResult{Promotions: []*gen.AdminPromotion{}}
	for _, pr := range s.Catalog.Catalog().Promotions {
		x, err := s.promotion(ctx, pr)
		if err != nil {
			return nil, err
		}
		res.Promotions = append(res.Promotions, x)
	}
	return res, nil
}

// edit saves the change as a new catalog version and answers the promotion as it now is.
func (s adminPromotions) edit(ctx context.Context, cookie *string, code string, add bool, ch console.PromotionChange, detail string) (*gen.AdminPromotion, error) {
	pr, err := s.allow(ctx, cookie, authz.OpEditCatalog)
	if err != nil {
		return nil, err
	}
	code = strings.TrimSpace(code)
	if canonical, ok := catalog.CanonicalPromoCode(code); ok && !add {
		code = canonical
	}
	_, err = s.Catalog.EditPromotion(ctx, code, add, ch, pr.Email)
	s.Audit.RecordOperator(ctx, pr.Email, map[bool]string{true: "promotion-create", false: "promotion-update"}[add], "promotion:"+code, detail, err)
	if probs, ok := catalogProblems(err); ok {
		e := &gen.InvalidCatalog{Name: "invalid_catalog", Message: msgInvalidCatalog, Problems: []*gen.AdminCatalogProblem{}}
		for _, x := range probs {
			e.Problems = append(e.Problems, &gen.AdminCatalogProblem{Line: x.Line, Path: x.Path, Field: x.Path, Message: x.Msg})
		}
		if len(probs) > 0 {
			e.Line, e.Field = probs[0].Line, probs[0].Path
		}
		return nil, e
	}
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, gen.MakeNotFound(errors.New(msgNoPromotion))
	case errors.Is(err, console.ErrExists):
		return nil, gen.MakeConflict(errors.New(msgPromotionExists))
	case err != nil:
		return nil, err
	}
	p, ok := s.Catalog.Catalog().Promotion(code)
	if !ok {
		return nil, errors.New("promotion " + code + " saved but not in the catalog in force")
	}
	return s.promotion(ctx, p)
}

func (s adminPromotions) Create(ctx context.Context, p *gen.CreatePayload) (*gen.AdminPromotion, error) {
	ch := console.PromotionChange{Type: &p.Type, Value: &p.Value, AppliesTo: p.AppliesTo, StartDate: p.StartDate,
		ExpirationDate: p.ExpirationDate, MaxUses: p.MaxUses, Recurring: &p.Recurring}
	return s.edit(ctx, p.Session, p.Code, true, ch, p.Type+" "+p.Value)
}

func (s adminPromotions) Update(ctx context.Context, p *gen.UpdatePayload) (*gen.AdminPromotion, error) {
	ch := console.PromotionChange{Disabled: p.Disabled, StartDate: p.StartDate, ExpirationDate: p.ExpirationDate, MaxUses: p.MaxUses}
	var parts []string
	if p.Disabled != nil {
		parts = append(parts, "disabled="+strconv.FormatBool(*p.Disabled))
	}
	if p.StartDate != nil {
		parts = append(parts, "startDate="+*p.StartDate)
	}
	if p.ExpirationDate != nil {
		parts = append(parts, "expirationDate="+*p.ExpirationDate)
	}
	if p.MaxUses != nil {
		parts = append(parts, "maxUses="+strconv.Itoa(*p.MaxUses))
	}
	return s.edit(ctx, p.Session, p.Code, false, ch, strings.Join(parts, " "))
}
