package renewal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/upsell"
)

var (
	// ErrNotRenewable means the service cannot be renewed, or its auto-renew changed, in its state:
	// pending, cancelled, terminated, one-time, a reseller's, or a trial asked to renew without a
	// paid plan.
	ErrNotRenewable = errors.New("renewal: not renewable in this state")
	// ErrNotSold means the billing cycle or plan asked for is not for sale.
	ErrNotSold = errors.New("renewal: billing cycle or plan not sold")
	// ErrBeingApplied means the period's renewal is paid and its due date about to move.
	ErrBeingApplied = errors.New("renewal: this period's renewal is paid and being applied")
	// ErrTrialConversion means the billing system that owns the service cannot turn a free trial
	// into a paid plan on the same line (WHMCS mode, docs/whmcs.md): the buyer orders the plan.
	ErrTrialConversion = errors.New("renewal: trial conversion not available")
)

// Request is a buyer's renewal: the period starting at the service's due date, in Cycle (the
// service's when ""), through Gateway (the open invoice's, else the first order's, when "").
type Request struct {
	Cycle     catalog.Cycle
	PID       int // trials only: the paid plan the trial converts to
	Gateway   string
	ReturnURL string
	Origins   []string // the sites ReturnURL may point to: the request's origin first
}

// renewing are the statuses a paid service can be renewed in (early, overdue or suspended).
var renewing = []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended}

// Renew answers the order paying the service's next period as asked: the open renewal when it
// bills that period, plan and cycle (with a new payment link when the gateway changes), else a
// new renewal order, replacing an open one of another cycle. A trial converts to req.PID: the
// same line, paid from the payment on. claims is the buyer's session (proven, or the one that
// bought the service), which then reads the order.
func (r *Renewals) Renew(ctx context.Context, claims authz.Claims, svc order.Service, req Request) (order.Order, error) {
	now := r.now().UTC()
	p, err := r.period(svc, req)
	if err != nil {
		return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, err)
	}
	// Before any payment, as a new order: a period the panel cannot extend the line for is not sold.
	if err := r.inStock(ctx, svc, p.pid, p.cycle); err != nil {
		return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, err)
	}
	how := placing{claims: &claims, gateway: req.Gateway, returnURL: req.ReturnURL, origins: req.Origins}
	// Another request may be placing the period's renewal at this moment (a double click): its
	// reservation stops this one, and a moment later its order is the open one to answer.
	for attempt := range 5 {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return order.Order{}, ctx.Err()
			case <-time.After(time.Duration(attempt) * 40 * time.Millisecond):
			}
		}
		open, err := r.store.OpenRenewal(ctx, svc.ID)
		switch {
		case err == nil && p.same(open):
			o, err := r.store.Order(ctx, open.OrderID)
			if err != nil {
				return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, err)
			}
			return r.orders.Relink(ctx, o, req.Gateway, req.ReturnURL, req.Origins...)
		case err == nil:
			// Another cycle (or plan) was asked: the open invoice gives way to the buyer's choice.
			if err := r.cancelRenewal(ctx, open, now); err != nil {
				return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, err)
			}
		case !errors.Is(err, ErrNotFound):
			return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, err)
		}
		o, placed, err := r.place(ctx, p, how, now)
		if err != nil || placed {
			return o, err
		}
	}
	return order.Order{}, fmt.Errorf("renew %s: %w", svc.ID, ErrBeingApplied)
}

// period is the period req asks to pay for svc, checked against the catalog.
func (r *Renewals) period(svc order.Service, req Request) (period, error) {
	cat := r.catalog()
	if svc.Trial {
		if svc.Status != order.ServiceActive && svc.Status != order.ServiceExpired {
			return period{}, ErrNotRenewable
		}
		plan, ok := cat.Product(req.PID)
		if !ok || plan.Trial || plan.Group != catalog.GroupPlan || plan.Hidden {
			return period{}, fmt.Errorf("plan %d: %w", req.PID, ErrNotSold)
		}
		cycle := req.Cycle
		if cycle == "" {
			cycle = firstRecurring(plan)
		}
		if _, ok := plan.Cycles[cycle]; !ok || cycle.Months() == 0 {
			return period{}, fmt.Errorf("plan %d %s: %w", req.PID, cycle, ErrNotSold)
		}
		return period{svc: svc, start: svc.ExpiresAt, cycle: cycle, pid: plan.PID, name: plan.Name}, nil
	}
	if !slices.Contains(renewing, svc.Status) || svc.NextDueDate.IsZero() {
		return period{}, ErrNotRenewable
	}
	if req.PID != 0 && req.PID != svc.PID {
		return period{}, fmt.Errorf("plan %d: %w (another plan is a new order)", req.PID, ErrNotSold)
	}
	cycle := req.Cycle
	if cycle == "" {
		cycle = upsell.PricingCycle(svc.BillingCycle)
	}
	plan, ok := cat.Product(svc.PID)
	if !ok || plan.Group != catalog.GroupPlan {
		return period{}, ErrNotRenewable
	}
	if _, ok := plan.Cycles[cycle]; !ok || cycle.Months() == 0 {
		return period{}, fmt.Errorf("%s: %w", cycle, ErrNotSold)
	}
	return period{svc: svc, start: svc.NextDueDate, cycle: cycle, pid: svc.PID}, nil
}

