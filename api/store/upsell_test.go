package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/upsell"
)

func TestApplyUpsellOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		o, err := orders.Create(t.Context(), buyer(t, s, "ups@example.com"), order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly"}})
		if err != nil {
			t.Fatal(err)
		}
		svcID := o.ServiceIDs[0]
		svc, err := s.Service(t.Context(), svcID)
		if err != nil {
			t.Fatal(err)
		}
		svc.Status = order.ServiceActive
		if err := s.UpdateService(t.Context(), svc); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ord_up1", "ord_up2"} {
			if err := s.ReserveUpsell(t.Context(), upsell.Upsell{OrderID: id, ServiceID: svcID, ExtraQuantity: 2, CreatedAt: time.Now()}, 4, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		// The plan's cap (4 extra) is reserved: a third upsell does not fit.
		err = s.ReserveUpsell(t.Context(), upsell.Upsell{OrderID: "ord_up3", ServiceID: svcID, ExtraQuantity: 1, CreatedAt: time.Now()}, 4, time.Now())
		if !errors.Is(err, upsell.ErrQuantity) {
			t.Fatalf("third upsell over the cap: %v, want ErrQuantity", err)
		}
		ok := concurrently(8, func() error { _, err := s.ApplyUpsell(t.Context(), "ord_up1", time.Now()); return err })
		if ok != 8 {
			t.Fatalf("%d of 8 applications answered without error", ok)
		}
		if svc, _ := s.Service(t.Context(), svcID); svc.MaxConnections != 3 {
			t.Fatalf("max connections %d after 8 applications of one upsell, want 3", svc.MaxConnections)
		}
		svc, err = s.ApplyUpsell(t.Context(), "ord_up2", time.Now())
		if err != nil || svc.MaxConnections != 5 {
			t.Fatalf("second upsell: %d %v, want 5", svc.MaxConnections, err)
		}
		if _, err := s.Upsell(t.Context(), o.ID); !errors.Is(err, upsell.ErrNotFound) {
			t.Fatalf("a plan order read as an upsell: %v", err)
		}
	})
}
