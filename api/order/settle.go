package order

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/numbering"
)

// Settle records a payment of the invoice's amount through the invoice's own gateway (the
// sandbox page); see SettlePayment.
func (s *Orders) Settle(ctx context.Context, invoiceID, txn string) (Order, error) {
	return s.SettlePayment(ctx, invoiceID, Payment{TransactionID: txn})
}

// SettlePayment records a payment of an invoice. A pending order with an unpaid invoice before
// its deadline is paid and queued for provisioning. Money for any other order (cancelled,
// expired, held, failed, already paid) is never kept silently: the order moves to
// StatusNeedsReview, the payment is recorded as a Review, refunded by a JobRefund where the
// gateway can and logged at WARN, and ErrNeedsReview is returned with the order. A second
// delivery of the same transaction changes nothing and returns ErrAlreadySettled; a payment
// reported by another provider than the invoice's settles nothing (ErrWrongProvider).
func (s *Orders) SettlePayment(ctx context.Context, invoiceID string, p Payment) (Order, error) {
	var o Order
	var review *Review
	err := s.store.WithTx(ctx, func(tx Tx) error {
		var err error
		review = nil
		if o, err = tx.InvoiceOrder(ctx, invoiceID); err != nil {
			return err
		}
		if p.Provider == "" {
			p.Provider = o.Invoice.Gateway
		}
		if p.Amount.Currency == "" {
			p.Amount = o.Invoice.Amount
		}
		if p.Provider != o.Invoice.Gateway {
			return ErrWrongProvider
		}
		if o.Invoice.TransactionID == p.TransactionID {
			return ErrAlreadySettled
		}
		reason := s.unpayable(o)
		if reason == "" {
			moved, err := tx.SetInvoiceStatus(ctx, invoiceID, InvoicePaid, p.TransactionID, s.now())
			if err != nil {
				return err
			}
			if moved {
				// Numbered in the transaction that marks it paid: an invoice never paid takes no
				// number, and one whose settlement rolls back gives its number back.
				if _, err := tx.NumberInvoice(ctx, invoiceID, s.invoicePattern(), s.now()); err != nil {
					return err
				}
				if _, err := tx.SetOrderStatus(ctx, o.ID, StatusPaid, StatusPending); err != nil {
					return err
				}
				return tx.Enqueue(ctx, JobProvision, o.ID, JobProvision+":"+o.ID, s.now())
			}
			// Read again under the order's lock SetInvoiceStatus took: a concurrent settlement or
			// cancellation may have committed since the first read.
			if o, err = tx.InvoiceOrder(ctx, invoiceID); err != nil {
				return err
			}
			if o.Invoice.TransactionID == p.TransactionID {
				return ErrAlreadySettled
			}
			if reason = s.unpayable(o); reason == "" { // the transaction id settled another invoice
				return ErrAlreadySettled
			}
		}
		if o.Invoice.Status == InvoiceUnpaid {
			// Past its deadline before the expiry job ran, or held: nothing is payable any more.
			if _, err := tx.SetInvoiceStatus(ctx, invoiceID, InvoiceCancelled, "", s.now()); err != nil {
				return err
			}
		}
		r, err := s.putReview(ctx, tx, o, p, reason)
		review = r
		return err
	})
	if err != nil {
		return Order{}, fmt.Errorf("settle %s: %w", invoiceID, err)
	}
	if review != nil {
		s.reviewed(*review)
		o, err = s.store.Order(ctx, o.ID)
		if err != nil {
			return Order{}, err
		}
		return o, fmt.Errorf("settle %s: %w", invoiceID, &ReviewError{Reason: review.Reason})
	}
	s.cfg.Observe(EventPaid, o)
	s.cfg.OnPaid()
	return s.store.Order(ctx, o.ID)
}

// invoicePattern is the catalog's invoice number pattern, the default when it sets none.
func (s *Orders) invoicePattern() string {
	if c := s.catalog(); c != nil && c.InvoiceNumber != "" {
		return c.InvoiceNumber
	}
	return numbering.DefaultInvoice
}

// unpayable says why o cannot take a payment now; "" when it can.
func (s *Orders) unpayable(o Order) string {
	late := !o.Invoice.Deadline.IsZero() && s.now().After(o.Invoice.Deadline)
	switch o.Status {
	case StatusPending:
		switch {
		case o.Invoice.Status != InvoiceUnpaid:
			return ReasonAlreadyPaid
		case late:
			return ReasonExpired
		}
		return ""
	case StatusFraud:
		return ReasonHeld
	case StatusCancelled:
		if late {
			return ReasonExpired
		}
		return ReasonCancelled
	case StatusFailed:
		return ReasonFailed
	case StatusNeedsReview:
		return ReasonInReview
	}
	return ReasonAlreadyPaid // paid, provisioning, active
}

