package order

import (
	"context"
	"fmt"

	"github.com/streamcart/streamcart/api/job"
)

// KindTrial is the home of a free trial: a plan order whose product is a trial. It is not stored
// (the order's Kind stays KindPlan, Fulfilment finds the plan's home); a trial line is told apart
// by Service.Trial, which is how LineSync finds this home.
const KindTrial Kind = "trial"

// JobLineSync is the kind of the job that brings a service's panel line in step with the service
// as stored (its ref is the service id). A full refund (a plan's lines cancelled, a renewal's
// period or an upsell's connections taken back) queues it in the same transaction, so the panel
// follows even when it is down at the time of the refund: the job is retried until it gets through.
const JobLineSync = "line-sync"

// Home is an order kind's whole life after the sale, in one place: each kind (plan, trial,
// upsell, reseller, renewal) has one, registered in one table (Homes).
type Home interface {
	// Fulfil delivers the paid order a JobProvision names (lines, connections, credits, time).
	Fulfil(ctx context.Context, j job.Job) error
	// TakeBack withdraws what a fully refunded order of the kind gave; queued reports that jobs
	// were queued with the change (the panel follows through JobLineSync): wake the worker.
	TakeBack(ctx context.Context, o Order) (queued bool, err error)
	// SyncLine brings the panel line of a service of the kind in step with the service as stored.
	SyncLine(ctx context.Context, s Service) error
}

// RefundRecorder is a home that tells the billing system owning its orders of each refund made,
// partial or full (WHMCS mode: the refund recorded on the WHMCS invoice), through a durable job
// queued once per refund; queued reports that one was queued: wake the worker.
type RefundRecorder interface {
	RecordRefund(ctx context.Context, o Order, refundID string) (queued bool, err error)
}

// Homes is the table of the kinds' homes, by kind: the one place a kind is registered.
type Homes map[Kind]Home

// Fulfilment is the JobProvision handler: the home of the kind stored with the order fulfils it.
func (h Homes) Fulfilment(orders interface {
	Order(ctx context.Context, id string) (Order, error)
}) job.Handler {
	fulfil := make(map[Kind]job.Handler, len(h))
	for k, home := range h {
		if k != KindTrial { // stored as a plan: the plan's home fulfils it
			fulfil[k] = home.Fulfil
		}
	}
	return Fulfilment(orders, fulfil)
}

// TakeBack withdraws what the fully refunded order o gave, through its kind's home.
func (h Homes) TakeBack(ctx context.Context, o Order) (queued bool, err error) {
	home, ok := h[o.Kind]
	if !ok {
		return false, fmt.Errorf("take back order %s: no home for kind %q", o.ID, o.Kind)
	}
	return home.TakeBack(ctx, o)
}

// RecordRefund tells the billing system of refund refundID of o, when o's kind's home records
// refunds there (RefundRecorder); nothing otherwise (the built-in back end: the shop's books are
// the refund's record).
func (h Homes) RecordRefund(ctx context.Context, o Order, refundID string) (queued bool, err error) {
	if r, ok := h[o.Kind].(RefundRecorder); ok {
		return r.RecordRefund(ctx, o, refundID)
	}
	return false, nil
}

// LineSync is the JobLineSync handler: it reads the service the job names when it runs (so
// whatever changed since it was queued is what the panel gets) and has the home of its line sync
// it: a trial's, else a plan's (upsells and renewals change a plan's line; a reseller plan has
// none). An unknown service fails for good.
func (h Homes) LineSync(services interface {
	Service(ctx context.Context, id string) (Service, error)
}) job.Handler {
	return func(ctx context.Context, j job.Job) error {
		s, err := jobRead(ctx, "line sync", j.Ref, services.Service)
		if err != nil {
			return err
		}
		k := KindPlan
		if s.Trial {
			k = KindTrial
		}
		home, ok := h[k]
		if !ok {
			return job.Permanent(fmt.Errorf("line sync %s: no home for kind %q", s.ID, k))
		}
		return home.SyncLine(ctx, s)
	}
}
