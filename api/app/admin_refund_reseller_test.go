package app_test

import (
	"fmt"
	"testing"

	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
)

// A full refund of a reseller credit plan takes its credits back off the account and cancels the
// plan's service. Before, it answered 503 (a panel call on a service that has no panel line) after
// the money had gone back, and the credits stayed. keepLine leaves the credits.
func TestAdminFullRefundTakesBackResellerCredits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		owner := c.roles()["owner"]
		buy := func(email string) string {
			t.Helper()
			tok := c.identify(email, "").Token
			ord, err := c.after.resellers.Order(ctx, &genresellers.OrderPayload{Token: ptr(tok), Pid: 10, Password: "reseller-pw-1", ConfirmPassword: "reseller-pw-1"})
			if err != nil {
				t.Fatal(err)
			}
			c.sandbox(ord.PaymentURL, "pay")
			c.drain()
			return ord.OrderID
		}
		credits := func(email string) int {
			t.Helper()
			return c.count(`SELECT COALESCE(SUM(credits), 0) FROM panel_resellers WHERE account = ?`, email)
		}
		id := buy("res@example.com")
		if n := credits("res@example.com"); n != 100 {
			t.Fatalf("%d credits after the purchase, want 100", n)
		}
		if got := c.auditArgs(t, owner, "reseller-credit", ""); len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprintf("[reseller-credit %s 100 100]", id) {
			t.Errorf("reseller-credit audit args %q (order %s)", got, id)
		}
		r, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id, Reason: "asked"})
		if err != nil || r.Order.Status != "refunded" {
			t.Fatalf("refund: %+v %v", r, err)
		}
		if n := credits("res@example.com"); n != 0 {
			t.Fatalf("%d credits after the full refund, want 0", n)
		}
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Cancelled'`, id); n != 1 {
			t.Fatalf("%d cancelled services of the refunded plan, want 1", n)
		}

		kept := buy("kept@example.com")
		if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: kept, Reason: "kept", KeepLine: true}); err != nil {
			t.Fatal(err)
		}
		if n := credits("kept@example.com"); n != 100 {
			t.Fatalf("keepLine: %d credits, want the 100 bought", n)
		}
	})
}
