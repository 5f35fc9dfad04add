package app_test

import (
	"testing"

	genresellers "github.com/streamcart/streamcart/gen/resellers"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// TestAfterSaleIdempotency: upsell and reseller orders honour Idempotency-Key like POST /orders —
// a retry gives back the first order and stores nothing new; the key with another body is refused.
func TestAfterSaleIdempotency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("idem-after@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())
		owner := s.proven("idem-after@example.com")

		upsellOrder := func(key string, qty int) (*genupsell.UpsellOrderResult, error) {
			return s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: qty, IdempotencyKey: ptr(key)})
		}
		resellerOrder := func(key string, pid int) (*genresellers.ResellerOrderResult, error) {
			return s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(owner.Token), Pid: pid,
				Password: "reseller-pw", ConfirmPassword: "reseller-pw", IdempotencyKey: ptr(key)})
		}

		orders := s.count(`SELECT COUNT(*) FROM orders`)
		first, err := upsellOrder("up-1", 2)
		if err != nil {
			t.Fatal(err)
		}
		again, err := upsellOrder("up-1", 2)
		if err != nil {
			t.Fatal(err)
		}
		if again.OrderID != first.OrderID || again.InvoiceID != first.InvoiceID || again.ServiceID != svcID || again.ExtraQuantity != 2 ||
			again.PaymentURL != first.PaymentURL || again.Total.Amount != first.Total.Amount {
			t.Errorf("retry = %+v, want the first order %+v", again, first)
		}
		_, err = upsellOrder("up-1", 1)
		wantErr(t, err, "idempotency_mismatch", "This Idempotency-Key was already used for a different order.")

		r1, err := resellerOrder("res-1", 10)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := resellerOrder("res-1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if r2.OrderID != r1.OrderID || r2.ServiceID != r1.ServiceID || r2.PaymentURL != r1.PaymentURL {
			t.Errorf("reseller retry = %+v, want the first order %+v", r2, r1)
		}
		_, err = resellerOrder("res-1", 11)
		wantErr(t, err, "idempotency_mismatch", "")
		// One key space per client: an upsell key is not a reseller order's.
		_, err = resellerOrder("up-1", 10)
		wantErr(t, err, "idempotency_mismatch", "")

		if n := s.count(`SELECT COUNT(*) FROM orders`) - orders; n != 2 {
			t.Errorf("%d orders stored, want 2 (one upsell, one reseller order)", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM services WHERE order_id = ?`, r1.OrderID); n != 1 {
			t.Errorf("reseller order has %d services, want 1", n)
		}
	})
}
