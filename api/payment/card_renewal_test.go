package payment_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// recorded is one request a Stripe client sent.
type recorded struct {
	method, path, key string
	form              url.Values
}

// stripeRecorder forwards a client's requests (to stripe-mock, which checks them against Stripe's API
// specification) and keeps what each one asked.
type stripeRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []recorded
}

func (r *stripeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	form, _ := url.ParseQuery(string(body))
	if req.Method == http.MethodGet {
		form = req.URL.Query()
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, recorded{method: req.Method, path: req.URL.Path, key: req.Header.Get("Idempotency-Key"), form: form})
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

// last is the latest request to path.
func (r *stripeRecorder) last(t *testing.T, method, path string) recorded {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.reqs) - 1; i >= 0; i-- {
		if r.reqs[i].method == method && strings.HasPrefix(r.reqs[i].path, path) {
			return r.reqs[i]
		}
	}
	t.Fatalf("no %s %s request", method, path)
	return recorded{}
}

// recordedStripe is the Stripe gateway on stripe-mock, its requests recorded by rec.
func recordedStripe(t *testing.T, rec *stripeRecorder) gatewayFactory {
	rec.next = stripeMockClient(t).Transport
	return func(st store.Backend) order.Gateway {
		return payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", WebhookSecret: stripeWebhookSecret,
			APIURL: "http://stripe-mock", PublicURL: "https://shop.example", HTTPClient: &http.Client{Transport: rec}}, st)
	}
}

// buyWithCard places a monthly order through Stripe with the buyer's consent to renew with the card.
func (e *env) buyWithCard() order.Order {
	e.t.Helper()
	o, err := e.orders.Create(e.t.Context(), e.claims, order.Request{
		Quote:   pricing.Request{PID: 3, Cycle: catalog.Monthly, Currency: "EUR"},
		Gateway: "stripe", IP: "203.0.113.7", Origin: "https://shop.example", RenewWithCard: true,
	})
	if err != nil {
		e.t.Fatalf("create order: %v", err)
	}
	return o
}

func TestStripeCheckoutSavesCardAgainstStripeMock(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name string
			buy  func(e *env) order.Order
			want map[string]string // "" : absent
		}{
			{"consent: the card is saved to a new customer", (*env).buyWithCard, map[string]string{
				"payment_intent_data[setup_future_usage]": "off_session", "customer_creation": "always",
				"customer_email": "buyer@example.com", "customer": ""}},
			{"consent of a returning client: saved to their customer", func(e *env) order.Order {
				earlier := e.buyWithCard()
				if err := e.st.SaveCard(t.Context(), order.Card{Provider: "stripe", Customer: "cus_returning", PaymentMethod: "pm_old",
					OrderID: earlier.ID, SavedAt: time.Now()}); err != nil {
					t.Fatal(err)
				}
				return e.buyWithCard()
			}, map[string]string{"payment_intent_data[setup_future_usage]": "off_session", "customer": "cus_returning",
				"customer_email": "", "customer_creation": ""}},
			{"no consent: nothing saved", func(e *env) order.Order { return e.mustBuy("stripe", 3, "EUR") }, map[string]string{
				"payment_intent_data[setup_future_usage]": "", "customer_creation": "", "customer": "", "customer_email": "buyer@example.com"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				rec := &stripeRecorder{}
				e := newEnv(t, b, recordedStripe(t, rec))
				o := tc.buy(e)
				// stripe-mock accepted the parameters: the session exists.
				if ref := e.session(o); !strings.HasPrefix(ref, "cs_") || o.Invoice.PaymentURL == "" {
					t.Fatalf("session %q, payment URL %q", ref, o.Invoice.PaymentURL)
				}
				req := rec.last(t, http.MethodPost, "/v1/checkout/sessions")
				for k, v := range tc.want {
					if got := req.form.Get(k); got != v {
						t.Errorf("%s = %q, want %q", k, got, v)
					}
				}
				if req.form.Get("metadata[invoice_id]") != o.Invoice.ID {
					t.Errorf("session metadata %v", req.form)
				}
			})
		}
	})
}

