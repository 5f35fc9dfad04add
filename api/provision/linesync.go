package provision

import (
	"context"
	"fmt"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
)

// SyncLine brings s's panel line in step with s as stored, whichever kind changed it (a plan's
// or trial's lines cancelled, an upsell's connections or a renewal's period taken back): the line
// expires when the service does, plays its connections, and is on unless the service is
// Suspended; a Cancelled service's line is switched off, and an Expired one (a refunded trial
// conversion back to its trial, which has ended) ends when its trial did, switched off. A service
// without a line (pending, terminated) is left alone. order.Homes.LineSync runs it for
// order.JobLineSync, reading the service when the job runs.
func SyncLine(ctx context.Context, lines panel.Manager, s order.Service) error {
	switch s.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended, order.ServiceExpired:
	case order.ServiceCancelled:
		if err := lines.SetEnabled(ctx, s.ID, false); err != nil {
			return fmt.Errorf("line sync %s: off: %w", s.ID, err)
		}
		return nil
	default:
		return nil
	}
	if err := lines.Extend(ctx, s.ID, s.ExpiresAt); err != nil {
		return fmt.Errorf("line sync %s: expiry: %w", s.ID, err)
	}
	if err := lines.SetMaxConnections(ctx, s.ID, s.MaxConnections); err != nil {
		return fmt.Errorf("line sync %s: connections: %w", s.ID, err)
	}
	on := s.Status != order.ServiceSuspended && s.Status != order.ServiceExpired
	if err := lines.SetEnabled(ctx, s.ID, on); err != nil {
		return fmt.Errorf("line sync %s: on/off: %w", s.ID, err)
	}
	return nil
}

// Plans is the home of the plan kind (order.Home): its lines are made on the panel (Fulfil),
// cancelled when it is refunded in full, and kept in step with their services.
type Plans struct {
	p     *Provisioner
	lines panel.Manager
}

// NewPlans returns the plan kind's home: p makes the lines, lines manages them once made.
func NewPlans(p *Provisioner, lines panel.Manager) Plans { return Plans{p: p, lines: lines} }

// Fulfil provisions the paid plan order the job names (Provisioner.Handle).
func (h Plans) Fulfil(ctx context.Context, j job.Job) error { return h.p.Handle(ctx, j) }

// TakeBack cancels the order's running lines; their panel lines are switched off by the
// line-sync jobs queued with the change, retried while the panel is down.
func (h Plans) TakeBack(ctx context.Context, o order.Order) (bool, error) {
	n, err := h.p.store.CancelOrderLines(ctx, o.ID, h.p.now().UTC())
	return n > 0, err
}

// SyncLine brings the line of s in step with it (SyncLine).
func (h Plans) SyncLine(ctx context.Context, s order.Service) error { return SyncLine(ctx, h.lines, s) }

// Trials is the home of the free-trial kind: a trial's lines are made, taken back and kept in
// step as a plan's (a trial order is stored as a plan order). What is a trial's own lives around
// it: its limits where it is placed (package order), its ending mail and its lapse to Expired in
// package renewal.
type Trials struct{ Plans }
