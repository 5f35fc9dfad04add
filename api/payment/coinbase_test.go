package payment_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// coinbaseGateway builds the gateway against the fake API, converting at the rates of the
// catalog src (YAML).
func coinbaseGateway(t *testing.T, f *fakeLinks, src []byte) gatewayFactory {
	return func(st store.Backend) order.Gateway {
		cat, err := catalog.Parse("catalog.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		g, err := payment.NewCoinbase(payment.CoinbaseConfig{KeyID: coinbaseKeyID, KeySecret: f.key.secret, WebhookSecret: coinbaseWebhookSecret,
			APIURL: f.srv.URL, PublicURL: "https://shop.example", Catalog: func() *catalog.Catalog { return cat }}, st)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
}

// TestCoinbaseLinkRequest: the payment link asks the invoice's total in USDC at the catalog's
// USD rate, on base, until the invoice's deadline, returns the buyer to the shop, carries the
// invoice and order ids, and is signed by either kind of CDP key.
func TestCoinbaseLinkRequest(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, alg := range []string{"EdDSA", "ES256"} {
			t.Run(alg, func(t *testing.T) {
				f := newFakeLinks(t, newCDPKey(t, alg))
				e := newEnv(t, b, coinbaseGateway(t, f, catalog.DemoYAML()))
				o := e.mustBuy("coinbase", 3, "EUR") // 15.99 EUR
				if !strings.HasPrefix(o.Invoice.PaymentURL, "https://payments.coinbase.com/payment-links/pl_") {
					t.Fatalf("payment URL = %q", o.Invoice.PaymentURL)
				}
				body := f.created[0]
				meta := body["metadata"].(map[string]any)
				// 15.99 EUR × (USD 1.08 / EUR 1) = 17.2692 → 17.27 USDC.
				if body["amount"] != "17.27" || body["currency"] != "USDC" || body["network"] != "base" ||
					body["expiresAt"] != o.Invoice.Deadline.UTC().Format(time.RFC3339) ||
					!strings.HasPrefix(body["successRedirectUrl"].(string), "https://shop.example/") || body["failRedirectUrl"] != body["successRedirectUrl"] ||
					meta["invoice_id"] != o.Invoice.ID || meta["order_id"] != o.ID {
					t.Fatalf("link request = %v", body)
				}
				q, err := e.st.Quote(t.Context(), o.Invoice.ID)
				if err != nil || q.Amount != "17.27" || q.Currency != "USDC" || q.Network != "base" || q.Rate != "1.08" || q.TakenAt.IsZero() {
					t.Fatalf("stored quote = %+v, %v", q, err)
				}
			})
		}
	})
}

