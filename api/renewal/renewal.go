// Package renewal bills the next period of active services: a sweep on business time places one
// renewal order (order.KindRenewal) per service and period, lead days before its due date, and
// its fulfiller moves the due date one cycle on and extends the same panel line once paid. Renewals
// is the renewal kind's home (order.Home): fulfil, take back after a full refund, line sync.
package renewal

import (
	"context"
	"errors"
	"fmt"
	billing "github.com/streamcart/streamcart/api/period"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/upsell"
)

// Lead days before the due date a renewal is invoiced, when STREAMCART_RENEWAL_LEAD_DAYS is 0:
// a week for a monthly line, two for longer cycles (WHMCS invoices 14 days ahead).
const (
	DefaultLeadMonthly = 7
	DefaultLeadLonger  = 14
)

// JobSweep is the kind of the daily renewal sweep (one a day, unique key renewals:YYYY-MM-DD).
const JobSweep = "renewals"

var _ order.Home = (*Renewals)(nil)

// JobLineSync is order.JobLineSync, under the name it had here.
const JobLineSync = order.JobLineSync

var (
	// ErrNotFound is what Store answers when an order is no renewal.
	ErrNotFound = errors.New("renewal: not found")
	// ErrLineGone means a renewal was paid for a line that is terminated or cancelled.
	ErrLineGone = errors.New("renewal: line not renewable")
)

// DefaultGraceDays is how long an unpaid line stays Overdue before it is suspended, when
// STREAMCART_RENEWAL_GRACE_DAYS is 0.
const DefaultGraceDays = 3

// Renewal is the purpose of a renewal order: the period [PeriodStart, PeriodEnd) of a service.
type Renewal struct {
	OrderID     string
	ServiceID   string
	PeriodStart time.Time // the service's due date when invoiced
	PeriodEnd   time.Time // the due date once paid
	CycleMonths int       // the period's length: a suspended line paid is due this long after the payment
	CreatedAt   time.Time
	AppliedAt   time.Time // zero until the due date moved
	CancelledAt time.Time // zero unless auto-renew was cancelled or the buyer chose another cycle
	// PID, BillingCycle and Name are the plan the period is bought for, which the service takes
	// once paid: 0 and "" keep the service's (a trial converting names its paid plan).
	PID          int
	BillingCycle string
	Name         string
}

// Listed is a service in the operator's renewal listing (streamcart renewals list).
type Listed struct {
	ServiceID   string
	Email       string // the client's, from the service's order
	Due         time.Time
	Status      order.ServiceStatus
	OpenInvoice string // the unpaid invoice of its latest renewal; "" when none
	AutoRenew   bool   // false once the buyer cancelled auto-renew: Cancelled at its due date
	SavedCard   bool   // its renewals are charged to a saved card
}

