package store_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/upsell"
)

// runningService is a new Standard line put in status, due (and expiring) at due.
func runningService(t *testing.T, s store.Backend, email string, status order.ServiceStatus, due time.Time) order.Service {
	t.Helper()
	orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
	o, err := orders.Create(t.Context(), buyer(t, s, email), order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly"}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := s.Service(t.Context(), o.ServiceIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	svc.Status, svc.NextDueDate, svc.ExpiresAt = status, due, due
	if err := s.UpdateService(t.Context(), svc); err != nil {
		t.Fatal(err)
	}
	return svc
}

// reverseAtOnce takes back a refunded renewal (or upsell) forty times at once and counts the
// calls that moved the service.
func reverseAtOnce(t *testing.T, reverse func() (order.Service, bool, error)) int32 {
	t.Helper()
	var moved atomic.Int32
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			_, ok, err := reverse()
			if err != nil {
				t.Error(err)
			}
			if ok {
				moved.Add(1)
			}
		})
	}
	wg.Wait()
	return moved.Load()
}

// A refunded renewal is taken back once, however many refunds race: the service is due (and
// expires) again when it was before the renewal, the period may be renewed again, and a line whose
// due date is then past is Suspended.
func TestReverseRenewalMovesTheDueDateBackOnce(t *testing.T) {
	due := time.Date(2026, 12, 20, 10, 0, 0, 0, time.UTC)
	next := due.AddDate(0, 1, 0)
	cases := []struct {
		name       string
		status     order.ServiceStatus
		paidAt     time.Time
		refundedAt time.Time
		wantStatus order.ServiceStatus
	}{
		{"paid early, refunded before the due date", order.ServiceActive, due.Add(-3 * 24 * time.Hour), due.Add(-2 * 24 * time.Hour), order.ServiceActive},
		{"paid early, refunded after the due date", order.ServiceActive, due.Add(-3 * 24 * time.Hour), due.Add(5 * 24 * time.Hour), order.ServiceSuspended},
		{"paid while overdue, refunded the next day", order.ServiceOverdue, due.Add(2 * 24 * time.Hour), due.Add(3 * 24 * time.Hour), order.ServiceSuspended},
		// A suspended line paid is due a cycle after the payment: the refund takes that back too.
		{"paid while suspended, refunded the next day", order.ServiceSuspended, due.Add(10 * 24 * time.Hour), due.Add(11 * 24 * time.Hour), order.ServiceSuspended},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s store.Backend) {
				ctx := t.Context()
				svc := runningService(t, s, "renewed@example.com", tc.status, due)
				rn := renewal.Renewal{OrderID: "ord_renewed", ServiceID: svc.ID, PeriodStart: due, PeriodEnd: next, CycleMonths: 1, CreatedAt: tc.paidAt}
				if ok, err := s.ReserveRenewal(ctx, rn); err != nil || !ok {
					t.Fatalf("reserve: %v %v", ok, err)
				}
				applied, err := s.ApplyRenewal(ctx, rn.OrderID, tc.paidAt)
				if err != nil || applied.Status != order.ServiceActive {
					t.Fatalf("apply: %+v %v", applied, err)
				}
				if n := reverseAtOnce(t, func() (order.Service, bool, error) { return s.ReverseRenewal(ctx, rn.OrderID, tc.refundedAt) }); n != 1 {
					t.Fatalf("%d of 40 concurrent reversals moved the service, want 1", n)
				}
				got, err := s.Service(ctx, svc.ID)
				if err != nil || !got.NextDueDate.Equal(due) || !got.ExpiresAt.Equal(due) || got.Status != tc.wantStatus {
					t.Fatalf("service after the refund %+v %v: want %s, due and expiring %s", got, err, tc.wantStatus, due)
				}
				if r, err := s.Renewal(ctx, rn.OrderID); err != nil || r.CancelledAt.IsZero() {
					t.Fatalf("refunded renewal %+v %v: want it cancelled", r, err)
				}
				// Applying it again (a late retry of its job) gives nothing back.
				if _, err := s.ApplyRenewal(ctx, rn.OrderID, tc.refundedAt); err != nil {
					t.Fatal(err)
				}
				if again, _ := s.Service(ctx, svc.ID); !again.NextDueDate.Equal(due) {
					t.Fatalf("re-applied after the refund: due %s, want %s", again.NextDueDate, due)
				}
				// The period is free to be renewed (and paid) again.
				again := rn
				again.OrderID, again.CreatedAt = "ord_renewed_again", tc.refundedAt
				if ok, err := s.ReserveRenewal(ctx, again); err != nil || !ok {
					t.Fatalf("the refunded period reserved again: %v %v, want reserved", ok, err)
				}
			})
		})
	}
}

