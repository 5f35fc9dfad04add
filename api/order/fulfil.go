package order

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/job"
)

// Fulfilment is the handler of JobProvision: it reads the paid order the job names and runs the
// fulfiller of its kind (fulfil), a lookup by the kind stored with the order. An unknown order,
// or a kind without a fulfiller, fails for good: no retry can change either.
func Fulfilment(orders interface {
	Order(ctx context.Context, id string) (Order, error)
}, fulfil map[Kind]job.Handler) job.Handler {
	return func(ctx context.Context, j job.Job) error {
		o, err := jobRead(ctx, "fulfil order", j.Ref, orders.Order)
		if err != nil {
			return err
		}
		h, ok := fulfil[o.Kind]
		if !ok {
			return job.Permanent(fmt.Errorf("fulfil order %s: no fulfiller for kind %q", o.ID, o.Kind))
		}
		return h(ctx, j)
	}
}

// jobRead reads what a job names with read; an unknown ref fails the job for good (no retry can
// find it), any other error is retried. The error says what the job was doing.
func jobRead[T any](ctx context.Context, doing, ref string, read func(ctx context.Context, id string) (T, error)) (T, error) {
	v, err := read(ctx, ref)
	if errors.Is(err, ErrNotFound) {
		return v, job.Permanent(fmt.Errorf("%s %s: %w", doing, ref, err))
	}
	if err != nil {
		return v, fmt.Errorf("%s %s: %w", doing, ref, err)
	}
	return v, nil
}

// fulfilmentStore is what starting a fulfilment needs.
type fulfilmentStore interface {
	Order(ctx context.Context, id string) (Order, error)
	SetOrderStatus(ctx context.Context, id string, to Status, from ...Status) (bool, error)
}

// StartFulfilment reads the paid order id and moves it from paid to provisioning, the first step
// of every fulfilment job (lines, upsells, reseller credits, renewals). ok is false when there is
// nothing to do: the order is already active, or must never be fulfilled (fraud, cancelled,
// failed) — the returned order says which. An unknown order is ErrNotFound, marked permanent:
// no retry of the job can find it.
func StartFulfilment(ctx context.Context, s fulfilmentStore, id string) (o Order, ok bool, err error) {
	if o, err = s.Order(ctx, id); errors.Is(err, ErrNotFound) {
		return Order{}, false, job.Permanent(err)
	} else if err != nil {
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

// Finisher ends a fulfilment (the store): provisioning → active, or partially_refunded when a
// refund was given while it ran (package refund leaves a fulfilment's status alone, so a partial
// refund never stops it). moved false: the order was not provisioning.
type Finisher interface {
	FinishFulfilment(ctx context.Context, id string) (moved bool, err error)
}
