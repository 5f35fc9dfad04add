package order

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
)

var (
	// ErrDecided means a payment to review was refunded or accepted already, or a refund of it
	// is under way.
	ErrDecided = errors.New("payment refunded or accepted already")
	// ErrReferenceRequired means a payment its provider cannot refund (crypto) is marked refunded
	// by hand only with the transaction reference of that refund.
	ErrReferenceRequired = errors.New("a manual refund needs its transaction reference")
	// ErrOrderPaid means a payment to review cannot be accepted: its order is paid already.
	ErrOrderPaid = errors.New("order paid already")
	// ErrRefundUnavailable means the provider refused the refund or could not be reached.
	ErrRefundUnavailable = errors.New("provider refund failed")
)

// MismatchReason names how paid differs from expected: another currency, less or more.
func MismatchReason(paid, expected money.Money) string {
	switch {
	case !strings.EqualFold(paid.Currency, expected.Currency):
		return ReasonCurrency
	case paid.Amount < expected.Amount:
		return ReasonShort
	case paid.Amount > expected.Amount:
		return ReasonOver
	}
	return ""
}

// HoldPayment records money that arrived for an invoice but cannot settle it (short, over,
// another currency; expected is what was asked) as a payment to review, and holds a pending order
// (status fraud, never provisioned) for the owner to refund or accept it. reason "" is worked out
// from the amounts. Nothing is refunded by itself: the owner decides. A transaction recorded
// already changes nothing (ErrAlreadySettled).
func (s *Orders) HoldPayment(ctx context.Context, invoiceID string, p Payment, expected money.Money, reason string) (Order, error) {
	if reason == "" {
		reason = MismatchReason(p.Amount, expected)
	}
	var r Review
	err := s.store.WithTx(ctx, func(tx Tx) error {
		o, err := tx.InvoiceOrder(ctx, invoiceID)
		if err != nil {
			return err
		}
		if p.Provider == "" {
			p.Provider = o.Invoice.Gateway
		}
		if p.Provider != o.Invoice.Gateway {
			return ErrWrongProvider
		}
		if o.Invoice.TransactionID == p.TransactionID {
			return ErrAlreadySettled
		}
		r = Review{ID: id.New("pay_"), OrderID: o.ID, InvoiceID: invoiceID, Provider: p.Provider, TransactionID: p.TransactionID,
			PaymentRef: p.Ref, Amount: p.Amount, Expected: expected, Reason: reason, State: ReviewOpen, CreatedAt: s.now().UTC()}
		inserted, err := tx.InsertReview(ctx, r)
		if err != nil {
			return err
		}
		if !inserted {
			return ErrAlreadySettled
		}
		_, err = tx.SetOrderStatus(ctx, o.ID, StatusFraud, StatusPending)
		return err
	})
	if err != nil {
		return Order{}, fmt.Errorf("hold %s: %w", invoiceID, err)
	}
	s.log.Warn("payment to review, order held", "order", r.OrderID, "invoice", invoiceID, "provider", r.Provider,
		"transaction", r.TransactionID, "amount", r.Amount.Amount, "currency", r.Amount.Currency,
		"expected", r.Expected.Amount, "expected_currency", r.Expected.Currency, "reason", reason)
	return s.store.Order(ctx, r.OrderID)
}

// CanRefund reports whether provider refunds a payment through its API (else by hand).
func (s *Orders) CanRefund(provider string) bool {
	_, ok := s.gateways[provider].(Refunder)
	return ok
}

// RefundPayment gives back a payment to review in full, once: through its provider where the
// provider can refund (Stripe, the sandbox), else (crypto) it is marked refunded by hand with
// reference, the transaction of the refund the owner made (ErrReferenceRequired without).
// A payment decided already, or being refunded, is ErrDecided; a provider that refuses is
// ErrRefundUnavailable and the payment stays to review.
func (s *Orders) RefundPayment(ctx context.Context, id, reference, operator string) (Review, error) {
	r, err := s.store.Review(ctx, id)
	if err != nil {
		return r, fmt.Errorf("refund payment %s: %w", id, err)
	}
	reference = strings.TrimSpace(reference)
	if !s.CanRefund(r.Provider) && reference == "" {
		return r, fmt.Errorf("refund payment %s: %w", id, ErrReferenceRequired)
	}
	if r.State != ReviewOpen {
		return r, fmt.Errorf("refund payment %s: %w", id, ErrDecided)
	}
	r, err = s.refund(ctx, r, reference, operator)
	if err != nil {
		return r, fmt.Errorf("refund payment %s: %w", id, err)
	}
	return r, nil
}

