package app_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/operator"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
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
