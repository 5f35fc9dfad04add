// Package provision turns a paid order into working lines on the panel. It runs as a durable job:
// every step is safe to repeat, so a crash or a panel outage between any two steps only delays it.
// It is the home of the plan and trial kinds (Plans, Trials: order.Home) and keeps every kind's
// panel line in step with its service (SyncLine).
package provision

import (
	"context"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/period"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
)

// TrialLength is how long a free-trial line works.
const TrialLength = 24 * time.Hour

// Store is what provisioning reads and writes.
type Store interface {
	Order(ctx context.Context, id string) (order.Order, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
	UpdateService(ctx context.Context, s order.Service) error
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
	// CancelOrderLines cancels the order's running lines with the jobs that switch them off on
	// the panel, in one transaction; it answers how many.
	CancelOrderLines(ctx context.Context, orderID string, at time.Time) (int, error)
}

// Provisioner is the handler of order.JobProvision jobs.
type Provisioner struct {
	store   Store
	panel   panel.Panel
	catalog func() *catalog.Catalog
	prefix  string
	log     *slog.Logger
	now     func() time.Time
	notify  Notifier
}

// Notifier tells the buyer how the order goes. Each call comes once per order, on the step's
// status change; its error is logged, not retried: the job would otherwise run again for a mail.
type Notifier interface {
	// OrderReceived: a paid order's provisioning starts (not for free orders).
	OrderReceived(ctx context.Context, o order.Order) error
	// LinesReady: every line of the order works.
	LinesReady(ctx context.Context, o order.Order) error
}

// New returns a provisioner creating lines with usernames starting with prefix, telling buyers
// how their orders go through notify (nil: nobody); now is the
// business clock (service due dates), nil: real time.
func New(store Store, p panel.Panel, cat func() *catalog.Catalog, prefix string, notify Notifier, log *slog.Logger, now func() time.Time) *Provisioner {
	return &Provisioner{store: store, panel: p, catalog: cat, prefix: prefix, notify: notify, log: log, now: clock.OrReal(now)}
}

// Handle provisions the order named by the job.
func (p *Provisioner) Handle(ctx context.Context, j job.Job) error {
	o, ok, err := order.StartFulfilment(ctx, p.store, j.Ref)
	if err != nil {
		return fmt.Errorf("provision: order %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive { // fraud, cancelled or failed: never provisioned
			p.log.Warn("provision skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	// StartFulfilment read the order before moving it: paid means this run started it.
	if o.Status == order.StatusPaid && o.Invoice.Amount.Amount > 0 && p.notify != nil {
		if err := p.notify.OrderReceived(ctx, o); err != nil {
			p.log.Error("order received mail not queued", "order", o.ID, "err", err)
		}
	}
	services, err := p.store.OrderServices(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("provision: %w", err)
	}
	for _, svc := range services {
		if err := p.line(ctx, o, svc); err != nil {
			return fmt.Errorf("provision %s: %w", svc.ID, err)
		}
	}
	active, err := p.store.FinishFulfilment(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("provision: %w", err)
	}
	if !active {
		if err := p.refundedMeanwhile(ctx, o.ID); err != nil {
			return fmt.Errorf("provision: %w", err)
		}
	}
	if active && p.notify != nil {
		if err := p.notify.LinesReady(ctx, o); err != nil {
			p.log.Error("lines ready mail not queued", "order", o.ID, "err", err)
		}
	}
	p.log.Info("order active", "order", o.ID, "services", len(services))
	return nil
}

// refundedMeanwhile cancels the lines just made for an order refunded in full (or cancelled) while
// they were being made: the refund's take-back ran before they existed. A partial refund keeps them.
func (p *Provisioner) refundedMeanwhile(ctx context.Context, id string) error {
	o, err := p.store.Order(ctx, id)
	if err != nil {
		return err
	}
	if o.Status != order.StatusRefunded && o.Status != order.StatusCancelled {
		return nil
	}
	n, err := p.store.CancelOrderLines(ctx, id, p.now().UTC())
	if n > 0 {
		p.log.Warn("lines made for an order refunded meanwhile: cancelled", "order", id, "status", o.Status, "lines", n)
	}
	return err
}

// line creates one service's line. Credentials are stored before the panel is called, and the
// panel call is idempotent by the service id, so a repeat never makes a second line.
func (p *Provisioner) line(ctx context.Context, o order.Order, svc order.Service) error {
	if svc.Status == order.ServiceActive {
		return nil
	}
	if svc.Username == "" {
		now := p.now().UTC()
		svc.Username, svc.Password = panel.NewUsername(p.prefix), panel.NewPassword()
		svc.ExpiresAt, svc.NextDueDate = term(svc, now)
		if err := p.store.UpdateService(ctx, svc); err != nil {
			return err
		}
	}
	product, _ := p.catalog().Product(svc.PID)
	line, err := p.panel.CreateLine(ctx, panel.Line{
		Ref: svc.ID, Username: svc.Username, Password: svc.Password, MaxConnections: svc.MaxConnections,
		ExpiresAt: svc.ExpiresAt, Trial: svc.Trial, Bouquets: product.Bouquets, Enabled: true,
		Credits: product.CreditCost(catalog.Cycle(svc.BillingCycle)),
	})
	if errors.Is(err, panel.ErrUsernameTaken) {
		// Forget the taken name; the retry draws a new one.
		svc.Username, svc.Password = "", ""
		if err := p.store.UpdateService(ctx, svc); err != nil {
			return err
		}
		return fmt.Errorf("username taken, retrying: %w", err)
	}
	if err != nil {
		return err
	}
	svc.Username, svc.Password, svc.MaxConnections = line.Username, line.Password, line.MaxConnections
	svc.ServerHostname = p.panel.ServerHostname()
	svc.Status = order.ServiceActive
	return p.store.UpdateService(ctx, svc)
}

// term is when a new line expires and when its next payment is due: the billing cycle's length,
// a day for a trial, never for a one-time purchase. The line is anchored on now's day (UTC): bought
// on 31 January, it is due on 28 February (period.AddMonths), not on 3 March.
func term(svc order.Service, now time.Time) (expires, due time.Time) {
	if svc.Trial {
		return now.Add(TrialLength), time.Time{}
	}
	months := catalog.Cycle(svc.BillingCycle).Months()
	if months == 0 {
		return time.Time{}, time.Time{}
	}
	end := period.AddMonths(now, months, now.UTC().Day())
	return end, end
}