// firstRecurring is the plan's first cycle that renews; "" when it has none.
func firstRecurring(p catalog.Product) catalog.Cycle {
	for _, c := range p.EnabledCycles() {
		if c.Months() > 0 {
			return c
		}
	}
	return ""
}

// cancelRenewal cancels an open renewal: its order and invoice (its payment page closed where
// the provider allows) and its period's reservation, so the period may be renewed again.
func (r *Renewals) cancelRenewal(ctx context.Context, rn Renewal, now time.Time) error {
	if _, err := r.orders.CancelPending(ctx, rn.OrderID); err != nil && !errors.Is(err, order.ErrNotPending) {
		return err
	}
	o, err := r.store.Order(ctx, rn.OrderID)
	if err != nil {
		return err
	}
	if o.Status != order.StatusCancelled {
		return ErrBeingApplied // paid meanwhile: it stands
	}
	_, err = r.store.CancelRenewal(ctx, rn.OrderID, now)
	return err
}

// Open is the service's open renewal (its order pending); ok is false when none.
func (r *Renewals) Open(ctx context.Context, serviceID string) (Renewal, order.Order, bool, error) {
	rn, err := r.store.OpenRenewal(ctx, serviceID)
	if errors.Is(err, ErrNotFound) {
		return Renewal{}, order.Order{}, false, nil
	}
	if err != nil {
		return Renewal{}, order.Order{}, false, err
	}
	o, err := r.store.Order(ctx, rn.OrderID)
	if err != nil {
		return Renewal{}, order.Order{}, false, err
	}
	return rn, o, true, nil
}

// Recurring reports whether svc renews each period: paid, recurring, not a trial.
func Recurring(svc order.Service) bool {
	return !svc.Trial && !svc.NextDueDate.IsZero() && upsell.PricingCycle(svc.BillingCycle).Months() > 0
}

// CancelAutoRenew stops svc's renewals: no more renewal invoices, the open one cancelled, and the
// service Cancelled at its due date (Lapse). A trial, a one-time service, or one cancelled already
// is ErrNotRenewable.
func (r *Renewals) CancelAutoRenew(ctx context.Context, svc order.Service) (order.Service, error) {
	if !Recurring(svc) {
		return order.Service{}, fmt.Errorf("cancel auto-renew of %s: %w", svc.ID, ErrNotRenewable)
	}
	got, changed, err := r.store.SetAutoRenew(ctx, svc.ID, false, renewing...)
	if err != nil {
		return order.Service{}, err
	}
	if !changed {
		return order.Service{}, fmt.Errorf("cancel auto-renew of %s: %w", svc.ID, ErrNotRenewable)
	}
	if rn, err := r.store.OpenRenewal(ctx, svc.ID); err == nil {
		if err := r.cancelRenewal(ctx, rn, r.now().UTC()); err != nil && !errors.Is(err, ErrBeingApplied) {
			return order.Service{}, fmt.Errorf("cancel auto-renew of %s: %w", svc.ID, err)
		}
	} else if !errors.Is(err, ErrNotFound) {
		return order.Service{}, fmt.Errorf("cancel auto-renew of %s: %w", svc.ID, err)
	}
	return got, nil
}

