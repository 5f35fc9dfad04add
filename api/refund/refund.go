// Package refund is the shop's one refund service: money given back on a paid order, through
// the order's gateway where it refunds by API (order.Refunder) or recorded as a manual refund
// with a note; the order's refund status after it; and, once all was given back, what the order
// gave taken back by its kind's home (order.Homes). Money held on an order for review
// (order.Review: short, over, another currency) is given back by order.Orders through the same
// gateway interface; rejecting a held order asks it to.
package refund

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/numbering"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/tax"
)

var (
	// ErrNotPaid means the order's invoice is not paid: there is nothing to refund.
	ErrNotPaid = errors.New("refund: order not paid")
	// ErrFullyRefunded means all that was paid was refunded already.
	ErrFullyRefunded = errors.New("refund: order fully refunded")
	// ErrTooMuch means the amount is more than what is left to refund.
	ErrTooMuch = errors.New("refund: more than is left")
	// ErrFailed means the gateway refused or could not be reached; nothing was recorded.
	ErrFailed = errors.New("refund: gateway refund failed")
	// ErrNoCreditNote means there is no credit note by that id.
	ErrNoCreditNote = errors.New("refund: no such credit note")
	// ErrKeyReused means the idempotency key made a refund of another amount or reason on the
	// order: nothing was refunded.
	ErrKeyReused = errors.New("refund: idempotency key used for another refund")
)

// CreditNote is the document a refund issues: a number from the shop's credit note sequence,
// the amount given back, and the invoice (and order) it corrects. Of a taxed order's invoice it
// gives back the tax in proportion (Tax; Net = Amount − Tax); of another, Tax is 0 and Net the
// amount.
type CreditNote struct {
	ID, Number                   string
	RefundID, OrderID, InvoiceID string
	Amount                       money.Money
	Tax, Net                     money.Money
	CreatedAt                    time.Time
}

// TaxShare is the tax a credit note gives back, from what the order's credit notes before it
// gave back (amount and tax): tax.RefundShare over the invoice's gross and tax.
type TaxShare func(refundedBefore, taxBefore int64) int64

// Manual is the method of a refund the owner makes by hand (the gateway has no refund API).
const Manual = "manual"

// Refund is money given back on an order. IdempotencyKey, when set, makes it once per order and
// key (the console's confirmation dialog sends one).
type Refund struct {
	ID, OrderID                     string
	Amount                          money.Money
	Method, Reference, Reason, Note string
	Operator                        string
	IdempotencyKey                  string
	CreatedAt                       time.Time
	// Tax is the tax it gave back (its credit note's, in proportion: CreditNote.Tax); nil for an
	// order without tax. Set by Refunds.
	Tax *money.Money
}

