package app_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
)

// msgPromoNotFound is the answer to an unknown, expired or used-up code.
const msgPromoNotFound = "This promo code does not exist or has expired."

// kickoffSpellings are ways to type KICKOFF that are all the one code.
var kickoffSpellings = []string{"KICKOFF", "kickoff", " KICKOFF ", "ＫＩＣＫＯＦＦ", "\u212AICKOFF", "\u212Aickoff"}

// kickoffShop is a shop whose catalog has KICKOFF, a code for the Standard plan (pid 2) that may
// be used once, on the clock now.
func kickoffShop(t *testing.T, now func() time.Time) *shop {
	t.Helper()
	demo, err := os.ReadFile(filepath.Join("..", "catalog", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	custom := strings.Replace(string(demo), "promotions:\n", `promotions:
  - code: KICKOFF
    type: Fixed Amount
    value: "1.00"
    appliesTo: [2]
    maxUses: 1
`, 1)
	if custom == string(demo) {
		t.Fatal("demo catalog has no promotions section to extend")
	}
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, []byte(custom), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	return newShop(t, func(c *app.Config) { c.CatalogFile = file; c.Now = now })
}

// clock is a settable time for a shop's orders.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// withCode is the Standard plan with a promo code.
func withCode(token, code string) genorder.CreatePayload {
	p := standard()
	p.Token, p.PromoCode = ptr(token), ptr(code)
	return p
}

// Every spelling of a code is the one code: looked up, priced and counted as KICKOFF. The Kelvin
// sign (U+212A), which Unicode case folding matches to K while the old count upper-cased the raw
// code, no longer redeems a maxUses: 1 code again and again.
func TestPromoCodeHasOneCanonicalForm(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := kickoffShop(t, nil)
		for _, code := range kickoffSpellings {
			res, err := s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: code, Pid: ptr(2)})
			if err != nil || res.Code != "KICKOFF" {
				t.Fatalf("GET /promotions/%+q = %+v, %v; want KICKOFF", code, res, err)
			}
			q, err := s.pricing.Quote(t.Context(), &genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", PromoCode: ptr(code)})
			if err != nil || q.Discount == nil || q.Discount.Code != "KICKOFF" {
				t.Fatalf("quote with %+q = %+v, %v; want the KICKOFF discount", code, q, err)
			}
		}
		// Outside [A-Z0-9_-]{1,32} once normalised: unknown, whatever it looks like.
		for _, code := range []string{"KICK OFF", "KICKÖFF", "KICKOFF\u0301", strings.Repeat("K", 33)} {
			_, err := s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: code, Pid: ptr(2)})
			wantErr(t, err, "not_found", msgPromoNotFound)
			_, err = s.order.Create(t.Context(), ptr(withCode(s.identify("odd@example.com", "").Token, code)))
			wantErr(t, err, "not_found", msgPromoNotFound)
		}

		first := s.buy(s.identify("kelvin@example.com", "").Token, withCode("", "\u212AICKOFF"))
		if first.Quote.Discount == nil || first.Quote.Discount.Code != "KICKOFF" || first.Total.Amount != 1199 {
			t.Fatalf("first order discount %+v total %+v, want KICKOFF and 1199", first.Quote.Discount, first.Total)
		}
		for i, code := range kickoffSpellings {
			p := withCode(s.identify(fmt.Sprintf("again%d@example.com", i), "").Token, code)
			_, err := s.order.Create(t.Context(), &p)
			wantErr(t, err, "not_found", msgPromoNotFound)
			_, err = s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: code, Pid: ptr(2)})
			wantErr(t, err, "not_found", msgPromoNotFound)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE promo_code = 'KICKOFF'`); n != 1 {
			t.Fatalf("orders with KICKOFF = %d, want 1", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 1 {
			t.Fatalf("orders = %d, want 1 (a used-up code stores nothing)", n)
		}
	})
}

// Twenty buyers send a maxUses: 1 code at once, in every spelling: one order gets the discount,
// every other answer is the used-up code's not_found, and nothing else is stored.
func TestPromoMaxUsesHoldsUnderConcurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := kickoffShop(t, nil)
		const buyers = 20
		tokens := make([]string, buyers)
		for i := range tokens {
			tokens[i] = s.identify(fmt.Sprintf("rush%d@example.com", i), "").Token
		}
		var wg sync.WaitGroup
		errs := make([]error, buyers)
		for i := range buyers {
			wg.Go(func() {
				p := withCode(tokens[i], kickoffSpellings[i%len(kickoffSpellings)])
				_, errs[i] = s.order.Create(t.Context(), &p)
			})
		}
		wg.Wait()
		placed := 0
		for _, err := range errs {
			if err == nil {
				placed++
				continue
			}
			wantErr(t, err, "not_found", msgPromoNotFound)
		}
		if placed != 1 {
			t.Fatalf("%d orders placed with a code usable once, want 1", placed)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 1 {
			t.Fatalf("orders = %d, want 1", n)
		}
	})
}

// An unpaid order holds its use only until its invoice's deadline; a paid one for good.
func TestUnpaidOrderHoldsPromoUseUntilItsDeadline(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newClock()
		s := kickoffShop(t, c.Now)
		unpaid := s.buy(s.identify("late@example.com", "").Token, withCode("", "kickoff"))
		if unpaid.Status != "pending" || unpaid.Quote.Discount == nil {
			t.Fatalf("first order %+v, want pending with the discount", unpaid)
		}
		second := s.identify("next@example.com", "").Token
		_, err := s.order.Create(t.Context(), ptr(withCode(second, "KICKOFF")))
		wantErr(t, err, "not_found", msgPromoNotFound)

		// Past the deadline the unpaid invoice holds nothing, even before the expiry job runs.
		c.Add(24*time.Hour + time.Minute)
		if _, err := s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: "KICKOFF", Pid: ptr(2)}); err != nil {
			t.Fatalf("lookup after the first invoice expired: %v", err)
		}
		paid := s.buy(second, withCode("", "KICKOFF"))
		if paid.Quote.Discount == nil {
			t.Fatalf("second order %+v, want the discount the expired order gave back", paid)
		}
		if resp := s.sandbox(paid.PaymentURL, "pay"); resp.StatusCode >= 400 {
			t.Fatalf("sandbox pay: %s", resp.Status)
		}
		if got := s.getOrder(second, paid.OrderID); got.Status == "pending" {
			t.Fatalf("paid order still pending")
		}
		// The paid order keeps its use past its own deadline.
		c.Add(48 * time.Hour)
		_, err = s.order.Create(t.Context(), ptr(withCode(s.identify("third@example.com", "").Token, "KICKOFF")))
		wantErr(t, err, "not_found", msgPromoNotFound)
	})
}

// msgTrialUsed is the API's answer to a free trial beyond the limits.
const msgTrialUsed = "The free trial has already been used. Please choose a plan."

// One free trial per client (a second one, concurrent or not, is 409 trial_used) and three per
// address per 30 days, on the default settings.
func TestFreeTrialLimits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newClock()
		s := newShop(t, func(cfg *app.Config) { cfg.TrustedProxies = prefixes("127.0.0.0/8"); cfg.Now = c.Now })
		from := s.from("198.51.100.7")

		// Eight trial orders of one client at once: one is placed.
		buyer := from.identify("trial@example.com", "")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				p := trial()
				p.Token = ptr(buyer.Token)
				_, errs[i] = from.order.Create(t.Context(), &p)
			})
		}
		wg.Wait()
		placed := 0
		for _, err := range errs {
			if err == nil {
				placed++
				continue
			}
			wantErr(t, err, "trial_used", msgTrialUsed)
		}
		if placed != 1 {
			t.Fatalf("%d trials placed for one client, want 1", placed)
		}
		// Through plain HTTP: 409, the stable name and the human message.
		status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token, strings.NewReader(`{"pid":1,"billingCycle":"onetime"}`))
		if status != http.StatusConflict || !strings.Contains(string(body), `"name":"trial_used"`) || !strings.Contains(string(body), msgTrialUsed) {
			t.Fatalf("second trial: %d %s, want 409 trial_used", status, body)
		}
		// A paid plan is no trial: the client still buys.
		p := standard()
		p.Token = ptr(buyer.Token)
		if _, err := from.order.Create(t.Context(), &p); err != nil {
			t.Fatalf("paid order after the trial: %v", err)
		}

		// Two more clients on the address take its three trials; a fourth is refused.
		for i := range 2 {
			from.buy(from.identify(fmt.Sprintf("house%d@example.com", i), "").Token, trial())
		}
		fourth := from.identify("house-fourth@example.com", "").Token
		p = trial()
		p.Token = ptr(fourth)
		_, err := from.order.Create(t.Context(), &p)
		wantErr(t, err, "trial_used", msgTrialUsed)
		// Another address is not affected, and after 30 days the address has trials again.
		s.from("198.51.100.8").buy(s.from("198.51.100.8").identify("elsewhere@example.com", "").Token, trial())
		c.Add(30*24*time.Hour + time.Minute)
		// Sessions expire on the same clock (30 days): each client signs in again.
		from.buy(from.identify("house-fourth@example.com", "").Token, trial())
		// The client's own trial never comes back.
		again := from.identify("trial@example.com", "")
		_, err = from.order.Create(t.Context(), &genorder.CreatePayload{Token: ptr(again.Token), Pid: 1, BillingCycle: "onetime"})
		wantErr(t, err, "trial_used", msgTrialUsed)
	})
}

// The limits are settings: STREAMCART_TRIALS_PER_CLIENT=2 gives a client two trials; a negative
// value is no limit. A replayed trial order (same Idempotency-Key) is the same order, not a refusal.
func TestFreeTrialLimitsAreSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(cfg *app.Config) { cfg.TrialsPerClient, cfg.TrialsPerIP = 2, -1 })
		buyer := s.identify("twice@example.com", "")
		p := trial()
		p.IdempotencyKey = ptr("trial-1")
		first := s.buy(buyer.Token, p)
		if again := s.buy(buyer.Token, p); again.OrderID != first.OrderID {
			t.Fatalf("replayed trial order %s, want %s", again.OrderID, first.OrderID)
		}
		s.buy(buyer.Token, trial())
		p = trial()
		p.Token = ptr(buyer.Token)
		_, err := s.order.Create(t.Context(), &p)
		wantErr(t, err, "trial_used", msgTrialUsed)
		// No limit per address: more clients than the default three, all from 127.0.0.1.
		for i := range 4 {
			s.buy(s.identify(fmt.Sprintf("many%d@example.com", i), "").Token, trial())
		}
	})
}