// refund claims r's refund, refunds it through its provider (or records reference for one made
// by hand) and records the outcome; operator "" is the automatic refund job.
func (s *Orders) refund(ctx context.Context, r Review, reference, operator string) (Review, error) {
	claimed, err := s.store.ClaimRefund(ctx, r.ID)
	if err != nil {
		return r, err
	}
	if !claimed {
		return r, ErrDecided
	}
	r.DecidedBy = operator
	if g, ok := s.gateways[r.Provider].(Refunder); ok {
		refundID, err := g.Refund(ctx, r)
		if err != nil {
			if ferr := s.store.FinishRefund(ctx, r, err.Error()); ferr != nil {
				err = errors.Join(err, ferr)
			}
			return r, fmt.Errorf("%w: %v", ErrRefundUnavailable, err)
		}
		r.RefundID = refundID
	} else {
		r.Reference = reference
	}
	r.State, r.RefundedAt = ReviewRefunded, s.now().UTC()
	if err := s.store.FinishRefund(ctx, r, ""); err != nil {
		return r, err
	}
	s.log.Warn("payment refunded", "order", r.OrderID, "invoice", r.InvoiceID, "provider", r.Provider, "refund", r.RefundID,
		"reference", r.Reference, "amount", r.Amount.Amount, "currency", r.Amount.Currency, "reason", r.Reason, "operator", operator)
	return r, nil
}

// RefundOrderPayments refunds the payments to review of an order through their providers (a
// held order rejected); those only refundable by hand are answered still to review, for the
// owner to refund with a reference.
func (s *Orders) RefundOrderPayments(ctx context.Context, orderID, operator string) ([]Review, error) {
	rs, err := s.store.OrderReviews(ctx, orderID, ReviewOpen)
	if err != nil {
		return nil, err
	}
	out := make([]Review, 0, len(rs))
	for _, r := range rs {
		if s.CanRefund(r.Provider) {
			if r, err = s.refund(ctx, r, "", operator); errors.Is(err, ErrDecided) {
				continue
			} else if err != nil {
				return out, fmt.Errorf("refund payments of %s: %w", orderID, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// AcceptPayment takes a payment to review as payment of its order, once: the invoice is paid
// by it, the order paid and its provisioning queued, as for a payment that settled. The invoice
// keeps its amount and currency; the money that arrived (short, over, or in another currency)
// is on the payment row: the seller takes it as full payment. An order paid already cannot take
// it (ErrOrderPaid: refund it instead); one decided already or being refunded is ErrDecided.
func (s *Orders) AcceptPayment(ctx context.Context, id, operator string) (Review, Order, error) {
	var r Review
	err := s.store.WithTx(ctx, func(tx Tx) error {
		var err error
		if r, err = tx.AcceptReview(ctx, id, operator, s.now().UTC()); err != nil {
			return err
		}
		o, err := tx.Order(ctx, r.OrderID)
		if err != nil {
			return err
		}
		paid, err := tx.PayInvoice(ctx, o.Invoice.ID, r.TransactionID, s.now().UTC())
		if err != nil {
			return err
		}
		if !paid {
			return ErrOrderPaid
		}
		if _, err := tx.NumberInvoice(ctx, o.Invoice.ID, s.invoicePattern(), s.now()); err != nil {
			return err
		}
		moved, err := tx.SetOrderStatus(ctx, o.ID, StatusPaid, StatusFraud, StatusNeedsReview, StatusPending, StatusCancelled, StatusFailed)
		if err != nil {
			return err
		}
		if !moved {
			return ErrOrderPaid
		}
		return tx.Enqueue(ctx, JobProvision, o.ID, JobProvision+":"+o.ID, s.now())
	})
	if err != nil {
		return r, Order{}, fmt.Errorf("accept payment %s: %w", id, err)
	}
	o, err := s.store.Order(ctx, r.OrderID)
	if err != nil {
		return r, o, err
	}
	r.State, r.DecidedBy = ReviewAccepted, operator
	s.log.Warn("payment accepted", "order", r.OrderID, "invoice", r.InvoiceID, "provider", r.Provider, "transaction", r.TransactionID,
		"amount", r.Amount.Amount, "currency", r.Amount.Currency, "expected", r.Expected.Amount, "expected_currency", r.Expected.Currency,
		"reason", r.Reason, "operator", operator)
	s.cfg.Observe(EventPaid, o)
	s.cfg.OnPaid()
	return r, o, nil
}