// Store is what renewals persist.
type Store interface {
	// DueServices lists the active, paid-for services (not trials) due at or before before.
	DueServices(ctx context.Context, before time.Time) ([]order.Service, error)
	// ReserveRenewal records r unless its service's period has a renewal already; it reports
	// whether it recorded (the database's unique key decides between replicas).
	ReserveRenewal(ctx context.Context, r Renewal) (bool, error)
	// DeleteRenewal forgets a renewal whose order was never placed.
	DeleteRenewal(ctx context.Context, orderID string) error
	// LatestRenewal reads the renewal (not cancelled) of the service's latest period; ErrNotFound
	// when none.
	LatestRenewal(ctx context.Context, serviceID string) (Renewal, error)
	// OpenRenewal reads the service's renewal whose order is pending; ErrNotFound when none.
	OpenRenewal(ctx context.Context, serviceID string) (Renewal, error)
	// CancelRenewal marks a renewal not applied cancelled (its period may be renewed again);
	// it reports whether it marked it.
	CancelRenewal(ctx context.Context, orderID string, at time.Time) (bool, error)
	// SetAutoRenew sets a service's auto-renew under its lock when its status is one of in; it
	// answers the service and whether it changed.
	SetAutoRenew(ctx context.Context, id string, on bool, in ...order.ServiceStatus) (order.Service, bool, error)
	// UnrenewedServices lists the services with auto-renew cancelled that are active, overdue
	// or suspended and due at or before now.
	UnrenewedServices(ctx context.Context, now time.Time) ([]order.Service, error)
	Service(ctx context.Context, id string) (order.Service, error)
	// RenewalListing lists the active, overdue and suspended services with a due date, due at
	// or before dueBefore (zero: any), soonest first.
	RenewalListing(ctx context.Context, dueBefore time.Time) ([]Listed, error)
	// Renewal reads the renewal of an order; ErrNotFound when the order is no renewal.
	Renewal(ctx context.Context, orderID string) (Renewal, error)
	// ApplyRenewal moves the service's due date (and expiry) to the renewal's period end unless
	// it was moved already, in one transaction with marking it applied; it returns the service.
	ApplyRenewal(ctx context.Context, orderID string, at time.Time) (order.Service, error)
	// ReverseRenewal takes back a refunded renewal once: cancelled, and, applied to a running
	// line, the due date and expiry moved back by what it added (Suspended when that is past)
	// with a JobLineSync queued; moved reports the service changed.
	ReverseRenewal(ctx context.Context, orderID string, at time.Time) (order.Service, bool, error)
	// LapsedServices lists the paid-for services in status due at or before dueBefore.
	LapsedServices(ctx context.Context, status order.ServiceStatus, dueBefore time.Time) ([]order.Service, error)
	// EndedTrials lists the active free trials that expired at or before now.
	EndedTrials(ctx context.Context, now time.Time) ([]order.Service, error)
	// SetServiceStatus moves a service to status to when it is in one of from, under the
	// service's lock; it reports whether it moved.
	SetServiceStatus(ctx context.Context, id string, to order.ServiceStatus, from ...order.ServiceStatus) (bool, error)
	Order(ctx context.Context, id string) (order.Order, error)
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
}

// Config holds the renewal settings.
type Config struct {
	// LeadDays is how many days before the due date the renewal is invoiced; 0: DefaultLeadMonthly
	// for monthly lines, DefaultLeadLonger for longer cycles.
	LeadDays int
	// GraceDays is how long after its due date an unpaid line stays Overdue before it is
	// suspended; 0: DefaultGraceDays.
	GraceDays int
	// TerminateAfterDays is how long after its due date an unpaid line is deleted and its
	// service Terminated; 0: never.
	TerminateAfterDays int
	// Stock answers order.ErrOutOfStock when the panel's reseller credits cannot cover extending
	// a line of the plan for the cycle (as a new order's check): a renewal is then refused before
	// any payment, and a saved card is not charged. nil: nothing is checked.
	Stock func(ctx context.Context, pid int, cycle catalog.Cycle) error
	// Locate is the country of an IP address ("" when unknown; nil: none is located): a line
	// whose first order kept no tax evidence (placed before the shop had a tax block) renews
	// taxed in the country of the address that order came from, not the seller's.
	Locate func(ip string) string
}

// grace is how long after its due date an unpaid line is suspended.
func (c Config) grace() time.Duration {
	if c.GraceDays > 0 {
		return time.Duration(c.GraceDays) * 24 * time.Hour
	}
	return DefaultGraceDays * 24 * time.Hour
}

// Lead is how long before a due date a service of cycle is invoiced.
func (c Config) Lead(cycle catalog.Cycle) time.Duration {
	days := c.LeadDays
	switch {
	case days > 0:
	case cycle == catalog.Monthly:
		days = DefaultLeadMonthly
	default:
		days = DefaultLeadLonger
	}
	return time.Duration(days) * 24 * time.Hour
}

// maxLead is the longest lead of any cycle: how far ahead the sweep looks.
func (c Config) maxLead() time.Duration {
	return max(c.Lead(catalog.Monthly), c.Lead(catalog.Annually))
}