// putReview records p as a payment under review of o and moves o to StatusNeedsReview, except
// an order being fulfilled (paid, provisioning): a second payment must not stop the first one's
// delivery. The refund is queued when the gateway can refund. A transaction recorded already is
// a duplicate delivery: ErrAlreadySettled, nothing changes.
func (s *Orders) putReview(ctx context.Context, tx Tx, o Order, p Payment, reason string) (*Review, error) {
	now := s.now().UTC()
	r := Review{
		ID: id.New("pay_"), OrderID: o.ID, InvoiceID: o.Invoice.ID, Provider: p.Provider, TransactionID: p.TransactionID,
		PaymentRef: p.Ref, Amount: p.Amount, Expected: o.Invoice.Amount, Reason: reason, State: ReviewOpen, CreatedAt: now,
	}
	inserted, err := tx.InsertReview(ctx, r)
	if err != nil {
		return nil, err
	}
	if !inserted {
		return nil, ErrAlreadySettled
	}
	if _, err := tx.SetOrderStatus(ctx, o.ID, StatusNeedsReview, StatusPending, StatusCancelled, StatusFraud, StatusFailed, StatusActive); err != nil {
		return nil, err
	}
	if _, ok := s.gateways[r.Provider].(Refunder); ok {
		if err := tx.Enqueue(ctx, JobRefund, r.ID, JobRefund+":"+r.ID, now); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// reviewed logs a committed Review and wakes the worker for its refund.
func (s *Orders) reviewed(r Review) {
	_, refundable := s.gateways[r.Provider].(Refunder)
	s.log.Warn("payment needs review", "order", r.OrderID, "invoice", r.InvoiceID, "provider", r.Provider,
		"transaction", r.TransactionID, "amount", r.Amount.Amount, "currency", r.Amount.Currency, "reason", r.Reason,
		"refund", map[bool]string{true: "automatic", false: "by hand: streamcart payments review"}[refundable])
	if refundable {
		s.cfg.OnPaid()
	}
}

// ReviewPaid sets aside a paid order whose purchase cannot be delivered any more (an upsell whose
// line was terminated): the order moves from paid or provisioning to StatusNeedsReview and its
// payment is refunded or listed like a late payment. An order already reviewed changes nothing.
func (s *Orders) ReviewPaid(ctx context.Context, orderID, reason string) error {
	var review *Review
	err := s.store.WithTx(ctx, func(tx Tx) error {
		review = nil
		o, err := tx.Order(ctx, orderID)
		if err != nil {
			return err
		}
		if o.Invoice.Status != InvoicePaid {
			return nil
		}
		moved, err := tx.SetOrderStatus(ctx, o.ID, StatusNeedsReview, StatusPaid, StatusProvisioning)
		if err != nil || !moved {
			return err
		}
		p := Payment{Provider: o.Invoice.Gateway, TransactionID: o.Invoice.TransactionID, Amount: o.Invoice.Amount}
		review, err = s.putReview(ctx, tx, o, p, reason)
		if errors.Is(err, ErrAlreadySettled) {
			review, err = nil, nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("review order %s: %w", orderID, err)
	}
	if review != nil {
		s.reviewed(*review)
	}
	return nil
}

// Refund is the JobRefund handler's work: it gives back the payment under review id through its
// gateway and records the refund, or why it failed (the job retries, a bounded number of times).
// A payment the owner refunded or accepted meanwhile, or is refunding now, is left alone.
func (s *Orders) Refund(ctx context.Context, id string) error {
	r, err := s.store.Review(ctx, id)
	if err != nil {
		return fmt.Errorf("refund %s: %w", id, err)
	}
	if r.State != ReviewOpen {
		return nil
	}
	if _, ok := s.gateways[r.Provider].(Refunder); !ok {
		return nil // listed for the operator
	}
	if _, err := s.refund(ctx, r, "", ""); err != nil && !errors.Is(err, ErrDecided) {
		return fmt.Errorf("refund %s: %w", id, err)
	}
	return nil
}

// ErrAmountMismatch means a provider reported a payment whose amount or currency differs from the
// invoice's: the order is held for review (status fraud) instead of being provisioned.
var ErrAmountMismatch = errors.New("paid amount differs from the invoice")

// SettleVerified settles an invoice a payment provider reported paid, after checking that the
// provider charged exactly the invoice's amount in its currency. A mismatch on a payable order
// settles nothing: the order is held and the money recorded as a payment to review (HoldPayment);
// the owner refunds or accepts it. A payment of an order that cannot take one goes to review
// whatever its amount (SettlePayment).
func (s *Orders) SettleVerified(ctx context.Context, invoiceID string, p Payment) (Order, error) {
	o, err := s.store.InvoiceOrder(ctx, invoiceID)
	if err != nil {
		return Order{}, fmt.Errorf("settle %s: %w", invoiceID, err)
	}
	paid := p.Amount
	if s.unpayable(o) == "" && (paid.Amount != o.Invoice.Amount.Amount || !strings.EqualFold(paid.Currency, o.Invoice.Amount.Currency)) {
		p.Amount.Currency = strings.ToUpper(paid.Currency)
		if o, err = s.HoldPayment(ctx, invoiceID, p, o.Invoice.Amount, ""); err != nil {
			return o, err
		}
		return o, fmt.Errorf("settle %s: %w", invoiceID, ErrAmountMismatch)
	}
	p.Amount = money.Money{Amount: paid.Amount, Currency: strings.ToUpper(paid.Currency)}
	return s.SettlePayment(ctx, invoiceID, p)
}
