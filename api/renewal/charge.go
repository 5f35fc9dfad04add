package renewal

import (
	"context"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/catalog"
	"time"

	"github.com/streamcart/streamcart/api/order"
)

// ChargeDays are the attempt points of an off-session card charge, in days after the start of
// the renewal's due day (UTC): the due day itself, then 1, 3 and 5 days after it. A charge that
// fails leaves the renewal invoice open for its pay link until the next point.
var ChargeDays = []int{0, 1, 3, 5}

// What an off-session attempt came to.
const (
	ChargeSucceeded = "succeeded"
	// ChargeDeclined: the bank refused the card (DeclineCode says why).
	ChargeDeclined = "declined"
	// ChargeAuthRequired: the bank asks the buyer to authenticate (3-D Secure), which cannot
	// happen off-session; the pay link lets them do it.
	ChargeAuthRequired = "authentication_required"
	// ChargeProcessing: the provider has not decided yet; its webhook settles the invoice.
	ChargeProcessing = "processing"
	// ChargeRefused: the provider refused the request itself (card detached, customer gone).
	ChargeRefused = "refused"
	// chargePending marks an attempt reserved and not finished (or whose process stopped).
	chargePending = "pending"
)

// chargeStale is how long an attempt may stay pending before a sweep takes it over: its process
// stopped mid-call (a provider call gives up after 30 s). Made again under the same idempotency
// key, it charges nothing twice: the provider answers with the first attempt's payment.
const chargeStale = 10 * time.Minute

// Attempt is one off-session charge of a renewal order at one attempt point.
type Attempt struct {
	OrderID       string
	N             int // 1 for the due day, then 2, 3, 4 (ChargeDays)
	At            time.Time
	Outcome       string // a Charge* outcome; "pending" while it runs
	DeclineCode   string // the provider's decline or error code; "" when none
	PaymentIntent string // the provider's payment (Stripe: pi_…); "" when none was made
}

// CardDue is a pending renewal whose service has a saved card.
type CardDue struct {
	Renewal Renewal
	Card    order.Card
}

// Outcome is what a Charger's charge came to.
type Outcome struct {
	Status        string // a Charge* outcome
	DeclineCode   string
	PaymentIntent string
}

// Charger charges a saved card off-session for a renewal order's invoice and, when the charge
// succeeds, settles the invoice exactly as the provider's webhook would (so the webhook, coming
// later, changes nothing). An error is transient (the provider unreachable): nothing is known to
// be charged, and repeating the same attempt n is safe (an idempotency key per order and
// attempt). An error with a Status is a charge made whose settlement failed; the provider's
// webhook settles it.
type Charger interface {
	Module() string
	ChargeRenewal(ctx context.Context, o order.Order, c order.Card, attempt int) (Outcome, error)
}

// ChargeStore is what off-session charges persist.
type ChargeStore interface {
	// CardRenewalsDue lists the unpaid renewal orders of provider's invoices whose service (active,
	// overdue or suspended) has a card of provider saved, for periods starting before before.
	CardRenewalsDue(ctx context.Context, provider string, before time.Time) ([]CardDue, error)
	// ReserveCharge records attempt a (outcome pending) unless its order has that attempt, or
	// takes over that attempt when it is still pending from before stale (the process making it
	// stopped mid-call); it reports whether it recorded (the database decides between replicas).
	ReserveCharge(ctx context.Context, a Attempt, stale time.Time) (bool, error)
	// FinishCharge records the outcome of a reserved attempt.
	FinishCharge(ctx context.Context, a Attempt) error
	// ReleaseCharge forgets a reserved attempt that charged nothing, so it may be made again.
	ReleaseCharge(ctx context.Context, orderID string, n int) error
	// Charges lists the attempts of a renewal order, first first.
	Charges(ctx context.Context, orderID string) ([]Attempt, error)
}

// FailedCharge is the outcome of the latest attempt to charge the saved card for the renewal
// order orderID when it did not pay (ChargeDeclined, ChargeAuthRequired, ChargeRefused); "" when
// no card was charged for it, the latest attempt paid, is processing or still running.
func (r *Renewals) FailedCharge(ctx context.Context, orderID string) (string, error) {
	if r.charges == nil {
		return "", nil
	}
	attempts, err := r.charges.Charges(ctx, orderID)
	if err != nil || len(attempts) == 0 {
		return "", err
	}
	switch out := attempts[len(attempts)-1].Outcome; out {
	case ChargeDeclined, ChargeAuthRequired, ChargeRefused:
		return out, nil
	}
	return "", nil
}

// Cards is how the sweep charges saved cards: through Charger, keeping attempts in Store. The
// zero value (a shop without Stripe) charges no card.
type Cards struct {
	Charger Charger
	Store   ChargeStore
}

// ChargeAttempt is the attempt number (1…len(ChargeDays)) whose point is the latest at or before
// now for a renewal due at due; 0 before the due day.
func ChargeAttempt(due, now time.Time) int {
	day := due.UTC().Truncate(24 * time.Hour)
	n := 0
	for i, d := range ChargeDays {
		if !now.Before(day.AddDate(0, 0, d)) {
			n = i + 1
		}
	}
	return n
}

