package httpapi

import (
	"context"
	"errors"

	genadminmail "github.com/streamcart/streamcart/gen/admin_mail"
)

type adminMail struct{ admin }

func (s adminMail) List(ctx context.Context, p *genadminmail.ListPayload) (*genadminmail.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}

func (s adminMail) Resend(ctx context.Context, p *genadminmail.ResendPayload) (*genadminmail.AdminMail, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