// Renewals invoices and applies renewals.
type Renewals struct {
	store   Store
	catalog func() *catalog.Catalog
	orders  *order.Orders
	lines   panel.Manager
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	remind  *Reminders  // the renewal mails (remind.go); nil: none
	charger Charger     // nil: no saved card is charged (Cards)
	charges ChargeStore // the attempts of charger
}

// New returns the renewal service: the sweep mails each renewal invoice it places through remind
// and the daily job runs it (nil: no mail), and charges saved cards through cards; now is the
// business clock, nil: real time.
func New(store Store, cat func() *catalog.Catalog, orders *order.Orders, lines panel.Manager, remind *Reminders, cards Cards,
	cfg Config, log *slog.Logger, now func() time.Time) *Renewals {
	return &Renewals{store: store, catalog: cat, orders: orders, lines: lines, remind: remind, charger: cards.Charger, charges: cards.Store,
		cfg: cfg, log: log, now: clock.OrReal(now)}
}

// Job is the daily sweep, run once a day whatever the number of replicas.
func (r *Renewals) Job(enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error) job.Daily {
	return job.Daily{Kind: JobSweep, Enqueue: enqueue, Now: r.now, Run: func(ctx context.Context, _ time.Time) error {
		_, err := r.Sweep(ctx)
		// Saved cards are charged before the lapse, so a line paid on its due day never goes overdue.
		_, cerr := r.Charge(ctx)
		return errors.Join(err, cerr, r.remind.run(ctx), r.Lapse(ctx))
	}}
}

// Sweep invoices the renewal of every active service whose due date is within its lead and
// answers how many orders it placed. Replicas sweeping at once place one order per service and
// period: each reserves the period first, and only the one whose reservation is recorded places
// the order. A service whose renewal cannot be priced or placed is logged and tried again by the
// next sweep; the others go on.
func (r *Renewals) Sweep(ctx context.Context) (int, error) {
	now := r.now().UTC()
	due, err := r.store.DueServices(ctx, now.Add(r.cfg.maxLead()))
	if err != nil {
		return 0, fmt.Errorf("renewal sweep: %w", err)
	}
	placed := 0
	var errs []error
	for _, s := range due {
		cycle := upsell.PricingCycle(s.BillingCycle)
		if cycle.Months() == 0 || s.NextDueDate.Add(-r.cfg.Lead(cycle)).After(now) {
			continue
		}
		ok, err := r.invoice(ctx, s, cycle, now)
		if err != nil {
			r.log.Error("renewal not invoiced", "service", s.ID, "due", s.NextDueDate, "err", err)
			errs = append(errs, err)
		}
		if ok {
			placed++
		}
	}
	return placed, errors.Join(errs...)
}

// RecurringQuote is what the next period of s costs: its plan and cycle with the connections it
// has now (upsells included) and the proxy protection it was bought with, in its order's
// currency, at the catalog's prices. The first order's promotion applies again only when the
// catalog marks it recurring (judged as on the day of that order: its dates and uses counted
// then).
func (r *Renewals) RecurringQuote(first order.Order, s order.Service, cycle catalog.Cycle, now time.Time) (pricing.Quote, error) {
	return r.quote(first, s, s.PID, cycle, now)
}

// quote prices a period of s bought as plan pid (s's own, or the paid plan a trial converts to).
func (r *Renewals) quote(first order.Order, s order.Service, pid int, cycle catalog.Cycle, now time.Time) (pricing.Quote, error) {
	cat := r.catalog()
	req := pricing.Request{PID: pid, Cycle: cycle, Currency: first.Quote.Currency,
		ExtraConnections: max(s.MaxConnections-1, 0), ProxyProtection: first.Quote.ProxyProtection}
	if s.Trial {
		req.ExtraConnections, req.ProxyProtection = 0, false
	}
	// A renewal is taxed where its first order was (the billing country taxed then, with the
	// address's country as evidence); a first order placed without tax by the country of its
	// address; only with none known, the seller's.
	req.BillingCountry, req.IPCountry, _ = first.TaxEvidence(r.cfg.Locate)
	if promo, ok := cat.Promotion(first.PromoCode); ok && promo.Recurring && pid == s.PID && !s.Trial {
		promoted := req
		promoted.PromoCode = promo.Code
		if q, err := pricing.QuoteFor(cat, promoted, first.CreatedAt); err == nil {
			return q, nil
		}
		// No longer applicable (the plan left its appliesTo): the period is billed in full.
	}
	return pricing.QuoteFor(cat, req, now)
}

