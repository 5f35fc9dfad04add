package order_test

import (
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store/storetest"
)

type fixture struct {
	st     storetest.Inspector
	orders *order.Orders
	now    time.Time
}

// newFixture is the order service on a fresh store of b with the demo catalog, the sandbox
// gateway and cfg, on a clock the test moves (f.now).
func newFixture(t *testing.T, b storetest.Backend, cfg order.Config) *fixture {
	t.Helper()
	st := b.Open(t)
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st, now: time.Now().UTC().Truncate(time.Second)}
	f.orders = order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, cfg, slog.New(slog.DiscardHandler),
		func() time.Time { return f.now })
	return f
}

// buyer opens an email-only session for email's client.
func (f *fixture) buyer(t *testing.T, email string) authz.Claims {
	t.Helper()
	c, _, err := f.st.EnsureClient(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	ses := account.Session{ID: id.New("ses_"), ClientID: c.ID, Scope: authz.ScopeEmail, CreatedAt: f.now, ExpiresAt: f.now.Add(time.Hour)}
	if err := f.st.CreateSession(t.Context(), ses); err != nil {
		t.Fatal(err)
	}
	return authz.Claims{ClientID: c.ID, SessionID: ses.ID, Scope: ses.Scope, Email: email}
}

// monthly places a pending order of the standard monthly plan (EUR 12.99).
func (f *fixture) monthly(t *testing.T) order.Order {
	t.Helper()
	o, err := f.orders.Create(t.Context(), f.buyer(t, "ana@example.com"), order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}})
	if err != nil || o.Status != order.StatusPending {
		t.Fatalf("create: %s, %v", o.Status, err)
	}
	return o
}

// A payment settles a pending order before its deadline: paid, and provisioning queued once.
// Money for an order that cannot take it is never kept silently: the payment is recorded for
// review with the reason, and the order is under review unless it is being delivered already.
func TestPaymentOfAnOrderThatCannotTakeItGoesToReview(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name       string
			before     func(t *testing.T, f *fixture, o order.Order) // what happened to the order first
			wantReason string                                        // "": settled
			wantStatus order.Status
		}{
			{"pending", nil, "", order.StatusPaid},
			{"cancelled", func(t *testing.T, f *fixture, o order.Order) {
				if _, err := f.orders.CancelPending(t.Context(), o.ID); err != nil {
					t.Fatal(err)
				}
			}, order.ReasonCancelled, order.StatusNeedsReview},
			{"past its deadline", func(t *testing.T, f *fixture, o order.Order) {
				f.now = o.Invoice.Deadline.Add(time.Second)
			}, order.ReasonExpired, order.StatusNeedsReview},
			{"held", func(t *testing.T, f *fixture, o order.Order) {
				if _, err := f.orders.Hold(t.Context(), o.Invoice.ID, "a person looks first"); err != nil {
					t.Fatal(err)
				}
			}, order.ReasonHeld, order.StatusNeedsReview},
			{"paid already by another transaction", func(t *testing.T, f *fixture, o order.Order) {
				if _, err := f.orders.Settle(t.Context(), o.Invoice.ID, "txn_first"); err != nil {
					t.Fatal(err)
				}
			}, order.ReasonAlreadyPaid, order.StatusPaid},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFixture(t, b, order.Config{})
				ctx := t.Context()
				o := f.monthly(t)
				if tc.before != nil {
					tc.before(t, f, o)
				}
				got, err := f.orders.Settle(ctx, o.Invoice.ID, "txn_"+o.ID)
				if tc.wantReason == "" {
					if err != nil || got.Invoice.Status != order.InvoicePaid {
						t.Fatalf("settle: %s/%s, %v; want paid", got.Status, got.Invoice.Status, err)
					}
					if _, err := f.st.JobByKey(ctx, order.JobProvision+":"+o.ID); err != nil {
						t.Fatalf("provisioning job: %v", err)
					}
				} else {
					var review *order.ReviewError
					if !errors.As(err, &review) || !errors.Is(err, order.ErrNeedsReview) || review.Reason != tc.wantReason {
						t.Fatalf("settle: %v, want a review for %q", err, tc.wantReason)
					}
					reviews, err := f.st.Reviews(ctx, 10)
					if err != nil || len(reviews) != 1 || reviews[0].OrderID != o.ID || reviews[0].Reason != tc.wantReason ||
						reviews[0].Amount != o.Invoice.Amount {
						t.Fatalf("reviews: %+v, %v; want this payment of %v, %q", reviews, err, o.Invoice.Amount, tc.wantReason)
					}
				}
				if got.Status != tc.wantStatus {
					t.Fatalf("order %s, want %s", got.Status, tc.wantStatus)
				}
				// The same transaction delivered again changes nothing.
				if _, err := f.orders.Settle(ctx, o.Invoice.ID, "txn_"+o.ID); !errors.Is(err, order.ErrAlreadySettled) {
					t.Fatalf("second delivery: %v, want ErrAlreadySettled", err)
				}
				if reviews, _ := f.st.Reviews(ctx, 10); len(reviews) != map[bool]int{true: 0, false: 1}[tc.wantReason == ""] {
					t.Fatalf("%d reviews after a second delivery", len(reviews))
				}
			})
		}
	})
}

