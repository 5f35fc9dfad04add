package app_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	gencatalog "github.com/streamcart/streamcart/gen/catalog"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/panel"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// productAvailable reads a plan's available flag from GET /products (the pre-encoded fast path)
// and from GET /products/{pid}.
func productAvailable(t *testing.T, s *shop, pid int) (list, one bool) {
	t.Helper()
	l, err := s.catalog.ListProducts(t.Context(), &gencatalog.ListProductsPayload{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range l.Products {
		if p.Pid == pid {
			list, found = p.Available, true
		}
	}
	if !found {
		t.Fatalf("plan %d not listed", pid)
	}
	p, err := s.catalog.GetProduct(t.Context(), &gencatalog.GetProductPayload{Pid: pid})
	if err != nil {
		t.Fatal(err)
	}
	return list, p.Available
}

// Credits before the sale: with the built-in panel's balance at 0 the plans that cost credits
// are unavailable and their orders answer 409 out_of_stock with no order or invoice stored, the
// free trial (no cost) still sells, and the owners get one alert mail per crossing of the mark.
func TestCreditsBeforeTheSale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.PanelCreditsAlert = 10 })
		ctx := t.Context()
		st := s.app.Store()
		for _, o := range []struct {
			email string
			role  operator.Role
		}{{"owner@shop.test", operator.RoleOwner}, {"support@shop.test", operator.RoleSupport}} {
			if _, err := st.InsertOperator(ctx, operator.Operator{Email: o.email, Role: o.role, Status: operator.StatusPending,
				CreatedAt: time.Now()}, "hash-"+o.email, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if list, one := productAvailable(t, s, 2); !list || !one {
			t.Fatalf("with 1000 credits plan 2 available: list %v, get %v", list, one)
		}
		if err := st.SetPanelCredits(ctx, 0); err != nil {
			t.Fatal(err)
		}
		token := s.identify("buyer@example.com", "").Token
		p := standard()
		p.Token = &token
		_, err := s.order.Create(ctx, &p)
		wantErr(t, err, "out_of_stock", "")
		if n := s.count(`SELECT COUNT(*) FROM orders`) + s.count(`SELECT COUNT(*) FROM invoices`); n != 0 {
			t.Fatalf("a refused order stored %d order and invoice rows", n)
		}
		if list, one := productAvailable(t, s, 2); list || one {
			t.Fatalf("with 0 credits plan 2 available: list %v, get %v", list, one)
		}
		if list, _ := productAvailable(t, s, 1); !list {
			t.Fatal("the free trial (no credits) became unavailable")
		}
		s.buy(token, trial())
		alerts := func() int {
			return s.count(`SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE ?`, "%panel credits low%")
		}
		if n, to := alerts(), s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND subject LIKE ?`, "owner@shop.test", "%panel credits low%"); n != 1 || to != 1 {
			t.Fatalf("%d alert mails (%d to the owner), want one, to the owner only", n, to)
		}
		for range 3 { // still low: no more mail
			if _, err := s.app.RefreshCredits(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := alerts(); n != 1 {
			t.Fatalf("%d alert mails while the balance stays low, want 1", n)
		}
		if err := st.SetPanelCredits(ctx, 500); err != nil {
			t.Fatal(err)
		}
		if changed, err := s.app.RefreshCredits(ctx); err != nil || !changed {
			t.Fatalf("refresh after the top-up: %v, %v", changed, err)
		}
		if list, one := productAvailable(t, s, 2); !list || !one {
			t.Fatalf("after the top-up plan 2 unavailable: list %v, get %v", list, one)
		}
		s.buy(token, standard())
		if err := st.SetPanelCredits(ctx, 3); err != nil { // under the mark again: a new crossing
			t.Fatal(err)
		}
		if _, err := s.app.RefreshCredits(ctx); err != nil {
			t.Fatal(err)
		}
		if n := alerts(); n != 2 {
			t.Fatalf("%d alert mails after a second crossing, want 2", n)
		}
		code, _, body := s.raw(http.MethodGet, "/metrics", "", nil)
		if code != http.StatusOK || !strings.Contains(string(body), "streamcart_panel_credits 3") || !strings.Contains(string(body), `streamcart_line_drift_total{kind="missing"} 0`) {
			t.Fatalf("/metrics %d lacks the credit balance or the drift counter:\n%s", code, body)
		}
	})
}

// The idempotent replay of an order placed before the credits ran out answers that order, not
// 409: the stock check only refuses new orders. A new key is still refused, with nothing stored.
func TestCreditsReplayWhileOutOfStock(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		token := s.identify("replay@example.com", "").Token
		p := standard()
		p.Token, p.IdempotencyKey = &token, ptr("replay-1")
		first, err := s.order.Create(ctx, &p)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SetPanelCredits(ctx, 0); err != nil {
			t.Fatal(err)
		}
		again, err := s.order.Create(ctx, &p)
		if err != nil || again.OrderID != first.OrderID || again.InvoiceID != first.InvoiceID {
			t.Fatalf("replay out of stock: %+v %v, want order %s again", again, err, first.OrderID)
		}
		p.IdempotencyKey = ptr("replay-2")
		_, err = s.order.Create(ctx, &p)
		wantErr(t, err, "out_of_stock", "")
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 1 {
			t.Fatalf("%d orders, want the one replayed", n)
		}
	})
}

// A renewal checks and spends the panel's credits as a new order does: with the balance unable to
// cover the plan's cost for the cycle, POST /services/{id}/renew answers 409 out_of_stock before
// any payment; once covered, paying it extends the built-in line and spends the cost once (the
// job's repeat spends nothing). A line made again by the reconciliation costs a new line's price
// too: with no credits the repair fails (recorded) and the next run, after a top-up, makes it.
func TestCreditsRenewalAndRecreatedLine(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		owner := s.register("renewer@example.com", "renewer-password")
		_, svcID := s.activeService(owner.Token, standard()) // monthly: 1 credit
		balance := func() int64 {
			t.Helper()
			n, err := st.PanelCredits(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := balance(); n != 999 {
			t.Fatalf("after the first line the balance is %d, want 999", n)
		}
		if err := st.SetPanelCredits(ctx, 0); err != nil {
			t.Fatal(err)
		}
		_, err := s.renew(owner.Token, svcID, genservices.RenewPayload{})
		wantErr(t, err, "out_of_stock", "")
		if n := s.count(`SELECT COUNT(*) FROM renewals`) + s.count(`SELECT COUNT(*) FROM invoices WHERE status = 'paid'`); n != 1 {
			t.Fatalf("a refused renewal left %d renewal and paid invoice rows, want only the first payment", n-1)
		}
		// Quarterly costs 3: 2 credits cover monthly only.
		if err := st.SetPanelCredits(ctx, 2); err != nil {
			t.Fatal(err)
		}
		_, err = s.renew(owner.Token, svcID, genservices.RenewPayload{BillingCycle: ptr("quarterly")})
		wantErr(t, err, "out_of_stock", "")
		before, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.renew(owner.Token, svcID, genservices.RenewPayload{})
		if err != nil {
			t.Fatal(err)
		}
		if resp := s.sandbox(r.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		line, err := st.LineByRef(ctx, svcID)
		if err != nil || !line.ExpiresAt.Equal(monthsOn(before.ExpiresAt, before.CreatedAt, 1)) {
			t.Fatalf("renewed line %+v %v, want expiring %s", line, err, monthsOn(before.ExpiresAt, before.CreatedAt, 1))
		}
		if n := balance(); n != 1 {
			t.Fatalf("after the renewal the balance is %d, want 1 (2 less the monthly cost)", n)
		}
		// The job's repeat (same expiry) spends nothing.
		var pe panel.PaidExtender = panel.NewBuiltin(st, "", nil)
		if err := pe.ExtendPaid(ctx, svcID, line.ExpiresAt, 1); err != nil || balance() != 1 {
			t.Fatalf("repeated extension: %v, balance %d, want 1", err, balance())
		}
		// Past the balance: refused, the expiry left as it was.
		if err := pe.ExtendPaid(ctx, svcID, line.ExpiresAt.AddDate(0, 1, 0), 2); !errors.Is(err, panel.ErrNoCredits) {
			t.Fatalf("extension past the balance: %v, want ErrNoCredits", err)
		}
		if l, _ := st.LineByRef(ctx, svcID); !l.ExpiresAt.Equal(line.ExpiresAt) {
			t.Fatalf("a refused extension moved the expiry to %s", l.ExpiresAt)
		}

		// Lost on the panel with no credits: the repair fails and is recorded; topped up, made again.
		if err := st.SetPanelCredits(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteLine(ctx, svcID); err != nil {
			t.Fatal(err)
		}
		rep, err := s.app.ReconcileLines(ctx, false)
		if err != nil || len(rep.Drifts) != 1 || rep.Drifts[0].Action != linedrift.ActionFailed || !strings.Contains(rep.Drifts[0].Error, "credits") {
			t.Fatalf("reconcile with no credits: %+v %v, want one failed repair for want of credits", rep.Drifts, err)
		}
		if err := st.SetPanelCredits(ctx, 5); err != nil {
			t.Fatal(err)
		}
		rep, err = s.app.ReconcileLines(ctx, false)
		if err != nil || len(rep.Drifts) != 1 || rep.Drifts[0].Action != linedrift.ActionRecreated {
			t.Fatalf("reconcile after the top-up: %+v %v, want the line made again", rep.Drifts, err)
		}
		if n := balance(); n != 4 {
			t.Fatalf("after the line was made again the balance is %d, want 4", n)
		}
		// Both runs audited, the repair with its parts (what GET /admin/audit sends), the failure with its error only.
		entries, err := st.ListAudit(ctx, svcID, 10)
		var drifts []string
		for _, e := range entries {
			if e.Action == "line-drift-missing" {
				drifts = append(drifts, fmt.Sprintf("%s %q", e.Result, e.Args))
			}
		}
		if err != nil || fmt.Sprint(drifts) != `[ok ["line-drift" "absent" "present" "recreated"] failed []]` {
			t.Fatalf("line drift audit entries %s %v", drifts, err)
		}
	})
}
