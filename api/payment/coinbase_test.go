package payment_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

const coinbaseKey, coinbaseSecret = "cb-api-key", "cb-shared-secret"

// fakeCoinbase is Coinbase Commerce's charges API as documented: X-CC-Api-Key and X-CC-Version
// headers, POST /charges with a fixed local price, GET /charges/{code} with a timeline.
type fakeCoinbase struct {
	mu      sync.Mutex
	down    bool
	status  string // last timeline status of every charge
	charges map[string]map[string]any
	srv     *httptest.Server
}

func newFakeCoinbase(t *testing.T) *fakeCoinbase {
	f := &fakeCoinbase{status: "NEW", charges: map[string]map[string]any{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCoinbase) set(down bool, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down, f.status = down, status
}

func (f *fakeCoinbase) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		http.Error(w, `{"error":{"type":"service_unavailable"}}`, http.StatusServiceUnavailable)
		return
	}
	if r.Header.Get("X-CC-Api-Key") != coinbaseKey || r.Header.Get("X-CC-Version") != "2018-03-22" {
		http.Error(w, `{"error":{"type":"authorization_error"}}`, http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/charges":
		var body map[string]any
		if json.NewDecoder(r.Body).Decode(&body) != nil || body["pricing_type"] != "fixed_price" || body["local_price"] == nil {
			http.Error(w, `{"error":{"type":"invalid_request"}}`, http.StatusBadRequest)
			return
		}
		code := "CODE" + string(rune('A'+len(f.charges)))
		charge := map[string]any{
			"id": "chg-" + code, "code": code, "hosted_url": "https://commerce.coinbase.com/charges/" + code,
			"metadata": body["metadata"], "pricing": map[string]any{"local": body["local_price"]},
		}
		f.charges[code] = charge
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"data": charge})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/charges/"):
		charge, ok := f.charges[strings.TrimPrefix(r.URL.Path, "/charges/")]
		if !ok {
			http.Error(w, `{"error":{"type":"not_found"}}`, http.StatusNotFound)
			return
		}
		out := map[string]any{}
		for k, v := range charge {
			out[k] = v
		}
		out["timeline"] = []map[string]string{{"status": "NEW"}, {"status": f.status}}
		json.NewEncoder(w).Encode(map[string]any{"data": out})
	default:
		http.NotFound(w, r)
	}
}

func coinbaseGateway(f *fakeCoinbase, onPending bool) gatewayFactory {
	return func(st store.Backend) order.Gateway {
		return payment.NewCoinbase(payment.CoinbaseConfig{APIKey: coinbaseKey, WebhookSecret: coinbaseSecret, APIURL: f.srv.URL,
			PublicURL: "https://shop.example", SettleOnPending: onPending}, st)
	}
}

// coinbaseEvent is a webhook as Coinbase Commerce sends it, and its X-CC-Webhook-Signature.
func coinbaseEvent(eventID, typ string, o order.Order, amount, currency string) ([]byte, map[string]string) {
	body, _ := json.Marshal(map[string]any{
		"id": "delivery-" + eventID, "scheduled_for": "2026-01-01T00:00:00Z", "attempt_number": 1,
		"event": map[string]any{"id": eventID, "type": typ, "api_version": "2018-03-22", "created_at": "2026-01-01T00:00:00Z",
			"data": map[string]any{"id": "chg-1", "code": "CODEA", "metadata": map[string]string{"invoice_id": o.Invoice.ID, "order_id": o.ID},
				"pricing": map[string]any{"local": map[string]string{"amount": amount, "currency": currency}}}},
	})
	mac := hmac.New(sha256.New, []byte(coinbaseSecret))
	mac.Write(body)
	return body, map[string]string{"X-CC-Webhook-Signature": hex.EncodeToString(mac.Sum(nil))}
}

