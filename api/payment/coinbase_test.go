package payment_test

import (
	"context"
	"errors"
	"fmt"
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
func coinbaseGateway(t *testing.T, f *fakeCoinbase, src []byte) gatewayFactory {
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

// TestCoinbaseCheckoutRequest: an order makes a checkout (POST /api/v1/checkouts, signed by a
// JWT naming that path, with the invoice's idempotency key), not a payment link; it asks the
// invoice's total in USDC at the catalog's USD rate, on base, until the invoice's deadline,
// returns the buyer to the shop, carries the invoice and order ids, and is signed by either
// kind of CDP key.
func TestCoinbaseCheckoutRequest(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, alg := range []string{"EdDSA", "ES256"} {
			t.Run(alg, func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, alg))
				e := newEnv(t, b, coinbaseGateway(t, f, catalog.DemoYAML()))
				o := e.mustBuy("coinbase", 3, "EUR") // 15.99 EUR
				co := f.checkout("")
				if o.Invoice.PaymentURL != co["url"] || f.kindOf(co["id"].(string)) != "checkouts" {
					t.Fatalf("payment URL = %q, made by %q; want the checkout's %v", o.Invoice.PaymentURL, f.kindOf(co["id"].(string)), co["url"])
				}
				if !containsCall(f, "POST /api/v1/checkouts") || containsCall(f, "POST /api/v1/payment-links") {
					t.Fatalf("calls = %v, want POST /api/v1/checkouts", f.calls)
				}
				// A retry of the invoice's checkout (a lost answer) gets the same checkout.
				again, err := coinbaseOn(t, f, e).CreateCheckout(t.Context(), o.Invoice, o.ID, "retry", o.PaymentReturnURL())
				if err != nil || again != co["url"] {
					t.Fatalf("retry = %q, %v; want the same checkout", again, err)
				}
				f.checkout("") // still only one
				body := f.created[0]
				meta := body["metadata"].(map[string]any)
				// 15.99 EUR × (USD 1.08 / EUR 1) = 17.2692 → 17.27 USDC.
				if body["amount"] != "17.27" || body["currency"] != "USDC" || body["network"] != "base" ||
					body["expiresAt"] != o.Invoice.Deadline.UTC().Format(time.RFC3339) ||
					!strings.HasPrefix(body["successRedirectUrl"].(string), "https://shop.example/") || body["failRedirectUrl"] != body["successRedirectUrl"] ||
					meta["invoice_id"] != o.Invoice.ID || meta["order_id"] != o.ID {
					t.Fatalf("checkout request = %v", body)
				}
				q, err := e.st.Quote(t.Context(), o.Invoice.ID)
				if err != nil || q.Amount != "17.27" || q.Currency != "USDC" || q.Network != "base" || q.Rate != "1.08" || q.TakenAt.IsZero() {
					t.Fatalf("stored quote = %+v, %v", q, err)
				}
			})
		}
	})
}

// coinbaseOn is the gateway over e's store, as the env's own.
func coinbaseOn(t *testing.T, f *fakeCoinbase, e *env) *payment.Coinbase {
	return coinbaseGateway(t, f, catalog.DemoYAML())(e.st).(*payment.Coinbase)
}

// preSwitch is the gateway as it was before it moved to checkouts, for invoices made then: their
// checkout is a payment link (POST /api/v1/payment-links, with the same body) whose id is recorded
// under the module's own scope, "coinbase", with its USDC quote. Everything else is today's.
type preSwitch struct {
	*payment.Coinbase
	f  *fakeCoinbase
	st store.Backend
}

func (p preSwitch) Checkout(ctx context.Context, o order.Order) (string, error) {
	q, err := p.st.PutQuote(ctx, payment.Quote{InvoiceID: o.Invoice.ID, Gateway: "coinbase", Amount: "17.27", Currency: "USDC",
		Network: "base", Rate: "1.08", Basis: "catalog rates", TakenAt: time.Now()})
	if err != nil {
		return "", err
	}
	l := p.f.legacyLink(map[string]any{"amount": q.Amount, "network": q.Network, "metadata": map[string]any{
		"invoice_id": o.Invoice.ID, "order_id": o.ID, "invoice_amount": "15.99", "invoice_currency": "EUR"}})
	if err := p.st.PutRef(ctx, "coinbase", o.Invoice.ID, l["id"].(string)); err != nil {
		return "", err
	}
	return l["url"].(string), nil
}

