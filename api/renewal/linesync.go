package renewal

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
)

// JobLineSync is the kind of the job that brings a service's panel line in step with the service
// as stored (its ref is the service id). A full refund (a plan's lines cancelled, a renewal's
// period or an upsell's connections taken back) queues it in the same transaction, so the panel
// follows even when it is down at the time of the refund: the job is retried until it gets through.
const JobLineSync = "line-sync"

// SyncLine is the JobLineSync handler: the line expires when the service does, plays its
// connections, and is on unless the service is Suspended; a Cancelled service's line is switched
// off, and an Expired one (a refunded trial conversion back to its trial, which has ended) ends
// when its trial did, switched off. It reads the service when it runs, so whatever changed since
// it was queued (a renewal paid meanwhile) is what the panel gets. A service without a line
// (pending, terminated) is left alone.
func (r *Renewals) SyncLine(ctx context.Context, j job.Job) error {
	s, err := r.store.Service(ctx, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("line sync %s: %w", j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("line sync %s: %w", j.Ref, err)
	}
	switch s.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended, order.ServiceExpired:
	case order.ServiceCancelled:
		if err := r.lines.SetEnabled(ctx, s.ID, false); err != nil {
			return fmt.Errorf("line sync %s: off: %w", s.ID, err)
		}
		return nil
	default:
		return nil
	}
	if err := r.lines.Extend(ctx, s.ID, s.ExpiresAt); err != nil {
		return fmt.Errorf("line sync %s: expiry: %w", s.ID, err)
	}
	if err := r.lines.SetMaxConnections(ctx, s.ID, s.MaxConnections); err != nil {
		return fmt.Errorf("line sync %s: connections: %w", s.ID, err)
	}
	on := s.Status != order.ServiceSuspended && s.Status != order.ServiceExpired
	if err := r.lines.SetEnabled(ctx, s.ID, on); err != nil {
		return fmt.Errorf("line sync %s: on/off: %w", s.ID, err)
	}
	return nil
}