// Store keeps the refunds of orders.
type Store interface {
	CreditNotes
	SetOrderStatusFrom(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	OrderRefunds(ctx context.Context, orderID string) ([]Refund, error)
	// ReserveRefund records r under the order's lock unless it takes more than paid minus what
	// was refunded already (ErrTooMuch; ErrFullyRefunded when nothing is left); an r.Amount of 0
	// takes all that is left. A refund of the order recorded with r's IdempotencyKey is answered
	// instead, with replayed true and nothing recorded (checked first, under the same lock).
	ReserveRefund(ctx context.Context, r Refund, paid int64) (rec Refund, replayed bool, err error)
	CompleteRefund(ctx context.Context, id, reference string) error
	DropRefund(ctx context.Context, id string) error
	// IssueCreditNote numbers c with pattern from the credit note sequence and records it, with
	// the tax share gives it (nil: none) from the order's credit notes issued before, read under
	// the sequence's lock; the credit note of a refund that has one is answered as it is.
	IssueCreditNote(ctx context.Context, c CreditNote, pattern string, share TaxShare) (CreditNote, error)
}

// CreditNotes reads the credit notes issued.
type CreditNotes interface {
	// OrderCreditNotes lists an order's credit notes, oldest first.
	OrderCreditNotes(ctx context.Context, orderID string) ([]CreditNote, error)
	// CreditNote reads one; ErrNoCreditNote when there is none.
	CreditNote(ctx context.Context, id string) (CreditNote, error)
}

// Notifier tells the buyer of money given back on their order (Mail): r with its credit note.
type Notifier interface {
	Refunded(ctx context.Context, o order.Order, r Refund, note CreditNote) error
}

// Payments refunds the payments to review of an order (order.Orders).
type Payments interface {
	RefundOrderPayments(ctx context.Context, orderID, operator string) ([]order.Review, error)
}

// Service gives money back.
type Service struct {
	store     Store
	refunders map[string]order.Refunder // by gateway module; a gateway absent refunds by hand
	payments  Payments
	homes     order.Homes
	wake      func()
	now       func() time.Time
	pattern   func() string // the credit note number pattern; nil: numbering.DefaultCreditNote
	notify    Notifier      // nil: nobody is told
	log       *slog.Logger
}

// NumberCreditNotes sets where the credit note number pattern is read (the catalog in force).
func (s *Service) NumberCreditNotes(pattern func() string) { s.pattern = pattern }

// NotifyBuyers sets who tells the buyer of each refund made (a mail in their locale); a failure
// to tell is logged, never undoes the refund.
func (s *Service) NotifyBuyers(n Notifier, log *slog.Logger) { s.notify, s.log = n, log }

// New returns the refund service: gateways are the shop's (those that are order.Refunders give
// money back through their API), payments refunds the payments held for review, homes take back
// what a fully refunded order gave, wake tells the job worker jobs were queued, now is the
// business clock (nil: real time).
func New(store Store, gateways []order.Gateway, payments Payments, homes order.Homes, wake func(), now func() time.Time) *Service {
	refunders := map[string]order.Refunder{}
	for _, g := range gateways {
		if r, ok := g.(order.Refunder); ok {
			refunders[g.Module()] = r
		}
	}
	if wake == nil {
		wake = func() {}
	}
	return &Service{store: store, refunders: refunders, payments: payments, homes: homes, wake: wake, now: clock.OrReal(now)}
}

// Result is a refund made and where the order stands. Replayed: the refund's idempotency key
// had made it already, and nothing more was given back.
type Result struct {
	Refund   Refund
	Refunded money.Money // all refunded on the order so far
	Replayed bool
}

// Request is a refund an operator asks for: Amount 0 is all that is left; KeepLine leaves what a
// fully refunded order gave; IdempotencyKey ("": none) makes it once.
type Request struct {
	Amount           int64
	Reason, Operator string
	KeepLine         bool
	IdempotencyKey   string
}

// Order gives back req.Amount (0: all that is left) of the paid order o: through the gateway's
// refund API where it has one, else recorded as a manual refund with a note (crypto). The order
// becomes partially_refunded or refunded; each refund is told to the billing system owning the
// order where it keeps its own books (order.RefundRecorder: WHMCS); a full refund takes back what
// the order gave unless req.KeepLine (its kind's home, order.Home.TakeBack). A request whose idempotency key made a
// refund of o already answers that refund, Replayed, and changes nothing.
func (s *Service) Order(ctx context.Context, o order.Order, req Request) (Result, error) {
	if o.Invoice.Status != order.InvoicePaid {
		return Result{}, ErrNotPaid
	}
	r, replayed, err := s.give(ctx, o, req)
	if err != nil {
		return Result{}, err
	}
	_, done, err := s.Refunds(ctx, o)
	if err != nil {
		return Result{}, err
	}
	if replayed {
		// Asked again on a replay, so a request whose recording was not queued (a crash) is
		// healed by its retry: one job per refund whatever the asking.
		if err := s.record(ctx, o, r); err != nil {
			return Result{}, err
		}
		return Result{Refund: r, Refunded: done, Replayed: true}, nil
	}
	full := done.Amount >= o.Invoice.Amount.Amount
	// A partial refund leaves an order still being fulfilled (paid, provisioning) as it is: its
	// fulfilment goes on (the line made, WHMCS told of the payment) and ends partially_refunded
	// (order.Finisher). Only a full refund stops it, and takes back what it made.
	to, from := order.StatusPartiallyRefunded, []order.Status{order.StatusActive, order.StatusPartiallyRefunded, order.StatusNeedsReview, order.StatusFailed}
	if full {
		to, from = order.StatusRefunded, append(from, order.StatusPaid, order.StatusProvisioning)
	}
	if _, err := s.store.SetOrderStatusFrom(ctx, o.ID, to, from...); err != nil {
		return Result{}, err
	}
	if full && !req.KeepLine {
		queued, err := s.homes.TakeBack(ctx, o)
		if queued {
			s.wake()
		}
		if err != nil {
			return Result{}, err
		}
	}
	// The billing system owning the order hears of every refund (WHMCS mode), once.
	if err := s.record(ctx, o, r); err != nil {
		return Result{}, err
	}
	return Result{Refund: r, Refunded: done}, nil
}

// record queues the recording of refund r of o where o's billing system wants it.
func (s *Service) record(ctx context.Context, o order.Order, r Refund) error {
	queued, err := s.homes.RecordRefund(ctx, o, r.ID)
	if queued {
		s.wake()
	}
	return err
}

// Rejected gives back all that the rejected order o took: its invoice's payment when it was
// paid, else the money held on it for review (short, over, another currency) through its
// provider where it can refund; a payment only refundable by hand stays in the payments to review
// for the owner to refund with its reference, and is answered with a note saying so. nil: nothing
// was paid.
func (s *Service) Rejected(ctx context.Context, o order.Order, reason, operator string) (*Refund, error) {
	if reason == "" {
		reason = "order rejected"
	}
	if o.Invoice.Status == order.InvoicePaid {
		r, _, err := s.give(ctx, o, Request{Reason: reason, Operator: operator})
		if errors.Is(err, ErrFullyRefunded) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return &r, nil
	}
	if s.payments == nil {
		return nil, nil
	}
	held, err := s.payments.RefundOrderPayments(ctx, o.ID, operator)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFailed, err)
	}
	if len(held) == 0 {
		return nil, nil
	}
	return heldRefund(held[0], reason, operator), nil
}

