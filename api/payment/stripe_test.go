package payment_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

const stripeWebhookSecret = "whsec_test_streamcart"

func stripeGateway(t *testing.T) gatewayFactory {
	client := stripeMockClient(t)
	return func(st store.Backend) order.Gateway {
		return payment.NewStripe(payment.StripeConfig{
			SecretKey: "sk_test_123", WebhookSecret: stripeWebhookSecret, APIURL: "http://stripe-mock",
			PublicURL: "https://shop.example", HTTPClient: client,
		}, st)
	}
}

// stripeEvent is a Checkout Session event as Stripe sends it (only the fields we read, plus
// an API version other than the library's: the version check is off).
func stripeEvent(id, typ, sessionID, invoiceID, paymentStatus string, amount int64, currency string) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": "2020-08-27", "created": time.Now().Unix(), "type": typ,
		"data": map[string]any{"object": map[string]any{
			"id": sessionID, "object": "checkout.session", "client_reference_id": invoiceID,
			"payment_status": paymentStatus, "amount_total": amount, "currency": currency,
			"metadata": map[string]string{"invoice_id": invoiceID},
		}},
	})
	return b
}

// session is the Checkout Session recorded for o's invoice (stripe-mock gives each its own id).
func (e *env) session(o order.Order) string {
	e.t.Helper()
	cs, err := e.st.Ref(e.t.Context(), "stripe", o.Invoice.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return cs
}

// signed signs body as Stripe does, with the library's own test helper.
func signed(body []byte, secret string, at time.Time) map[string]string {
	p := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: at})
	return map[string]string{"Stripe-Signature": p.Header}
}

func TestStripeCheckoutAgainstStripeMock(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		e := newEnv(t, b, stripeGateway(t))
		o := e.mustBuy("stripe", 3, "EUR")
		if o.Invoice.PaymentURL == "" || !strings.HasPrefix(o.Invoice.PaymentURL, "https://") {
			t.Fatalf("payment URL = %q, want Stripe's hosted page", o.Invoice.PaymentURL)
		}
		ref, err := e.st.Ref(t.Context(), "stripe", o.Invoice.ID)
		if err != nil || !strings.HasPrefix(ref, "cs_") {
			t.Fatalf("session ref = %q, %v; want a cs_ id", ref, err)
		}
		// Reconciliation asks stripe-mock about the session; its fixture is an unpaid session.
		ev, err := payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", APIURL: "http://stripe-mock", HTTPClient: stripeMockClient(t)}, e.st).
			Inquire(t.Context(), o)
		if err != nil {
			t.Fatalf("inquire: %v", err)
		}
		if ev.Kind != payment.KindPending || ev.TransactionID != ref {

			t.Fatalf("inquiry = %+v", ev)
		}
	})
}

