package order

import (
	"context"
	"errors"
)

// Upstream is a billing system a plan, upsell or reseller order is placed in as well (the seller's WHMCS,
// STREAMCART_BACKEND=whmcs): it keeps the order, its invoice and its lines, and prices the order
// itself. Place is called once the order is stored and before its payment link is made, for a
// replay of the order too (the first request may have died before placing it): an Upstream places
// each order once whatever the number of calls.
type Upstream interface {
	// Place records the stored order o upstream. An error wrapping ErrNotPlaced means o could not
	// be placed and never will be: the order is dropped, nothing stored and nothing charged; the
	// error also wraps why (*PriceChangedError: upstream prices it otherwise; ErrUpstreamUnavailable:
	// upstream could not be reached). ErrUpstreamUnavailable alone: try again later (the order is
	// being placed by another request that did not finish in time).
	Place(ctx context.Context, o Order) error
}

var (
	// ErrNotPlaced means an Upstream refused an order for good: the order is dropped.
	ErrNotPlaced = errors.New("order not placed upstream")
	// ErrUpstreamUnavailable means the billing system orders are placed in could not be reached.
	ErrUpstreamUnavailable = errors.New("billing system unavailable")
)

// placeUpstream places the just stored (or replayed) o in the configured Upstream, and drops o
// when the Upstream refuses it for good.
func (s *Orders) placeUpstream(ctx context.Context, o Order) error {
	if s.cfg.Upstream == nil || !upstreamKind(o.Kind) || (o.Status != StatusPending && o.Status != StatusPaid) {
		return nil // a held order is never provisioned: upstream need not know it
	}
	err := s.cfg.Upstream.Place(ctx, o)
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNotPlaced) {
		if derr := s.store.DropOrder(ctx, o.ID); derr != nil {
			s.log.Error("order refused upstream not dropped", "order", o.ID, "err", derr)
			return errors.Join(err, derr)
		}
	}
	return err
}

// upstreamKind reports whether an Upstream places orders of kind k: plans (trials are plans),
// upsells (an upgrade of a line the billing system keeps) and reseller plans (a product of the
// billing system's reseller group; the credits stay in Streamcart's ledger).
func upstreamKind(k Kind) bool { return k == KindPlan || k == KindUpsell || k == KindReseller }