// preSwitchGateway makes the invoices of the env's coinbase orders payment links, as before.
func preSwitchGateway(t *testing.T, f *fakeCoinbase) gatewayFactory {
	return func(st store.Backend) order.Gateway {
		return preSwitch{Coinbase: coinbaseGateway(t, f, catalog.DemoYAML())(st).(*payment.Coinbase), f: f, st: st}
	}
}

// TestCoinbaseWebhook drives signed (and forged) checkout events through the webhook, and the
// payment link events of invoices given a link before the switch to checkouts.
func TestCoinbaseWebhook(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		now := time.Now()
		cases := []struct {
			name       string
			event      string
			legacy     bool   // the invoice was given a payment link before the switch
			currency   string // "" : USDC
			paid       string // settlement.totalAmount; "" : the checkout's amount
			otherLink  bool   // the event is about a checkout made elsewhere naming this invoice
			secret     string // "" : the subscription's
			at         time.Time
			wantStatus int
			wantStored int
			wantOrder  order.Status
		}{
			{"success settles", "checkout.payment.success", false, "", "", false, "", now, 200, 1, order.StatusActive},
			{"failed fails the order", "checkout.payment.failed", false, "", "", false, "", now, 200, 1, order.StatusFailed},
			{"expired fails the order", "checkout.payment.expired", false, "", "", false, "", now, 200, 1, order.StatusFailed},
			{"underpayment is held", "checkout.payment.success", false, "", "10.00", false, "", now, 200, 1, order.StatusFraud},
			{"another currency is held", "checkout.payment.success", false, "USDT", "", false, "", now, 200, 1, order.StatusFraud},
			{"another checkout settles nothing", "checkout.payment.success", false, "", "", true, "", now, 200, 1, order.StatusPending},
			{"refund event ignored", "checkout.refund.success", false, "", "", false, "", now, 200, 1, order.StatusPending},
			{"bad signature refused", "checkout.payment.success", false, "", "", false, "not-the-secret", now, 400, 0, order.StatusPending},
			{"stale signature refused", "checkout.payment.success", false, "", "", false, "", now.Add(-6 * time.Minute), 400, 0, order.StatusPending},
			{"future signature refused", "checkout.payment.success", false, "", "", false, "", now.Add(10 * time.Minute), 400, 0, order.StatusPending},
			{"legacy link success settles", "payment_link.payment.success", true, "", "", false, "", now, 200, 1, order.StatusActive},
			{"legacy link failed fails the order", "payment_link.payment.failed", true, "", "", false, "", now, 200, 1, order.StatusFailed},
			{"legacy link expired fails the order", "payment_link.payment.expired", true, "", "", false, "", now, 200, 1, order.StatusFailed},
			{"legacy link underpayment is held", "payment_link.payment.success", true, "", "10.00", false, "", now, 200, 1, order.StatusFraud},
			{"legacy link forged refused", "payment_link.payment.success", true, "", "", false, "not-the-secret", now, 400, 0, order.StatusPending},
			{"another legacy link settles nothing", "payment_link.payment.success", true, "", "", true, "", now, 200, 1, order.StatusPending},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
				gw := coinbaseGateway(t, f, catalog.DemoYAML())
				if tc.legacy {
					gw = preSwitchGateway(t, f)
				}
				e := newEnv(t, b, gw)
				o := e.mustBuy("coinbase", 3, "EUR")
				co := f.checkout("")
				if want := map[bool]string{true: "payment-links", false: "checkouts"}[tc.legacy]; f.kindOf(co["id"].(string)) != want {
					t.Fatalf("the invoice's checkout was made by %s, want %s", f.kindOf(co["id"].(string)), want)
				}
				if tc.otherLink {
					co["id"] = "0123456789abcdef01234567"
				}
				if tc.currency != "" {
					co["currency"] = tc.currency
				}
				if tc.paid != "" {
					co["settlement"] = map[string]string{"totalAmount": tc.paid, "currency": "USDC"}
				}
				secret := coinbaseWebhookSecret
				if tc.secret != "" {
					secret = tc.secret
				}
				body, h := hook0Signed(co, tc.event, secret, tc.at)
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
				if tc.wantOrder == order.StatusActive && (got.Invoice.TransactionID != "coinbase:"+co["id"].(string) || e.provisionJobs(o.ID) != 1) {
					t.Fatalf("settled as %q with %d provisioning jobs", got.Invoice.TransactionID, e.provisionJobs(o.ID))
				}
			})
		}
	})
}

