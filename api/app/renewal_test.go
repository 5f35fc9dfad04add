package app_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// A monthly line is invoiced for its next period 7 days before its due date, once however many
// replicas sweep at once, at its recurring price (plan and cycle with the connections bought
// since); paying it moves the due date, and the line's expiry, one month on from the due date.
func TestRenewalInvoicedOnceAndExtendsOnPayment(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		other := openShop(t, s.cfg) // a second replica on the same database
		ctx, st := t.Context(), s.app.Store()
		owner := s.register("renew@example.com", "renew-password")
		_, svcID := s.activeService(owner.Token, standard())
		up, err := s.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		if resp := s.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay upsell: %d", resp.StatusCode)
		}
		s.drain()
		svc, err := st.Service(ctx, svcID)
		if err != nil || svc.MaxConnections != 3 || svc.NextDueDate.IsZero() {
			t.Fatalf("service %+v %v: want 3 connections and a due date", svc, err)
		}
		due := svc.NextDueDate

		advance := func(d time.Duration) {
			t.Helper()
			if _, err := app.AdvanceClock(ctx, s.cfg, st, d); err != nil {
				t.Fatal(err)
			}
			for _, sh := range []*shop{s, other} {
				if _, err := sh.app.RefreshClock(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		sweepBoth := func() int {
			t.Helper()
			var wg sync.WaitGroup
			placed := make([]int, 2)
			for i, sh := range []*shop{s, other} {
				wg.Go(func() {
					n, err := sh.app.SweepRenewals(ctx)
					if err != nil {
						t.Errorf("sweep: %v", err)
					}
					placed[i] = n
				})
			}
			wg.Wait()
			return placed[0] + placed[1]
		}

		// Eight days before the due date: outside the monthly lead of 7 days.
		advance(time.Until(due.Add(-8 * 24 * time.Hour)))
		if n := sweepBoth(); n != 0 {
			t.Fatalf("8 days before due: %d renewals placed, want none", n)
		}
		advance(2 * 24 * time.Hour)
		if n := sweepBoth(); n != 1 {
			t.Fatalf("6 days before due, two replicas: %d renewals placed, want 1", n)
		}
		if n := sweepBoth(); n != 0 {
			t.Fatalf("second sweep of the period: %d renewals placed, want none", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE kind = 'renewal'`); n != 1 {
			t.Fatalf("%d renewal orders, want 1", n)
		}

		rn, err := st.LatestRenewal(ctx, svcID)
		if err != nil || !rn.PeriodStart.Equal(due) || !rn.PeriodEnd.Equal(due.AddDate(0, 1, 0)) {
			t.Fatalf("renewal %+v %v: want the period from %s, one month", rn, err, due)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		// 12.99 EUR for the plan and 2 × 3.00 EUR for the connections bought as an upsell.
		if o.Kind != order.KindRenewal || o.Status != order.StatusPending || o.Invoice.Amount.Amount != 1899 || o.Invoice.Amount.Currency != "EUR" || o.Invoice.PaymentURL == "" {
			t.Fatalf("renewal order %+v, invoice %+v: want pending, 18.99 EUR with a payment link", o, o.Invoice)
		}
		if !o.Invoice.Deadline.Equal(rn.PeriodEnd) {
			t.Fatalf("renewal invoice payable until %s, want the period's end %s", o.Invoice.Deadline, rn.PeriodEnd)
		}

		// Paid a few days later, still before the due date: one month from the due date.
		advance(3 * 24 * time.Hour)
		if resp := s.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay renewal: %d", resp.StatusCode)
		}
		s.drain()
		svc, err = st.Service(ctx, svcID)
		if err != nil || !svc.NextDueDate.Equal(due.AddDate(0, 1, 0)) || !svc.ExpiresAt.Equal(svc.NextDueDate) {
			t.Fatalf("service after the renewal %+v %v: want due and expiring %s", svc, err, due.AddDate(0, 1, 0))
		}
		line, err := st.LineByRef(ctx, svcID)
		if err != nil || !line.ExpiresAt.Equal(svc.NextDueDate) || line.Username != svc.Username || line.Password != svc.Password {
			t.Fatalf("panel line %+v %v: want the same line expiring %s", line, err, svc.NextDueDate)
		}
		if got := s.getOrder(owner.Token, o.ID); got.Status != "active" {
			t.Fatalf("renewal order %s, want active", got.Status)
		}
		// The next period is not due for invoicing yet: nothing more.
		if n := sweepBoth(); n != 0 {
			t.Fatalf("after the renewal: %d more placed, want none", n)
		}
	})
}
