package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
)

// Every state in which an order cannot take a payment sends the money to review: the order reads
// needs_review (except one being delivered for a first payment), the payment is recorded with its
// reason, and its refund is queued once; a second delivery of the same transaction changes nothing.
func TestPaymentsThatCannotBeKeptGoToReview(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		var at time.Time // the orders' clock; zero: real time
		clock := func() time.Time {
			if at.IsZero() {
				return time.Now()
			}
			return at
		}
		cases := []struct {
			name       string
			prepare    func(t *testing.T, orders *order.Orders, claims authz.Claims, o order.Order)
			late       time.Duration // the clock at payment, after the order's creation
			reason     string
			wantStatus order.Status
		}{
			{"cancelled", func(t *testing.T, orders *order.Orders, claims authz.Claims, o order.Order) {
				if _, err := orders.Cancel(t.Context(), claims, o.ID); err != nil {
					t.Fatal(err)
				}
			}, 0, order.ReasonCancelled, order.StatusNeedsReview},
			{"expired before its expiry job ran", func(*testing.T, *order.Orders, authz.Claims, order.Order) {}, order.PaymentDeadline + time.Minute,
				order.ReasonExpired, order.StatusNeedsReview},
			{"expired and cancelled by the job", func(t *testing.T, orders *order.Orders, claims authz.Claims, o order.Order) {
				at = o.CreatedAt.Add(order.PaymentDeadline + time.Second)
				if err := orders.Expire(t.Context(), o.ID); err != nil {
					t.Fatal(err)
				}
			}, order.PaymentDeadline + time.Minute, order.ReasonExpired, order.StatusNeedsReview},
			{"held for review", func(t *testing.T, orders *order.Orders, claims authz.Claims, o order.Order) {
				if _, err := orders.Hold(t.Context(), o.Invoice.ID, "test"); err != nil {
					t.Fatal(err)
				}
			}, 0, order.ReasonHeld, order.StatusNeedsReview},
			{"paid already, being provisioned", func(t *testing.T, orders *order.Orders, claims authz.Claims, o order.Order) {
				if _, err := orders.Settle(t.Context(), o.Invoice.ID, "txn-first"); err != nil {
					t.Fatal(err)
				}
			}, 0, order.ReasonAlreadyPaid, order.StatusPaid},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				at = time.Time{}
				orders := newOrdersAt(t, s, catalog.Demo(), fraud.Rules{}, clock)
				claims := buyer(t, s, "late@example.com")
				o, err := orders.Create(t.Context(), claims, standardMonthly("192.0.2.150"))
				if err != nil {
					t.Fatal(err)
				}
				tc.prepare(t, orders, claims, o)
				at = o.CreatedAt.Add(tc.late)
				txn := "sandbox:late-" + o.Invoice.ID
				_, err = orders.Settle(t.Context(), o.Invoice.ID, txn)
				var review *order.ReviewError
				if !errors.As(err, &review) || review.Reason != tc.reason {
					t.Fatalf("Settle = %v, want review for %q", err, tc.reason)
				}
				if _, err := orders.Settle(t.Context(), o.Invoice.ID, txn); !errors.Is(err, order.ErrAlreadySettled) {
					t.Fatalf("second delivery = %v, want ErrAlreadySettled", err)
				}
				got, err := s.Order(t.Context(), o.ID)
				if err != nil || got.Status != tc.wantStatus {
					t.Fatalf("order %s (%v), want %s", got.Status, err, tc.wantStatus)
				}
				if got.Invoice.Status == order.InvoiceUnpaid {
					t.Fatal("the invoice is still payable")
				}
				reviews, err := s.Reviews(t.Context(), 100)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, r := range reviews {
					if r.OrderID == o.ID {
						n++
						if r.TransactionID != txn || r.Reason != tc.reason || r.Amount != o.Invoice.Amount || r.Refunded() {
							t.Fatalf("review %+v", r)
						}
						if j := mustJob(t, s, order.JobRefund+":"+r.ID); j.State != store.JobQueued {
							t.Fatalf("refund job %+v, want queued", j)
						}
					}
				}
				if n != 1 {
					t.Fatalf("%d reviews of the order, want 1", n)
				}
			})
		}
	})
}
