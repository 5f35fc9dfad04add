package httpapi

import (
	"context"
	"errors"
	"net"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	gen "github.com/streamcart/streamcart/gen/admin_audit"
)

type adminAudit struct{ admin }

func (s adminAudit) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	rows, next, err := s.Actions.AuditPage(ctx, console.AuditFilter{Operator: deref(p.Operator), Action: deref(p.Action), Target: deref(p.Target), IP: deref(p.IP), Limit: p.Limit}, deref(p.Cursor))
	if errors.Is(err, console.ErrBadCursor) {
		return nil, gen.MakeBadRequest(errors.New(msgBadCursor))
	}
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Entries: []*gen.AdminAuditEntry{}, NextCursor: next}
	for _, e := range rows {
		args := e.Args
		if args == nil { // written before parts were kept: read back from the English detail
			args = console.AuditArgs(e.Action, e.Detail)
		}
		if e.Action == audit.ActionSignIn && e.IP == "" && net.ParseIP(e.Detail) != nil {
			// A sign-in written before its address had a field kept it as the detail.
			e.IP, e.Detail = e.Detail, ""
		}
		res.Entries = append(res.Entries, &gen.AdminAuditEntry{ID: e.ID, At: rfc3339(e.At), Operator: e.Operator, CustomerID: e.CustomerID,
			Action: e.Action, Target: e.Target, Result: e.Result, Detail: e.Detail, IP: e.IP,
			Args: append([]string{}, args...)})
	}
	return res, nil
}
