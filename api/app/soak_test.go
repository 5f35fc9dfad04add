package app_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/faulttest"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/store/storetest"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// The soak of issue 28: a shop on a chaotic XUI.one panel (api/faulttest.ChaosPanel) that fails a
// fifth of its calls (server errors and dropped connections), runs out of credits and, between
// rounds, loses lines, disables them and changes their expiry and connections, while buyers order,
// pay, renew, let lines lapse and are refunded, the business clock moving 6 days a round and the
// reconciliation running every round. Then the panel is healed and topped up, the queue drained
// and the reconciliation run until it finds nothing, and the panel must match what was paid:
// every line the shop keeps on is there, switched on, with its expiry and connections; every
// payment kept has its line; no line on the panel that no order explains; every change made behind
// the shop's back recorded as drift, and none repaired twice.
//
// Bounded: a fixed number of rounds, no sleeping (the clock is moved, the queue drained by hand).
func TestSoakChaoticPanel(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		const (
			rounds = 8
			buyers = 4
			seed   = 28
		)
		chaos := faulttest.NewChaosPanel(seed, 1000)
		t.Cleanup(chaos.Close)
		c := newConsole(t, func(cfg *app.Config) {
			cfg.Panel, cfg.PanelURL, cfg.PanelAPIKey = "xui", chaos.URL(), faulttest.APIKey
		})
		ctx, st := t.Context(), c.app.Store()
		cl := c.clientsOf()
		rng := rand.New(rand.NewPCG(seed, 1))
		ownerSecret := c.enrol("owner@example.com", operator.RoleOwner)

		emails := make([]string, buyers)
		for i := range emails {
			emails[i] = fmt.Sprintf("soak%d@example.com", i)
			c.register(emails[i], "soak-password-"+emails[i])
		}
		token := func(i int) string { return c.identify(emails[i], "soak-password-"+emails[i]).Token }

		// work runs every job due now, then moves the clock an hour at a time (retries back off on
		// business time) until none is left or the hours run out.
		work := func(hours int) {
			t.Helper()
			for h := 0; ; h++ {
				for n := 0; ; n++ {
					ran, err := c.app.Worker().RunOnce(ctx)
					if err != nil {
						t.Fatalf("worker: %v", err)
					}
					if !ran {
						break
					}
					if n > 2000 {
						t.Fatal("worker: a job keeps coming back")
					}
				}
				if h == hours || c.count(`SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running') AND kind <> ?`, linedrift.JobReconcile) == 0 {
					return
				}
				c.clock.Add(time.Hour)
			}
		}
		reconcile := func() linedrift.Report {
			t.Helper()
			rep, err := c.app.ReconcileLines(ctx, false)
			if err != nil && !isUnavailable(err) {
				t.Fatalf("reconcile: %v", err)
			}
			return rep
		}

		var (
			havoc     []faulttest.Havoc
			orders    []string // every order placed and not refused
			refused   int      // out_of_stock answers
			renewed   int
			refunded  = map[string]bool{}
			placedKey = 0
		)
		for round := range rounds {
			// A third of the rounds the reseller account is empty: the shop learns it on its next
			// read of the balance, so some orders are refused before payment and some paid ones
			// wait for credits at provisioning.
			chaos.SetFailRate(0.2)
			if rng.IntN(3) == 0 {
				chaos.SetCredits(0)
			} else {
				chaos.SetCredits(1000)
			}
			if round%2 == 0 {
				// Read until the faulty panel answers, as the minutely refresh would; on the
				// other rounds the shop goes on with the balance it read before.
				for try := 0; try < 20; try++ {
					if _, err := c.app.RefreshCredits(ctx); err == nil {
						break
					}
				}
			}
			for i := range buyers {
				tok := token(i)
				p := standard()
				placedKey++
				p.IdempotencyKey = ptr(fmt.Sprintf("soak-%d", placedKey))
				p.Token = ptr(tok)
				o, err := c.order.Create(ctx, &p)
				var se *goa.ServiceError
				if errors.As(err, &se) && se.Name == "out_of_stock" {
					refused++
					continue
				}
				if err != nil {
					t.Fatalf("round %d: POST /orders: %v", round, err)
				}
				orders = append(orders, o.OrderID)
				if rng.IntN(5) > 0 { // a fifth are never paid
					if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
						t.Fatalf("round %d: pay: %d", round, resp.StatusCode)
					}
				}
			}
			work(3)

			// Renewals: the sweep invoices what falls due within a week; most buyers pay.
			if _, err := c.app.SweepRenewals(ctx); err != nil {
				t.Fatalf("round %d: sweep: %v", round, err)
			}
			for i := range buyers {
				tok := token(i)
				for _, id := range c.servicesOf(emails[i]) {
					if _, err := st.OpenRenewal(ctx, id); err != nil || rng.IntN(4) == 0 {
						continue
					}
					r, err := c.services.Renew(ctx, &genservices.RenewPayload{Token: ptr(tok), ServiceID: id})
					if err != nil {
						continue // a lapsed or refunded service may refuse
					}
					if resp := c.sandbox(r.PaymentURL, "pay"); resp.StatusCode == http.StatusSeeOther {
						renewed++
					}
				}
			}
			// A refund now and then, of any order that took money.
			if round%3 == 1 && len(orders) > 0 {
				owner := c.signIn("owner@example.com", ownerSecret)
				for range 2 {
					id := orders[rng.IntN(len(orders))]
					if refunded[id] {
						continue
					}
					o, err := st.Order(ctx, id)
					if err != nil || o.Invoice.Status != order.InvoicePaid {
						continue
					}
					if _, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
						ID: id, Reason: "soak"}); err != nil {
						t.Fatalf("round %d: refund %s: %v", round, id, err)
					}
					refunded[id] = true
				}
			}
			work(3)
			if err := c.app.LapseServices(ctx); err != nil && !isUnavailable(err) {
				t.Fatalf("round %d: lapse: %v", round, err)
			}
			work(3)

			// Hands on the panel, then the reconciliation.
			havoc = append(havoc, chaos.Havoc(1+rng.IntN(3))...)
			reconcile()
			c.clock.Add(6 * 24 * time.Hour)
		}

		// The seller's own line, made by hand: listed as unexplained, never touched.
		chaos.AddForeign("sellers-friend")

		// Healed: no more faults, credits back. The queue drains, the reconciliation converges.
		chaos.SetFailRate(0)
		chaos.SetCredits(1000)
		if _, err := c.app.RefreshCredits(ctx); err != nil {
			t.Fatal(err)
		}
		work(72)
		// Converged: a run finds nothing to repair (the seller's own line is reported by every
		// run, and recorded once).
		var left []linedrift.Drift
		for range 3 {
			left = left[:0]
			for _, d := range reconcile().Drifts {
				if d.Kind != linedrift.KindUnexplained {
					left = append(left, d)
				}
			}
			if len(left) == 0 {
				break
			}
			work(72)
		}
		if len(left) != 0 {
			t.Fatalf("the reconciliation did not converge: its last run found %+v", left)
		}
		if chaos.Faults() == 0 || len(havoc) == 0 || refused == 0 || renewed == 0 || len(refunded) == 0 {
			t.Fatalf("the soak exercised too little: %d faults, %d havoc, %d refused, %d renewed, %d refunded",
				chaos.Faults(), len(havoc), refused, renewed, len(refunded))
		}
		t.Logf("%d orders, %d refused out of stock, %d renewed, %d refunded, %d panel faults, %d hands on the panel",
			len(orders), refused, renewed, len(refunded), chaos.Faults(), len(havoc))

		// Nothing stuck.
		for _, j := range c.ids(`SELECT kind || ' ' || ref || ': ' || last_error FROM jobs WHERE state = 'dead'`) {
			t.Errorf("dead job %s", j)
		}
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running') AND kind IN ('provision', 'line-sync')`); n != 0 {
			t.Errorf("%d provisioning or line-sync jobs left", n)
		}
		// No money kept without a line or a refund: a paid invoice's order is active, refunded, or
		// held with its payment sent back (a renewal of a line refunded meanwhile).
		for _, id := range c.ids(`SELECT o.id FROM orders o JOIN invoices i ON i.order_id = o.id
			WHERE i.status = 'paid' AND o.status NOT IN ('active', 'refunded')
			AND NOT EXISTS (SELECT 1 FROM payment_reviews r WHERE r.order_id = o.id AND r.refund_id <> '')`) {
			o, _ := st.Order(ctx, id)
			svcs := c.ids(`SELECT service_id FROM renewals WHERE order_id = ? UNION SELECT id FROM services WHERE order_id = ?`, id, id)
			var about []string
			for _, sid := range svcs {
				svc, _ := st.Service(ctx, sid)
				about = append(about, fmt.Sprintf("%s %s", sid, svc.Status))
			}
			t.Errorf("paid order %s (%s) is %s: services %v", id, o.Kind, o.Status, about)
		}

		// The panel against the shop.
		lines := map[string]faulttest.ChaosLine{}
		for _, l := range chaos.Lines() {
			if _, dup := lines[l.Ref()]; dup {
				t.Errorf("two panel lines for service %s", l.Ref())
			}
			lines[l.Ref()] = l
		}
		services := c.count(`SELECT COUNT(*) FROM services`)
		checked := 0
		for ref, l := range lines {
			if l.Username == "sellers-friend" {
				continue
			}
			svc, err := st.Service(ctx, ref)
			if err != nil {
				t.Errorf("panel line %s (%q) is explained by no order: %v", l.Username, ref, err)
				continue
			}
			checked++
			if svc.Username != l.Username || svc.Password != l.Password {
				t.Errorf("service %s: panel credentials %s, shop %s", ref, l.Username, svc.Username)
			}
			if svc.Status == order.ServiceCancelled || svc.Status == order.ServiceTerminated {
				if l.Enabled {
					t.Errorf("service %s is %s but its panel line is on", ref, svc.Status)
				}
			}
		}
		for _, id := range c.allServices() {
			svc, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			l, ok := lines[id]
			switch svc.Status {
			case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended, order.ServiceExpired:
				on := svc.Status == order.ServiceActive || svc.Status == order.ServiceOverdue
				switch {
				case !ok:
					t.Errorf("service %s is %s and has no panel line", id, svc.Status)
				case l.Enabled != on:
					t.Errorf("service %s is %s, its panel line enabled=%v", id, svc.Status, l.Enabled)
				case !l.Expires().Equal(svc.ExpiresAt.Truncate(time.Second)):
					t.Errorf("service %s expires %s, its panel line %s", id, svc.ExpiresAt, l.Expires())
				case l.MaxConnections != svc.MaxConnections:
					t.Errorf("service %s has %d connections, its panel line %d", id, svc.MaxConnections, l.MaxConnections)
				}
			case order.ServicePending:
				o, err := st.Order(ctx, svc.OrderID)
				if err == nil && o.Invoice.Status == order.InvoicePaid {
					t.Errorf("service %s of paid order %s (%s) never got its line", id, o.ID, o.Status)
				}
			}
		}

		// Every hand on the panel was recorded as drift, and no drift was repaired more often than
		// it was made.
		made, lastKind := map[[2]string]int{}, map[string]string{}
		for _, h := range havoc {
			made[[2]string{h.Ref, h.Kind}]++
			lastKind[h.Ref] = h.Kind
		}
		for k, n := range made {
			found := c.count(`SELECT COUNT(*) FROM line_drift WHERE service_id = ? AND kind = ?`, k[0], k[1])
			repaired := c.count(`SELECT COUNT(*) FROM line_drift WHERE service_id = ? AND kind = ? AND action <> ?`, k[0], k[1], linedrift.ActionFailed)
			svc, _ := st.Service(ctx, k[0])
			kept := svc.Status == order.ServiceActive || svc.Status == order.ServiceOverdue
			// The last hand on a line kept on must be seen (an earlier one may be undone by a
			// later loss: the line is made again whole).
			if kept && lastKind[k[0]] == k[1] && found == 0 && !superseded(k[1]) {
				t.Errorf("service %s: %d × %s on the panel, never recorded as drift", k[0], n, k[1])
			}
			if repaired > n {
				t.Errorf("service %s: %d × %s on the panel, repaired %d times", k[0], n, k[1], repaired)
			}
		}
		// Listed through XUI.one's get_lines: only the seller's own line is unexplained, recorded
		// once however many runs saw it.
		if got := c.ids(`SELECT username FROM line_drift WHERE kind = ?`, linedrift.KindUnexplained); len(got) != 1 || got[0] != "sellers-friend" {
			t.Errorf("lines listed as unexplained: %v, want only the seller's own sellers-friend (any other: the shop made a line no order explains)", got)
		}
		t.Logf("%d services, %d panel lines checked", services, checked)
	})
}

