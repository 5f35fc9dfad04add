package httpapi

import (
	"context"
	"errors"
	"github.com/streamcart/streamcart/api/audit"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/refund"
	gen "github.com/streamcart/streamcart/gen/admin_order_actions"
)

const (
	msgNotHeld         = "This order is not held by the fraud check."
	msgNotPaid         = "This order is not paid: there is nothing to refund."
	msgFullyRefunded   = "This order is refunded in full already."
	msgRefundTooMuch   = "This is more than is left to refund on this order."
	msgRefundFailed    = "The payment gateway did not refund: nothing was recorded. Try again later."
	msgPanelFailed     = "The panel did not answer or refused: the line is as it was. Try again later."
	msgWHMCSFailed     = "WHMCS did not answer or refused: the line is as it was. Try again later."
	msgLineState       = "This line's status does not allow that."
	msgNoLine          = "No such line."
	msgNoCustomer      = "No such customer."
	msgNoMail          = "No such message."
	msgNoOperator      = "No such operator."
	msgOperatorExists  = "An active or disabled operator has this email."
	msgDisableSelf     = "You cannot disable yourself."
	msgPayLinkFailed   = "The payment gateway did not make a payment link: the order is pending without one and the buyer was not mailed. The buyer's order page asks for a link again."
	msgRefundKeyReused = "This Idempotency-Key made a refund of another amount or reason on this order: nothing was refunded."
)

type adminOrderActions struct{ admin }

// orderActionError maps the console's errors to the design's.
func orderActionError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, console.ErrNotFound):
		return gen.MakeNotFound(errors.New(msgNoOrder))
	case errors.Is(err, console.ErrNotHeld):
		return gen.MakeConflict(errors.New(msgNotHeld))
	case errors.Is(err, refund.ErrNotPaid):
		return gen.MakeConflict(errors.New(msgNotPaid))
	case errors.Is(err, refund.ErrFullyRefunded):
		return gen.MakeConflict(errors.New(msgFullyRefunded))
	case errors.Is(err, refund.ErrTooMuch):
		return gen.MakeBadRequest(errors.New(msgRefundTooMuch))
	case errors.Is(err, refund.ErrFailed):
		return gen.MakeUnavailable(errors.New(msgRefundFailed))
	case errors.Is(err, console.ErrPanel) && errors.Is(err, order.ErrUpstreamUnavailable):
		return gen.MakeUnavailable(errors.New(msgWHMCSFailed))
	case errors.Is(err, console.ErrPanel):
		return gen.MakeUnavailable(errors.New(msgPanelFailed))
	case errors.Is(err, console.ErrPayLink):
		return gen.MakeUnavailable(errors.New(msgPayLinkFailed))
	case errors.Is(err, refund.ErrKeyReused):
		return gen.MakeIdempotencyMismatch(errors.New(msgRefundKeyReused))
	}
	return err
}

func (s adminOrderActions) row(ctx context.Context, id string) (*gen.AdminOrder, error) {
	o, err := s.Console.Row(ctx, id)
	if err != nil {
		return nil, err
	}
	return &gen.AdminOrder{ID: o.ID, Kind: o.Kind, Status: o.Status, Email: o.Email, CustomerID: o.CustomerID,
		Total: &gen.Money{Amount: o.Total.Amount, Currency: o.Total.Currency}, Gateway: o.Gateway,
		InvoiceID: o.InvoiceID, InvoiceStatus: o.InvoiceStatus, PromoCode: o.PromoCode, CreatedAt: rfc3339(o.CreatedAt), PaidAt: rfc3339(o.PaidAt),
		Product: o.Product, Refunded: &gen.Money{Amount: o.Refunded, Currency: o.Total.Currency}, Net: &gen.Money{Amount: o.Net().Amount, Currency: o.Total.Currency}}, nil
}

func adminRefund(r refund.Refund) *gen.AdminRefund {
	a := &gen.AdminRefund{OrderID: r.OrderID, Amount: &gen.Money{Amount: r.Amount.Amount, Currency: r.Amount.Currency}, Method: r.Method,
		Reference: r.Reference, Reason: r.Reason, Note: r.Note, Operator: r.Operator, CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339)}
	if t := r.Tax; t != nil {
		a.Tax = &gen.Money{Amount: t.Amount, Currency: t.Currency}
	}
	return a
}

