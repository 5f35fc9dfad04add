package app_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
)

// An order reads as what it sells (kind, product), what it billed (items summing to its total),
// what went back and what it kept; the list filters by kind and by a configured gateway, and
// refuses another gateway or kind with bad_request.
func TestAdminOrderKindItemsAndNet(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		viewer, owner := s["viewer"], s["owner"]
		token := c.identify("items@example.com", "").Token
		p := standard()
		p.ExtraConnections, p.ProxyProtection = 2, true
		bought := c.buy(token, p)
		c.sandbox(bought.PaymentURL, "pay")
		c.drain()
		c.activeService(c.identify("trial@example.com", "").Token, trial())

		d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &viewer.cookie, ID: bought.OrderID})
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		kinds := []string{}
		for _, it := range d.Items {
			sum += it.Amount.Amount
			kinds = append(kinds, it.Kind)
			if it.Amount.Amount != int64(it.Quantity)*it.UnitAmount.Amount || it.Amount.Currency != d.Order.Total.Currency {
				t.Errorf("item %+v: amount is not quantity × unit", it)
			}
		}
		if d.Kind != "plan" || d.Order.Kind != "plan" || sum != d.Order.Total.Amount || strings.Join(kinds, ",") != "plan,extra,proxy" {
			t.Fatalf("order %s: kind %s, items %v summing to %d, total %d", bought.OrderID, d.Kind, kinds, sum, d.Order.Total.Amount)
		}
		if d.Items[1].Quantity != 2 || d.Order.Product == "" || d.Hold != nil {
			t.Fatalf("extras %+v, product %q, hold %+v", d.Items[1], d.Order.Product, d.Hold)
		}
		if d.Refunded.Amount != 0 || d.Net.Amount != d.Order.Total.Amount || d.Order.Net.Amount != d.Order.Total.Amount {
			t.Fatalf("unrefunded: refunded %+v net %+v, want the total", d.Refunded, d.Net)
		}

		r, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: bought.OrderID,
			Amount: ptr(int64(300)), Reason: "goodwill"})
		if err != nil || r.Order.Refunded.Amount != 300 || r.Order.Net.Amount != d.Order.Total.Amount-300 {
			t.Fatalf("refund: %+v %v", r, err)
		}
		d, err = c.orders.Get(ctx, &genadminorders.GetPayload{Session: &viewer.cookie, ID: bought.OrderID})
		if err != nil || d.Refunded.Amount != 300 || d.Net.Amount != d.Order.Total.Amount-300 {
			t.Fatalf("after a refund of 300: %+v %+v %v", d.Refunded, d.Net, err)
		}

		list := func(kind, gateway string) ([]*genadminorders.AdminOrder, error) {
			t.Helper()
			res, err := c.orders.List(ctx, &genadminorders.ListPayload{Session: &viewer.cookie, Kind: &kind, Gateway: &gateway, Limit: 50})
			if err != nil {
				return nil, err
			}
			if strings.Join(res.Gateways, ",") != "sandbox" {
				t.Errorf("gateways %v, want the configured sandbox", res.Gateways)
			}
			return res.Orders, nil
		}
		for _, tc := range []struct{ kind, gateway, want string }{
			{"", "", "trial,plan"}, {"plan", "", "plan"}, {"trial", "sandbox", "trial"}, {"renewal", "", ""},
		} {
			got, err := list(tc.kind, tc.gateway)
			if err != nil {
				t.Fatalf("kind %q: %v", tc.kind, err)
			}
			var k []string
			for _, o := range got {
				k = append(k, o.Kind)
				if o.Product == "" {
					t.Errorf("order %s lists no product", o.ID)
				}
			}
			if strings.Join(k, ",") != tc.want {
				t.Errorf("kind %q gateway %q: %v, want %s", tc.kind, tc.gateway, k, tc.want)
			}
		}
		_, err = list("", "stripe") // not configured here
		wantErr(t, err, "bad_request", "No gateway of that name is configured.")
		status, _, body := c.rawWith(http.MethodGet, "/checkout/api/admin/orders?kind=gift", "", nil, http.Header{"Cookie": {"streamcart_admin=" + viewer.cookie}})
		if status != http.StatusBadRequest || !strings.Contains(string(body), "kind") {
			t.Fatalf("kind=gift: %d %s", status, body)
		}
	})
}

