package app_test

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/order"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// A full refund of an upsell takes its connections off the line, and a full refund of a renewal
// takes back the time it added: the line is due again when it was before, on the panel too (a
// line-sync job queued with the change), switched off when that date is past, and an invoice already sent for the period after it is
// cancelled. The refunded period is invoiced again by the next sweep. The line itself stays the
// buyer's for what was paid before it.
func TestAdminFullRefundTakesBackRenewalAndUpsell(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		owner := c.roles()["owner"]
		// The console's session lasts hours: the owner signs in again after the clock moved weeks.
		advance := func(d time.Duration) {
			t.Helper()
			c.clock.Add(d)
			owner = c.signIn("owner@example.com", owner.secret)
		}
		refund := func(id string, keep bool) *genactions.RefundResult {
			t.Helper()
			r, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id, Reason: "asked", KeepLine: keep})
			if err != nil || r.Order.Status != "refunded" {
				t.Fatalf("refund %s: %+v %v", id, r, err)
			}
			c.drain() // the line-sync job brings the panel line in step
			return r
		}
		token := c.register("taken@example.com", "taken-password").Token
		_, svcID := c.activeService(token, standard())
		first, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := first.NextDueDate
		check := func(when string, status order.ServiceStatus, wantDue time.Time, conns int) {
			t.Helper()
			svc, err := st.Service(ctx, svcID)
			if err != nil || svc.Status != status || !svc.NextDueDate.Equal(wantDue) || !svc.ExpiresAt.Equal(wantDue) || svc.MaxConnections != conns {
				t.Fatalf("%s: service %+v %v, want %s due %s with %d connections", when, svc, err, status, wantDue, conns)
			}
			line, err := st.LineByRef(ctx, svcID)
			if err != nil || !line.ExpiresAt.Equal(wantDue) || line.MaxConnections != conns || line.Enabled != (status != order.ServiceSuspended) {
				t.Fatalf("%s: panel line %+v %v, want expiring %s with %d connections, enabled %v", when, line, err, wantDue, conns, status != order.ServiceSuspended)
			}
		}
		pay := func(paymentURL string) {
			t.Helper()
			if resp := c.sandbox(paymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("pay: %d", resp.StatusCode)
			}
			c.drain()
		}
		sweep := func() order.Order {
			t.Helper()
			if n, err := c.app.SweepRenewals(ctx); err != nil || n != 1 {
				t.Fatalf("sweep: %d placed %v, want 1", n, err)
			}
			rn, err := st.OpenRenewal(ctx, svcID)
			if err != nil {
				t.Fatal(err)
			}
			o, err := st.Order(ctx, rn.OrderID)
			if err != nil {
				t.Fatal(err)
			}
			return o
		}

		// Two extra connections bought, then refunded.
		up, err := c.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		pay(up.PaymentURL)
		check("upsell paid", order.ServiceActive, due, 3)
		if got := c.auditArgs(t, owner, "upsell", svcID); len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprintf("[upsell %s 2 3]", up.OrderID) {
			t.Errorf("upsell audit args %q (order %s)", got, up.OrderID)
		}
		refund(up.OrderID, false)
		check("upsell refunded", order.ServiceActive, due, 1)

		// A renewal paid early, refunded before the due date: due then again, the line running.
		advance(due.Add(-6 * 24 * time.Hour).Sub(c.clock.Now()))
		r1 := sweep()
		pay(r1.Invoice.PaymentURL)
		check("renewal paid early", order.ServiceActive, monthsOn(due, first.CreatedAt, 1), 1)
		refund(r1.ID, false)
		check("renewal refunded before its period", order.ServiceActive, due, 1)

		// The refunded period is invoiced again; paid, then the next period invoiced too.
		r2 := sweep()
		if rn, _ := st.Renewal(ctx, r2.ID); !rn.PeriodStart.Equal(due) {
			t.Fatalf("renewal after the refund bills from %s, want %s", rn.PeriodStart, due)
		}
		pay(r2.Invoice.PaymentURL)
		check("renewal paid again", order.ServiceActive, monthsOn(due, first.CreatedAt, 1), 1)
		advance(monthsOn(due, first.CreatedAt, 1).Add(-6 * 24 * time.Hour).Sub(c.clock.Now()))
		r3 := sweep()

		// Refunded three weeks into its period: due in the past, so the line is suspended at
		// once, and the invoice of the period after it (r3) is cancelled.
		refund(r2.ID, false)
		check("renewal refunded in its period", order.ServiceSuspended, due, 1)
		if o, err := st.Order(ctx, r3.ID); err != nil || o.Status != order.StatusCancelled {
			t.Fatalf("the next period's renewal %s: %v, want cancelled", o.Status, err)
		}
		// A suspended line is renewed from its due date: the buyer can pay to have it back.
		if rn, _ := st.Renewal(ctx, sweep().ID); !rn.PeriodStart.Equal(due) {
			t.Fatalf("renewal of the suspended line bills from %s, want %s", rn.PeriodStart, due)
		}

		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'line-sync' AND ref = ? AND state = 'done'`, svcID); n != 3 {
			t.Fatalf("%d line-sync jobs done, want 3 (one per refund taken back)", n)
		}

		// keepLine: the refund leaves the time it bought.
		keepToken := c.register("kept@example.com", "kept-password").Token
		_, kept := c.activeService(keepToken, standard())
		up2, err := c.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(keepToken), ServiceID: kept, ExtraQuantity: 1})
		if err != nil {
			t.Fatal(err)
		}
		pay(up2.PaymentURL)
		refund(up2.OrderID, true)
		if svc, _ := st.Service(ctx, kept); svc.MaxConnections != 2 {
			t.Fatalf("keepLine: %d connections, want the 2 bought", svc.MaxConnections)
		}
	})
}

// Forty full refunds of one upsell at once: one refunds and takes its connections back, the
// others find nothing left (409 conflict); the line loses the connections once.
func TestAdminFortyRefundsAtOnceTakeBackOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		owner := c.roles()["owner"]
		token := c.register("forty@example.com", "forty-password").Token
		_, svcID := c.activeService(token, standard())
		up, err := c.after.upsell.Order(ctx, &genupsell.OrderPayload{Token: ptr(token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		if resp := c.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		var mu sync.Mutex
		outcomes := map[string]int{}
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				_, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: up.OrderID, Reason: "at once"})
				name := "ok"
				var se *goa.ServiceError
				if errors.As(err, &se) {
					name = se.Name
				} else if err != nil {
					name = err.Error()
				}
				mu.Lock()
				outcomes[name]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if outcomes["ok"] != 1 || outcomes["conflict"] != 39 {
			t.Fatalf("outcomes %v, want 1 ok and 39 conflict", outcomes)
		}
		c.drain()
		svc, err := st.Service(ctx, svcID)
		line, lerr := st.LineByRef(ctx, svcID)
		if err != nil || lerr != nil || svc.MaxConnections != 1 || line.MaxConnections != 1 {
			t.Fatalf("service %d connections, panel %d (%v %v), want 1 and 1", svc.MaxConnections, line.MaxConnections, err, lerr)
		}
		if n := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, up.OrderID); n != 1 {
			t.Fatalf("%d refunds recorded, want 1", n)
		}
	})
}