// Charge charges the saved card of every unpaid renewal at its current attempt point, once per
// point whatever the number of replicas and runs (ReserveCharge), and answers how many charges
// succeeded. An attempt left pending by a process that stopped mid-call is made again, under its
// idempotency key, by the first sweep chargeStale later. A declined charge, or one needing the buyer's authentication, is recorded and logged;
// the invoice stays open for its pay link until the next point. A point passed while no sweep ran
// is not made up: only the latest point is tried. The line's suspension after the grace days does
// not stop the points: paying then re-enables it.
func (r *Renewals) Charge(ctx context.Context) (int, error) {
	if r.charger == nil {
		return 0, nil
	}
	now := r.now().UTC()
	due, err := r.charges.CardRenewalsDue(ctx, r.charger.Module(), now.Truncate(24*time.Hour).Add(24*time.Hour))
	if err != nil {
		return 0, fmt.Errorf("renewal charges: %w", err)
	}
	paid := 0
	var errs []error
	for _, d := range due {
		n := ChargeAttempt(d.Renewal.PeriodStart, now)
		if n == 0 {
			continue
		}
		if err := r.coverable(ctx, d.Renewal); err != nil {
			// No card is charged for a line the panel cannot extend: the point is tried again by
			// the next sweep, and the owners were mailed at the balance's low-water mark.
			r.log.Warn("renewal charge held: the panel's credits cannot cover it", "order", d.Renewal.OrderID, "service", d.Renewal.ServiceID, "err", err)
			continue
		}
		out, err := r.chargeAt(ctx, d, n, now)
		if err != nil {
			r.log.Error("renewal charge failed", "order", d.Renewal.OrderID, "service", d.Renewal.ServiceID, "attempt", n, "err", err)
			errs = append(errs, err)
		}
		if out == ChargeSucceeded {
			paid++
		}
	}
	return paid, errors.Join(errs...)
}

// coverable answers order.ErrOutOfStock when the panel's credits cannot cover rn's period.
func (r *Renewals) coverable(ctx context.Context, rn Renewal) error {
	if r.cfg.Stock == nil {
		return nil
	}
	svc, err := r.store.Service(ctx, rn.ServiceID)
	if err != nil {
		return err
	}
	return r.inStock(ctx, svc, rn.PID, catalog.Cycle(rn.BillingCycle))
}

// chargeAt makes attempt n of d's renewal unless it was made; it answers the outcome ("" when
// this call made no charge).
func (r *Renewals) chargeAt(ctx context.Context, d CardDue, n int, now time.Time) (string, error) {
	a := Attempt{OrderID: d.Renewal.OrderID, N: n, At: now, Outcome: chargePending}
	ok, err := r.charges.ReserveCharge(ctx, a, now.Add(-chargeStale))
	if err != nil || !ok {
		return "", err
	}
	o, err := r.store.Order(ctx, a.OrderID)
	if err == nil && (o.Status != order.StatusPending || o.Invoice.Status != order.InvoiceUnpaid) {
		// Paid or closed since it was listed: nothing to charge at this point.
		a.Outcome = "skipped: order " + string(o.Status)
		return "", r.charges.FinishCharge(ctx, a)
	}
	var out Outcome
	if err == nil {
		out, err = r.charger.ChargeRenewal(ctx, o, d.Card, n)
	}
	if out.Status == "" {
		// Nothing known to be charged: the point may be tried again (same idempotency key).
		if rerr := r.charges.ReleaseCharge(ctx, a.OrderID, n); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return "", fmt.Errorf("charge renewal %s attempt %d: %w", a.OrderID, n, err)
	}
	a.Outcome, a.DeclineCode, a.PaymentIntent = out.Status, out.DeclineCode, out.PaymentIntent
	if ferr := r.charges.FinishCharge(ctx, a); ferr != nil {
		err = errors.Join(err, ferr)
	}
	switch out.Status {
	case ChargeSucceeded:
		r.log.Info("renewal charged", "order", a.OrderID, "service", d.Renewal.ServiceID, "attempt", n, "payment", out.PaymentIntent)
	case ChargeProcessing:
		r.log.Info("renewal charge processing", "order", a.OrderID, "attempt", n, "payment", out.PaymentIntent)
	default:
		next := "none: the pay link is left"
		if n < len(ChargeDays) {
			next = d.Renewal.PeriodStart.UTC().Truncate(24*time.Hour).AddDate(0, 0, ChargeDays[n]).Format(time.DateOnly)
		}
		r.log.Warn("renewal charge not paid", "order", a.OrderID, "service", d.Renewal.ServiceID, "attempt", n,
			"outcome", out.Status, "decline_code", out.DeclineCode, "payment", out.PaymentIntent, "next_attempt", next)
	}
	if err != nil {
		return out.Status, fmt.Errorf("charge renewal %s attempt %d: %w", a.OrderID, n, err)
	}
	return out.Status, nil
}
