package app_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/testclock"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
)

// clockShop is a running shop (worker, catalog and clock watch) that polls the database every
// 20 ms instead of every 2 s, with one trial per address per 30 days and the promotion ENDSOON,
// whose last day is ten days from now.
func clockShop(t *testing.T) *shop {
	t.Helper()
	demo := string(catalog.DemoYAML())
	custom := strings.Replace(demo, "promotions:\n", `promotions:
  - code: ENDSOON
    type: Percentage
    value: "10"
    appliesTo: [2]
    expirationDate: "`+time.Now().UTC().AddDate(0, 0, 10).Format(time.DateOnly)+`"
`, 1)
	if custom == demo {
		t.Fatal("demo catalog has no promotions section to extend")
	}
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, []byte(custom), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	s := newShop(t, func(c *app.Config) {
		c.CatalogFile = file
		c.Addr, c.CatalogPoll = freeAddr(t), 20*time.Millisecond
		c.TrustedProxies, c.TrialsPerIP = prefixes("127.0.0.0/8"), 1
	})
	s.run()
	return s
}

// aheadBy waits until the running shop's business time is d ahead of real time (to the minute).
func aheadBy(t *testing.T, s *shop, d time.Duration) {
	t.Helper()
	eventually(t, "the running shop to read the test clock at +"+d.String(), func() bool {
		ahead := time.Until(s.app.Now())
		return ahead > d-time.Minute && ahead < d+time.Minute
	})
}

// The test clock, written to the database (as `streamcart clock advance` does), moves a running
// shop's business time within one poll: an unpaid order's payment deadline passes and the order
// expires; a trial window of 30 days closes and a promotion's last day passes; reset puts the shop back on real time. A shop with a
// live gateway keeps real time whatever the database says.
func TestTestClockMovesARunningShop(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := clockShop(t)
		ctx, st := t.Context(), s.app.Store()
		from := s.from("198.51.100.9")

		buyer := s.identify("clock@example.com", "")
		o := s.buy(buyer.Token, standard())
		from.buy(from.identify("trial-one@example.com", "").Token, trial())
		second := trial()
		second.Token = ptr(from.identify("trial-two@example.com", "").Token)
		_, err := from.order.Create(ctx, &second)
		wantErr(t, err, "trial_used", msgTrialUsed)
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID).Status; got != "pending" {
			t.Fatalf("before the deadline: order %s, want pending", got)
		}

		// A day and an hour later the payment deadline (24 h) has passed: the expiry job is due.
		if _, err := testclock.Advance(ctx, s.cfg.Payment, st, 25*time.Hour); err != nil {
			t.Fatal(err)
		}
		aheadBy(t, s, 25*time.Hour)
		// The running worker may hold the expiry job while drain finds nothing due.
		eventually(t, "the unpaid order to expire", func() bool {
			s.drain()
			return s.getOrder(buyer.Token, o.OrderID).Status == "cancelled"
		})
		if n := s.count(`SELECT COUNT(*) FROM invoices WHERE id = ? AND status = 'cancelled'`, o.InvoiceID); n != 1 {
			t.Fatalf("after the deadline: invoice %s not cancelled", o.InvoiceID)
		}

		if _, err := s.promotion.Get(ctx, &genpromotion.GetPayload{Code: "ENDSOON"}); err != nil {
			t.Fatalf("ENDSOON a day on: %v", err)
		}

		// 30 days after the first trial the address has one again (cumulative: 25 h + 29 d), and
		// ENDSOON has expired, for lookups and orders alike.
		offset, err := testclock.Advance(ctx, s.cfg.Payment, st, 29*24*time.Hour)
		if err != nil || offset != 25*time.Hour+29*24*time.Hour {
			t.Fatalf("second advance: offset %s, %v; want 30d1h", offset, err)
		}
		aheadBy(t, s, offset)
		from.buy(from.identify("trial-three@example.com", "").Token, trial())
		_, err = s.promotion.Get(ctx, &genpromotion.GetPayload{Code: "ENDSOON"})
		wantErr(t, err, "not_found", msgPromoNotFound)
		_, err = s.order.Create(ctx, ptr(withCode(s.identify("late@example.com", "").Token, "ENDSOON")))
		wantErr(t, err, "not_found", msgPromoNotFound)

		// A shop with a live gateway on the same database stays on real time.
		live := s.cfg
		live.Addr, live.PublicURL = freeAddr(t), "https://shop.example"
		live.Payment = payment.Config{StripeSecretKey: "sk_live_clock"}
		liveShop := openShop(t, live)
		if ahead := time.Until(liveShop.app.Now()); ahead > time.Minute {
			t.Fatalf("shop with a live Stripe key is %s ahead, want real time", ahead)
		}
		if _, err := testclock.Advance(ctx, live.Payment, st, time.Hour); !errors.Is(err, payment.ErrTestClockLive) {
			t.Fatalf("advance with a live Stripe key: %v, want ErrTestClockLive", err)
		}

		if err := testclock.Reset(ctx, st); err != nil {
			t.Fatal(err)
		}
		aheadBy(t, s, 0)
		if offset, err := testclock.Offset(ctx, st); err != nil || offset != 0 {
			t.Fatalf("offset after reset: %s, %v", offset, err)
		}
	})
}
