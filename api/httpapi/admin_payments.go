package httpapi

import (
	"context"
	"errors"
	"github.com/streamcart/streamcart/api/audit"
	"strconv"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	gen "github.com/streamcart/streamcart/gen/admin_payments"
)

const (
	msgNoPayment         = "No such payment to review."
	msgPaymentDecided    = "This payment is refunded or accepted already, or a refund of it is under way."
	msgReferenceRequired = "This provider cannot refund through its API: refund the buyer by hand and give that refund's transaction reference."
	msgOrderPaid         = "This payment's order is paid already: refund the payment instead."
	msgPaymentRefund     = "The payment provider did not refund: the payment is still to review. Try again later."
)

// Payments refunds and accepts payments to review (order.Orders), and lists them (the store).
type Payments interface {
	RefundPayment(ctx context.Context, id, reference, operator string) (order.Review, error)
	AcceptPayment(ctx context.Context, id, operator string) (order.Review, order.Order, error)
	CanRefund(provider string) bool
	ReviewsIn(ctx context.Context, state string, limit int) ([]order.Review, error)
}

type adminPayments struct{ admin }

// paymentError maps the payment review's errors to the design's.
func paymentError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, order.ErrNotFound):
		return gen.MakeNotFound(errors.New(msgNoPayment))
	case errors.Is(err, order.ErrReferenceRequired):
		return gen.MakeReferenceRequired(errors.New(msgReferenceRequired))
	case errors.Is(err, order.ErrDecided):
		return gen.MakeConflict(errors.New(msgPaymentDecided))
	case errors.Is(err, order.ErrOrderPaid):
		return gen.MakeConflict(errors.New(msgOrderPaid))
	case errors.Is(err, order.ErrRefundUnavailable):
		return gen.MakeUnavailable(errors.New(msgPaymentRefund))
	}
	return err
}

func (s adminPayments) payment(r order.Review) *gen.AdminPayment {
	return &gen.AdminPayment{ID: r.ID, OrderID: r.OrderID, Provider: r.Provider, TransactionID: r.TransactionID,
		Amount: r.Amount.Amount, Currency: r.Amount.Currency, Expected: &gen.Money{Amount: r.Expected.Amount, Currency: r.Expected.Currency},
		Reason: r.Reason, State: r.State, Refundable: s.Payments.CanRefund(r.Provider), RefundID: r.RefundID, Reference: r.Reference,
		RefundError: r.RefundError, DecidedBy: r.DecidedBy, CreatedAt: rfc3339(r.CreatedAt)}
}

func (s adminPayments) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	rs, err := s.Payments.ReviewsIn(ctx, p.State, p.Limit)
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Payments: make([]*gen.AdminPayment, 0, len(rs))}
	for _, r := range rs {
		res.Payments = append(res.Payments, s.payment(r))
	}
	return res, nil
}

func (s adminPayments) Refund(ctx context.Context, p *gen.RefundPayload) (*gen.AdminPayment, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpRefund)
	if err != nil {
		return nil, err
	}
	r, err := s.Payments.RefundPayment(ctx, p.ID, deref(p.Reference), pr.Email)
	detail := r.OrderID + ": " + money.Format(r.Amount.Amount, r.Amount.Currency) + " " + r.Amount.Currency + " (" + r.Reason + ")"
	if err == nil {
		detail += " by " + map[bool]string{true: r.Provider + " " + r.RefundID, false: "hand, reference " + r.Reference}[r.RefundID != ""]
	}
	by, ref := "hand", r.Reference
	if r.RefundID != "" {
		by, ref = r.Provider, r.RefundID
	}
	s.Audit.RecordOperatorParts(ctx, pr.Email, "payment-refund", p.ID, detail,
		[]string{audit.WordPaymentRefund, r.OrderID, strconv.FormatInt(r.Amount.Amount, 10), r.Amount.Currency, r.Reason, by, ref}, err)
	if err != nil {
		return nil, paymentError(err)
	}
	return s.payment(r), nil
}

func (s adminPayments) Accept(ctx context.Context, p *gen.AcceptPayload) (*gen.AcceptResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpRefund)
	if err != nil {
		return nil, err
	}
	r, _, err := s.Payments.AcceptPayment(ctx, p.ID, pr.Email)
	detail := r.OrderID + ": " + money.Format(r.Amount.Amount, r.Amount.Currency) + " " + r.Amount.Currency + " for " +
		money.Format(r.Expected.Amount, r.Expected.Currency) + " " + r.Expected.Currency + " (" + r.Reason + ")"
	s.Audit.RecordOperatorParts(ctx, pr.Email, "payment-accept", p.ID, detail, []string{audit.WordPaymentAccept, r.OrderID,
		strconv.FormatInt(r.Amount.Amount, 10), r.Amount.Currency, strconv.FormatInt(r.Expected.Amount, 10), r.Expected.Currency, r.Reason}, err)
	if err != nil {
		return nil, paymentError(err)
	}
	o, err := s.Console.Row(ctx, r.OrderID)
	if err != nil {
		return nil, err
	}
	return &gen.AcceptResult{Payment: s.payment(r), Order: &gen.AdminOrder{ID: o.ID, Kind: o.Kind, Status: o.Status, Email: o.Email,
		CustomerID: o.CustomerID, Total: &gen.Money{Amount: o.Total.Amount, Currency: o.Total.Currency}, Gateway: o.Gateway,
		InvoiceID: o.InvoiceID, InvoiceStatus: o.InvoiceStatus, PromoCode: o.PromoCode, CreatedAt: rfc3339(o.CreatedAt),
		PaidAt: rfc3339(o.PaidAt), Product: o.Product, Refunded: &gen.Money{Amount: o.Refunded, Currency: o.Total.Currency},
		Net: &gen.Money{Amount: o.Net().Amount, Currency: o.Total.Currency}}}, nil
}