// ResumeAutoRenew undoes CancelAutoRenew before the due date: the renewal invoice is made again,
// at once when the due date is within its lead. A service Cancelled already, or whose auto-renew
// was not cancelled, is ErrNotRenewable.
func (r *Renewals) ResumeAutoRenew(ctx context.Context, svc order.Service) (order.Service, error) {
	if !Recurring(svc) {
		return order.Service{}, fmt.Errorf("resume auto-renew of %s: %w", svc.ID, ErrNotRenewable)
	}
	got, changed, err := r.store.SetAutoRenew(ctx, svc.ID, true, renewing...)
	if err != nil {
		return order.Service{}, err
	}
	if !changed {
		return order.Service{}, fmt.Errorf("resume auto-renew of %s: %w", svc.ID, ErrNotRenewable)
	}
	now := r.now().UTC()
	cycle := upsell.PricingCycle(got.BillingCycle)
	if !got.NextDueDate.Add(-r.cfg.Lead(cycle)).After(now) {
		// Not waiting for tomorrow's sweep; should this fail, that sweep places it.
		if _, err := r.invoice(ctx, got, cycle, now); err != nil {
			r.log.Error("renewal not invoiced on resume", "service", got.ID, "err", err)
		}
	}
	return got, nil
}

// RecurringAmount is what svc's next period costs (RecurringQuote); ok is false when svc does not
// renew or its plan or cycle left the catalog (no price, and no renewal, until it is back).
func (r *Renewals) RecurringAmount(ctx context.Context, svc order.Service) (money.Money, bool, error) {
	if !Recurring(svc) {
		return money.Money{}, false, nil
	}
	first, err := r.store.Order(ctx, svc.OrderID)
	if err != nil {
		return money.Money{}, false, fmt.Errorf("recurring amount of %s: %w", svc.ID, err)
	}
	amount, _, ok := r.RecurringAmountOf(first, svc)
	return amount, ok, nil
}

// RecurringAmountOf is RecurringAmount with the order that bought svc already read (the
// dashboard reads them all at once), and the months the amount pays for.
func (r *Renewals) RecurringAmountOf(first order.Order, svc order.Service) (money.Money, int, bool) {
	if !Recurring(svc) {
		return money.Money{}, 0, false
	}
	cycle := upsell.PricingCycle(svc.BillingCycle)
	q, err := r.RecurringQuote(first, svc, cycle, r.now().UTC())
	if err != nil {
		return money.Money{}, 0, false
	}
	return q.Total, cycle.Months(), true
}

// OfOrder reads the renewal an order pays and its service; ErrNotFound when the order is no
// renewal.
func (r *Renewals) OfOrder(ctx context.Context, orderID string) (Renewal, order.Service, error) {
	rn, err := r.store.Renewal(ctx, orderID)
	if err != nil {
		return Renewal{}, order.Service{}, err
	}
	svc, err := r.store.Service(ctx, rn.ServiceID)
	if err != nil {
		return Renewal{}, order.Service{}, fmt.Errorf("renewal %s: %w", orderID, err)
	}
	return rn, svc, nil
}

// Reprice has the renewals bill svc's terms as they are now, after an operator changed them
// (package planchange): an open renewal invoice (placed at the old terms, or for the old due date)
// is cancelled and, when the new due date is within its lead, placed again at once (else the sweep
// places it). A renewal paid meanwhile stands. A line that does not renew is left alone.
func (r *Renewals) Reprice(ctx context.Context, svc order.Service) error {
	if !Recurring(svc) || !svc.AutoRenew {
		return nil
	}
	now := r.now().UTC()
	rn, err := r.store.OpenRenewal(ctx, svc.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("reprice %s: %w", svc.ID, err)
	}
	cycle := upsell.PricingCycle(svc.BillingCycle)
	if (period{svc: svc, start: svc.NextDueDate, cycle: cycle, pid: svc.PID}).same(rn) {
		o, oerr := r.store.Order(ctx, rn.OrderID)
		first, ferr := r.store.Order(ctx, svc.OrderID)
		if oerr == nil && ferr == nil {
			if q, err := r.RecurringQuote(first, svc, cycle, now); err == nil && q.Total == o.Quote.Total {
				return nil // billed at these terms already
			}
		}
	}
	if err := r.cancelRenewal(ctx, rn, now); err != nil {
		if errors.Is(err, ErrBeingApplied) {
			return nil
		}
		return fmt.Errorf("reprice %s: %w", svc.ID, err)
	}
	if !svc.NextDueDate.Add(-r.cfg.Lead(cycle)).After(now) {
		if _, err := r.invoice(ctx, svc, cycle, now); err != nil {
			return fmt.Errorf("reprice %s: %w", svc.ID, err)
		}
	}
	return nil
}
