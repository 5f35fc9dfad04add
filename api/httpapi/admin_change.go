package httpapi

import (
	"context"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/audit"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/planchange"
	gen "github.com/streamcart/streamcart/gen/admin_services"
)

const (
	msgNothingToChange = "This line has these terms already."
	msgNothingToCharge = "This change costs nothing more over the rest of the period: charge it from the next renewal, or give it free."
	msgChangePending   = "This line has a change waiting for the buyer's payment."
	msgChangeState     = "Only a running line that renews (Active, Overdue, Suspended; not a trial) can change."
	msgChangeStale     = "The line changed meanwhile: look at it again before changing it."
	msgChangeKeyReused = "This Idempotency-Key was used for another change."
	msgNoChanges       = "Changing lines is not available on this shop."
)

// Change changes a line's terms (planchange), or with preview answers what the change would do.
// The role needed depends on the charge: support may bill from the next renewal, only the owner
// charges now or gives it free. Only a change made is audited (line-change, its detail the
// charge, the terms and the reason).
func (s adminServices) Change(ctx context.Context, p *gen.ChangePayload) (*gen.AdminLineChange, error) {
	action := authz.OpChangeLine
	if p.Charge == string(planchange.ChargeNextRenewal) {
		action = authz.OpChangeLineAtRenewal
	}
	pr, err := s.allow(ctx, p.Session, action)
	if err != nil {
		return nil, err
	}
	if s.Changes == nil {
		return nil, gen.MakeUnavailable(errors.New(msgNoChanges))
	}
	if in := s.Actions.BilledIn(); in != "" {
		// Its billing system owns the line's plan, price and due date (WHMCS: an upgrade there).
		err := fmt.Errorf("This line is billed in %s: change it there.", in)
		if !p.Preview {
			s.Audit.RecordOperator(ctx, pr.Email, "line-change", p.ID, "refused", err)
		}
		return nil, gen.MakeConflict(err)
	}
	r := planchange.Request{ServiceID: p.ID, PID: p.Pid, BillingCycle: p.BillingCycle, MaxConnections: p.MaxConnections,
		NextDueDate: p.NextDueDate, Charge: planchange.Charge(p.Charge), Reason: p.Reason, Operator: pr.Email, IdempotencyKey: deref(p.IdempotencyKey)}
	if p.Preview {
		q, err := s.Changes.Preview(ctx, r)
		if err != nil && !errors.Is(err, planchange.ErrNothingToCharge) {
			return nil, changeError(err)
		}
		res := lineChange(q, planchange.Change{}, "", "")
		res.Preview = true
		if err != nil { // the preview still says what the change is, and why now cannot charge it
			return res, changeError(err)
		}
		return res, nil
	}
	out, err := s.Changes.Change(ctx, r)
	if err != nil && out.Change.ID == "" {
		return nil, changeError(err)
	}
	sentTo := ""
	if out.Order.ID != "" {
		sentTo = out.Order.Email
	}
	if !out.Replayed {
		detail := fmt.Sprintf("%s: %s; %s", out.Change.Charge, effect(out.Quote), out.Change.Reason)
		s.Audit.RecordOperatorParts(ctx, pr.Email, "line-change", p.ID, detail, changeArgs(out.Quote, out.Change.Reason), err)
	}
	if err != nil { // recorded and placed, but the mail could not be queued
		return nil, err
	}
	return lineChange(out.Quote, out.Change, out.Order.ID, sentTo), nil
}

// changeError maps planchange's refusals to the design's errors.
func changeError(err error) error {
	var inv *planchange.InvalidError
	switch {
	case errors.As(err, &inv):
		return gen.MakeInvalidChange(fmt.Errorf("%s: %s.", inv.Field, inv.Reason))
	case errors.Is(err, planchange.ErrNothingToCharge):
		return gen.MakeNothingToCharge(errors.New(msgNothingToCharge))
	case errors.Is(err, planchange.ErrNothingToChange):
		return gen.MakeNothingToChange(errors.New(msgNothingToChange))
	case errors.Is(err, planchange.ErrPending):
		return gen.MakeChangePending(errors.New(msgChangePending))
	case errors.Is(err, planchange.ErrLineState):
		return gen.MakeConflict(errors.New(msgChangeState))
	case errors.Is(err, planchange.ErrStale):
		return gen.MakeConflict(errors.New(msgChangeStale))
	case errors.Is(err, planchange.ErrKeyReused):
		return gen.MakeConflict(errors.New(msgChangeKeyReused))
	case errors.Is(err, planchange.ErrNotFound), errors.Is(err, order.ErrNotFound):
		return gen.MakeNotFound(errors.New(msgNoLine))
	}
	return err
}

