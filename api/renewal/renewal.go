// Package renewal bills the next period of active services: a sweep on business time places one
// renewal order (order.KindRenewal) per service and period, lead days before its due date, and
// its fulfiller moves the due date one cycle on and extends the same panel line once paid.
package renewal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/pricing"
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

// ErrNotFound is what Store answers when an order is no renewal.
var ErrNotFound = errors.New("renewal: not found")

// Renewal is the purpose of a renewal order: the period [PeriodStart, PeriodEnd) of a service.
type Renewal struct {
	OrderID     string
	ServiceID   string
	PeriodStart time.Time // the service's due date when invoiced
	PeriodEnd   time.Time // the due date once paid
	CreatedAt   time.Time
	AppliedAt   time.Time // zero until the due date moved
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
	// LatestRenewal reads the renewal of the service's latest period; ErrNotFound when none.
	LatestRenewal(ctx context.Context, serviceID string) (Renewal, error)
	// Renewal reads the renewal of an order; ErrNotFound when the order is no renewal.
	Renewal(ctx context.Context, orderID string) (Renewal, error)
	// ApplyRenewal moves the service's due date (and expiry) to the renewal's period end unless
	// it was moved already, in one transaction with marking it applied; it returns the service.
	ApplyRenewal(ctx context.Context, orderID string, at time.Time) (order.Service, error)
	Order(ctx context.Context, id string) (order.Order, error)
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
}

// Config holds the renewal settings.
type Config struct {
	// LeadDays is how many days before the due date the renewal is invoiced; 0: DefaultLeadMonthly
	// for monthly lines, DefaultLeadLonger for longer cycles.
	LeadDays int
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
}

// New returns the renewal service.
func New(store Store, cat func() *catalog.Catalog, orders *order.Orders, lines panel.Manager, cfg Config, log *slog.Logger) *Renewals {
	return &Renewals{store: store, catalog: cat, orders: orders, lines: lines, cfg: cfg, log: log, now: time.Now}
}

// SetClock sets the business clock: the shop's test clock; time.Now by default.
func (r *Renewals) SetClock(now func() time.Time) { r.now = now }

// Job is the daily sweep, run once a day whatever the number of replicas.
func (r *Renewals) Job(enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error) job.Daily {
	return job.Daily{Kind: JobSweep, Enqueue: enqueue, Now: r.now, Run: func(ctx context.Context, _ time.Time) error {
		_, err := r.Sweep(ctx)
		return err
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
// currency, at the catalog's prices and without the first order's promotion.
func (r *Renewals) RecurringQuote(first order.Order, s order.Service, cycle catalog.Cycle, now time.Time) (pricing.Quote, error) {
	return pricing.QuoteFor(r.catalog(), pricing.Request{PID: s.PID, Cycle: cycle, Currency: first.Quote.Currency,
		ExtraConnections: max(s.MaxConnections-1, 0), ProxyProtection: first.Quote.ProxyProtection}, now)
}

// invoice places s's renewal for the period starting at its due date unless one exists.
func (r *Renewals) invoice(ctx context.Context, s order.Service, cycle catalog.Cycle, now time.Time) (bool, error) {
	first, err := r.store.Order(ctx, s.OrderID)
	if err != nil {
		return false, fmt.Errorf("renew %s: %w", s.ID, err)
	}
	q, err := r.RecurringQuote(first, s, cycle, now)
	if err != nil {
		return false, fmt.Errorf("renew %s: %w", s.ID, err)
	}
	rn := Renewal{OrderID: order.NewOrderID(), ServiceID: s.ID, PeriodStart: s.NextDueDate,
		PeriodEnd: s.NextDueDate.AddDate(0, cycle.Months(), 0), CreatedAt: now}
	recorded, err := r.store.ReserveRenewal(ctx, rn)
	if err != nil || !recorded {
		return false, err
	}
	p := order.Placement{Kind: order.KindRenewal, ID: rn.OrderID, Quote: q, Gateway: first.Gateway, Locale: first.Locale,
		Deadline: rn.PeriodEnd}
	if r.orders.CheckPlacement(p) != nil {
		p.Gateway = "" // the first order's gateway is no longer offered: the shop's default
	}
	claims := authz.Claims{ClientID: first.ClientID, SessionID: first.SessionID, Email: first.Email}
	if _, err := r.orders.Place(ctx, claims, p); err != nil {
		// Not placed: the reservation goes, so the next sweep tries the period again.
		if derr := r.store.DeleteRenewal(ctx, rn.OrderID); derr != nil {
			err = errors.Join(err, derr)
		}
		return false, fmt.Errorf("renew %s: %w", s.ID, err)
	}
	return true, nil
}

// Fulfil applies a paid renewal order (KindRenewal) named by a provisioning job: the service's
// due date moves to the period's end once (ApplyRenewal), then the same panel line is extended
// to it, which is safe to repeat.
func (r *Renewals) Fulfil(ctx context.Context, j job.Job) error {
	if _, err := r.store.Renewal(ctx, j.Ref); errors.Is(err, ErrNotFound) {
		return job.Permanent(fmt.Errorf("renewal %s: %w", j.Ref, err))
	} else if err != nil {
		return fmt.Errorf("renewal %s: %w", j.Ref, err)
	}
	o, ok, err := order.StartFulfilment(ctx, r.store, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("renewal %s: %w", j.Ref, err))
	}
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
	if err != nil {
		return fmt.Errorf("renewal %s: %w", o.ID, err)
	}
	if err := r.lines.Extend(ctx, svc.ID, svc.ExpiresAt); err != nil {
		return fmt.Errorf("renewal %s: extend line: %w", o.ID, err)
	}
	if _, err := r.store.SetOrderStatus(ctx, o.ID, order.StatusActive, order.StatusProvisioning); err != nil {
		return fmt.Errorf("renewal %s: %w", o.ID, err)
	}
	return nil
}
