package httpapi

import (
	"context"
	"errors"

	genadminaudit "github.com/streamcart/streamcart/gen/admin_audit"
)

type adminAudit struct{ admin }

func (s adminAudit) List(ctx context.Context, p *genadminaudit.ListPayload) (*genadminaudit.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
