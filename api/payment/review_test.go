package payment_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// recorder is a transport that remembers each request's method and path, and the form bodies of
// the Checkout Sessions it creates.
type recorder struct {
	next  http.RoundTripper
	mu    sync.Mutex
	seen  []string
	forms []url.Values
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var form url.Values
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/checkout/sessions") {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		form, _ = url.ParseQuery(string(body))
	}
	r.mu.Lock()
	r.seen = append(r.seen, req.Method+" "+req.URL.Path)
	if form != nil {
		r.forms = append(r.forms, form)
	}
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

// sent is the form bodies of the Checkout Sessions created.
func (r *recorder) sent() []url.Values {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.forms)
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

// The attack through the shop's HTTP API: an order paid by card is cancelled while its Stripe
// page is open (the page is expired), the buyer pays anyway and Stripe's webhook arrives: the
// order is under review, the payment refunded through Stripe, nothing provisioned.
func TestAppRefundsStripePaymentOfCancelledOrder(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
		a, err := app.Open(t.Context(), appConfig(t, b, payment.Config{
			Modules: []string{"stripe"}, StripeSecretKey: "sk_test_123", StripeWebhookSecret: stripeWebhookSecret,
			StripeAPIURL: "http://stripe-mock", HTTPClient: stripeMockClient(t),
		}), log)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		srv := httptest.NewServer(a.Handler())
		defer srv.Close()
		call := func(method, path, token, body string, out any) int {
			t.Helper()
			req, _ := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if out != nil {
				json.NewDecoder(res.Body).Decode(out)
			}
			return res.StatusCode
		}
		var sess struct{ Token string }
		if st := call(http.MethodPost, "/checkout/api/session", "", `{"email":"card@example.com"}`, &sess); st != http.StatusCreated || sess.Token == "" {
			t.Fatalf("POST /session = %d", st)
		}
		var o struct{ OrderID, InvoiceID, Status string }
		if st := call(http.MethodPost, "/checkout/api/orders", sess.Token, `{"pid":3,"billingCycle":"monthly","gateway":"stripe"}`, &o); st != http.StatusCreated {
			t.Fatalf("POST /orders = %d", st)
		}
		if st := call(http.MethodPost, "/checkout/api/orders/"+o.OrderID+"/cancel", sess.Token, "", nil); st != http.StatusOK {
			t.Fatalf("cancel = %d", st)
		}
		cs, err := a.Store().Ref(t.Context(), "stripe", o.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		body := stripeEvent("evt_paid_late", "checkout.session.completed", cs, o.InvoiceID, "paid", 1599, "eur")
		for range 2 { // Stripe retries: the second delivery changes nothing
			req, _ := http.NewRequest(http.MethodPost, srv.URL+payment.WebhookPath("stripe"), bytes.NewReader(body))
			for k, v := range signed(body, stripeWebhookSecret, time.Now()) {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("webhook: %v %v", res, err)
			}
			res.Body.Close()
		}
		for {
			ran, err := a.Worker().RunOnce(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !ran {
				break
			}
		}
		if st := call(http.MethodGet, "/checkout/api/orders/"+o.OrderID, sess.Token, "", &o); st != http.StatusOK || o.Status != "needs_review" {
			t.Fatalf("GET order = %d, status %q; want needs_review", st, o.Status)
		}
		reviews, err := a.Store().Reviews(t.Context(), 10)
		if err != nil || len(reviews) != 1 || !reviews[0].Refunded() || !strings.HasPrefix(reviews[0].RefundID, "re_") {
			t.Fatalf("reviews %+v %v; want one, refunded by Stripe", reviews, err)
		}
		if _, err := storetest.Inspect(a.Store()).JobByKey(t.Context(), order.JobProvision+":"+o.OrderID); err == nil {
			t.Fatal("the cancelled order was queued for provisioning")
		}
	})
}