// TestCoinbaseProcessing: a checkout in PROCESSING (read by reconciliation, or in a notification
// whose body has that status: the documentation names no event for it) records the payment as
// seen and confirming, settling nothing; a forged one records nothing; the success event then
// settles the order as usual.
func TestCoinbaseProcessing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, via := range []string{"reconciliation", "webhook", "forged webhook"} {
			t.Run(via, func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
				gw := coinbaseGateway(t, f, catalog.DemoYAML())
				e := newEnv(t, b, gw)
				o := e.mustBuy("coinbase", 3, "EUR")
				progress := payment.NewProgress(e.st)
				id := f.checkout("")["id"].(string)
				f.pay(id, "PROCESSING", "")
				switch via {
				case "reconciliation":
					rec := payment.NewReconciler(e.st, []order.Gateway{gw(e.st)}, e.webhooks, e.log, nil)
					if err := rec.Check(t.Context(), o.Invoice.ID); err != nil {
						t.Fatal(err)
					}
					if !containsCall(f, "GET /api/v1/checkouts/"+id) {
						t.Fatalf("calls = %v, want GET of the checkout", f.calls)
					}
				default:
					secret := coinbaseWebhookSecret
					if via == "forged webhook" {
						secret = "not-the-secret"
					}
					body, h := hook0Signed(f.checkout(id), "checkout.payment.processing", secret, time.Now())
					if got, want := e.post("coinbase", body, h), map[bool]int{true: 400, false: 200}[via == "forged webhook"]; got != want {
						t.Fatalf("status = %d, want %d", got, want)
					}
					e.drain()
				}
				seen, err := progress.Processing(t.Context(), o.Invoice.ID)
				if err != nil || seen != (via != "forged webhook") {
					t.Fatalf("processing = %v, %v after a PROCESSING checkout by %s", seen, err, via)
				}
				if got := e.order(o.ID).Status; got != order.StatusPending {
					t.Fatalf("order = %s while the payment is confirming, want pending", got)
				}
				f.pay(id, "COMPLETED", "17.27")
				body, h := hook0Signed(f.checkout(id), "checkout.payment.success", coinbaseWebhookSecret, time.Now())
				if got := e.post("coinbase", body, h); got != 200 {
					t.Fatalf("success status = %d", got)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != order.StatusActive {
					t.Fatalf("order = %s after the success event, want active", got)
				}
			})
		}
	})
}

// TestCoinbaseCancelDeactivates: cancelling an order deactivates its checkout
// (POST /api/v1/checkouts/{id}/deactivate), or the payment link of an invoice made before the
// switch (POST /api/v1/payment-links/{id}/deactivate).
func TestCoinbaseCancelDeactivates(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, legacy := range []bool{false, true} {
			t.Run(map[bool]string{false: "checkout", true: "legacy link"}[legacy], func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, "ES256"))
				gw, api := coinbaseGateway(t, f, catalog.DemoYAML()), "checkouts"
				if legacy {
					gw, api = preSwitchGateway(t, f), "payment-links"
				}
				e := newEnv(t, b, gw)
				o := e.mustBuy("coinbase", 3, "EUR")
				if _, err := e.orders.Cancel(t.Context(), e.claims, o.ID); err != nil {
					t.Fatal(err)
				}
				co := f.checkout("")
				if co["status"] != "DEACTIVATED" || !containsCall(f, "POST /api/v1/"+api+"/"+co["id"].(string)+"/deactivate") {
					t.Fatalf("%s status = %v after the cancel (calls %v), want DEACTIVATED", api, co["status"], f.calls)
				}
			})
		}
	})
}

