package app_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
)

// TestAdminExtensionKeptWhenRenewalPaid (issue 24, finding 10): a line extended in the console
// after its renewal was invoiced keeps the extension when the invoice is paid: due a month after
// the extended due date, not at the invoice's period end. A full refund of that renewal then takes
// back the month it paid for, and only that.
func TestAdminExtensionKeptWhenRenewalPaid(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		_, svc, _ := c.paidOrder("buyer@example.com")
		v, err := st.Service(ctx, svc)
		if err != nil {
			t.Fatal(err)
		}
		due := v.NextDueDate
		c.clock.Add(due.Sub(c.clock.Now()) - 6*24*time.Hour)
		if n, err := c.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v, want 1 renewal", n, err)
		}
		s := c.roles()
		rn, err := st.OpenRenewal(ctx, svc)
		if err != nil {
			t.Fatal(err)
		}
		o, err := st.Order(ctx, rn.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		owner := s["owner"]
		l, err := cl.services.Extend(ctx, &genservices.ExtendPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: svc, Days: 10})
		extended := due.AddDate(0, 0, 10)
		if err != nil || l.NextDueDate != extended.Format(time.DateOnly) {
			t.Fatalf("extend: %+v %v, want due %s", l, err, extended.Format(time.DateOnly))
		}

		if resp := c.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay the renewal: %d", resp.StatusCode)
		}
		c.drain()
		paid := monthsOn(extended, v.CreatedAt, 1)
		v, err = st.Service(ctx, svc)
		if err != nil || !v.NextDueDate.Equal(paid) || !v.ExpiresAt.Equal(paid) {
			t.Fatalf("after paying the renewal: due %s, expires %s (%v); want both %s (a month after the extended due date %s; the period ended %s)",
				v.NextDueDate, v.ExpiresAt, err, paid, extended, rn.PeriodEnd)
		}
		line, err := st.LineByRef(ctx, svc)
		if err != nil || !line.ExpiresAt.Equal(paid) {
			t.Fatalf("panel line %+v %v: want it expiring %s", line, err, paid)
		}

		// Refunded in full, the renewal takes back its month; the extension stays.
		if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: o.ID, Reason: "goodwill"}); err != nil {
			t.Fatalf("refund of the renewal: %v", err)
		}
		c.drain()
		v, err = st.Service(ctx, svc)
		if err != nil || !v.NextDueDate.Equal(extended) || !v.ExpiresAt.Equal(extended) {
			t.Fatalf("after the refund: due %s, expires %s (%v); want both %s", v.NextDueDate, v.ExpiresAt, err, extended)
		}
	})
}

// TestAdminSupportExtendCapped (issue 24, finding 10): support may give one line at most 31 days
// (STREAMCART_SUPPORT_MAX_EXTEND_DAYS) within 30 days, summed over its calls; past the cap 403
// extend_limit says how many days remain, and changes nothing. The owner is not capped, nor is
// another line; 30 days later support may extend again. Before, support could give 3,660 days a
// call, as often as it liked.
func TestAdminSupportExtendCapped(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		s := c.roles()
		_, svc, _ := c.paidOrder("buyer@example.com")
		_, other, _ := c.paidOrder("other@example.com")
		// Sessions last 12 hours: sign in again after the clock moved days.
		again := func() {
			for r, x := range s {
				s[r] = c.signIn(r+"@example.com", x.secret)
			}
		}
		extend := func(role, id string, days int) (*genservices.AdminLine, error) {
			x := s[role]
			return cl.services.Extend(ctx, &genservices.ExtendPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: id, Days: days})
		}
		due := func(id string) time.Time {
			t.Helper()
			v, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return v.NextDueDate
		}
		refused := func(role, id string, days int, remain string) {
			t.Helper()
			before := due(id)
			_, err := extend(role, id, days)
			se := wantErr(t, err, "extend_limit", "")
			if !strings.Contains(se.Message, remain+" days remain") {
				t.Fatalf("message %q does not say %s days remain", se.Message, remain)
			}
			if !due(id).Equal(before) {
				t.Fatalf("a refused extension moved the due date from %s to %s", before, due(id))
			}
		}
		start := due(svc)
		if _, err := extend("support", svc, 20); err != nil {
			t.Fatalf("support extends 20 days: %v", err)
		}
		c.clock.Add(10 * 24 * time.Hour)
		again()
		if _, err := extend("support", svc, 11); err != nil {
			t.Fatalf("support extends 11 more days: %v", err)
		}
		refused("support", svc, 1, "0")
		if got := due(svc); !got.Equal(start.AddDate(0, 0, 31)) {
			t.Fatalf("due %s after support's 31 days, want %s", got, start.AddDate(0, 0, 31))
		}
		if _, err := extend("owner", svc, 3660); err != nil {
			t.Fatalf("the owner extends 3660 days: %v", err)
		}
		if _, err := extend("support", other, 31); err != nil {
			t.Fatalf("support extends another line: %v", err)
		}
		refused("support", other, 1, "0")

		c.clock.Add(20*24*time.Hour + time.Hour) // the first 20 days are more than 30 days old
		again()
		refused("support", svc, 21, "20")
		if _, err := extend("support", svc, 20); err != nil {
			t.Fatalf("support 30 days after its first extension: %v", err)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'line-extend' AND result = 'failed' AND operator = 'support@example.com'`); n != 3 {
			t.Errorf("%d refused extensions audited, want 3", n)
		}
	})
}