func TestStripePaidSessionKeepsTheCardOfAConsentingOrder(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		rec := &stripeRecorder{}
		e := newEnv(t, b, recordedStripe(t, rec))
		e.webhooks.KeepCards(e.st)
		pay := func(o order.Order, event string) {
			t.Helper()
			body := stripeEvent(event, "checkout.session.completed", e.session(o), o.Invoice.ID, "paid", o.Invoice.Amount.Amount, "eur")
			// The completed session names its payment intent and the customer it created.
			body = bytes.Replace(body, []byte(`"object":"checkout.session"`),
				[]byte(`"object":"checkout.session","payment_intent":"pi_`+event+`","customer":"cus_from_event"`), 1)
			if got := e.post("stripe", body, signed(body, stripeWebhookSecret, time.Now())); got != http.StatusOK {
				t.Fatalf("webhook: %d", got)
			}
			e.drain()
		}
		consenting := e.buyWithCard()
		pay(consenting, "evt_card")
		if got := e.order(consenting.ID); got.Status != order.StatusActive {
			t.Fatalf("order %s, want active", got.Status)
		}
		if out := e.outcome("stripe", "evt_card"); out != "paid: card kept" {
			t.Fatalf("outcome %q", out)
		}
		// The payment method is the intent's, read from stripe-mock; the customer the event's.
		req := rec.last(t, http.MethodGet, "/v1/payment_intents/pi_evt_card")
		if req.form.Get("expand[0]") != "payment_method" {
			t.Errorf("payment intent read without its payment method: %v", req.form)
		}
		card, err := e.st.ServiceCard(t.Context(), consenting.ServiceIDs[0])
		if err != nil || card.Customer != "cus_from_event" || !strings.HasPrefix(card.PaymentMethod, "pm_") || card.OrderID != consenting.ID {
			t.Fatalf("card %+v %v", card, err)
		}

		plain := e.mustBuy("stripe", 3, "EUR")
		pay(plain, "evt_plain")
		if out := e.outcome("stripe", "evt_plain"); out != "paid" {
			t.Fatalf("outcome %q", out)
		}
		if _, err := e.st.ServiceCard(t.Context(), plain.ServiceIDs[0]); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("a card kept without consent: %v", err)
		}
	})
}

func TestStripeOffSessionChargeAgainstStripeMock(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		rec := &stripeRecorder{}
		e := newEnv(t, b, recordedStripe(t, rec))
		o := e.mustBuy("stripe", 3, "EUR")
		s := payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", APIURL: "http://stripe-mock", HTTPClient: &http.Client{Transport: rec}}, e.st)
		card := order.Card{Provider: "stripe", Customer: "cus_123", PaymentMethod: "pm_123"}
		c, err := s.ChargeOffSession(t.Context(), o, card, 2)
		// stripe-mock checked the request against Stripe's specification and answered its fixture.
		if err != nil || c.Outcome == "" || !strings.HasPrefix(c.Event.TransactionID, "pi_") {
			t.Fatalf("charge %+v %v", c, err)
		}
		req := rec.last(t, http.MethodPost, "/v1/payment_intents")
		want := map[string]string{"amount": fmt.Sprint(o.Invoice.Amount.Amount), "currency": "eur", "customer": "cus_123",
			"payment_method": "pm_123", "off_session": "true", "confirm": "true", "metadata[invoice_id]": o.Invoice.ID,
			"metadata[order_id]": o.ID, "metadata[renewal_attempt]": "2"}
		for k, v := range want {
			if got := req.form.Get(k); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		if req.key != "streamcart-renewal-"+o.ID+"-2" {
			t.Errorf("idempotency key %q", req.key)
		}
		// The invoice is known as charged off-session: its intents' webhooks are accepted.
		if ref, err := e.st.Ref(t.Context(), "stripe_charge", o.Invoice.ID); err != nil || ref != c.Event.TransactionID {
			t.Fatalf("charge ref %q %v", ref, err)
		}
	})
}

// memRefs is Refs in memory.
type memRefs struct {
	mu sync.Mutex
	m  map[string]string
}

func (r *memRefs) PutRef(_ context.Context, scope, key, ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[scope+"/"+key] = ref
	return nil
}

func (r *memRefs) Ref(_ context.Context, scope, key string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.m[scope+"/"+key]
	if !ok {
		return "", payment.ErrNotFound
	}
	return ref, nil
}