// effect says in one sentence what a change does.
func effect(q planchange.Quote) string {
	what := ""
	add := func(s string) {
		if what != "" {
			what += ", "
		}
		what += s
	}
	if q.From.PID != q.To.PID {
		add(fmt.Sprintf("plan %s → %s", q.From.Name, q.To.Name))
	}
	if q.From.BillingCycle != q.To.BillingCycle {
		add(fmt.Sprintf("cycle %s → %s", q.From.BillingCycle, q.To.BillingCycle))
	}
	if q.From.MaxConnections != q.To.MaxConnections {
		add(fmt.Sprintf("connections %d → %d", q.From.MaxConnections, q.To.MaxConnections))
	}
	if !q.From.NextDueDate.Equal(q.To.NextDueDate) {
		add(fmt.Sprintf("due date %s → %s", q.From.NextDueDate.Format(time.DateOnly), q.To.NextDueDate.Format(time.DateOnly)))
	}
	rec := fmt.Sprintf("each period costs %s instead of %s from the next renewal", fmtMinor(q.NewRecurring), fmtMinor(q.Recurring))
	switch q.Charge {
	case planchange.ChargeNow:
		return fmt.Sprintf("The buyer is mailed a pay link for %s (%d days left in the period); once paid the line changes (%s) and %s.",
			fmtMinor(q.Amount), q.DaysLeft, what, rec)
	case planchange.ChargeFree:
		return fmt.Sprintf("The line changes now (%s), free of charge; %s.", what, rec)
	}
	return fmt.Sprintf("The line changes now (%s); nothing is charged now, and %s.", what, rec)
}

// changeArgs are a change's audit parts (audit.WordLineChange).
func changeArgs(q planchange.Quote, reason string) []string {
	day := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.DateOnly)
	}
	return []string{audit.WordLineChange, string(q.Charge), reason, q.From.Name, q.To.Name, q.From.BillingCycle, q.To.BillingCycle,
		strconv.Itoa(q.From.MaxConnections), strconv.Itoa(q.To.MaxConnections), day(q.From.NextDueDate), day(q.To.NextDueDate),
		strconv.FormatInt(q.Amount.Amount, 10), strconv.FormatInt(q.Recurring.Amount, 10), strconv.FormatInt(q.NewRecurring.Amount, 10),
		q.NewRecurring.Currency, strconv.Itoa(q.DaysLeft)}
}

// fmtMinor writes an amount as 12.99 EUR, in its currency's digits (the console formats it per locale).
func fmtMinor(m money.Money) string { return money.Format(m.Amount, m.Currency) + " " + m.Currency }

func lineTerms(t planchange.Terms) *gen.AdminLineTerms {
	r := &gen.AdminLineTerms{Pid: t.PID, Plan: t.Name, BillingCycle: t.BillingCycle, MaxConnections: t.MaxConnections}
	if !t.NextDueDate.IsZero() {
		r.NextDueDate = t.NextDueDate.UTC().Format(time.DateOnly)
	}
	return r
}

func lineChange(q planchange.Quote, c planchange.Change, orderID, sentTo string) *gen.AdminLineChange {
	m := func(v money.Money) *gen.Money {
		if v.Currency == "" {
			v.Currency = q.Amount.Currency
		}
		return &gen.Money{Amount: v.Amount, Currency: v.Currency}
	}
	r := &gen.AdminLineChange{ChangeID: c.ID, ServiceID: q.Service.ID, Charge: string(q.Charge), Applied: !c.AppliedAt.IsZero(),
		From: lineTerms(q.From), To: lineTerms(q.To), Amount: m(q.Amount), DaysLeft: q.DaysLeft, PeriodDays: q.PeriodDays,
		RecurringAmount: m(q.Recurring), NewRecurringAmount: m(q.NewRecurring), Effect: effect(q), OrderID: orderID, SentTo: sentTo}
	if c.ID != "" {
		r.ServiceID, r.Charge = c.ServiceID, string(c.Charge)
	}
	return r
}