// period is a billing period of a service to renew.
type period struct {
	svc   order.Service
	start time.Time // the due date it pays (a trial: its end)
	cycle catalog.Cycle
	pid   int    // the plan bought: the service's, or the paid plan a trial converts to
	name  string // the plan's name, for a trial converting
}

func (p period) renewal(id string, now time.Time) Renewal {
	// The period ends on the line's billing anchor (billing.Anchor: its registration day, or the due
	// date's own): a line bought on 31 January and due on 28 February is next due on 31 March.
	end := billing.AddMonths(p.start, p.cycle.Months(), billing.Anchor(p.start, p.svc.CreatedAt))
	return Renewal{OrderID: id, ServiceID: p.svc.ID, PeriodStart: p.start, PeriodEnd: end,
		CycleMonths: p.cycle.Months(), CreatedAt: now, PID: p.pid, BillingCycle: string(p.cycle), Name: p.name}
}

// same reports whether the recorded renewal rn bills p.
func (p period) same(rn Renewal) bool {
	cycle := rn.BillingCycle
	if cycle == "" { // recorded before renewals named their cycle: the service's
		cycle = string(upsell.PricingCycle(p.svc.BillingCycle))
	}
	pid := rn.PID
	if pid == 0 {
		pid = p.svc.PID
	}
	return rn.PeriodStart.Equal(p.start) && cycle == string(p.cycle) && pid == p.pid
}

// placing is how a renewal order is placed: for whom, through which gateway, back to where.
type placing struct {
	claims    *authz.Claims // nil: the first order's client and session (the sweep)
	gateway   string        // "": the first order's, else the shop's default
	returnURL string
	origins   []string
}

// invoice places s's renewal for the period starting at its due date unless one exists.
func (r *Renewals) invoice(ctx context.Context, s order.Service, cycle catalog.Cycle, now time.Time) (bool, error) {
	_, placed, err := r.place(ctx, period{svc: s, start: s.NextDueDate, cycle: cycle, pid: s.PID}, placing{}, now)
	return placed, err
}

// place reserves p's renewal and places its order; placed is false, with no error, when the
// period has a renewal already.
func (r *Renewals) place(ctx context.Context, p period, how placing, now time.Time) (order.Order, bool, error) {
	first, err := r.store.Order(ctx, p.svc.OrderID)
	if err != nil {
		return order.Order{}, false, fmt.Errorf("renew %s: %w", p.svc.ID, err)
	}
	q, err := r.quote(first, p.svc, p.pid, p.cycle, now)
	if err != nil {
		return order.Order{}, false, fmt.Errorf("renew %s: %w", p.svc.ID, err)
	}
	rn := p.renewal(order.NewOrderID(), now)
	gateway := how.gateway
	if gateway == "" {
		gateway = first.Gateway
	}
	// Payable through the period (an overdue or suspended line can still be paid), and a day at
	// least (a trial converting, whose notional period started at its end).
	deadline := rn.PeriodEnd
	if least := now.Add(order.PaymentDeadline); deadline.Before(least) {
		deadline = least
	}
	pl := order.Placement{Kind: order.KindRenewal, ID: rn.OrderID, Quote: q, Gateway: gateway, Locale: first.Locale,
		Deadline: deadline, ReturnURL: how.returnURL}
	if q.Tax != nil { // the first order's evidence of where the buyer is, kept with the renewal
		pl.BillingCountry, pl.IPCountry, pl.CountryConfirmed = q.Tax.Country, q.Tax.IPCountry, first.CountryConfirmed
	}
	if len(how.origins) > 0 {
		pl.Origin, pl.ReturnOrigins = how.origins[0], how.origins[1:]
	}
	if err := r.orders.CheckPlacement(pl); err != nil {
		if how.gateway != "" || how.returnURL != "" {
			return order.Order{}, false, fmt.Errorf("renew %s: %w", p.svc.ID, err) // the buyer's choice: refused
		}
		pl.Gateway = "" // the first order's gateway is no longer offered: the shop's default
	}
	recorded, err := r.store.ReserveRenewal(ctx, rn)
	if err == nil && !recorded {
		recorded, err = r.reclaim(ctx, rn, now)
	}
	if err != nil || !recorded {
		return order.Order{}, false, err
	}
	claims := authz.Claims{ClientID: first.ClientID, SessionID: first.SessionID, Email: first.Email}
	if how.claims != nil {
		claims = *how.claims
	}
	o, err := r.orders.Place(ctx, claims, pl)
	if err != nil {
		// Not placed: the reservation goes, so the next sweep tries the period again.
		if derr := r.store.DeleteRenewal(ctx, rn.OrderID); derr != nil {
			err = errors.Join(err, derr)
		}
		return order.Order{}, false, fmt.Errorf("renew %s: %w", p.svc.ID, err)
	}
	if how.claims == nil {
		// Placed by the sweep: the buyer learns of it by mail. A buyer renewing from the
		// storefront is at the payment page already.
		r.remind.invoiced(ctx, o, p.svc, rn)
	}
	return o, true, nil
}

