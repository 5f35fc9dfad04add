package app_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/httpapi"

	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genpayments "github.com/streamcart/streamcart/gen/admin_payments"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
	paymentscli "github.com/streamcart/streamcart/gen/http/admin_payments/client"
)

// refundingStripe is the card fake that also refunds (POST /v1/refunds), counting the refunds of
// each payment intent.
type refundingStripe struct {
	*fakeStripe
	mu      sync.Mutex
	refunds map[string]int // by payment intent
}

func newRefundingStripe(t *testing.T) *refundingStripe {
	f := &refundingStripe{fakeStripe: newFakeStripe(t), refunds: map[string]int{}}
	card := f.srv.Config.Handler
	f.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/refunds" {
			card.ServeHTTP(w, r)
			return
		}
		r.ParseForm()
		pi := r.PostForm.Get("payment_intent")
		f.mu.Lock()
		f.refunds[pi]++
		n := f.refunds[pi]
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("re_%s_%d", pi, n), "object": "refund", "status": "succeeded",
			"payment_intent": pi})
	})
	return f
}

func (f *refundingStripe) refunded(pi string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refunds[pi]
}

// shortPaid buys a plan through Stripe and delivers a well-signed Stripe event that it was paid
// amount (minor units) in currency; it answers the order id and the event's payment intent.
func (c *console) shortPaid(email string, amount int64, currency string) (orderID, pi string) {
	c.t.Helper()
	buyer := c.identify(email, "")
	p := standard()
	p.Gateway = ptr("stripe")
	o := c.buy(buyer.Token, p)
	cs, err := c.app.Store().Ref(c.t.Context(), "stripe", o.InvoiceID)
	if err != nil {
		c.t.Fatal(err)
	}
	pi = "pi_" + o.OrderID
	c.stripeHook("evt_short_"+o.OrderID, "checkout.session.completed", map[string]any{
		"id": cs, "object": "checkout.session", "client_reference_id": o.InvoiceID, "payment_status": "paid",
		"amount_total": amount, "currency": currency, "payment_intent": pi,
	})
	if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "fraud" {
		c.t.Fatalf("order %s after %d %s, want held (fraud)", got.Status, amount, currency)
	}
	return o.OrderID, pi
}

// invoiceOf answers an order's invoice id.
func (c *console) invoiceOf(orderID string) string {
	c.t.Helper()
	o, err := c.app.Store().Order(c.t.Context(), orderID)
	if err != nil {
		c.t.Fatal(err)
	}
	return o.Invoice.ID
}

func (c *console) paymentsClient() *genpayments.Client {
	u, _ := url.Parse(c.base)
	pc := paymentscli.NewClient(u.Scheme, u.Host, c.http, goahttp.RequestEncoder, goahttp.ResponseDecoder, false)
	return genpayments.NewClient(pc.List(), pc.Refund(), pc.Accept())
}

