package provision

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/catalog"
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
		// A line the panel no longer has is as off as it gets.
		if err := lines.SetEnabled(ctx, s.ID, false); err != nil && !errors.Is(err, panel.ErrNotFound) {
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

// SyncPlan is SyncLine for a change that may have moved the service to another plan (a plan
// change, a trial converting): the line also plays the plan's bouquets, on a panel that can change
// them (panel.BouquetSetter).
func SyncPlan(ctx context.Context, lines panel.Manager, s order.Service, cat *catalog.Catalog) error {
	if err := SyncLine(ctx, lines, s); err != nil {
		return err
	}
	bs, ok := lines.(panel.BouquetSetter)
	if !ok || cat == nil {
		return nil
	}
	switch s.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended, order.ServiceExpired:
	default:
		return nil
	}
	p, ok := cat.Product(s.PID)
	if !ok {
		return nil
	}
	if err := bs.SetBouquets(ctx, s.ID, p.Bouquets); err != nil {
		return fmt.Errorf("line sync %s: bouquets: %w", s.ID, err)
	}
	return nil
}