// A refund with an Idempotency-Key happens once: 40 concurrent submissions of one dialog refund
// 3.00 once and all answer that refund; the key with another amount is idempotency_mismatch and
// refunds nothing. The buyer gets one mail per refund, in their locale, linking its credit note;
// the dashboard's revenue is net of it.
func TestAdminRefundOncePerKey(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		owner := s["owner"]
		german := c.speaking("de-DE")
		token := german.identify("refund-de@example.com", "").Token
		id, _ := german.activeService(token, standard())
		refund := func(key string, amount int64, reason string) (*genactions.RefundResult, error) {
			return cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id,
				Amount: &amount, Reason: reason, IdempotencyKey: &key})
		}
		const n = 40
		results := make([]*genactions.RefundResult, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i], errs[i] = refund("dialog-1", 300, "goodwill") })
		}
		wg.Wait()
		replays := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("submission %d: %v", i, errs[i])
			}
			if results[i].Refund.Amount.Amount != 300 || results[i].Refunded.Amount != 300 || results[i].Refund.CreatedAt != results[0].Refund.CreatedAt {
				t.Fatalf("submission %d answered %+v refunded %d", i, results[i].Refund, results[i].Refunded.Amount)
			}
			if results[i].Replayed {
				replays++
			}
		}
		if replays != n-1 {
			t.Fatalf("%d replayed answers, want %d", replays, n-1)
		}
		if got := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, id); got != 1 {
			t.Fatalf("%d refunds recorded, want 1", got)
		}
		if got := c.count(`SELECT COUNT(*) FROM credit_notes WHERE order_id = ?`, id); got != 1 {
			t.Fatalf("%d credit notes, want 1", got)
		}
		_, err := refund("dialog-1", 500, "goodwill")
		wantErr(t, err, "idempotency_mismatch", "")
		_, err = refund("dialog-1", 300, "another reason")
		wantErr(t, err, "idempotency_mismatch", "")
		if got := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, id); got != 1 {
			t.Fatalf("%d refunds after refused keys, want 1", got)
		}
		// Another dialog refunds the rest, in full: a mail for each refund, full or partial.
		r, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id, Reason: "cancelled",
			IdempotencyKey: ptr("dialog-2")})
		if err != nil || r.Replayed || r.Refund.Amount.Amount != 999 || r.Order.Status != "refunded" || r.Order.Net.Amount != 0 {
			t.Fatalf("the rest: %+v %v", r, err)
		}
		var refundMails []string
		for _, m := range c.mailsTo("refund-de@example.com") {
			if strings.HasPrefix(m.Subject, "Wir haben") && strings.Contains(m.Subject, "erstattet") {
				refundMails = append(refundMails, m.Subject)
				if !strings.Contains(m.Body, "/checkout/api/credit-notes/cn_") || !strings.Contains(m.Body, "?t=") {
					t.Errorf("refund mail without its credit note link:\n%s", m.Body)
				}
			}
		}
		if len(refundMails) != 2 || !strings.Contains(refundMails[0], "3,00") || !strings.Contains(refundMails[1], "9,99") {
			t.Fatalf("refund mails %q, want two in German (3,00 € then 9,99 €)", refundMails)
		}

		sum, err := c.summary.Get(ctx, &genadminsummary.GetPayload{Session: &owner.cookie, Days: 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.PaidRevenue) != 1 || sum.PaidRevenue[0].Amount != 1299 || len(sum.RefundedRevenue) != 1 || sum.RefundedRevenue[0].Amount != 1299 ||
			len(sum.NetRevenue) != 1 || sum.NetRevenue[0].Amount != 0 {
			t.Fatalf("summary paid %+v refunded %+v net %+v", sum.PaidRevenue, sum.RefundedRevenue, sum.NetRevenue)
		}
		today := sum.Series[len(sum.Series)-1]
		if len(today.NetRevenue) != 1 || today.NetRevenue[0].Amount != 0 || today.Refunded[0].Amount != 1299 {
			t.Fatalf("today %+v", today)
		}
	})
}

