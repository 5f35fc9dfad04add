package httpapi

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	gen "github.com/streamcart/streamcart/gen/admin_services"
)

type adminServices struct{ admin }

func (s adminServices) act(ctx context.Context, cookie *string, action, name, id, detail string, do func(operator.Principal) (order.Service, error)) (*gen.AdminLine, error) {
	pr, err := s.allow(ctx, cookie, action)
	if err != nil {
		return nil, err
	}
	v, err := do(pr)
	s.Audit.RecordOperator(ctx, pr.Email, name, id, detail, err)
	var limit *console.ExtendLimitError
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, gen.MakeNotFound(errors.New(msgNoLine))
	case errors.Is(err, console.ErrBilledElsewhere):
		return nil, gen.MakeConflict(fmt.Errorf("This line is billed in %s: %s it there.", s.Actions.BilledIn(), name[len("line-"):]))
	case errors.Is(err, console.ErrLineState):
		return nil, gen.MakeConflict(errors.New(msgLineState + " (" + string(v.Status) + ")"))
	case errors.As(err, &limit):
		return nil, gen.MakeExtendLimit(fmt.Errorf("Support may extend a line by at most %d days within 30 days: %d days remain for this line.", limit.Cap, limit.Left))
	case errors.Is(err, console.ErrPanel) && errors.Is(err, order.ErrUpstreamUnavailable):
		return nil, gen.MakeUnavailable(errors.New(msgWHMCSFailed))
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
	return s.act(ctx, p.Session, authz.OpManageLine, "line-suspend", p.ID, "", func(operator.Principal) (order.Service, error) { return s.Actions.Suspend(ctx, p.ID) })
}

func (s adminServices) Unsuspend(ctx context.Context, p *gen.UnsuspendPayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpManageLine, "line-unsuspend", p.ID, "", func(operator.Principal) (order.Service, error) { return s.Actions.Unsuspend(ctx, p.ID) })
}

func (s adminServices) Extend(ctx context.Context, p *gen.ExtendPayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpManageLine, "line-extend", p.ID, strconv.Itoa(p.Days)+" days", func(pr operator.Principal) (order.Service, error) {
		// Only the owner is not capped (support is the other role that may extend).
		return s.Actions.Extend(ctx, p.ID, p.Days, pr.Email, pr.Role != operator.RoleOwner)
	})
}

func (s adminServices) Terminate(ctx context.Context, p *gen.TerminatePayload) (*gen.AdminLine, error) {
	return s.act(ctx, p.Session, authz.OpTerminateLine, "line-terminate", p.ID, "", func(operator.Principal) (order.Service, error) { return s.Actions.Terminate(ctx, p.ID) })
}
