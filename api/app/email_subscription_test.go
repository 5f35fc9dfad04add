package app_test

import (
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/store/storetest"
	genorder "github.com/streamcart/streamcart/gen/order"
)

// TestEmailSubscription: the checkout's newsletter box is recorded on the client once its order is
// placed — not for a refused order, not when unticked — and the first consent's time is kept.
func TestEmailSubscription(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		consented := func(email string) bool {
			t.Helper()
			return s.count(`SELECT COUNT(*) FROM clients WHERE email = ? AND email_subscribed_at <> ''`, email) == 1
		}
		with := func(p genorder.CreatePayload, sub bool) genorder.CreatePayload {
			p.EmailSubscription = ptr(sub)
			return p
		}

		unticked := s.identify("no-news@example.com", "")
		s.buy(unticked.Token, with(standard(), false))
		if consented("no-news@example.com") {
			t.Error("unticked box recorded consent")
		}

		buyer := s.identify("news@example.com", "")
		refused := with(standard(), true)
		refused.Token, refused.ExpectedTotal = ptr(buyer.Token), &genorder.Money{Amount: 1, Currency: "EUR"}
		var changed *genorder.PriceChanged
		if _, err := s.order.Create(t.Context(), &refused); !errors.As(err, &changed) {
			t.Fatalf("order with a stale total: %v, want price_changed", err)
		}
		if consented("news@example.com") {
			t.Error("a refused order recorded consent")
		}

		s.buy(buyer.Token, with(standard(), true))
		if !consented("news@example.com") {
			t.Fatal("ticked box not recorded")
		}
		const first = "2020-01-02T03:04:05Z"
		storetest.Exec(t, s.cfg.DB, `UPDATE clients SET email_subscribed_at = ? WHERE email = ?`, first, "news@example.com")
		s.buy(buyer.Token, with(trial(), true))
		if s.count(`SELECT COUNT(*) FROM clients WHERE email = ? AND email_subscribed_at = ?`, "news@example.com", first) != 1 {
			t.Error("a later order moved the first consent's time")
		}
	})
}
