package order

import (
	"context"
	"fmt"
)

// fulfilmentStore is what starting a fulfilment needs.
type fulfilmentStore interface {
	Order(ctx context.Context, id string) (Order, error)
	SetOrderStatus(ctx context.Context, id string, to Status, from ...Status) (bool, error)
}

// StartFulfilment reads the paid order id and moves it from paid to provisioning, the first step
// of every fulfilment job (lines, upsells, reseller credits). ok is false when there is nothing to
// do: the order is already active, or must never be fulfilled (fraud, cancelled, failed) — the
// returned order says which. An unknown order is ErrNotFound.
func StartFulfilment(ctx context.Context, s fulfilmentStore, id string) (o Order, ok bool, err error) {
	if o, err = s.Order(ctx, id); err != nil {
		return Order{}, false, err
	}
	if o.Status != StatusPaid && o.Status != StatusProvisioning {
		return o, false, nil
	}
	if _, err := s.SetOrderStatus(ctx, o.ID, StatusProvisioning, StatusPaid); err != nil {
		return o, false, fmt.Errorf("start fulfilment: %w", err)
	}
	return o, true, nil
}