// Refunds and approvals are changes: without the session's CSRF token they are refused, and a
// bad body is refused with a named error; nothing moves either way.
func TestAdminMoneyBadInputAndCSRF(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t, func(cfg *app.Config) { cfg.FraudBanned = []string{"fraud.example"} })
		s := c.roles()
		owner := s["owner"]
		id, _, _ := c.paidOrder("bad-input@example.com")
		held := c.buy(c.identify("x@fraud.example", "").Token, standard())
		cookie := http.Header{"Cookie": {"streamcart_admin=" + owner.cookie}}
		withCSRF := http.Header{"Cookie": {"streamcart_admin=" + owner.cookie}, "X-Csrf-Token": {owner.csrf}}
		for _, tc := range []struct {
			name, path, body string
			header           http.Header
			status           int
			errName          string
		}{
			{"refund without CSRF", "/orders/" + id + "/refund", `{"reason":"r"}`, cookie, http.StatusForbidden, "invalid_csrf_token"},
			{"approve without CSRF", "/orders/" + held.OrderID + "/approve", `{"mode":"provision"}`, cookie, http.StatusForbidden, "invalid_csrf_token"},
			{"approve, unknown mode", "/orders/" + held.OrderID + "/approve", `{"mode":"ship-it"}`, withCSRF, http.StatusBadRequest, "mode"},
			{"approve, mode not a string", "/orders/" + held.OrderID + "/approve", `{"mode":1}`, withCSRF, http.StatusBadRequest, "mode"},
			{"refund, no reason", "/orders/" + id + "/refund", `{"amount":100}`, withCSRF, http.StatusBadRequest, "reason"},
			{"refund, amount 0", "/orders/" + id + "/refund", `{"amount":0,"reason":"r"}`, withCSRF, http.StatusBadRequest, "amount"},
			{"refund, over the total", "/orders/" + id + "/refund", `{"amount":5000,"reason":"r"}`, withCSRF, http.StatusBadRequest, "bad_request"},
			{"refund, key too long", "/orders/" + id + "/refund", `{"reason":"r"}`,
				http.Header{"Cookie": cookie["Cookie"], "X-Csrf-Token": {owner.csrf}, "Idempotency-Key": {strings.Repeat("k", 256)}}, http.StatusBadRequest, "idempotencyKey"},
			{"refund, oversized body", "/orders/" + id + "/refund", `{"reason":"` + strings.Repeat("r", 2<<20) + `"}`, withCSRF, http.StatusRequestEntityTooLarge, ""},
		} {
			status, _, body := c.rawWith(http.MethodPost, "/checkout/api/admin"+tc.path, "", strings.NewReader(tc.body), tc.header)
			if status != tc.status || !strings.Contains(string(body), tc.errName) {
				t.Errorf("%s: %d %.200s, want %d %s", tc.name, status, body, tc.status, tc.errName)
			}
		}
		if n := c.count(`SELECT COUNT(*) FROM order_refunds`); n != 0 {
			t.Fatalf("%d refunds after refused requests", n)
		}
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'fraud'`, held.OrderID); n != 1 {
			t.Fatal("a refused approval moved the held order")
		}
	})
}

// A held order shows why it was held. Approved with request-payment (the default; support may)
// it is pending again with a fresh 24-hour deadline and payment link, its buyer is mailed the
// link in their locale, and paying it provisions it. Of 40 concurrent approvals one applies.
// provision is the owner's alone, provisions without payment and is audited as such.
func TestAdminApproveModes(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t, func(cfg *app.Config) { cfg.FraudBanned = []string{"fraud.example"} })
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		spanish := c.speaking("es-ES")
		held := spanish.buy(spanish.identify("held@fraud.example", "").Token, standard())
		other := c.buy(c.identify("other@fraud.example", "").Token, standard())
		if held.Status != "fraud" || other.Status != "fraud" {
			t.Fatalf("not held: %s %s", held.Status, other.Status)
		}
		d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: ptr(s["viewer"].cookie), ID: held.OrderID})
		if err != nil || d.Hold == nil || len(d.Hold.Rules) != 1 || d.Hold.Rules[0].Rule != "banned-email-domain" || d.Hold.Rules[0].Value != "fraud.example" ||
			d.Hold.IP == "" || d.Hold.OrdersFromIP != 0 {
			t.Fatalf("hold: %+v %v", d.Hold, err)
		}
		approve := func(role, id string, mode string) (*genactions.AdminOrder, error) {
			x := s[role]
			return cl.actions.Approve(ctx, &genactions.ApprovePayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: id, Mode: mode})
		}
		_, err = approve("viewer", held.OrderID, "request-payment")
		wantErr(t, err, "forbidden", "")
		_, err = approve("support", held.OrderID, "provision")
		wantErr(t, err, "forbidden", "")

		const n = 40
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { _, errs[i] = approve("support", held.OrderID, "request-payment") })
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				wantErr(t, err, "conflict", "")
			}
		}
		if ok != 1 {
			t.Fatalf("%d approvals applied, want 1", ok)
		}
		o, err := c.app.Store().Order(ctx, held.OrderID)
		if left := o.Invoice.Deadline.Sub(c.clock.Now()); err != nil || o.Status != "pending" || o.Invoice.Status != "unpaid" || o.Invoice.PaymentURL == "" ||
			left < 24*time.Hour-time.Minute || left > 24*time.Hour {
			t.Fatalf("after request-payment: %s, invoice %+v %v", o.Status, o.Invoice, err)
		}
		var payMails int
		for _, m := range c.mailsTo("held@fraud.example") {
			if strings.HasPrefix(m.Subject, "Ya puedes pagar tu pedido "+held.OrderID) {
				payMails++
				if !strings.Contains(m.Body, o.Invoice.PaymentURL) {
					t.Errorf("the pay mail lacks the payment link %s:\n%s", o.Invoice.PaymentURL, m.Body)
				}
			}
		}
		if payMails != 1 {
			t.Fatalf("%d pay link mails in Spanish, want 1", payMails)
		}
		if resp := c.sandbox(o.Invoice.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("paying the mailed link: %d", resp.StatusCode)
		}
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'active'`, held.OrderID); n != 1 {
			t.Fatal("the order paid after request-payment is not active")
		}

		// provision: 40 owners' clicks, one provisioning, audited as provisioned unpaid.
		for i := range n {
			wg.Go(func() { _, errs[i] = approve("owner", other.OrderID, "provision") })
		}
		wg.Wait()
		ok = 0
		for _, err := range errs {
			if err == nil {
				ok++
			}
		}
		if ok != 1 {
			t.Fatalf("%d provisions applied, want 1", ok)
		}
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Active'`, other.OrderID); n != 1 {
			t.Fatal("the provisioned order has no active line")
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'order-approve' AND target = ? AND detail = 'provisioned unpaid' AND result = 'ok'`, other.OrderID); n != 1 {
			t.Fatalf("%d audit entries 'provisioned unpaid', want 1", n)
		}
		if n := c.count(`SELECT COUNT(*) FROM invoices WHERE order_id = ? AND status = 'paid'`, other.OrderID); n != 0 {
			t.Fatal("provisioning unpaid marked the invoice paid")
		}
	})
}
