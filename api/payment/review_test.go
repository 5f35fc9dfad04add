package payment_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// recorder is a transport that remembers each request's method and path.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.seen = append(r.seen, req.Method+" "+req.URL.Path)
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *recorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

func (r *recorder) saw(call string) bool { return slices.Contains(r.calls(), call) }

func (r *recorder) count(call string) int {
	n := 0
	for _, c := range r.calls() {
		if c == call {
			n++
		}
	}
	return n
}

// A webhook acts only on an invoice of its own provider and, for Stripe, only through the
// Checkout Session recorded for the invoice: correctly signed events that name another
// provider's invoice, or the invoice with another session, settle nothing.
func TestWebhookSettlesOnlyItsOwnPayment(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name     string
			provider string
			body     func(e *env, o order.Order) []byte
			header   func(body []byte) map[string]string
			outcome  string
			event    string
		}{
			{
				name: "cryptomus webhook naming a stripe invoice", provider: "cryptomus",
				body: func(e *env, o order.Order) []byte {
					return cryptomusWebhook(e.t, o, "paid", "15.99")
				},
				header:  func([]byte) map[string]string { return nil },
				outcome: "refused: invoice of another provider", event: "",
			},
			{
				name: "stripe event of another session with the invoice's reference", provider: "stripe",
				body: func(e *env, o order.Order) []byte {
					return stripeEvent("evt_foreign", "checkout.session.completed", "cs_test_elsewhere", o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
				},
				header:  func(b []byte) map[string]string { return signed(b, stripeWebhookSecret, time.Now()) },
				outcome: "refused: not the invoice's payment", event: "evt_foreign",
			},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFakeCryptomus(t)
				e := newEnv(t, b, stripeGateway(t), cryptomusGateway(f))
				o := e.mustBuy("stripe", 3, "EUR")
				body := tc.body(e, o)
				if got := e.post(tc.provider, body, tc.header(body)); got != http.StatusOK {
					t.Fatalf("status = %d, want 200 (signed: stored, then refused)", got)
				}
				e.drain()
				got := e.order(o.ID)
				if got.Status != order.StatusPending || got.Invoice.Status != order.InvoiceUnpaid || e.provisionJobs(o.ID) != 0 {
					t.Fatalf("order %s, invoice %s, provisioning jobs %d: want it untouched", got.Status, got.Invoice.Status, e.provisionJobs(o.ID))
				}
				event := tc.event
				if event == "" { // Cryptomus events are named by their payment's uuid and status
					w, err := e.st.Webhook(t.Context(), 1)
					if err != nil {
						t.Fatal(err)
					}
					event = w.EventID
				}
				if out := e.outcome(tc.provider, event); out != tc.outcome {
					t.Fatalf("outcome %q, want %q", out, tc.outcome)
				}
			})
		}
	})
}

// A paid Stripe session of an order that was cancelled meanwhile is refunded through Stripe
// (stripe-mock), once, whatever the number of deliveries; the order is under review.
func TestStripePaymentOfCancelledOrderIsRefundedOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		rec := &recorder{next: stripeMockClient(t).Transport}
		e := newEnv(t, b, func(st store.Backend) order.Gateway {
			return payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: stripeWebhookSecret,
				APIURL: "http://stripe-mock", PublicURL: "https://shop.example", HTTPClient: &http.Client{Transport: rec}}, st)
		})
		o := e.mustBuy("stripe", 3, "EUR")
		cs := e.session(o)
		if _, err := e.orders.Cancel(t.Context(), e.claims, o.ID); err != nil {
			t.Fatal(err)
		}
		// The buyer's open Checkout page is closed at once (the payment below raced it).
		if !rec.saw("POST /v1/checkout/sessions/" + cs + "/expire") {
			t.Fatalf("Stripe calls %v: the session was not expired", rec.calls())
		}
		for _, id := range []string{"evt_late", "evt_late", "evt_late_again"} {
			body := stripeEvent(id, "checkout.session.completed", cs, o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
			if got := e.post("stripe", body, signed(body, stripeWebhookSecret, time.Now())); got != http.StatusOK {
				t.Fatalf("status %d", got)
			}
			e.drain()
		}
		got := e.order(o.ID)
		if got.Status != order.StatusNeedsReview || e.provisionJobs(o.ID) != 0 {
			t.Fatalf("order %s, provisioning jobs %d; want needs_review, none", got.Status, e.provisionJobs(o.ID))
		}
		if out := e.outcome("stripe", "evt_late"); out != "review: "+order.ReasonCancelled {
			t.Fatalf("outcome %q", out)
		}
		if out := e.outcome("stripe", "evt_late_again"); out != "ignored: invoice already settled" {
			t.Fatalf("second delivery outcome %q, want ignored", out)
		}
		reviews, err := e.st.Reviews(t.Context(), 10)
		if err != nil || len(reviews) != 1 {
			t.Fatalf("reviews %+v, %v; want one", reviews, err)
		}
		if n := rec.count("POST /v1/refunds"); n != 1 {
			t.Fatalf("%d refunds asked of Stripe, want 1", n)
		}
		r := reviews[0]
		if !r.Refunded() || !strings.HasPrefix(r.RefundID, "re_") || r.Provider != "stripe" || r.TransactionID != "stripe:"+cs ||
			r.Amount != o.Invoice.Amount || r.Reason != order.ReasonCancelled {
			t.Fatalf("review %+v: want refunded by Stripe (re_…)", r)
		}
	})
}