// TestStripeOffSessionOutcomes reads Stripe's answers to an off-session charge, as Stripe writes
// them (stripe-mock answers every charge alike): a decline and a required authentication are
// outcomes the renewal falls back on the pay link for; only an unreachable Stripe is an error.
func TestStripeOffSessionOutcomes(t *testing.T) {
	intent := `{"id":"pi_x","object":"payment_intent","amount":1299,"currency":"eur","status":%q,"metadata":{"invoice_id":"inv_1"}}`
	cases := []struct {
		name        string
		status      int
		body        string
		outcome     string
		declineCode string
		err         error
	}{
		{"succeeded", 200, fmt.Sprintf(intent, "succeeded"), renewal.ChargeSucceeded, "", nil},
		{"declined", 402, `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds.","payment_intent":` +
			fmt.Sprintf(intent, "requires_payment_method") + `}}`, renewal.ChargeDeclined, "insufficient_funds", nil},
		{"authentication required", 402, `{"error":{"type":"card_error","code":"authentication_required","decline_code":"authentication_required","message":"This payment requires authentication."}}`,
			renewal.ChargeAuthRequired, "authentication_required", nil},
		{"requires action", 200, fmt.Sprintf(intent, "requires_action"), renewal.ChargeAuthRequired, "", nil},
		{"processing", 200, fmt.Sprintf(intent, "processing"), renewal.ChargeProcessing, "", nil},
		{"card gone", 400, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such PaymentMethod: 'pm_x'"}}`,
			renewal.ChargeRefused, "resource_missing", nil},
		{"stripe down", 500, `{"error":{"type":"api_error","message":"An unknown error occurred"}}`, "", "", payment.ErrUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.URL.Path != "/v1/payment_intents" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Stripe-Should-Retry", "false")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			s := payment.NewStripe(payment.StripeConfig{SecretKey: "sk_test_123", APIURL: srv.URL}, &memRefs{m: map[string]string{}})
			o := order.Order{ID: "ord_1", Invoice: order.Invoice{ID: "inv_1", Amount: money.Money{Amount: 1299, Currency: "EUR"}}}
			c, err := s.ChargeOffSession(t.Context(), o, order.Card{Customer: "cus_1", PaymentMethod: "pm_1"}, 1)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if c.Outcome != tc.outcome || c.DeclineCode != tc.declineCode {
				t.Fatalf("outcome %q %q, want %q %q", c.Outcome, c.DeclineCode, tc.outcome, tc.declineCode)
			}
			if tc.outcome == renewal.ChargeSucceeded && (c.Event.Kind != payment.KindPaid || c.Event.InvoiceID != "inv_1" ||
				c.Event.TransactionID != "pi_x" || c.Event.Amount != (money.Money{Amount: 1299, Currency: "EUR"})) {
				t.Fatalf("payment event %+v", c.Event)
			}
		})
	}
}

// TestStripeIntentWebhooks: a PaymentIntent event settles an invoice only when it is an
// off-session renewal charge (its metadata) of an invoice this shop charged; a Checkout Session's
// own intent is left to its session's event, and a failed charge settles nothing.
func TestStripeIntentWebhooks(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name    string
			typ     string
			attempt string // metadata renewal_attempt; "" for Checkout's own intent
			charged bool   // the shop charged the invoice off-session
			outcome string
			status  order.Status
		}{
			{"renewal charge succeeded", "payment_intent.succeeded", "1", true, "paid", order.StatusActive},
			{"checkout's own intent", "payment_intent.succeeded", "", true, "ignored: payment_intent.succeeded", order.StatusPending},
			{"charge failed", "payment_intent.payment_failed", "1", true, "ignored: payment_intent.payment_failed", order.StatusPending},
			{"never charged here", "payment_intent.succeeded", "1", false, "refused: not the invoice's payment", order.StatusPending},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				e := newEnv(t, b, stripeGateway(t))
				o := e.mustBuy("stripe", 3, "EUR")
				if tc.charged {
					if err := e.st.PutRef(t.Context(), "stripe_charge", o.Invoice.ID, "pi_hook"); err != nil {
						t.Fatal(err)
					}
				}
				meta := fmt.Sprintf(`{"invoice_id":%q,"order_id":%q}`, o.Invoice.ID, o.ID)
				if tc.attempt != "" {
					meta = fmt.Sprintf(`{"invoice_id":%q,"order_id":%q,"renewal_attempt":%q}`, o.Invoice.ID, o.ID, tc.attempt)
				}
				event := fmt.Sprintf("evt_pi_%d", i)
				body := []byte(fmt.Sprintf(`{"id":%q,"object":"event","api_version":"2020-08-27","created":%d,"type":%q,"data":{"object":`+
					`{"id":"pi_hook","object":"payment_intent","status":"succeeded","amount":%d,"currency":"eur","customer":"cus_1","metadata":%s}}}`,
					event, time.Now().Unix(), tc.typ, o.Invoice.Amount.Amount, meta))
				if got := e.post("stripe", body, signed(body, stripeWebhookSecret, time.Now())); got != http.StatusOK {
					t.Fatalf("webhook: %d", got)
				}
				e.drain()
				if out := e.outcome("stripe", event); out != tc.outcome {
					t.Fatalf("outcome %q, want %q", out, tc.outcome)
				}
				if got := e.order(o.ID); got.Status != tc.status {
					t.Fatalf("order %s, want %s", got.Status, tc.status)
				}
			})
		}
	})
}
