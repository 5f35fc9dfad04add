package provision

import (
	"context"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
)

var (
	_ order.Home = Plans{}
	_ order.Home = Trials{}
)

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

// SyncLine brings the line of s in step with it, its plan's bouquets included: a plan change
// moves a line to another plan (SyncPlan).
func (h Plans) SyncLine(ctx context.Context, s order.Service) error {
	if h.p == nil {
		return SyncLine(ctx, h.lines, s)
	}
	return SyncPlan(ctx, h.lines, s, h.p.catalog())
}

// Trials is the home of the free-trial kind: a trial's lines are made, taken back and kept in
// step as a plan's (a trial order is stored as a plan order). What is a trial's own lives around
// it: its limits where it is placed (package order), its ending mail and its lapse to Expired in
// package renewal.
type Trials struct{ Plans }
