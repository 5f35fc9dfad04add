package app_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
	genorder "github.com/streamcart/streamcart/gen/order"
	genservices "github.com/streamcart/streamcart/gen/services"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// Money that arrives for an order that cannot deliver it is never kept for nothing: the order
// moves to needs_review, the sandbox payment is refunded (recorded), nothing is provisioned and
// no job keeps retrying. Each case is an attack of issue 12 driven through the HTTP API.
func TestPaymentForUndeliverableOrderIsRefunded(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		cases := []struct {
			name   string
			reason string
			// place returns the token, the order to pay and its payment page, after doing what
			// makes the order undeliverable.
			place  func(t *testing.T, s *shop) (token, orderID, payURL string)
			status int // the sandbox page's answer to Pay
		}{
			{
				name: "held order later paid correctly", reason: order.ReasonHeld, status: http.StatusConflict,
				place: func(t *testing.T, s *shop) (string, string, string) {
					buyer := s.identify("crook@held.example", "")
					o := s.buy(buyer.Token, standard())
					if o.Status != "fraud" {
						t.Fatalf("order %s, want held (fraud)", o.Status)
					}
					return buyer.Token, o.OrderID, "/checkout/api/payments/sandbox/" + o.InvoiceID
				},
			},
			{
				name: "cancelled order whose payment page was still open", reason: order.ReasonCancelled, status: http.StatusConflict,
				place: func(t *testing.T, s *shop) (string, string, string) {
					buyer := s.identify("late@example.com", "")
					o := s.buy(buyer.Token, standard())
					if _, err := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID}); err != nil {
						t.Fatal(err)
					}
					return buyer.Token, o.OrderID, o.PaymentURL
				},
			},
			{
				name: "upsell paid after its line was terminated", reason: order.ReasonLineGone, status: http.StatusSeeOther,
				place: func(t *testing.T, s *shop) (string, string, string) {
					owner := s.register("gone@example.com", "gone-password")
					_, svcID := s.activeService(owner.Token, standard())
					up, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 2})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID, Confirm: ptr(true)}); err != nil {
						t.Fatal(err)
					}
					return owner.Token, up.OrderID, up.PaymentURL
				},
			},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				s := newShop(t, func(c *app.Config) { c.FraudBanned = []string{"held.example"} })
				token, orderID, payURL := tc.place(t, s)
				if resp := s.sandbox(payURL, "pay"); resp.StatusCode != tc.status {
					t.Fatalf("pay: status %d, want %d", resp.StatusCode, tc.status)
				}
				s.drain()
				got := s.getOrder(token, orderID)
				if got.Status != "needs_review" {
					t.Fatalf("order status %s, want needs_review", got.Status)
				}
				reviews, err := s.app.Store().Reviews(t.Context(), 10)
				if err != nil || len(reviews) != 1 {
					t.Fatalf("payments under review %+v, %v; want one", reviews, err)
				}
				r := reviews[0]
				if r.OrderID != orderID || r.Reason != tc.reason || r.Provider != "sandbox" || !r.Refunded() || r.RefundID == "" ||
					r.Amount.Amount != got.Total.Amount || r.Amount.Currency != got.Total.Currency {
					t.Fatalf("review %+v, want %s refunded in the sandbox for %d %s", r, tc.reason, got.Total.Amount, got.Total.Currency)
				}
				// Nothing provisioned, and no job left to retry.
				for _, id := range got.ServiceIds {
					if svc := s.getService(token, id); svc.Status == "Active" && tc.reason != order.ReasonLineGone {
						t.Fatalf("service %s of an undeliverable order is active", id)
					}
				}
				if n := s.count(`SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running') AND kind <> 'expire'`); n != 0 {
					t.Fatalf("%d jobs still queued, want none", n)
				}
				if j, err := storetest.Inspect(s.app.Store()).JobByKey(t.Context(), order.JobProvision+":"+orderID); err == nil && j.State != store.JobDone {
					t.Fatalf("provisioning job %+v, want done", j)
				} else if err != nil && !errors.Is(err, store.ErrNotFound) {
					t.Fatal(err)
				}
			})
		}
	})
}

// The terminated line's upsell is not applied: its connections stay as they were.
func TestUpsellForTerminatedLineAddsNothing(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("term@example.com", "term-password")
		_, svcID := s.activeService(owner.Token, standard())
		up, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID, Confirm: ptr(true)}); err != nil {
			t.Fatal(err)
		}
		// A line that is not active sells nothing more.
		_, err = s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1})
		wantErr(t, err, "service_not_active", "")
		_, err = s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1})
		wantErr(t, err, "service_not_active", "")
		if status, _, body := s.raw(http.MethodPost, "/checkout/api/upsell/orders", owner.Token,
			strings.NewReader(`{"serviceId":"`+svcID+`","extraQuantity":1}`)); status != http.StatusConflict {
			t.Fatalf("upsell of a terminated line: %d %s, want 409", status, body)
		}
		s.sandbox(up.PaymentURL, "pay")
		s.drain()
		if got := s.getService(owner.Token, svcID); got.MaxConnections != 1 || got.Status != "Terminated" {
			t.Fatalf("terminated service %+v, want 1 connection, terminated", got)
		}
	})
}

// Pending upsells count towards the plan's cap of connections (4 extra on the Standard plan),
// one after the other and concurrently.
func TestPendingUpsellsRespectTheCap(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("cap@example.com", "cap-password")
		_, svcID := s.activeService(owner.Token, standard())
		order := func(extra int) error {
			_, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: extra})
			return err
		}
		if err := order(3); err != nil {
			t.Fatal(err)
		}
		// 3 of 4 are pending: 2 more would exceed the cap even though none is paid.
		wantErr(t, order(2), "bad_request", "")
		offers, err := s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(owner.Token)})
		if err != nil || len(offers.Offers) != 1 || offers.Offers[0].MaxExtra != 1 {
			t.Fatalf("offers %+v %v, want 1 more connection", offers, err)
		}
		if err := order(1); err != nil {
			t.Fatal(err)
		}

		other := s.register("cap2@example.com", "cap2-password")
		_, svc2 := s.activeService(other.Token, standard())
		const n = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		placed := 0
		for range n {
			wg.Go(func() {
				_, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(other.Token), ServiceID: svc2, ExtraQuantity: 2})
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					placed++
				}
			})
		}
		wg.Wait()
		if placed != 2 {
			t.Fatalf("%d concurrent upsells of 2 placed, want 2 (the cap is 4)", placed)
		}
		if got := s.count(`SELECT COALESCE(SUM(extra_quantity), 0) FROM upsells WHERE service_id = ?`, svc2); got != 4 {
			t.Fatalf("%d extra connections reserved, want 4", got)
		}
	})
}