// A renewal refunded before it was applied is never applied, and a line no longer running
// (terminated) is left as it is.
func TestReverseRenewalNotAppliedOrLineGone(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		due := time.Date(2026, 12, 20, 10, 0, 0, 0, time.UTC)
		svc := runningService(t, s, "pending@example.com", order.ServiceActive, due)
		rn := renewal.Renewal{OrderID: "ord_unapplied", ServiceID: svc.ID, PeriodStart: due, PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: due}
		if ok, err := s.ReserveRenewal(ctx, rn); err != nil || !ok {
			t.Fatalf("reserve: %v %v", ok, err)
		}
		if _, moved, err := s.ReverseRenewal(ctx, rn.OrderID, due); err != nil || moved {
			t.Fatalf("reverse before apply: moved %v %v, want nothing moved", moved, err)
		}
		if _, err := s.ApplyRenewal(ctx, rn.OrderID, due); err == nil {
			t.Fatal("a renewal taken back before it was applied was applied")
		}
		if got, _ := s.Service(ctx, svc.ID); !got.NextDueDate.Equal(due) {
			t.Fatalf("due %s, want %s", got.NextDueDate, due)
		}

		gone := runningService(t, s, "gone@example.com", order.ServiceActive, due)
		rn2 := renewal.Renewal{OrderID: "ord_gone", ServiceID: gone.ID, PeriodStart: due, PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: due}
		if ok, err := s.ReserveRenewal(ctx, rn2); err != nil || !ok {
			t.Fatalf("reserve: %v %v", ok, err)
		}
		if _, err := s.ApplyRenewal(ctx, rn2.OrderID, due); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.SetServiceStatus(ctx, gone.ID, order.ServiceTerminated, order.ServiceActive); err != nil || !ok {
			t.Fatalf("terminate: %v %v", ok, err)
		}
		if _, moved, err := s.ReverseRenewal(ctx, rn2.OrderID, due.Add(time.Hour)); err != nil || moved {
			t.Fatalf("reverse on a terminated line: moved %v %v, want nothing moved", moved, err)
		}
	})
}

// A refunded upsell's connections come off once, however many refunds race; one refunded before
// it was applied is never applied.
func TestReverseUpsellOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		svc := runningService(t, s, "upsold@example.com", order.ServiceActive, time.Now().AddDate(0, 1, 0))
		for _, id := range []string{"ord_up1", "ord_up2"} {
			if err := s.ReserveUpsell(ctx, upsell.Upsell{OrderID: id, ServiceID: svc.ID, ExtraQuantity: 2, CreatedAt: time.Now()}, 4, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.ApplyUpsell(ctx, "ord_up1", time.Now()); err != nil || got.MaxConnections != 3 {
			t.Fatalf("apply: %d %v, want 3", got.MaxConnections, err)
		}
		if n := reverseAtOnce(t, func() (order.Service, bool, error) { return s.ReverseUpsell(ctx, "ord_up1", time.Now()) }); n != 1 {
			t.Fatalf("%d of 40 concurrent reversals moved the service, want 1", n)
		}
		if got, _ := s.Service(ctx, svc.ID); got.MaxConnections != 1 {
			t.Fatalf("max connections %d after the refund, want 1", got.MaxConnections)
		}
		if _, moved, err := s.ReverseUpsell(ctx, "ord_up2", time.Now()); err != nil || moved {
			t.Fatalf("reverse before apply: moved %v %v, want nothing moved", moved, err)
		}
		if got, err := s.ApplyUpsell(ctx, "ord_up2", time.Now()); err != nil || got.MaxConnections != 1 {
			t.Fatalf("applied after its refund: %d %v, want 1 connection", got.MaxConnections, err)
		}
	})
}

// A full refund cancels an order's running lines once, each with a line-sync job queued in the
// same transaction to switch its panel line off.
func TestCancelOrderLinesQueuesTheirSync(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx, now := t.Context(), time.Now().UTC()
		svc := runningService(t, s, "refunded@example.com", order.ServiceActive, now.AddDate(0, 1, 0))
		var cancelled atomic.Int32
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				n, err := s.CancelOrderLines(ctx, svc.OrderID, now)
				if err != nil {
					t.Error(err)
				}
				cancelled.Add(int32(n))
			})
		}
		wg.Wait()
		if n := cancelled.Load(); n != 1 {
			t.Fatalf("%d lines cancelled by 40 refunds at once, want 1", n)
		}
		if got, _ := s.Service(ctx, svc.ID); got.Status != order.ServiceCancelled {
			t.Fatalf("status %s, want Cancelled", got.Status)
		}
		j, ok, err := s.ClaimJob(ctx, now.Add(time.Minute), now, time.Minute)
		if err != nil || !ok || j.Kind != renewal.JobLineSync || j.Ref != svc.ID {
			t.Fatalf("queued job %+v %v %v, want the line-sync of %s", j, ok, err, svc.ID)
		}
		if _, ok, _ := s.ClaimJob(ctx, now.Add(time.Minute), now, time.Minute); ok {
			t.Fatal("more than one job queued")
		}
	})
}

// A refund's take-back and the renewal's own fulfilment at the same moment end the same whichever
// comes first: the service is due when it was before the renewal. (Each reads the renewal under
// the service's lock: read before it, an apply could miss the take-back, or a take-back the apply.)
func TestReverseRenewalRacingItsApply(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		due := time.Date(2026, 12, 20, 10, 0, 0, 0, time.UTC)
		for i := range 30 {
			svc := runningService(t, s, fmt.Sprintf("race%d@example.com", i), order.ServiceActive, due)
			rn := renewal.Renewal{OrderID: fmt.Sprintf("ord_race_%d", i), ServiceID: svc.ID, PeriodStart: due, PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: due}
			if ok, err := s.ReserveRenewal(ctx, rn); err != nil || !ok {
				t.Fatalf("reserve: %v %v", ok, err)
			}
			var wg sync.WaitGroup
			wg.Go(func() {
				if _, err := s.ApplyRenewal(ctx, rn.OrderID, due.Add(-time.Hour)); err != nil && !errors.Is(err, renewal.ErrLineGone) {
					t.Error(err)
				}
			})
			wg.Go(func() {
				if _, _, err := s.ReverseRenewal(ctx, rn.OrderID, due.Add(-time.Hour)); err != nil {
					t.Error(err)
				}
			})
			wg.Wait()
			if got, _ := s.Service(ctx, svc.ID); !got.NextDueDate.Equal(due) {
				t.Fatalf("run %d: due %s after a refund racing the apply, want %s", i, got.NextDueDate, due)
			}
		}
	})
}
