package app_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/sessioncache"
	genorder "github.com/streamcart/streamcart/gen/order"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// TestSignOutReachesEveryReplica runs three shops on one database. Replicas answer token checks
// from memory once they have seen a session valid; a sign-out through one is refused there at
// once, by a running replica within its poll (sessioncache.Poll), and by any replica as soon as
// it reads the sign-outs (SyncSessions).
func TestSignOutReachesEveryReplica(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		one := newShop(t)
		cfg := one.cfg
		cfg.Addr = freeAddr(t)
		two := openShop(t, cfg)
		two.run()
		cfg.Addr = freeAddr(t)
		three := openShop(t, cfg)

		buyer := one.identify("replicas@example.com", "")
		o := two.buy(buyer.Token, standard())
		for _, s := range []*shop{one, two, three} { // every replica has now seen the session valid
			if got := s.getOrder(buyer.Token, o.OrderID); got.OrderID != o.OrderID {
				t.Fatalf("order read through a replica = %+v", got)
			}
		}

		if err := one.session.Delete(t.Context(), &gensession.DeletePayload{Token: ptr(buyer.Token)}); err != nil {
			t.Fatalf("DELETE /session: %v", err)
		}
		refused := func(s *shop) bool {
			_, err := s.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
			return err != nil
		}
		_, err := one.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
		wantErr(t, err, "unauthorized", "")
		if err := three.app.SyncSessions(t.Context()); err != nil {
			t.Fatalf("SyncSessions: %v", err)
		}
		_, err = three.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
		wantErr(t, err, "unauthorized", "")
		eventually(t, "the running replica to refuse the signed-out token (poll "+sessioncache.Poll.String()+")", func() bool { return refused(two) })
		p := standard()
		p.Token = ptr(buyer.Token)
		_, err = two.order.Create(t.Context(), &p)
		wantErr(t, err, "unauthorized", "")
	})
}