// A provider's payment settles the invoice only for exactly its amount in its currency (the
// currency's case aside); any other amount holds a payable order for a person to decide, and
// settles nothing. A provider other than the invoice's settles nothing either.
func TestSettleVerifiedPaysOnlyTheInvoicesAmount(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name     string
			payment  order.Payment
			want     error
			wantStat order.Status
		}{
			{"the amount", order.Payment{Amount: money.Money{Amount: 1299, Currency: "EUR"}}, nil, order.StatusPaid},
			{"the amount, currency in lower case", order.Payment{Amount: money.Money{Amount: 1299, Currency: "eur"}}, nil, order.StatusPaid},
			{"a cent less", order.Payment{Amount: money.Money{Amount: 1298, Currency: "EUR"}}, order.ErrAmountMismatch, order.StatusFraud},
			{"more", order.Payment{Amount: money.Money{Amount: 2000, Currency: "EUR"}}, order.ErrAmountMismatch, order.StatusFraud},
			{"another currency", order.Payment{Amount: money.Money{Amount: 1299, Currency: "USD"}}, order.ErrAmountMismatch, order.StatusFraud},
			{"another provider", order.Payment{Provider: "stripe", Amount: money.Money{Amount: 1299, Currency: "EUR"}}, order.ErrWrongProvider, order.StatusPending},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFixture(t, b, order.Config{})
				o := f.monthly(t)
				if o.Invoice.Amount != (money.Money{Amount: 1299, Currency: "EUR"}) {
					t.Fatalf("invoice of %v, the cases expect EUR 12.99", o.Invoice.Amount)
				}
				tc.payment.TransactionID = fmt.Sprintf("txn_%d", i)
				_, err := f.orders.SettleVerified(t.Context(), o.Invoice.ID, tc.payment)
				if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
					t.Fatalf("SettleVerified: %v, want %v", err, tc.want)
				}
				stored, err := f.st.Order(t.Context(), o.ID)
				if err != nil || stored.Status != tc.wantStat {
					t.Fatalf("order %s, %v; want %s", stored.Status, err, tc.wantStat)
				}
				if paid := stored.Invoice.Status == order.InvoicePaid; paid != (tc.want == nil) {
					t.Fatalf("invoice %s, want paid = %v", stored.Invoice.Status, tc.want == nil)
				}
			})
		}
	})
}

// Free trials are limited per client (ever) and per address (per TrialIPWindow); an order
// refused for it stores nothing. Paid plans are not counted.
func TestFreeTrialsAreLimitedPerClientAndAddress(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, order.Config{TrialsPerClient: 1, TrialsPerIP: 2})
		ctx := t.Context()
		trial := func(email, ip string) error {
			t.Helper()
			_, err := f.orders.Create(ctx, f.buyer(t, email), order.Request{Quote: pricing.Request{PID: 1, Currency: "EUR"}, IP: ip})
			return err
		}
		steps := []struct {
			name, email, ip string
			advance         time.Duration
			want            error
		}{
			{"a first trial", "a@example.com", "203.0.113.1", 0, nil},
			{"the same client again, elsewhere", "a@example.com", "203.0.113.9", 0, order.ErrTrialUsed},
			{"another client, same address", "b@example.com", "203.0.113.1", 0, nil},
			{"a third from the address", "c@example.com", "203.0.113.1", 0, order.ErrTrialUsed},
			{"from another address", "c@example.com", "203.0.113.2", 0, nil},
			{"the address once its window passed", "d@example.com", "203.0.113.1", order.TrialIPWindow + time.Minute, nil},
			{"the first client, a window later", "a@example.com", "203.0.113.3", 0, order.ErrTrialUsed},
		}
		for _, s := range steps {
			f.now = f.now.Add(s.advance)
			if err := trial(s.email, s.ip); !errors.Is(err, s.want) || (s.want == nil && err != nil) {
				t.Fatalf("%s: %v, want %v", s.name, err, s.want)
			}
		}
		// A paid plan is no trial: the first client still buys one.
		if _, err := f.orders.Create(ctx, f.buyer(t, "a@example.com"), order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}, IP: "203.0.113.1"}); err != nil {
			t.Fatalf("paid plan after the trial: %v", err)
		}
	})
}

// Consent to renew with a saved card is refused when it could never be used: through a gateway
// that does not save cards (the sandbox), before anything is stored.
func TestRenewWithCardNeedsAGatewayThatSavesCards(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, order.Config{})
		claims := f.buyer(t, "ana@example.com")
		_, err := f.orders.Create(t.Context(), claims, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}, RenewWithCard: true})
		if !errors.Is(err, order.ErrCardGateway) {
			t.Fatalf("Create = %v, want ErrCardGateway", err)
		}
		if orders, err := f.st.CustomerOrders(t.Context(), claims.ClientID, 10); err != nil || len(orders) != 0 {
			t.Fatalf("orders stored: %d, %v; want none", len(orders), err)
		}
	})
}