// TestCoinbaseWebhook drives signed (and forged) payment link events through the webhook.
func TestCoinbaseWebhook(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		now := time.Now()
		cases := []struct {
			name       string
			event      string
			currency   string // "" : USDC
			paid       string // settlement.totalAmount; "" : the link's amount
			otherLink  bool   // the event is about a link made elsewhere naming this invoice
			secret     string // "" : the subscription's
			at         time.Time
			wantStatus int
			wantStored int
			wantOrder  order.Status
		}{
			{"success settles", "payment_link.payment.success", "", "", false, "", now, 200, 1, order.StatusActive},
			{"failed fails the order", "payment_link.payment.failed", "", "", false, "", now, 200, 1, order.StatusFailed},
			{"expired fails the order", "payment_link.payment.expired", "", "", false, "", now, 200, 1, order.StatusFailed},
			{"underpayment is held", "payment_link.payment.success", "", "10.00", false, "", now, 200, 1, order.StatusFraud},
			{"another currency is held", "payment_link.payment.success", "USDT", "", false, "", now, 200, 1, order.StatusFraud},
			{"another link settles nothing", "payment_link.payment.success", "", "", true, "", now, 200, 1, order.StatusPending},
			{"bad signature refused", "payment_link.payment.success", "", "", false, "not-the-secret", now, 400, 0, order.StatusPending},
			{"stale signature refused", "payment_link.payment.success", "", "", false, "", now.Add(-6 * time.Minute), 400, 0, order.StatusPending},
			{"future signature refused", "payment_link.payment.success", "", "", false, "", now.Add(10 * time.Minute), 400, 0, order.StatusPending},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFakeLinks(t, newCDPKey(t, "EdDSA"))
				e := newEnv(t, b, coinbaseGateway(t, f, catalog.DemoYAML()))
				o := e.mustBuy("coinbase", 3, "EUR")
				link := f.link("")
				if tc.otherLink {
					link["id"] = "0123456789abcdef01234567"
				}
				if tc.currency != "" {
					link["currency"] = tc.currency
				}
				if tc.paid != "" {
					link["settlement"] = map[string]string{"totalAmount": tc.paid}
				}
				secret := coinbaseWebhookSecret
				if tc.secret != "" {
					secret = tc.secret
				}
				body, h := hook0Signed(link, tc.event, secret, tc.at)
				for range 2 { // the same event twice: acknowledged twice, stored and acted on once
					if got := e.post("coinbase", body, h); got != tc.wantStatus {
						t.Fatalf("status = %d, want %d", got, tc.wantStatus)
					}
				}
				if got := e.webhookCount("coinbase"); got != tc.wantStored {
					t.Fatalf("stored = %d, want %d", got, tc.wantStored)
				}
				e.drain()
				got := e.order(o.ID)
				if got.Status != tc.wantOrder {
					t.Fatalf("order = %s, want %s", got.Status, tc.wantOrder)
				}
				if tc.wantOrder == order.StatusActive && (got.Invoice.TransactionID != "coinbase:"+link["id"].(string) || e.provisionJobs(o.ID) != 1) {
					t.Fatalf("settled as %q with %d provisioning jobs", got.Invoice.TransactionID, e.provisionJobs(o.ID))
				}
			})
		}
	})
}

// TestCoinbaseCancelDeactivates: cancelling an order deactivates its payment link.
func TestCoinbaseCancelDeactivates(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeLinks(t, newCDPKey(t, "ES256"))
		e := newEnv(t, b, coinbaseGateway(t, f, catalog.DemoYAML()))
		o := e.mustBuy("coinbase", 3, "EUR")
		if _, err := e.orders.Cancel(t.Context(), e.claims, o.ID); err != nil {
			t.Fatal(err)
		}
		if got := f.link("")["status"]; got != "DEACTIVATED" {
			t.Fatalf("link status = %v after the cancel, want DEACTIVATED", got)
		}
	})
}

// TestCoinbaseDownThenBack: the provider down at creation is ErrGatewayUnavailable (a 503 to the
// buyer) and the retry with the same key makes the link with the first quote; down at
// reconciliation, the job fails and its retry settles the payment whose webhook was lost.
func TestCoinbaseDownThenBack(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeLinks(t, newCDPKey(t, "EdDSA"))
		gw := coinbaseGateway(t, f, catalog.DemoYAML())
		e := newEnv(t, b, gw)

		f.setDown(true)
		req := order.Request{Gateway: "coinbase", IdempotencyKey: "k1", IP: "203.0.113.7"}
		req.Quote.PID, req.Quote.Cycle, req.Quote.Currency = 3, "monthly", "EUR"
		if _, err := e.orders.Create(t.Context(), e.claims, req); !errors.Is(err, order.ErrGatewayUnavailable) {
			t.Fatalf("create while down: %v, want ErrGatewayUnavailable", err)
		}
		f.setDown(false)
		o, err := e.orders.Create(t.Context(), e.claims, req)
		if err != nil || o.Invoice.PaymentURL == "" {
			t.Fatalf("retry: %v, url %q", err, o.Invoice.PaymentURL)
		}
		link := f.link("")
		id := link["id"].(string)

		rec := payment.NewReconciler(e.st, []order.Gateway{gw(e.st)}, e.webhooks, e.log)
		nearDeadline := func() time.Time { return o.Invoice.Deadline.Add(-10 * time.Minute) }
		rec.SetClock(nearDeadline)
		worker := job.NewWorker(e.st, map[string]job.Handler{payment.JobReconcile: rec.Handle, order.JobProvision: e.provision},
			job.Options{Logger: e.log, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond, Now: nearDeadline})
		if err := rec.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		f.pay(id, "COMPLETED", link["amount"].(string))
		f.setDown(true)
		if ran, err := worker.RunOnce(t.Context()); !ran || err != nil {
			t.Fatalf("reconcile while down: ran %v, %v", ran, err)
		}
		if got := e.order(o.ID).Status; got != order.StatusPending {
			t.Fatalf("order = %s while the provider is down", got)
		}
		f.setDown(false)
		for range 3 { // the retried sweep, then provisioning
			if _, err := worker.RunOnce(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if got := e.order(o.ID); got.Status != order.StatusActive || got.Invoice.TransactionID != "coinbase:"+id {
			t.Fatalf("order = %s txn %q, want active coinbase:%s", got.Status, got.Invoice.TransactionID, id)
		}
		if !containsCall(f, "GET /api/v1/payment-links/"+id) {
			t.Fatalf("calls = %v, want GET of the link", f.calls)
		}
	})
}

