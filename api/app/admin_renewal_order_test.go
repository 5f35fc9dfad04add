package app_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genadminservices "github.com/streamcart/streamcart/gen/admin_services"
)

// renewalOrderOnTheTestClock buys and pays a line, moves the test clock to six days before its
// due date and places its renewal (mailed at once): the console's owner, the renewal order's id
// and the line.
func (c *console) renewalOrderOnTheTestClock(email string) (owner operatorSession, renewalID, svcID string) {
	c.t.Helper()
	t, ctx := c.t, c.t.Context()
	owner = c.signIn("owner@example.com", c.enrol("owner@example.com", operator.RoleOwner))
	_, svcID, _ = c.paidOrder(email)
	svc, err := c.app.Store().Service(ctx, svcID)
	if err != nil {
		t.Fatal(err)
	}
	advanceTo(t, svc.NextDueDate.Add(-6*24*time.Hour), c.shop)
	if n, err := c.app.SweepRenewals(ctx); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v, want 1 renewal", n, err)
	}
	c.drain()
	rn, err := c.app.Store().LatestRenewal(ctx, svcID)
	if err != nil {
		t.Fatal(err)
	}
	return owner, rn.OrderID, svcID
}

// TestAdminRenewalTimelineOnBusinessTime (issue 26 point 9): a renewal order placed after
// `streamcart clock advance` shows its mail and its jobs, all dated in business time (not before
// the order was placed), though the outbox and the job queue stamp them in real time; a mail of
// the first order, sent before the clock moved, stays before it.
func TestAdminRenewalTimelineOnBusinessTime(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		owner, renewalID, _ := c.renewalOrderOnTheTestClock("timeline@example.com")
		d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &owner.cookie, ID: renewalID})
		if err != nil {
			t.Fatal(err)
		}
		created, err := time.Parse(time.RFC3339, d.Order.CreatedAt)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, e := range d.Timeline {
			at, err := time.Parse(time.RFC3339, e.At)
			if err != nil {
				t.Fatalf("%s event at %q: %v", e.Kind, e.At, err)
			}
			// The outbox is searched from an hour before the order: its first order's mails
			// (a month back in business time) are not the renewal's.
			if at.Before(created.Add(-time.Hour)) || at.After(c.app.Now().Add(time.Minute)) {
				t.Errorf("%s event %q at %s; the order was placed at %s, business time is %s", e.Kind, e.Summary, at, created, c.app.Now())
			}
			kinds[e.Kind]++
		}
		if kinds["mail"] == 0 || kinds["job"] == 0 {
			t.Errorf("timeline %+v: want the renewal invoice's mail and its jobs", d.Timeline)
		}
	})
}

// TestAdminRenewalOrderShowsItsLine: a renewal order's page shows the line it renews, as a plan
// order shows its own, the username masked for a viewer; the line's own jobs stay the line's.
func TestAdminRenewalOrderShowsItsLine(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		owner, renewalID, svcID := c.renewalOrderOnTheTestClock("renewed@example.com")
		viewer := c.signIn("viewer@example.com", c.enrol("viewer@example.com", operator.RoleViewer))
		for _, who := range []struct {
			name   string
			s      operatorSession
			masked bool
		}{{"owner", owner, false}, {"viewer", viewer, true}} {
			d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &who.s.cookie, ID: renewalID})
			if err != nil {
				t.Fatal(err)
			}
			if d.Order.Kind != "renewal" || len(d.Lines) != 1 || d.Lines[0].ServiceID != svcID || d.Lines[0].Pid == 0 {
				t.Fatalf("%s: renewal order %s (%s) lines %+v, want the line %s", who.name, renewalID, d.Order.Kind, d.Lines, svcID)
			}
			if masked := d.Lines[0].Username == "••••"; masked != who.masked || d.Lines[0].Username == "" {
				t.Errorf("%s sees username %q", who.name, d.Lines[0].Username)
			}
		}
	})
}

// TestExpiredOrderLinesCancelled: an order left unpaid past its payment deadline is cancelled
// with its invoice, and its line with it: Cancelled in the buyer's GET /services and in the
// console's Subscriptions (found by status=cancelled), not Pending forever.
func TestExpiredOrderLinesCancelled(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		owner := c.signIn("owner@example.com", c.enrol("owner@example.com", operator.RoleOwner))
		buyer := c.identify("unpaid@example.com", "")
		o := c.buy(buyer.Token, standard())
		advanceTo(t, c.app.Now().Add(order.PaymentDeadline+time.Minute), c.shop)
		c.drain()
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "cancelled" {
			t.Fatalf("order %s past its deadline, want cancelled", got.Status)
		}
		if got := c.getService(buyer.Token, o.ServiceIds[0]); got.Status != "Cancelled" {
			t.Errorf("GET /services: %s, want Cancelled", got.Status)
		}
		cl := c.clientsOf()
		for _, status := range []*string{nil, ptr("cancelled")} {
			l, err := cl.services.List(ctx, &genadminservices.ListPayload{Session: &owner.cookie, Q: ptr("unpaid@example.com"), Status: status, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Services) != 1 || l.Services[0].Status != "Cancelled" {
				t.Errorf("GET /admin/services status=%v: %+v, want the line Cancelled", status, l.Services)
			}
		}
	})
}
