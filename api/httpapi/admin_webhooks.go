package httpapi

import (
	"context"
	"errors"
	"strings"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	gen "github.com/streamcart/streamcart/gen/admin_webhooks"
)

type adminWebhooks struct{ admin }

func (s adminWebhooks) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	ws, next, err := s.Actions.WebhookPage(ctx, deref(p.Provider), deref(p.Outcome), deref(p.Cursor), p.Limit)
	if errors.Is(err, console.ErrBadCursor) {
		return nil, gen.MakeBadRequest(errors.New(msgBadCursor))
	}
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Webhooks: []*gen.AdminWebhook{}, NextCursor: next}
	for _, w := range ws {
		outcome, detail, _ := strings.Cut(w.Outcome, ":")
		if w.Processed.IsZero() {
			outcome = "pending"
		}
		res.Webhooks = append(res.Webhooks, &gen.AdminWebhook{ID: w.ID, Provider: w.Provider, EventID: w.EventID, ReceivedAt: rfc3339(w.ReceivedAt),
			ProcessedAt: rfc3339(w.Processed), Outcome: outcome, Detail: strings.TrimSpace(detail), Body: string(w.Body)})
	}
	return res, nil
}
