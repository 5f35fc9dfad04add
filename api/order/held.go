package order

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotHeld means the order is not held by the fraud check (any more).
var ErrNotHeld = errors.New("order is not held")

// RequestPayment releases an order the fraud check held so that its buyer may pay it: the order
// is pending again, its invoice unpaid with a fresh deadline (PaymentDeadline from now) and a
// fresh payment link, and the expiry job waits for that deadline. Of concurrent calls one moves
// it; the others get ErrNotHeld. A gateway that cannot make the link now leaves the order pending
// without one (ErrGatewayUnavailable): the buyer's waiting page asks for a link again.
func (s *Orders) RequestPayment(ctx context.Context, id string) (Order, error) {
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return Order{}, fmt.Errorf("request payment: %w", err)
	}
	if o.Status != StatusFraud {
		return Order{}, ErrNotHeld
	}
	g, ok := s.gateways[o.Gateway]
	if !ok {
		return Order{}, fmt.Errorf("request payment: %w", ErrUnknownGateway)
	}
	now := s.now().UTC()
	o.Status, o.UpdatedAt = StatusPending, now
	o.Invoice.Status, o.Invoice.Deadline, o.Invoice.PaymentURL = InvoiceUnpaid, now.Add(PaymentDeadline), ""
	if linker, ok := g.(LocalLinker); ok {
		o.Invoice.PaymentURL = linker.Link(o)
	}
	moved := false
	err = s.store.WithTx(ctx, func(tx Tx) error {
		var err error
		if moved, err = tx.ReopenHeld(ctx, o); err != nil || !moved {
			return err
		}
		return tx.Enqueue(ctx, JobExpire, o.ID, JobExpire+":"+o.ID, o.Invoice.Deadline)
	})
	if err != nil {
		return Order{}, fmt.Errorf("request payment: %w", err)
	}
	if !moved {
		return Order{}, ErrNotHeld
	}
	if o.Invoice.PaymentURL == "" {
		url, err := g.Checkout(ctx, o)
		if err != nil {
			s.log.Error("payment link failed", "order", o.ID, "gateway", o.Gateway, "err", err)
			return o, fmt.Errorf("request payment: payment link: %w", ErrGatewayUnavailable)
		}
		if err := s.store.SetPaymentURL(ctx, o.Invoice.ID, url); err != nil {
			return o, fmt.Errorf("request payment: %w", err)
		}
		o.Invoice.PaymentURL = url
	}
	return o, nil
}