// TestCoinbaseReconcileUnderpaid: a completed link that took less than it asked is held, as its
// webhook would have been.
func TestCoinbaseReconcileUnderpaid(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeLinks(t, newCDPKey(t, "EdDSA"))
		gw := coinbaseGateway(t, f, catalog.DemoYAML())
		e := newEnv(t, b, gw)
		o := e.mustBuy("coinbase", 3, "EUR")
		f.pay(f.link("")["id"].(string), "COMPLETED", "1.00")
		rec := payment.NewReconciler(e.st, []order.Gateway{gw(e.st)}, e.webhooks, e.log)
		if err := rec.Check(t.Context(), o.Invoice.ID); err != nil {
			t.Fatal(err)
		}
		if got := e.order(o.ID).Status; got != order.StatusFraud {
			t.Fatalf("order = %s, want held (fraud)", got)
		}
	})
}

func containsCall(f *fakeLinks, call string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c == call {
			return true
		}
	}
	return false
}

// TestCoinbaseKeySecret: a secret that is no CDP key stops the gateway from being built.
func TestCoinbaseKeySecret(t *testing.T) {
	for _, secret := range []string{"not base64!", "c2hvcnQ=", "-----BEGIN EC PRIVATE KEY-----\\nAAAA\\n-----END EC PRIVATE KEY-----"} {
		_, err := payment.NewCoinbase(payment.CoinbaseConfig{KeyID: coinbaseKeyID, KeySecret: secret}, nil)
		if !errors.Is(err, payment.ErrBadKey) {
			t.Errorf("%q: err = %v, want ErrBadKey", secret, err)
		}
	}
}

// TestCoinbaseQuoteKept: the rate is taken when an invoice's link is first made; a catalog
// import changing the USD rate before the retry does not change what the invoice asks.
func TestCoinbaseQuoteKept(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeLinks(t, newCDPKey(t, "EdDSA"))
		cat, err := catalog.Parse("catalog.yaml", catalog.DemoYAML())
		if err != nil {
			t.Fatal(err)
		}
		current := cat
		gw := func(st store.Backend) order.Gateway {
			g, err := payment.NewCoinbase(payment.CoinbaseConfig{KeyID: coinbaseKeyID, KeySecret: f.key.secret, WebhookSecret: coinbaseWebhookSecret,
				APIURL: f.srv.URL, PublicURL: "https://shop.example", Catalog: func() *catalog.Catalog { return current }}, st)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		e := newEnv(t, b, gw)
		f.setDown(true)
		req := order.Request{Gateway: "coinbase", IdempotencyKey: "k1", IP: "203.0.113.7"}
		req.Quote.PID, req.Quote.Cycle, req.Quote.Currency = 3, "monthly", "EUR"
		if _, err := e.orders.Create(t.Context(), e.claims, req); !errors.Is(err, order.ErrGatewayUnavailable) {
			t.Fatalf("create while down: %v", err)
		}
		dearer, err := catalog.Parse("catalog.yaml", []byte(strings.Replace(string(catalog.DemoYAML()), `{code: USD, rate: "1.08"`, `{code: USD, rate: "1.20"`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		current = dearer
		f.setDown(false)
		if _, err := e.orders.Create(t.Context(), e.claims, req); err != nil {
			t.Fatal(err)
		}
		if got := f.link("")["amount"]; got != "17.27" { // 15.99 × 1.08, not × 1.20
			t.Fatalf("link asks %v, want the first quote 17.27", got)
		}
	})
}