func TestCoinbaseWebhook(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name       string
			typ        string
			onPending  bool
			amount     string
			forge      bool
			wantStatus int
			wantOrder  order.Status
		}{
			{"confirmed settles", "charge:confirmed", false, "15.99", false, 200, order.StatusActive},
			{"pending waits by default", "charge:pending", false, "15.99", false, 200, order.StatusPending},
			{"pending settles when configured", "charge:pending", true, "15.99", false, 200, order.StatusActive},
			{"failed fails the order", "charge:failed", false, "15.99", false, 200, order.StatusFailed},
			{"underpaid charge is held", "charge:confirmed", false, "10.00", false, 200, order.StatusFraud},
			{"forged signature refused", "charge:confirmed", false, "15.99", true, 400, order.StatusPending},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFakeCoinbase(t)
				e := newEnv(t, b, coinbaseGateway(f, tc.onPending))
				o := e.mustBuy("coinbase", 3, "EUR")
				if !strings.HasPrefix(o.Invoice.PaymentURL, "https://commerce.coinbase.com/charges/") {
					t.Fatalf("payment URL = %q", o.Invoice.PaymentURL)
				}
				body, h := coinbaseEvent("evt-"+tc.typ, tc.typ, o, tc.amount, "EUR")
				if tc.forge {
					h["X-CC-Webhook-Signature"] = strings.Repeat("0", 64)
				}
				for range 2 { // a redelivery is acknowledged and stored once
					if got := e.post("coinbase", body, h); got != tc.wantStatus {
						t.Fatalf("status = %d, want %d", got, tc.wantStatus)
					}
				}
				if want := map[bool]int{true: 0, false: 1}[tc.forge]; e.webhookCount("coinbase") != want {
					t.Fatalf("stored = %d, want %d", e.webhookCount("coinbase"), want)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != tc.wantOrder {
					t.Fatalf("order = %s, want %s", got, tc.wantOrder)
				}
			})
		}
	})
}

func TestCoinbaseDownThenBack(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeCoinbase(t)
		e := newEnv(t, b, coinbaseGateway(f, false))

		// Down while ordering: no payment link, an error the buyer can retry with the same key.
		f.set(true, "NEW")
		req := order.Request{Gateway: "coinbase", IdempotencyKey: "k1", IP: "203.0.113.7"}
		req.Quote.PID, req.Quote.Cycle, req.Quote.Currency = 3, "monthly", "EUR"
		if _, err := e.orders.Create(t.Context(), e.claims, req); !errors.Is(err, order.ErrGatewayUnavailable) {
			t.Fatalf("create while down: %v, want ErrGatewayUnavailable", err)
		}
		f.set(false, "NEW")
		o, err := e.orders.Create(t.Context(), e.claims, req)
		if err != nil || o.Invoice.PaymentURL == "" {
			t.Fatalf("retry: %v, url %q", err, o.Invoice.PaymentURL)
		}

		// The buyer pays, the webhook is lost, and the provider is down when the reconciliation job
		// asks near the deadline: the job fails and is retried; once the provider is back it settles.
		rec := payment.NewReconciler(e.st, []order.Gateway{coinbaseGateway(f, false)(e.st)}, e.webhooks, e.log)
		nearDeadline := func() time.Time { return o.Invoice.Deadline.Add(-10 * time.Minute) }
		rec.SetClock(nearDeadline)
		worker := job.NewWorker(e.st, map[string]job.Handler{payment.JobReconcile: rec.Handle, order.JobProvision: e.provision},
			job.Options{Logger: e.log, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond, Now: nearDeadline})
		if err := rec.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		f.set(true, "COMPLETED")
		if ran, err := worker.RunOnce(t.Context()); !ran || err != nil {
			t.Fatalf("reconcile while down: ran %v, %v", ran, err)
		}
		if got := e.order(o.ID).Status; got != order.StatusPending {
			t.Fatalf("order = %s while the provider is down", got)
		}
		f.set(false, "COMPLETED")
		for range 3 { // the retried sweep, then provisioning
			if _, err := worker.RunOnce(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if got := e.order(o.ID); got.Status != order.StatusActive || got.Invoice.TransactionID != "coinbase:CODEA" {
			t.Fatalf("order = %s txn %q, want active coinbase:CODEA", got.Status, got.Invoice.TransactionID)
		}
	})
}
