package httpapi

import (
	"context"
	"errors"
	"strings"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/operator"
	gen "github.com/streamcart/streamcart/gen/admin_operators"
)

type adminOperators struct{ admin }

func adminOperator(o operator.Operator) *gen.AdminOperator {
	return &gen.AdminOperator{Email: o.Email, Role: string(o.Role), Status: string(o.Status), CreatedAt: rfc3339(o.CreatedAt), DisabledAt: rfc3339(o.DisabledAt)}
}

func (s adminOperators) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	ops, err := s.Operators.List(ctx)
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Operators: []*gen.AdminOperator{}}
	for _, o := range ops {
		res.Operators = append(res.Operators, adminOperator(o))
	}
	return res, nil
}

func (s adminOperators) Invite(ctx context.Context, p *gen.InvitePayload) (*gen.InviteResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpManageOperators)
	if err != nil {
		return nil, err
	}
	inv, err := s.Operators.Add(ctx, p.Email, operator.Role(p.Role))
	s.Audit.RecordOperator(ctx, pr.Email, "operator-invite", "operator:"+strings.ToLower(p.Email), p.Role, err)
	switch {
	case errors.Is(err, operator.ErrExists):
		return nil, gen.MakeConflict(errors.New(msgOperatorExists))
	case errors.Is(err, operator.ErrInvalidEmail), errors.Is(err, operator.ErrInvalidRole):
		return nil, gen.MakeBadRequest(errors.New("Please give a valid email and a role of owner, support or viewer."))
	case err != nil:
		return nil, err
	}
	return &gen.InviteResult{Operator: adminOperator(inv.Operator), SetupURL: inv.Link(s.PublicURL), ExpiresAt: rfc3339(inv.ExpiresAt)}, nil
}

func (s adminOperators) Disable(ctx context.Context, p *gen.DisablePayload) (*gen.AdminOperator, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpManageOperators)
	if err != nil {
		return nil, err
	}
	email := strings.ToLower(strings.TrimSpace(p.Email))
	if email == pr.Email {
		return nil, gen.MakeConflict(errors.New(msgDisableSelf))
	}
	o, err := s.Operators.Disable(ctx, email)
	s.Audit.RecordOperator(ctx, pr.Email, "operator-disable", "operator:"+email, "", err)
	if errors.Is(err, operator.ErrNotFound) {
		return nil, gen.MakeNotFound(errors.New(msgNoOperator))
	}
	if err != nil {
		return nil, err
	}
	return adminOperator(o), nil
}