// heldRefund describes the refund of money held for review on a rejected order: made through
// its provider, or (crypto) still to make by hand.
func heldRefund(r order.Review, reason, operator string) *Refund {
	out := &Refund{ID: r.ID, OrderID: r.OrderID, Amount: r.Amount, Method: r.Provider, Reference: r.RefundID, Reason: reason,
		Operator: operator, CreatedAt: r.RefundedAt}
	if r.State != order.ReviewRefunded {
		out.Method, out.CreatedAt = Manual, r.CreatedAt
		out.Note = fmt.Sprintf("%s cannot refund through its API: pay the buyer back by hand, then mark payment %s refunded with its reference.", r.Provider, r.ID)
	}
	return out
}

// give reserves the amount under the order's lock, then asks the gateway; a refused refund is
// dropped again, so nothing is recorded for it. A refund its idempotency key made already is
// answered as it is (replayed), nothing given. The buyer is told of each refund made.
func (s *Service) give(ctx context.Context, o order.Order, req Request) (Refund, bool, error) {
	r := Refund{ID: id.New("ref_"), OrderID: o.ID, Amount: money.Money{Amount: req.Amount, Currency: o.Invoice.Amount.Currency},
		Reason: req.Reason, Operator: req.Operator, IdempotencyKey: req.IdempotencyKey, CreatedAt: s.now().UTC()}
	g, auto := s.refunders[o.Invoice.Gateway]
	if auto {
		r.Method = o.Invoice.Gateway
	} else {
		r.Method = Manual
		r.Note = fmt.Sprintf("%s cannot refund through its API: pay the buyer back by hand (transaction %s).", o.Invoice.Gateway, o.Invoice.TransactionID)
	}
	r, replayed, err := s.store.ReserveRefund(ctx, r, o.Invoice.Amount.Amount)
	if err != nil || replayed {
		return r, replayed, err
	}
	if auto {
		review := order.Review{ID: r.ID, OrderID: o.ID, InvoiceID: o.Invoice.ID, Provider: o.Invoice.Gateway,
			TransactionID: o.Invoice.TransactionID, Amount: r.Amount, Reason: req.Reason}
		ref, err := g.RefundAmount(ctx, review, r.Amount)
		if err != nil {
			if derr := s.store.DropRefund(ctx, r.ID); derr != nil {
				err = errors.Join(err, derr)
			}
			return r, false, fmt.Errorf("%w: %v", ErrFailed, err)
		}
		r.Reference = ref
		if err := s.store.CompleteRefund(ctx, r.ID, ref); err != nil {
			return r, false, err
		}
	}
	note, err := s.creditNote(ctx, o, r)
	if err != nil {
		return r, false, err
	}
	if s.notify != nil {
		if err := s.notify.Refunded(ctx, o, r, note); err != nil && s.log != nil {
			s.log.Error("refund mail failed", "order", o.ID, "refund", r.ID, "err", err)
		}
	}
	return r, false, nil
}

// creditNote issues the credit note of refund r of o, once the money is given back (or, by
// hand, recorded as owed): a refused gateway refund issues none, so the sequence has no note
// for money never returned.
func (s *Service) creditNote(ctx context.Context, o order.Order, r Refund) (CreditNote, error) {
	pattern := numbering.DefaultCreditNote
	if s.pattern != nil {
		if p := s.pattern(); p != "" {
			pattern = p
		}
	}
	var share TaxShare
	if t := o.Quote.Tax; t != nil {
		gross, total := o.Invoice.Amount.Amount, t.Amount
		share = func(refundedBefore, taxBefore int64) int64 {
			return tax.RefundShare(gross, total, refundedBefore, taxBefore, r.Amount.Amount)
		}
	}
	return s.store.IssueCreditNote(ctx, CreditNote{ID: id.New("cn_"), RefundID: r.ID, OrderID: o.ID, InvoiceID: o.Invoice.ID,
		Amount: r.Amount, CreatedAt: r.CreatedAt}, pattern, share)
}

// Refunds lists the refunds of o and their total.
func (s *Service) Refunds(ctx context.Context, o order.Order) ([]Refund, money.Money, error) {
	rs, err := s.store.OrderRefunds(ctx, o.ID)
	total := money.Money{Currency: o.Invoice.Amount.Currency}
	for _, r := range rs {
		total.Amount += r.Amount.Amount
	}
	if err != nil || o.Quote.Tax == nil {
		return rs, total, err
	}
	notes, err := s.store.OrderCreditNotes(ctx, o.ID)
	if err != nil {
		return nil, money.Money{}, err
	}
	for i := range rs {
		for _, n := range notes {
			if n.RefundID == rs[i].ID {
				rs[i].Tax = &n.Tax
			}
		}
	}
	return rs, total, nil
}