// Abandoned is how long a reserved renewal may go without its order before a sweep takes the
// period over: placing an order takes seconds, so a reservation that old was left by a process
// that stopped between reserving and placing.
const Abandoned = 10 * time.Minute

// reclaim reserves rn's period again when the renewal recorded for it is dead: abandoned (no
// order, reserved more than Abandoned ago), or its order cancelled or failed (the buyer cancelled
// the order, the payment was declined); it reports whether rn is now the period's renewal.
func (r *Renewals) reclaim(ctx context.Context, rn Renewal, now time.Time) (bool, error) {
	prev, err := r.store.LatestRenewal(ctx, rn.ServiceID)
	if errors.Is(err, ErrNotFound) {
		// Gone since our reservation was refused: another sweep is taking the period over. Whichever
		// reserves first places it; the other's reservation is refused.
		return r.store.ReserveRenewal(ctx, rn)
	}
	if err != nil || !prev.PeriodStart.Equal(rn.PeriodStart) {
		return false, err
	}
	o, err := r.store.Order(ctx, prev.OrderID)
	switch {
	case errors.Is(err, order.ErrNotFound):
		if prev.CreatedAt.After(now.Add(-Abandoned)) {
			return false, nil
		}
		// DeleteRenewal keeps a reservation whose order exists, so a late placement is never lost.
		if err := r.store.DeleteRenewal(ctx, prev.OrderID); err != nil {
			return false, err
		}
	case err != nil:
		return false, err
	case o.Status == order.StatusCancelled || o.Status == order.StatusFailed:
		if _, err := r.store.CancelRenewal(ctx, prev.OrderID, now); err != nil {
			return false, err
		}
	default:
		return false, nil
	}
	return r.store.ReserveRenewal(ctx, rn)
}