// Approve releases a held order: asking its buyer to pay (support and owner), or provisioning it
// unpaid (owner), audited as such.
func (s adminOrderActions) Approve(ctx context.Context, p *gen.ApprovePayload) (*gen.AdminOrder, error) {
	op, detail := authz.OpRequestPayment, "payment requested"
	if p.Mode == console.ApproveProvision {
		op, detail = authz.OpProvisionUnpaid, "provisioned unpaid"
	}
	pr, err := s.allow(ctx, p.Session, op)
	if err != nil {
		return nil, err
	}
	_, err = s.Actions.Approve(ctx, p.ID, p.Mode)
	s.Audit.RecordOperator(ctx, pr.Email, "order-approve", p.ID, detail, err)
	if err != nil {
		return nil, orderActionError(err)
	}
	return s.row(ctx, p.ID)
}

func (s adminOrderActions) Reject(ctx context.Context, p *gen.RejectPayload) (*gen.RejectResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpReviewOrder)
	if err != nil {
		return nil, err
	}
	_, ref, err := s.Actions.Reject(ctx, p.ID, deref(p.Reason), pr.Email)
	detail := deref(p.Reason)
	var args []string // a reason alone is the operator's own text
	if ref != nil {
		verb, word := "refunded ", "refunded"
		if ref.Method == refund.Manual && ref.Reference == "" {
			verb, word = "to refund by hand ", "to-refund-by-hand" // a crypto payment to review: listed for the owner
		}
		detail += " (" + verb + money.Format(ref.Amount.Amount, ref.Amount.Currency) + " " + ref.Amount.Currency + ")"
		args = []string{audit.WordRejectRefund, deref(p.Reason), word, strconv.FormatInt(ref.Amount.Amount, 10), ref.Amount.Currency}
	}
	s.Audit.RecordOperatorParts(ctx, pr.Email, "order-reject", p.ID, detail, args, err)
	if err != nil {
		return nil, orderActionError(err)
	}
	row, err := s.row(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	res := &gen.RejectResult{Order: row}
	if ref != nil {
		res.Refund = adminRefund(*ref)
	}
	return res, nil
}

func (s adminOrderActions) Refund(ctx context.Context, p *gen.RefundPayload) (*gen.RefundResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpRefund)
	if err != nil {
		return nil, err
	}
	r, err := s.Actions.Refund(ctx, p.ID, refund.Request{Amount: deref(p.Amount), Reason: p.Reason, Operator: pr.Email, KeepLine: p.KeepLine,
		IdempotencyKey: deref(p.IdempotencyKey)})
	detail := p.Reason
	if err == nil {
		detail = money.Format(r.Refund.Amount.Amount, r.Refund.Amount.Currency) + " " + r.Refund.Amount.Currency + " by " + r.Refund.Method + ": " + p.Reason
		if r.Replayed {
			detail = "replayed (nothing more refunded): " + detail
		}
	}
	var args []string
	if err == nil {
		replayed := ""
		if r.Replayed {
			replayed = "replayed"
		}
		args = []string{console.AuditRefund, strconv.FormatInt(r.Refund.Amount.Amount, 10), r.Refund.Amount.Currency, r.Refund.Method, p.Reason, replayed}
	}
	s.Audit.RecordOperatorParts(ctx, pr.Email, "order-refund", p.ID, detail, args, err)
	if err != nil {
		return nil, orderActionError(err)
	}
	row, err := s.row(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &gen.RefundResult{Order: row, Refund: adminRefund(r.Refund), Refunded: &gen.Money{Amount: r.Refunded.Amount, Currency: r.Refunded.Currency},
		Replayed: r.Replayed}, nil
}

func (s adminOrderActions) Refunds(ctx context.Context, p *gen.RefundsPayload) (*gen.RefundsResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	rs, total, err := s.Actions.Refunds(ctx, p.ID)
	if err != nil {
		return nil, orderActionError(err)
	}
	res := &gen.RefundsResult{Refunds: []*gen.AdminRefund{}, Refunded: &gen.Money{Amount: total.Amount, Currency: total.Currency}}
	for _, r := range rs {
		res.Refunds = append(res.Refunds, adminRefund(r))
	}
	return res, nil
}
