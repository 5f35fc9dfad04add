package httpapi

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/order"
	gen "github.com/streamcart/streamcart/gen/admin_services"
)

type adminServices struct{ admin }

func (s adminServices) act(ctx context.Context, cookie *string, action, name, id, detail string, do func() (order.Service, error)) (*gen.AdminLine, error) {
	pr, err := s.allow(ctx, cookie, action)
	if err != nil {
		return nil, err
	}
	v, err := do()
	s.Audit.RecordOperator(ctx, pr.Email, name, id, detail, err)
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, gen.MakeNotFound(errors.New(msgNoLine))
	case errors.Is(err, console.ErrLineState):
		return nil, gen.MakeConflict(errors.New(msgLineState + " (" + string(v.Status) + ")"))
	case errors.Is(err, console.ErrPanel):
		return nil, gen.MakeUnavailable(errors.New(msgPanelFailed))
	case err != nil:
		return nil, err
	}
	creds := s.Authz.OperatorAllowed(string(pr.Role), authz.OpReadCredentials)
	l := &gen.AdminLine{ServiceID: v.ID, OrderID: v.OrderID, Pid: v.PID, Name: v.Name, Status: string(v.Status),
		Username: v.Username, Password: v.Password, ExpiresAt: rfc3339(v.ExpiresAt)}
	if !v.NextDueDate.IsZero() {
		l.NextDueDate = v.NextDueDate.UTC().Format(time.DateOnly)
	}
	if !creds {
		l.Username, l.Password = masked, masked
	}
	return l, nil
}

func (s adminServices) Suspend(ctx context.Context, p *gen.SuspendPayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpManageLine, "line-suspend", p.ID, "", func() (order.Service, error) { return s.Actions.Suspend(ctx, p.ID) })
}

func (s adminServices) Unsuspend(ctx context.Context, p *gen.UnsuspendPayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpManageLine, "line-unsuspend", p.ID, "", func() (order.Service, error) { return s.Actions.Unsuspend(ctx, p.ID) })
}

func (s adminServices) Extend(ctx context.Context, p *gen.ExtendPayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpManageLine, "line-extend", p.ID, strconv.Itoa(p.Days)+" days", func() (order.Service, error) {
		return s.Actions.Extend(ctx, p.ID, p.Days)
	})
}

func (s adminServices) Terminate(ctx context.Context, p *gen.TerminatePayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpTerminateLine, "line-terminate", p.ID, "", func() (order.Service, error) { return s.Actions.Terminate(ctx, p.ID) })
}
