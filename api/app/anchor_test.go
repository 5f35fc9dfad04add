package app_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/period"
	"github.com/streamcart/streamcart/api/planchange"
	genadminservices "github.com/streamcart/streamcart/gen/admin_services"
)

// monthsOn is due moved n months on the anchor of a line registered at created, as the shop
// counts it (period.Anchor, period.AddMonths): the expectation of a test that renews a line bought
// at the real time, right on the days a month has no such day too.
func monthsOn(due, created time.Time, n int) time.Time {
	return period.AddMonths(due, n, period.Anchor(due, created))
}

// monthsFrom is t moved n months on t's own day: a cycle counted from a payment (a suspended line
// reactivated, a trial converted).
func monthsFrom(t time.Time, n int) time.Time {
	return period.AddMonths(t, n, t.UTC().Day())
}

// A monthly line keeps its billing anchor through the renewal path (sweep, invoice, payment), as
// Stripe and Paddle keep theirs: bought on 31 January it is due on the last day of February, then
// on 31 March, 30 April and 31 May; bought on 30 January, on the last of February, then 30 March
// and 30 April. Go's AddDate had the 30 January line due on 2 March (and the 31st's on 3 March),
// drifting to that day for good. The panel line expires with each due date. The clock is the
// test clock, moved forward; January of next year, so February's length is that year's.
func TestMonthlyLineKeepsItsBillingAnchor(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		year := s.app.Now().UTC().Year() + 1
		feb := fmt.Sprintf("%d-02-%02d", year, period.DaysIn(year, time.February))
		lines := []struct {
			day  int
			svc  string
			want []string // the due dates: first, then after each paid renewal
		}{
			{30, "", []string{feb, fmt.Sprintf("%d-03-30", year), fmt.Sprintf("%d-04-30", year), fmt.Sprintf("%d-05-30", year)}},
			{31, "", []string{feb, fmt.Sprintf("%d-03-31", year), fmt.Sprintf("%d-04-30", year), fmt.Sprintf("%d-05-31", year)}},
		}
		for i := range lines {
			advanceTo(t, time.Date(year, time.January, lines[i].day, 10, 0, 0, 0, time.UTC), s)
			owner := s.register(fmt.Sprintf("anchor%d@example.com", lines[i].day), "anchor-password") // signed in then
			_, lines[i].svc = s.activeService(owner.Token, standard())
		}
		dueOf := func(id string) order.Service {
			t.Helper()
			svc, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !svc.ExpiresAt.Equal(svc.NextDueDate) {
				t.Fatalf("service %s expires %s, due %s: want the same", id, svc.ExpiresAt, svc.NextDueDate)
			}
			line, err := st.LineByRef(ctx, id)
			if err != nil || !line.ExpiresAt.Equal(svc.NextDueDate) {
				t.Fatalf("panel line of %s %+v %v: want it expiring %s", id, line, err, svc.NextDueDate)
			}
			return svc
		}
		for n := range len(lines[0].want) {
			for _, l := range lines {
				if got := dueOf(l.svc).NextDueDate.UTC().Format(time.DateOnly); got != l.want[n] {
					t.Fatalf("line bought on %d January, after %d renewals: due %s, want %s", l.day, n, got, l.want[n])
				}
			}
			if n == len(lines[0].want)-1 {
				break
			}
			// Five days before the earlier due date: both lines are within the monthly lead of 7 days.
			first := dueOf(lines[0].svc).NextDueDate
			advanceTo(t, first.Add(-5*24*time.Hour), s)
			if placed, err := s.app.SweepRenewals(ctx); err != nil || placed != len(lines) {
				t.Fatalf("sweep before renewal %d: %d placed, %v; want %d", n+1, placed, err, len(lines))
			}
			for _, l := range lines {
				svc := dueOf(l.svc)
				rn, err := st.LatestRenewal(ctx, l.svc)
				if err != nil || !rn.PeriodStart.Equal(svc.NextDueDate) || rn.PeriodEnd.UTC().Format(time.DateOnly) != l.want[n+1] {
					t.Fatalf("renewal %d of the line bought on %d January: %+v %v; want the period %s → %s", n+1, l.day, rn, err,
						svc.NextDueDate.Format(time.DateOnly), l.want[n+1])
				}
				o, err := st.Order(ctx, rn.OrderID)
				if err != nil {
					t.Fatal(err)
				}
				if resp := s.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
					t.Fatalf("pay renewal %d: %d", n+1, resp.StatusCode)
				}
			}
			s.drain()
		}
	})
}

// An operator's change charged now is prorated over the period the renewals count: a line bought
// on 31 January is due on the last of February, and on 1 February it has 27 of 28 days left (Go's
// AddDate had it due on 3 March, 28 days "left" of a 28-day period).
func TestChangeProratedOverTheAnchoredPeriod(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t, withPayKey)
		ctx, st := t.Context(), c.app.Store()
		year := c.clock.Now().Year() + 1
		c.clock.Add(time.Date(year, time.January, 31, 10, 0, 0, 0, time.UTC).Sub(c.clock.Now()))
		_, svcID := c.activeService(c.identify("month-end@example.com", "").Token, standard())
		svc, err := st.Service(ctx, svcID)
		feb := time.Date(year, time.February, period.DaysIn(year, time.February), 10, 0, 0, 0, time.UTC)
		if err != nil || svc.NextDueDate.Format(time.DateOnly) != feb.Format(time.DateOnly) {
			t.Fatalf("bought on 31 January: %+v %v; want due %s", svc, err, feb.Format(time.DateOnly))
		}
		c.clock.Add(24 * time.Hour) // 1 February
		owner := c.roles()["owner"]
		p, err := c.clientsOf().services.Change(ctx, &genadminservices.ChangePayload{Session: ptr(owner.cookie), CsrfToken: ptr(owner.csrf),
			ID: svcID, MaxConnections: ptr(3), Charge: "now", Preview: true, Reason: "asked by phone"})
		left, whole := feb.Day()-1, feb.Day()
		if want := planchange.Prorate(1299, left, whole, 1899, left, whole); err != nil || p.DaysLeft != left || p.PeriodDays != whole ||
			p.Amount.Amount != want {
			t.Fatalf("preview on 1 February: %+v %v; want %d of %d days, %d", p, err, left, whole, want)
		}
	})
}