// TestCoinbaseDownThenBack: the provider down at creation is ErrGatewayUnavailable (a 503 to the
// buyer) and the retry with the same key makes the checkout with the first quote; down at
// reconciliation, the job fails and its retry settles the payment whose webhook was lost.
func TestCoinbaseDownThenBack(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
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
		co := f.checkout("")
		id := co["id"].(string)

		nearDeadline := func() time.Time { return o.Invoice.Deadline.Add(-10 * time.Minute) }
		rec := payment.NewReconciler(e.st, []order.Gateway{gw(e.st)}, e.webhooks, e.log, nearDeadline)
		worker := job.NewWorker(e.st, map[string]job.Handler{payment.JobReconcile: rec.Handle, order.JobProvision: e.provision},
			job.Options{Logger: e.log, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond, Now: nearDeadline})
		if err := rec.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		f.pay(id, "COMPLETED", co["amount"].(string))
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
		if !containsCall(f, "GET /api/v1/checkouts/"+id) {
			t.Fatalf("calls = %v, want GET of the checkout", f.calls)
		}
	})
}

// TestCoinbaseReconcile: reconciliation reads the invoice's checkout, or its payment link when it
// was given one before the switch, and judges its status as the webhook would: COMPLETED with its
// full amount settles, less is held, FAILED and EXPIRED fail, ACTIVE waits.
func TestCoinbaseReconcile(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, tc := range []struct {
			status, total string
			legacy        bool
			want          order.Status
		}{
			{"COMPLETED", "17.27", false, order.StatusActive},
			{"COMPLETED", "1.00", false, order.StatusFraud},
			{"FAILED", "", false, order.StatusFailed},
			{"EXPIRED", "", false, order.StatusFailed},
			{"ACTIVE", "", false, order.StatusPending},
			{"COMPLETED", "17.27", true, order.StatusActive},
			{"COMPLETED", "1.00", true, order.StatusFraud},
			{"EXPIRED", "", true, order.StatusFailed},
		} {
			t.Run(fmt.Sprintf("%s %s legacy %v", tc.status, tc.total, tc.legacy), func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
				gw, api := coinbaseGateway(t, f, catalog.DemoYAML()), "checkouts"
				if tc.legacy {
					gw, api = preSwitchGateway(t, f), "payment-links"
				}
				e := newEnv(t, b, gw)
				o := e.mustBuy("coinbase", 3, "EUR")
				id := f.checkout("")["id"].(string)
				f.pay(id, tc.status, tc.total)
				rec := payment.NewReconciler(e.st, []order.Gateway{gw(e.st)}, e.webhooks, e.log, nil)
				if err := rec.Check(t.Context(), o.Invoice.ID); err != nil {
					t.Fatal(err)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != tc.want {
					t.Fatalf("order = %s, want %s", got, tc.want)
				}
				if !containsCall(f, "GET /api/v1/"+api+"/"+id) {
					t.Fatalf("calls = %v, want GET /api/v1/%s/%s", f.calls, api, id)
				}
			})
		}
	})
}

func containsCall(f *fakeCoinbase, call string) bool {
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

// TestCoinbaseQuoteKept: the rate is taken when an invoice's checkout is first made; a catalog
// import changing the USD rate before the retry does not change what the invoice asks.
func TestCoinbaseQuoteKept(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
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
		if got := f.checkout("")["amount"]; got != "17.27" { // 15.99 × 1.08, not × 1.20
			t.Fatalf("checkout asks %v, want the first quote 17.27", got)
		}
	})
}
