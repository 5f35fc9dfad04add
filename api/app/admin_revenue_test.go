package app_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
	genorder "github.com/streamcart/streamcart/gen/order"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// TestAdminSummarySubscriptions (issue 26, point 5): the dashboard's MRR is the renewing lines'
// next price per month in the default currency (a trial and a line whose auto-renew is off add
// nothing; the latter still counts as a subscription), renewals due within 7 and 30 days with
// what they will charge, churn over 30 days, failed renewals and refunds.
func TestAdminSummarySubscriptions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		owner := c.roles()["owner"]
		summary := func() *genadminsummary.GetResult {
			t.Helper()
			s, err := c.summary.Get(ctx, &genadminsummary.GetPayload{Session: &owner.cookie, Days: 30})
			if err != nil {
				t.Fatalf("GET /admin/summary: %v", err)
			}
			return s
		}
		empty := summary()
		if empty.Mrr.Amount != 0 || empty.Mrr.Currency != "EUR" || empty.ActiveSubscriptions != 0 || empty.Churn30d != 0 ||
			empty.RenewalsDue.Days30.Count != 0 || empty.Refunds.Count != 0 || empty.FailedRenewals != 0 {
			t.Fatalf("an empty shop's figures: %+v", empty)
		}

		monthly := c.register("monthly@example.com", "monthly-password").Token
		c.activeService(monthly, standard()) // 12.99 a month
		quarterly := c.register("quarterly@example.com", "quarterly-password").Token
		qOrder, _ := c.activeService(quarterly, genorder.CreatePayload{Pid: 2, BillingCycle: "quarterly"}) // 32.99 / 3
		c.activeService(c.identify("trial@example.com", "").Token, trial())
		leaving := c.register("leaving@example.com", "leaving-password").Token
		_, leavingID := c.activeService(leaving, standard())
		if _, err := c.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(leaving), ServiceID: leavingID}); err != nil {
			t.Fatalf("cancel auto-renew: %v", err)
		}

		s := summary()
		// No mail server in a test shop: every mail of these purchases is kept, never sent, and
		// the dashboard says so.
		if stored := c.count(`SELECT COUNT(*) FROM mail_outbox WHERE status = 'stored'`); stored == 0 || s.StoredMails != stored {
			t.Fatalf("storedMails %d, want the %d messages kept in the outbox", s.StoredMails, stored)
		}
		const wantMRR = 2399 // 12.99 + 32.99 ÷ 3 = 23.9866…, rounded once
		if s.Mrr.Amount != wantMRR || s.Mrr.Currency != "EUR" || s.ActiveSubscriptions != 3 {
			t.Fatalf("MRR %+v over %d subscriptions, want %d EUR over 3", s.Mrr, s.ActiveSubscriptions, wantMRR)
		}
		// All due in a month or three: none within 7 days; within 30 days, the two monthly lines
		// less the one that will not renew.
		if s.RenewalsDue.Days7.Count != 0 || s.RenewalsDue.Days30.Count != 1 || s.RenewalsDue.Days30.Amount.Amount != 1299 {
			t.Fatalf("renewals due %+v / %+v", s.RenewalsDue.Days7, s.RenewalsDue.Days30)
		}

		// A full refund of the quarterly order: the line ends, a refund is counted.
		if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: qOrder, Reason: "asked"}); err != nil {
			t.Fatalf("refund: %v", err)
		}
		c.drain()
		s = summary()
		if s.Refunds.Count != 1 || s.Refunds.Amount.Amount != 3299 || s.Refunds.Amount.Currency != "EUR" || s.Mrr.Amount != 1299 {
			t.Fatalf("after a refund: refunds %+v, MRR %+v", s.Refunds, s.Mrr)
		}

		// 40 days on: the line without auto-renew ended at its due date, inside the last 30 days.
		// Live 30 days ago: it, the monthly line (suspended since, unpaid: no longer an active
		// subscription) and the refunded line, whose end is the end of the period it had (a line
		// keeps no date of a refund or a termination): churn 1 ÷ 3. The trial never counts.
		c.clock.Add(40 * 24 * time.Hour)
		owner = c.signIn("owner@example.com", owner.secret)
		if err := c.app.LapseServices(ctx); err != nil {
			t.Fatal(err)
		}
		svc, err := st.Service(ctx, leavingID)
		if err != nil || svc.Status != order.ServiceCancelled {
			t.Fatalf("the line without auto-renew: %+v %v", svc, err)
		}
		s = summary()
		if s.ActiveSubscriptions != 0 || s.Churn30d != 0.3333 {
			t.Fatalf("40 days on: %d subscriptions, churn %v", s.ActiveSubscriptions, s.Churn30d)
		}
	})
}