func TestStripeWebhook(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		now := time.Now()
		cases := []struct {
			name       string
			body       func(o order.Order, cs string) []byte
			header     func(body []byte) map[string]string
			wantStatus int
			wantStored int
			wantOrder  order.Status
		}{
			{
				name: "paid session settles and provisions",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_paid", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header:     func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, now) },
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusActive,
			},
			{
				name: "async payment succeeded settles",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_async", "checkout.session.async_payment_succeeded", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header:     func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, now) },
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusActive,
			},
			{
				name: "completed but unpaid waits",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_unpaid", "checkout.session.completed", cs, o.Invoice.ID, "unpaid", o.Invoice.Amount.Amount, "eur")
				},
				header:     func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, now) },
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusPending,
			},
			{
				name: "bad signature is refused and not stored",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_forged", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header:     func(b []byte) map[string]string { return signed(b, "whsec_someone_else", now) },
				wantStatus: http.StatusBadRequest, wantStored: 0, wantOrder: order.StatusPending,
			},
			{
				name: "missing signature is refused",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_bare", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header:     func([]byte) map[string]string { return nil },
				wantStatus: http.StatusBadRequest, wantStored: 0, wantOrder: order.StatusPending,
			},
			{
				name: "stale timestamp is refused",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_stale", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header: func(b []byte) map[string]string {
					return signed(b, stripeWebhookSecret, now.Add(-payment.StripeTolerance-time.Minute))
				},
				wantStatus: http.StatusBadRequest, wantStored: 0, wantOrder: order.StatusPending,
			},
			{
				// The library checks the past only (issue 24, finding 9).
				name: "timestamp an hour ahead is refused",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_future", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header: func(b []byte) map[string]string {
					return signed(b, stripeWebhookSecret, time.Now().Add(time.Hour))
				},
				wantStatus: http.StatusBadRequest, wantStored: 0, wantOrder: order.StatusPending,
			},
			{
				name: "timestamp just past the tolerance ahead is refused",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_ahead", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header: func(b []byte) map[string]string {
					return signed(b, stripeWebhookSecret, time.Now().Add(payment.StripeTolerance+time.Minute))
				},
				wantStatus: http.StatusBadRequest, wantStored: 0, wantOrder: order.StatusPending,
			},
			{
				name: "timestamp a little ahead (a provider's clock skew) settles",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_skew", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header: func(b []byte) map[string]string {
					return signed(b, stripeWebhookSecret, time.Now().Add(payment.StripeTolerance-time.Minute))
				},
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusActive,
			},
			{
				name: "amount mismatch holds the order",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_short", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount-100, "eur")
				},
				header:     func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, now) },
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusFraud,
			},
			{
				name: "currency mismatch holds the order",
				body: func(o order.Order, cs string) []byte {
					return stripeEvent("evt_usd", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "usd")
				},
				header:     func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, now) },
				wantStatus: http.StatusOK, wantStored: 1, wantOrder: order.StatusFraud,
			},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				e := newEnv(t, b, stripeGateway(t))
				o := e.mustBuy("stripe", 3, "EUR")
				body := tc.body(o, e.session(o))
				if got := e.post("stripe", body, tc.header(body)); got != tc.wantStatus {
					t.Fatalf("status = %d, want %d", got, tc.wantStatus)
				}
				if got := e.webhookCount("stripe"); got != tc.wantStored {
					t.Fatalf("stored webhooks = %d, want %d", got, tc.wantStored)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != tc.wantOrder {
					t.Fatalf("order status = %s, want %s", got, tc.wantOrder)
				}
				if tc.wantOrder != order.StatusActive && e.provisionJobs(o.ID) != 0 {
					t.Fatal("an order that is not paid was queued for provisioning")
				}
			})
		}
	})
}

func TestStripeSameEventTwiceSettlesOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		e := newEnv(t, b, stripeGateway(t))
		o := e.mustBuy("stripe", 3, "EUR")
		cs := e.session(o)
		body := stripeEvent("evt_twice", "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
		for range 2 {
			if got := e.post("stripe", body, signed(body, stripeWebhookSecret, time.Now())); got != http.StatusOK {
				t.Fatalf("status = %d, want 200 (a provider's retry is acknowledged)", got)
			}
		}
		if got := e.webhookCount("stripe"); got != 1 {
			t.Fatalf("stored webhooks = %d, want 1", got)
		}
		// Another event for the same session (completed, then async succeeded) settles nothing more.
		again := stripeEvent("evt_other", "checkout.session.async_payment_succeeded", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
		if got := e.post("stripe", again, signed(again, stripeWebhookSecret, time.Now())); got != http.StatusOK {
			t.Fatalf("status = %d", got)
		}
		e.drain()
		got := e.order(o.ID)
		if got.Status != order.StatusActive || got.Invoice.TransactionID != "stripe:"+cs {
			t.Fatalf("order = %s, txn %q; want active, stripe:%s", got.Status, got.Invoice.TransactionID, cs)
		}
		if out := e.outcome("stripe", "evt_other"); out != "ignored: invoice already settled" {
			t.Fatalf("second event outcome = %q", out)
		}
		if e.provisionJobs(o.ID) != 1 {
			t.Fatal("want exactly one provisioning job")
		}
	})
}