// Finding 4 of issue 24: a well-signed Stripe event for 0.01 EUR (or 12.99 USD) on a EUR order
// held the order, but nothing listed the money, "reject" refunded nothing and "refund" answered
// "not paid". Now each is a payment to review: listed (viewer), counted on the dashboard,
// refunded through Stripe or accepted by the owner, once; rejecting the held order refunds it.
func TestShortStripePaymentIsAPaymentToReview(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := newRefundingStripe(t)
		c := newConsole(t, withStripe(t, f.srv.URL))
		ctx := t.Context()
		s := c.roles()
		pay, actions := c.paymentsClient(), c.clientsOf().actions
		owner, viewer := s["owner"], s["viewer"]
		list := func(state string) []*genpayments.AdminPayment {
			t.Helper()
			res, err := pay.List(ctx, &genpayments.ListPayload{Session: &viewer.cookie, State: state, Limit: 100})
			if err != nil {
				t.Fatalf("GET /admin/payments?state=%s: %v", state, err)
			}
			return res.Payments
		}
		toReview := func() int {
			t.Helper()
			sum, err := c.summary.Get(ctx, &genadminsummary.GetPayload{Session: &viewer.cookie, Days: 7})
			if err != nil {
				t.Fatal(err)
			}
			return sum.MoneyToReview
		}
		refund := func(who operatorSession, id string, ref *string) (*genpayments.AdminPayment, error) {
			return pay.Refund(ctx, &genpayments.RefundPayload{Session: &who.cookie, CsrfToken: &who.csrf, ID: id, Reference: ref})
		}
		accept := func(who operatorSession, id string) (*genpayments.AcceptResult, error) {
			return pay.Accept(ctx, &genpayments.AcceptPayload{Session: &who.cookie, CsrfToken: &who.csrf, ID: id})
		}

		cent, centPI := c.shortPaid("cent@example.com", 1, "eur")
		usd, _ := c.shortPaid("usd@example.com", 1299, "usd")
		held := list("review")
		if len(held) != 2 || toReview() != 2 {
			t.Fatalf("to review: %d listed, %d counted, want 2", len(held), toReview())
		}
		byOrder := map[string]*genpayments.AdminPayment{}
		for _, p := range held {
			byOrder[p.OrderID] = p
		}
		for _, tc := range []struct {
			order, reason, currency string
			amount                  int64
		}{{cent, "short", "EUR", 1}, {usd, "currency", "USD", 1299}} {
			p := byOrder[tc.order]
			if p == nil || p.Provider != "stripe" || p.Amount != tc.amount || p.Currency != tc.currency || p.Reason != tc.reason ||
				p.State != "review" || p.Expected == nil || p.Expected.Currency != "EUR" || p.Expected.Amount <= 1 || !p.Refundable ||
				!strings.HasPrefix(p.TransactionID, "stripe:") || p.CreatedAt == "" {
				t.Fatalf("payment of %s = %+v, want %d %s (%s)", tc.order, p, tc.amount, tc.currency, tc.reason)
			}
		}
		// The same payment reported again (another event of the session) records nothing more.
		cs, err := c.app.Store().Ref(ctx, "stripe", c.invoiceOf(cent))
		if err != nil {
			t.Fatal(err)
		}
		c.stripeHook("evt_again_"+cent, "checkout.session.async_payment_succeeded", map[string]any{
			"id": cs, "object": "checkout.session", "client_reference_id": c.invoiceOf(cent), "payment_status": "paid",
			"amount_total": 1, "currency": "eur", "payment_intent": centPI,
		})
		if n := c.count(`SELECT COUNT(*) FROM payment_reviews`); n != 2 {
			t.Fatalf("rows = %d, want 2", n)
		}

		// Roles and CSRF: a viewer lists, only the owner refunds or accepts.
		_, err = refund(s["support"], byOrder[cent].ID, nil)
		wantErr(t, err, "forbidden", "")
		_, err = accept(viewer, byOrder[cent].ID)
		wantErr(t, err, "forbidden", "")
		status, _, _ := c.rawWith(http.MethodPost, "/checkout/api/admin/payments/"+byOrder[cent].ID+"/refund", "", strings.NewReader(`{}`),
			http.Header{"Cookie": {httpapi.AdminCookie + "=" + owner.cookie}, "Content-Type": {"application/json"}})
		if status != http.StatusForbidden || f.refunded(centPI) != 0 {
			t.Fatalf("refund without CSRF = %d, %d refunds; want 403 and none", status, f.refunded(centPI))
		}

		// Refunded through Stripe, in full, once.
		got, err := refund(owner, byOrder[cent].ID, nil)
		if err != nil || got.State != "refunded" || !strings.HasPrefix(got.RefundID, "re_"+centPI) || f.refunded(centPI) != 1 || got.DecidedBy != "owner@example.com" {
			t.Fatalf("refund = %+v %v (%d refunds)", got, err, f.refunded(centPI))
		}
		_, err = refund(owner, byOrder[cent].ID, nil)
		wantErr(t, err, "conflict", "")
		_, err = accept(owner, byOrder[cent].ID)
		wantErr(t, err, "conflict", "")
		// A refund may come without a body (its reference is optional): decided already, 409.
		status, _, body := c.rawWith(http.MethodPost, "/checkout/api/admin/payments/"+byOrder[cent].ID+"/refund", "", nil,
			http.Header{"Cookie": {httpapi.AdminCookie + "=" + owner.cookie}, "X-CSRF-Token": {owner.csrf}})
		if status != http.StatusConflict || !strings.Contains(string(body), `"conflict"`) {
			t.Fatalf("refund without a body = %d %s, want 409 conflict", status, body)
		}
		if f.refunded(centPI) != 1 || len(list("refunded")) != 1 || toReview() != 1 {
			t.Fatalf("after the refund: %d refunds, %d refunded listed, %d to review", f.refunded(centPI), len(list("refunded")), toReview())
		}

		// Accepted: the 12.99 USD pays the order, which is provisioned as usual.
		acc, err := accept(owner, byOrder[usd].ID)
		if err != nil || acc.Payment.State != "accepted" || acc.Order.Status != "paid" || acc.Order.InvoiceStatus != "paid" {
			t.Fatalf("accept = %+v %v", acc, err)
		}
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Active'`, usd); n != 1 {
			t.Fatal("the accepted order was not provisioned")
		}
		if len(list("accepted")) != 1 || toReview() != 0 {
			t.Fatal("the accepted payment is not listed as accepted")
		}
		_, err = pay.Refund(ctx, &genpayments.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: "pay_nope"})
		wantErr(t, err, "not_found", "")

		// Reject of a held order with money on it refunds that money through Stripe.
		rejected, rejectedPI := c.shortPaid("reject@example.com", 1, "eur")
		rj, err := actions.Reject(ctx, &genactions.RejectPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: rejected, Reason: ptr("short")})
		if err != nil || rj.Order.Status != "cancelled" || rj.Refund == nil || rj.Refund.Method != "stripe" || rj.Refund.Amount.Amount != 1 ||
			f.refunded(rejectedPI) != 1 {
			t.Fatalf("reject = %+v %v (%d refunds)", rj, err, f.refunded(rejectedPI))
		}
		if toReview() != 0 || len(list("refunded")) != 2 {
			t.Fatal("the rejected order's payment is not refunded")
		}
		// The audit entries in parts, as GET /admin/audit sends them (the console words them).
		if got := c.auditArgs(t, owner, "order-reject", rejected); len(got) != 1 || fmt.Sprint(got[0]) != "[reject-refund short refunded 1 EUR]" {
			t.Errorf("order-reject args %q", got)
		}
		if got := c.auditArgs(t, owner, "payment-accept", byOrder[usd].ID); len(got) != 1 || len(got[0]) != 7 || got[0][0] != "payment-accept" || got[0][1] != usd {
			t.Errorf("payment-accept args %q", got)
		}

		// Forty owners' refunds and accepts of one payment at once: one applies, 39 conflict.
		raced, racedPI := c.shortPaid("race@example.com", 1, "eur")
		id := list("review")[0].ID
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, conflicts, accepted := 0, 0, 0
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i%2 == 0 {
					_, err = refund(owner, id, nil)
				} else {
					_, err = accept(owner, id)
				}
				mu.Lock()
				defer mu.Unlock()
				var se *goa.ServiceError
				switch {
				case err == nil:
					ok++
					if i%2 == 1 {
						accepted++
					}
				case errors.As(err, &se) && se.Name == "conflict":
					conflicts++
				default:
					t.Errorf("call %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		c.drain()
		if ok != 1 || conflicts != 39 {
			t.Fatalf("40 concurrent calls: %d applied, %d conflicts; want 1 and 39", ok, conflicts)
		}
		active := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Active'`, raced)
		if accepted == 1 && (f.refunded(racedPI) != 0 || active != 1) || accepted == 0 && (f.refunded(racedPI) != 1 || active != 0) {
			t.Fatalf("accepted %d: %d refunds, %d active lines", accepted, f.refunded(racedPI), active)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action IN ('payment-refund', 'payment-accept') AND target = ? AND result = 'ok'`, id); n != 1 {
			t.Fatalf("audited successes = %d, want 1", n)
		}
		word, n := "payment-refund", 7
		if accepted == 1 {
			word = "payment-accept"
		}
		if got := c.auditArgs(t, owner, word, id); len(got) != 1 || len(got[0]) != n || got[0][0] != word || got[0][1] != raced || got[0][2] != "1" || got[0][3] != "EUR" {
			t.Errorf("%s args %q", word, got)
		} else if word == "payment-refund" && (got[0][5] != "stripe" || got[0][6] == "") {
			t.Errorf("payment-refund by %q ref %q, want stripe and its refund id", got[0][5], got[0][6])
		}
	})
}
