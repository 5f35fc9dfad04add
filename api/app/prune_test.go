package app_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// TestDailyPruneWithTheClockMoved runs the shop's prune job after moving the shop's clock: an
// Idempotency-Key older than its 7 days is forgotten (the same key places a new order, the old
// order stays), a configured retention (clicks kept 2 days) is the one applied, and the run
// queues tomorrow's prune.
func TestDailyPruneWithTheClockMoved(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := &clock{t: time.Now().UTC()}
		s := newShop(t, func(cfg *app.Config) { cfg.Now = c.Now; cfg.Retention.Clicks = 48 * time.Hour })
		buyer := s.identify("prune@example.com", "")
		p := standard()
		p.IdempotencyKey = ptr("checkout-prune")
		first := s.buy(buyer.Token, p)
		if again := s.buy(buyer.Token, p); again.OrderID != first.OrderID {
			t.Fatalf("replay within retention placed %s, want %s", again.OrderID, first.OrderID)
		}

		c.Add(8 * 24 * time.Hour)
		stamp := func(d time.Duration) string { return c.Now().Add(d).Format("2006-01-02T15:04:05.000000Z") }
		storetest.Exec(t, s.cfg.DB, `INSERT INTO affiliate_clicks (aff_id, ip, created_at) VALUES ('old', '10.0.0.1', ?), ('new', '10.0.0.2', ?)`,
			stamp(-72*time.Hour), stamp(-24*time.Hour))
		// What Run does when a replica starts serving: queue the day's prune, due now.
		if err := s.app.Store().Enqueue(t.Context(), app.JobPrune, "", job.DailyKey(app.JobPrune, c.Now()), time.Now()); err != nil {
			t.Fatal(err)
		}
		// The worker runs on the moved clock too: the unpaid order's payment deadline has passed.
		if n := s.drain(); n != 2 || s.getOrder(buyer.Token, first.OrderID).Status != "cancelled" {
			t.Fatalf("worker ran %d jobs, want the prune and the first order's expiry", n)
		}

		if n := s.count(`SELECT COUNT(*) FROM affiliate_clicks WHERE aff_id = 'new'`); n != 1 || s.count(`SELECT COUNT(*) FROM affiliate_clicks`) != 1 {
			t.Fatalf("clicks left = %d, want the one within the configured 2 days", s.count(`SELECT COUNT(*) FROM affiliate_clicks`))
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE idempotency_key IS NULL`); n != 1 {
			t.Fatalf("orders with their key forgotten = %d, want 1", n)
		}
		later := s.buy(buyer.Token, p) // the buyer's session, still valid, was kept
		if later.OrderID == first.OrderID {
			t.Fatal("a key past its retention replayed the old order")
		}
		if got := s.getOrder(buyer.Token, first.OrderID); got.OrderID != first.OrderID {
			t.Fatalf("the first order is gone: %+v", got)
		}
		next, err := storetest.Inspect(s.app.Store()).JobByKey(t.Context(), job.DailyKey(app.JobPrune, c.Now().Add(24*time.Hour)))
		if err != nil || next.State != store.JobQueued {
			t.Fatalf("tomorrow's prune = %+v, %v; want queued", next, err)
		}
	})
}