// superseded reports whether a drift of kind may be repaired by the shop's own flow before the
// reconciliation sees it: a renewal or a lapse sets the expiry and the switch again.
func superseded(kind string) bool {
	return kind == faulttest.HavocExpiry || kind == faulttest.HavocDisabled
}

// isUnavailable reports a run stopped by a panel that could not be read, or by another run.
func isUnavailable(err error) bool {
	return errors.Is(err, panel.ErrUnavailable) || errors.Is(err, linedrift.ErrRunning)
}

// servicesOf lists the ids of email's services.
func (s *shop) servicesOf(email string) []string {
	s.t.Helper()
	return s.ids(`SELECT s.id FROM services s JOIN clients c ON c.id = s.client_id WHERE c.email = ? ORDER BY s.id`, email)
}

// allServices lists every service id.
func (s *shop) allServices() []string {
	s.t.Helper()
	return s.ids(`SELECT id FROM services ORDER BY id`)
}

// ids runs a query of one text column (? placeholders) on the shop's database.
func (s *shop) ids(query string, args ...any) []string {
	s.t.Helper()
	db := storetest.Open(s.t, s.cfg.DB)
	defer db.Close()
	rows, err := db.QueryContext(s.t.Context(), storetest.Rebind(s.cfg.DB, query), args...)
	if err != nil {
		s.t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			s.t.Fatal(err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		s.t.Fatal(err)
	}
	return out
}
