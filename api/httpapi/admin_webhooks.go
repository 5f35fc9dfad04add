package httpapi

import (
	"context"
	"errors"

	genadminwebhooks "github.com/streamcart/streamcart/gen/admin_webhooks"
)

type adminWebhooks struct{ admin }

func (s adminWebhooks) List(ctx context.Context, p *genadminwebhooks.ListPayload) (*genadminwebhooks.ListResult, error) {
	if _, err := s.signedIn(ctx, p.Session); err != nil {
		return nil, err
	}
	return nil, errors.New("not built yet")
}
