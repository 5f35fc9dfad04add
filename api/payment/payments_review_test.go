package payment_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// Finding 4 of issue 24: crypto money that arrived short (a Coinbase underpayment, Cryptomus's
// wrong_amount) or in another currency held the order but was recorded nowhere: nothing listed
// it, nothing could give it back. Now each is one payment to review (a redelivery records
// nothing more), with what arrived and what was asked; it is refunded by hand only with the
// refund's reference, or accepted as payment of its order, once.
func TestCryptoMoneyThatCannotSettleIsAPaymentToReview(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name     string
			provider string
			deliver  func(t *testing.T, e *env, o order.Order) // sends the event twice
			amount   money.Money
			expected func(o order.Order) money.Money
			reason   string
		}{
			{"cryptomus wrong_amount", "cryptomus", func(t *testing.T, e *env, o order.Order) {
				body := cryptomusWebhook(t, o, "wrong_amount", money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency))
				for range 2 {
					if got := e.post("cryptomus", body, nil); got != 200 {
						t.Fatalf("webhook = %d", got)
					}
				}
			}, money.Money{Amount: 1710, Currency: "USD"}, func(o order.Order) money.Money { return o.Invoice.Amount }, order.ReasonShort},
			{"coinbase underpayment", "coinbase", nil, money.Money{Amount: 1000, Currency: "USDC"}, nil, order.ReasonShort},
			{"coinbase in another currency", "coinbase", nil, money.Money{Amount: -1, Currency: "USDT"}, nil, order.ReasonCurrency},
		}
		for _, tc := range cases {
			for _, action := range []string{"refund", "accept"} {
				t.Run(tc.name+" then "+action, func(t *testing.T) {
					var e *env
					var asked money.Money
					deliver := tc.deliver
					if tc.provider == "cryptomus" {
						e = newEnv(t, b, cryptomusGateway(newFakeCryptomus(t)))
					} else {
						f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
						e = newEnv(t, b, coinbaseGateway(t, f, catalog.DemoYAML()))
						deliver = func(t *testing.T, e *env, o order.Order) {
							link := f.checkout("")
							n, err := money.Parse(link["amount"].(string), "USD")
							if err != nil {
								t.Fatal(err)
							}
							asked = money.Money{Amount: n, Currency: "USDC"}
							if tc.reason == order.ReasonCurrency {
								link["currency"] = "USDT"
							} else {
								link["settlement"] = map[string]string{"totalAmount": "10.00"}
							}
							body, h := hook0Signed(link, "checkout.payment.success", coinbaseWebhookSecret, time.Now())
							for range 2 {
								if got := e.post("coinbase", body, h); got != 200 {
									t.Fatalf("webhook = %d", got)
								}
							}
						}
					}
					ctx := t.Context()
					o := e.mustBuy(tc.provider, 3, "EUR")
					deliver(t, e, o)
					e.drain()
					if got := e.order(o.ID).Status; got != order.StatusFraud {
						t.Fatalf("order = %s, want held (fraud)", got)
					}
					rs, err := e.st.ReviewsIn(ctx, order.ReviewOpen, 10)
					if err != nil || len(rs) != 1 {
						t.Fatalf("payments to review = %+v %v, want one", rs, err)
					}
					r := rs[0]
					want := tc.amount
					if want.Amount == -1 { // the link's own amount, in its currency
						want.Amount = asked.Amount
					}
					expected := asked
					if tc.expected != nil {
						expected = tc.expected(o)
					}
					if r.OrderID != o.ID || r.Provider != tc.provider || r.Amount != want || r.Expected != expected || r.Reason != tc.reason ||
						r.State != order.ReviewOpen || r.TransactionID == "" || r.CreatedAt.IsZero() {
						t.Fatalf("payment to review = %+v, want %v of %v (%s) for %s", r, want, expected, tc.reason, o.ID)
					}

					if action == "accept" {
						// Accepted: the invoice is paid by it and the order provisioned, once.
						// Forty at once: one accepts, the others find it decided.
						if n := race40(func() error { _, _, err := e.orders.AcceptPayment(ctx, r.ID, "owner@example.com"); return err }); n != 1 {
							t.Fatalf("40 concurrent accepts: %d applied, want 1", n)
						}
						e.drain()
						if got := e.order(o.ID); got.Status != order.StatusActive || got.Invoice.Status != order.InvoicePaid ||
							got.Invoice.TransactionID != r.TransactionID || e.provisionJobs(o.ID) != 1 {
							t.Fatalf("accepted order = %s, invoice %s %q", got.Status, got.Invoice.Status, got.Invoice.TransactionID)
						}
						if _, err := e.orders.RefundPayment(ctx, r.ID, "0xlate", "owner@example.com"); !errors.Is(err, order.ErrDecided) {
							t.Fatalf("refund after the accept: %v, want ErrDecided", err)
						}
						return
					}
					// By hand only with the refund's reference; then once.
					if _, err := e.orders.RefundPayment(ctx, r.ID, " ", "owner@example.com"); !errors.Is(err, order.ErrReferenceRequired) {
						t.Fatalf("refund without reference: %v, want ErrReferenceRequired", err)
					}
					if n := race40(func() error { _, err := e.orders.RefundPayment(ctx, r.ID, "0xrefund", "owner@example.com"); return err }); n != 1 {
						t.Fatalf("40 concurrent refunds by hand: %d applied, want 1", n)
					}
					if _, _, err := e.orders.AcceptPayment(ctx, r.ID, "owner@example.com"); !errors.Is(err, order.ErrDecided) {
						t.Fatalf("accept after the refund: %v, want ErrDecided", err)
					}
					if stored, _ := e.st.Review(ctx, r.ID); stored.State != order.ReviewRefunded || stored.Reference != "0xrefund" || stored.DecidedBy != "owner@example.com" {
						t.Fatalf("stored = %+v", stored)
					}
					if e.order(o.ID).Status != order.StatusFraud {
						t.Fatal("the refund moved the held order")
					}
				})
			}
		}
	})
}

// race40 runs call 40 times at once and answers how many succeeded; any failure other than
// order.ErrDecided makes the count negative.
func race40(call func() error) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := call()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, order.ErrDecided):
				ok -= 1000
			}
		}()
	}
	wg.Wait()
	return ok
}