// Fulfil applies a paid renewal order (KindRenewal) named by a provisioning job: the service is
// active again and due at the period's end (a suspended one: a cycle after the payment) once
// (ApplyRenewal), then the same panel line is extended to it and enabled, which is safe to repeat.
func (r *Renewals) Fulfil(ctx context.Context, j job.Job) error {
	if _, err := r.store.Renewal(ctx, j.Ref); errors.Is(err, ErrNotFound) {
		return job.Permanent(fmt.Errorf("renewal %s: %w", j.Ref, err))
	} else if err != nil {
		return fmt.Errorf("renewal %s: %w", j.Ref, err)
	}
	o, ok, err := order.StartFulfilment(ctx, r.store, j.Ref)
	if err != nil {
		return fmt.Errorf("renewal %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive {
			r.log.Warn("renewal skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	svc, err := r.store.ApplyRenewal(ctx, o.ID, r.now().UTC())
	if errors.Is(err, ErrLineGone) {
		// Nothing can be delivered: the payment goes to review and is refunded.
		if err := r.orders.ReviewPaid(ctx, o.ID, order.ReasonLineGone); err != nil {
			return fmt.Errorf("renewal %s: %w", o.ID, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("renewal %s: %w", o.ID, err)
	}
	if err := r.extend(ctx, svc); err != nil {
		if errors.Is(err, panel.ErrNotFound) && r.lineGone(ctx, svc.ID) {
			// The line was lost on the panel and its service ended meanwhile (the plan refunded):
			// nothing can be delivered, and no reconciliation makes that line again.
			if err := r.orders.ReviewPaid(ctx, o.ID, order.ReasonLineGone); err != nil {
				return fmt.Errorf("renewal %s: %w", o.ID, err)
			}
			return nil
		}
		return fmt.Errorf("renewal %s: extend line: %w", o.ID, err)
	}
	// Always, not only when the line was suspended: safe to repeat, so a retry after a failure
	// here still re-enables it.
	if err := r.lines.SetEnabled(ctx, svc.ID, true); err != nil {
		return fmt.Errorf("renewal %s: enable line: %w", o.ID, err)
	}
	active, err := r.store.FinishFulfilment(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("renewal %s: %w", o.ID, err)
	}
	if active && o.Invoice.Amount.Amount > 0 {
		r.remind.paid(ctx, o, svc)
	}
	return nil
}

// extend moves the panel line of a renewed service to its new expiry, spending the plan's cost in
// reseller credits on a panel that charges for it (panel.PaidExtender), as a new line would. A
// panel out of credits fails the job (panel.ErrNoCredits): it retries while the owners, mailed at
// the balance's low-water mark, top the account up.
func (r *Renewals) extend(ctx context.Context, svc order.Service) error {
	pe, ok := r.lines.(panel.PaidExtender)
	if !ok {
		return r.lines.Extend(ctx, svc.ID, svc.ExpiresAt)
	}
	cost := 0
	if p, found := r.catalog().Product(svc.PID); found {
		cost = p.CreditCost(upsell.PricingCycle(svc.BillingCycle))
	}
	return pe.ExtendPaid(ctx, svc.ID, svc.ExpiresAt, cost)
}

// lineGone reports whether service id is in a state whose line nobody keeps (cancelled,
// terminated): a missing line of a running service is made again by the reconciliation instead.
func (r *Renewals) lineGone(ctx context.Context, id string) bool {
	svc, err := r.store.Service(ctx, id)
	if err != nil {
		return false
	}
	return svc.Status == order.ServiceCancelled || svc.Status == order.ServiceTerminated
}

// inStock answers order.ErrOutOfStock when the panel cannot cover the renewal of svc in cycle of
// plan pid (0: the service's).
func (r *Renewals) inStock(ctx context.Context, svc order.Service, pid int, cycle catalog.Cycle) error {
	if r.cfg.Stock == nil {
		return nil
	}
	if pid == 0 {
		pid = svc.PID
	}
	if cycle == "" {
		cycle = upsell.PricingCycle(svc.BillingCycle)
	}
	return r.cfg.Stock(ctx, pid, cycle)
}

// TakeBack undoes a renewal whose payment was refunded in full (order.Home): the service loses
// the time it added (ReverseRenewal), and an unpaid renewal already invoiced for the period after
// it, which the service no longer starts, is cancelled. moved reports the service changed; its
// panel line follows by the JobLineSync queued with the change.
func (r *Renewals) TakeBack(ctx context.Context, o order.Order) (moved bool, err error) {
	now := r.now().UTC()
	svc, moved, err := r.store.ReverseRenewal(ctx, o.ID, now)
	if err != nil || !moved {
		return moved, err
	}
	open, err := r.store.OpenRenewal(ctx, svc.ID)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return moved, fmt.Errorf("take back renewal %s: %w", o.ID, err)
	case !open.PeriodStart.Equal(svc.NextDueDate):
		if err := r.cancelRenewal(ctx, open, now); err != nil && !errors.Is(err, ErrBeingApplied) {
			return moved, fmt.Errorf("take back renewal %s: %w", o.ID, err)
		}
	}
	return moved, nil
}

// SyncLine brings the line a renewal extends in step with its service (provision.SyncLine): a
// renewal's time lives on a plan's line.
func (r *Renewals) SyncLine(ctx context.Context, s order.Service) error {
	return provision.SyncLine(ctx, r.lines, s)
}

// Lapse moves the services whose time ran out at the business time, each step once whatever the
// number of replicas (a status moves only from the one before it): an active line past its due
// date is Overdue (Cancelled, its line disabled, when its auto-renew was cancelled); an overdue
// one past the grace days is Suspended and its panel line disabled;
// with TerminateAfterDays set, a suspended one that long past its due date is Terminated and its
// line deleted; a free trial past its end is Expired. A line whose panel call fails is logged
// and tried again by the next sweep; the others go on.
func (r *Renewals) Lapse(ctx context.Context) error {
	now := r.now().UTC()
	var errs []error
	step := func(from, to order.ServiceStatus, dueBefore time.Time, line func(order.Service) error) {
		list, err := r.store.LapsedServices(ctx, from, dueBefore)
		if err != nil {
			errs = append(errs, err)
			return
		}
		for _, s := range list {
			if err := r.move(ctx, s, from, to, line); err != nil {
				r.log.Error("service lifecycle step failed", "service", s.ID, "from", from, "to", to, "err", err)
				errs = append(errs, err)
			}
		}
	}
	// Cancelled first: a line whose auto-renew was cancelled ends at its due date, never overdue.
	unrenewed, err := r.store.UnrenewedServices(ctx, now)
	if err != nil {
		errs = append(errs, err)
	}
	for _, s := range unrenewed {
		disable := func(s order.Service) error { return r.lines.SetEnabled(ctx, s.ID, false) }
		if err := r.move(ctx, s, s.Status, order.ServiceCancelled, disable); err != nil {
			r.log.Error("service lifecycle step failed", "service", s.ID, "from", s.Status, "to", order.ServiceCancelled, "err", err)
			errs = append(errs, err)
		}
	}
	step(order.ServiceActive, order.ServiceOverdue, now, nil)
	step(order.ServiceOverdue, order.ServiceSuspended, now.Add(-r.cfg.grace()), func(s order.Service) error {
		return r.lines.SetEnabled(ctx, s.ID, false)
	})
	if d := r.cfg.TerminateAfterDays; d > 0 {
		step(order.ServiceSuspended, order.ServiceTerminated, now.Add(-time.Duration(d)*24*time.Hour), func(s order.Service) error {
			return r.lines.Delete(ctx, s.ID)
		})
	}
	trials, err := r.store.EndedTrials(ctx, now)
	if err != nil {
		errs = append(errs, err)
	}
	for _, s := range trials {
		if _, err := r.store.SetServiceStatus(ctx, s.ID, order.ServiceExpired, order.ServiceActive); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("service lifecycle: %w", err)
	}
	return nil
}

// move puts s from status from to to, then runs line on its panel line. Should the line call
// fail, the status goes back, so the next sweep tries again. A renewal paid meanwhile made the
// service active and enabled its line; line may have run after that, so the line is enabled
// again when the service moved on.
func (r *Renewals) move(ctx context.Context, s order.Service, from, to order.ServiceStatus, line func(order.Service) error) error {
	moved, err := r.store.SetServiceStatus(ctx, s.ID, to, from)
	if err != nil || !moved || line == nil {
		return err
	}
	if err := line(s); err != nil {
		if _, rerr := r.store.SetServiceStatus(ctx, s.ID, from, to); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return err
	}
	now, err := r.store.SetServiceStatus(ctx, s.ID, to, to)
	if err != nil {
		return err
	}
	if !now && (to == order.ServiceSuspended || to == order.ServiceCancelled) {
		return r.lines.SetEnabled(ctx, s.ID, true)
	}
	return nil
}
