package httpapi

import (
	"context"
	"errors"
	"strconv"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/mail"
	gen "github.com/streamcart/streamcart/gen/admin_mail"
)

type adminMail struct{ admin }

func adminMailOf(m mail.Stored) *gen.AdminMail {
	return &gen.AdminMail{ID: m.ID, To: m.To, Subject: m.Subject, Status: m.Status, Attempts: m.Attempts, LastError: m.LastError,
		CreatedAt: rfc3339(m.CreatedAt), SentAt: rfc3339(m.SentAt)}
}

func (s adminMail) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	ms, next, err := s.Actions.MailPage(ctx, deref(p.Status), deref(p.Q), deref(p.Cursor), p.Limit)
	if errors.Is(err, console.ErrBadCursor) {
		return nil, gen.MakeBadRequest(errors.New(msgBadCursor))
	}
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Mails: []*gen.AdminMail{}, NextCursor: next}
	for _, m := range ms {
		res.Mails = append(res.Mails, adminMailOf(m))
	}
	return res, nil
}

func (s adminMail) Resend(ctx context.Context, p *gen.ResendPayload) (*gen.AdminMail, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpResendMail)
	if err != nil {
		return nil, err
	}
	m, err := s.Actions.Resend(ctx, p.ID)
	s.Audit.RecordOperator(ctx, pr.Email, "mail-resend", "mail:"+strconv.FormatInt(p.ID, 10), m.To, err)
	if errors.Is(err, console.ErrNotFound) {
		return nil, gen.MakeNotFound(errors.New(msgNoMail))
	}
	if err != nil {
		return nil, err
	}
	return adminMailOf(m), nil
}
