package app_test

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/testclock"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// advanceTo moves the test clock of s (and its replicas) forward to at.
func advanceTo(t *testing.T, at time.Time, s *shop, replicas ...*shop) {
	t.Helper()
	if _, err := testclock.Advance(t.Context(), s.cfg.Payment, s.app.Store(), at.Sub(s.app.Now())); err != nil {
		t.Fatal(err)
	}
	for _, sh := range append([]*shop{s}, replicas...) {
		if _, err := sh.app.RefreshClock(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
}

// lapse runs the lifecycle sweep and fails on an error.
func lapse(t *testing.T, s *shop) {
	t.Helper()
	if err := s.app.LapseServices(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// Unpaid at its due date a line is Overdue; after the grace days (3) Suspended, its panel line
// disabled; paying the renewal then re-enables the same line, due a month after the payment.
// Left unpaid, with STREAMCART_TERMINATE_AFTER_DAYS=10, it is Terminated and its line deleted 10
// days after its due date. A free trial is Expired at its end.
func TestServiceLifecycleOverdueSuspendedPaidTerminated(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.TerminateAfterDays = 10 })
		ctx, st := t.Context(), s.app.Store()
		payer := s.register("payer@example.com", "payer-password")
		_, paidID := s.activeService(payer.Token, standard())
		_, lapsedID := s.activeService(s.identify("lapsed@example.com", "").Token, standard())
		trialBuyer := s.register("trial@example.com", "trial-password")
		_, trialID := s.activeService(trialBuyer.Token, trial())
		status := func(id string) order.ServiceStatus {
			t.Helper()
			svc, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return svc.Status
		}
		enabled := func(id string) bool {
			t.Helper()
			l, err := st.LineByRef(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return l.Enabled
		}
		svc, err := st.Service(ctx, paidID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		trialSvc, err := st.Service(ctx, trialID)
		if err != nil || trialSvc.ExpiresAt.IsZero() || !trialSvc.ExpiresAt.Before(due) {
			t.Fatalf("trial %+v %v: want an end before the paid lines' due date", trialSvc, err)
		}

		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 2 {
			t.Fatalf("renewals placed: %d %v, want 2", n, err)
		}
		lapse(t, s)
		if got := status(paidID); got != order.ServiceActive {
			t.Fatalf("before due: %s, want Active", got)
		}
		if got := status(trialID); got != order.ServiceExpired {
			t.Fatalf("trial past its end: %s, want Expired", got)
		}
		// Sessions expire as the clock moves: the buyers sign in again.
		if got := s.getService(s.identify("trial@example.com", "trial-password").Token, trialID).Status; got != "Expired" {
			t.Fatalf("GET /services/%s: status %s, want Expired", trialID, got)
		}

		advanceTo(t, due.Add(time.Hour), s)
		lapse(t, s)
		if got := status(paidID); got != order.ServiceOverdue || !enabled(paidID) {
			t.Fatalf("an hour past due: %s, enabled %v; want Overdue and enabled", got, enabled(paidID))
		}
		// The line still plays during the grace days: its credentials stay on show.
		if got := s.getService(s.identify("payer@example.com", "payer-password").Token, paidID); got.Status != "Overdue" || got.Username == "" || got.PlaylistURL == "" {
			t.Fatalf("GET /services/%s: %+v, want Overdue with its credentials and playlist", paidID, got)
		}
		advanceTo(t, due.Add(3*24*time.Hour+time.Hour), s)
		lapse(t, s)
		for _, id := range []string{paidID, lapsedID} {
			if got := status(id); got != order.ServiceSuspended || enabled(id) {
				t.Fatalf("past the grace days: %s, enabled %v; want Suspended and disabled", got, enabled(id))
			}
		}

		rn, err := st.LatestRenewal(ctx, paidID)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		before := s.app.Now()
		if resp := s.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay the suspended line's renewal: %d", resp.StatusCode)
		}
		s.drain()
		after := s.app.Now()
		svc, err = st.Service(ctx, paidID)
		if err != nil || svc.Status != order.ServiceActive || !enabled(paidID) {
			t.Fatalf("paid: %+v %v; want Active with its line enabled", svc, err)
		}
		if svc.NextDueDate.Before(monthsFrom(before, 1)) || svc.NextDueDate.After(monthsFrom(after, 1)) {
			t.Fatalf("paid while suspended: due %s, want a month after the payment (%s)", svc.NextDueDate, before)
		}

		advanceTo(t, due.Add(10*24*time.Hour+time.Hour), s)
		lapse(t, s)
		if got := status(lapsedID); got != order.ServiceTerminated {
			t.Fatalf("10 days past due unpaid: %s, want Terminated", got)
		}
		if _, err := st.LineByRef(ctx, lapsedID); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("terminated line: %v, want deleted", err)
		}
		if got := status(paidID); got != order.ServiceActive {
			t.Fatalf("the renewed line: %s, want Active", got)
		}
	})
}

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
			if _, err := testclock.Advance(ctx, s.cfg.Payment, st, d); err != nil {
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

		// A process that stopped between reserving the period and placing its order left this
		// reservation behind; once it is older than renewal.Abandoned a sweep takes it over.
		leftAt := due.Add(-7*24*time.Hour - renewal.Abandoned - time.Minute)
		if ok, err := st.ReserveRenewal(ctx, renewal.Renewal{OrderID: "ord_left_behind", ServiceID: svcID, PeriodStart: due,
			PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: leftAt}); err != nil || !ok {
			t.Fatalf("reserve: %v %v", ok, err)
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
		if err != nil || !rn.PeriodStart.Equal(due) || !rn.PeriodEnd.Equal(monthsOn(due, svc.CreatedAt, 1)) {
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
		// The operator's listing (streamcart renewals list) shows the service with its open invoice.
		listed, err := st.RenewalListing(ctx, s.app.Now().Add(14*24*time.Hour))
		if err != nil || len(listed) != 1 || listed[0].ServiceID != svcID || listed[0].Email != "renew@example.com" ||
			!listed[0].Due.Equal(due) || listed[0].Status != order.ServiceActive || listed[0].OpenInvoice != o.Invoice.ID {
			t.Fatalf("renewal listing %+v %v: want %s due %s with invoice %s", listed, err, svcID, due, o.Invoice.ID)
		}
		if listed, err := st.RenewalListing(ctx, s.app.Now()); err != nil || len(listed) != 0 {
			t.Fatalf("listing of what is due now: %+v %v, want none", listed, err)
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
		if err != nil || !svc.NextDueDate.Equal(monthsOn(due, svc.CreatedAt, 1)) || !svc.ExpiresAt.Equal(svc.NextDueDate) {
			t.Fatalf("service after the renewal %+v %v: want due and expiring %s", svc, err, monthsOn(due, svc.CreatedAt, 1))
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

// A reservation left behind by a process that stopped before placing its order is taken over by
// exactly one of forty sweeps at once, on two replicas; the others place nothing and report no
// error (one that looks after the first deleted the left-behind one finds the period free, not
// an error).
func TestAbandonedRenewalTakenOverOnceByConcurrentSweeps(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		other := openShop(t, s.cfg)
		ctx, st := t.Context(), s.app.Store()
		owner := s.register("takeover@example.com", "takeover-password")
		_, svcID := s.activeService(owner.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		if ok, err := st.ReserveRenewal(ctx, renewal.Renewal{OrderID: "ord_left_behind", ServiceID: svcID, PeriodStart: due,
			PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: due.Add(-7*24*time.Hour - renewal.Abandoned - time.Minute)}); err != nil || !ok {
			t.Fatalf("reserve: %v %v", ok, err)
		}
		advanceTo(t, due.Add(-6*24*time.Hour), s, other)
		var wg sync.WaitGroup
		placed := make([]int, 40)
		for i := range placed {
			sh := []*shop{s, other}[i%2]
			wg.Go(func() {
				n, err := sh.app.SweepRenewals(ctx)
				if err != nil {
					t.Errorf("sweep %d: %v", i, err)
				}
				placed[i] = n
			})
		}
		wg.Wait()
		total := 0
		for _, n := range placed {
			total += n
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE kind = 'renewal'`); total != 1 || n != 1 {
			t.Fatalf("40 sweeps placed %d renewals (%d orders), want 1", total, n)
		}
	})
}
