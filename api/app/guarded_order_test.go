package app_test

import (
	"fmt"
	"testing"

	"github.com/streamcart/streamcart/api/app"
)

// Where an order's checks do not pass, the one-step placement (PostgreSQL) writes nothing and
// the usual path answers as before: a used key gives its order (or idempotency_mismatch), the
// IP's limit and a banned domain hold the order, a trial taken is refused. After each, the
// rows are exactly what the answer says: nothing half-written, nothing twice. On both back
// ends (SQLite always takes the usual path: the same answers).
func TestGuardedOrderFallsBack(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) {
			c.FraudMaxPerIP, c.FraudBanned, c.TrustedProxies = 2, []string{"fraud.example"}, prefixes("127.0.0.0/8")
		})
		rows := func() string {
			t.Helper()
			out := ""
			for _, table := range []string{"orders", "invoices", "services", "jobs", "trial_starts", "order_holds"} {
				out += fmt.Sprintf("%s=%d ", table, s.count(`SELECT COUNT(*) FROM `+table))
			}
			return out
		}
		want := func(step, got, want string) {
			t.Helper()
			if got != want {
				t.Fatalf("%s: rows %s, want %s", step, got, want)
			}
		}
		one := s.from("203.0.113.7")
		buyer := one.identify("guard@example.com", "")
		p := standard()
		p.IdempotencyKey = ptr("guard-1")
		first := one.buy(buyer.Token, p)
		want("first order", rows(), "orders=1 invoices=1 services=1 jobs=1 trial_starts=0 order_holds=0 ")

		// The key used: the same order, nothing written.
		again := one.buy(buyer.Token, p)
		if again.OrderID != first.OrderID || again.InvoiceID != first.InvoiceID || again.PaymentURL != first.PaymentURL || again.Status != first.Status {
			t.Fatalf("replay = %+v, want the first order %+v", again, first)
		}
		other := p
		other.Pid = 3
		other.Token = ptr(buyer.Token)
		_, err := one.order.Create(t.Context(), &other)
		wantErr(t, err, "idempotency_mismatch", "")
		want("replay and mismatch", rows(), "orders=1 invoices=1 services=1 jobs=1 trial_starts=0 order_holds=0 ")

		// The IP's limit (2): the second order passes, the third is held with its hold record.
		if o := one.buy(buyer.Token, standard()); o.Fraud {
			t.Fatal("the second order from the IP was held")
		}
		held := one.buy(buyer.Token, standard())
		if !held.Fraud || held.Status != "fraud" || held.PaymentURL != "" {
			t.Fatalf("third order from the IP = %+v, want held", held)
		}
		if n := s.count(`SELECT COUNT(*) FROM order_holds WHERE order_id = ? AND orders_from_ip = 2`, held.OrderID); n != 1 {
			t.Fatalf("hold records of the held order = %d, want 1 counting 2 orders", n)
		}
		want("the IP's limit", rows(), "orders=3 invoices=3 services=3 jobs=2 trial_starts=0 order_holds=1 ")

		// A banned domain from a fresh IP: held.
		two := s.from("198.51.100.9")
		crook := two.identify("crook@fraud.example", "")
		if o := two.buy(crook.Token, standard()); !o.Fraud || o.Status != "fraud" {
			t.Fatalf("banned domain's order = %+v, want held", o)
		}
		want("banned domain", rows(), "orders=4 invoices=4 services=4 jobs=2 trial_starts=0 order_holds=2 ")

		// A trial, then the client's second: refused, nothing written.
		three := s.from("192.0.2.44")
		trialist := three.identify("trialist@example.com", "")
		if o := three.buy(trialist.Token, trial()); o.Fraud {
			t.Fatalf("trial = %+v", o)
		}
		want("trial", rows(), "orders=5 invoices=5 services=5 jobs=3 trial_starts=1 order_holds=2 ")
		second := trial()
		second.Token = ptr(trialist.Token)
		_, err = three.order.Create(t.Context(), &second)
		wantErr(t, err, "trial_used", msgTrialUsed)
		want("trial taken", rows(), "orders=5 invoices=5 services=5 jobs=3 trial_starts=1 order_holds=2 ")
	})
}
