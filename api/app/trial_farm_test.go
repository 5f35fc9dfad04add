package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genorder "github.com/streamcart/streamcart/gen/order"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// convert converts the trial svcID of token to a monthly Standard plan, pays it in the sandbox
// and applies it; it answers the conversion's (renewal) order.
func (s *shop) convert(token, svcID string) *genservices.OrderResult {
	s.t.Helper()
	o, err := s.renew(token, svcID, genservices.RenewPayload{Pid: ptr(2), BillingCycle: ptr("monthly")})
	if err != nil {
		s.t.Fatalf("convert %s: %v", svcID, err)
	}
	if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
		s.t.Fatalf("pay the conversion: %d", resp.StatusCode)
	}
	s.drain()
	if svc, err := s.app.Store().Service(s.t.Context(), svcID); err != nil || svc.Trial || svc.PID != 2 {
		s.t.Fatalf("converted %+v %v, want a Standard plan", svc, err)
	}
	return o
}

// wantTrialRefused orders a trial with token and wants 409 trial_used.
func (s *shop) wantTrialRefused(what, token string) {
	s.t.Helper()
	_, err := s.order.Create(s.t.Context(), &genorder.CreatePayload{Token: ptr(token), Pid: 1, BillingCycle: "onetime"})
	if err == nil {
		s.t.Fatalf("%s: a trial was placed, want 409 trial_used", what)
	}
	wantErr(s.t, err, "trial_used", msgTrialUsed)
}

// Finding 1: a trial converted to a paid plan is still a trial had. The client, any spelling of
// its e-mail address (a +tag, capitals, Gmail's dots, googlemail.com) and, within 30 days, the
// address it came from are refused another (409 trial_used), however many were converted. Before,
// the limits counted the lines still flagged trial, so converting one gave the trial back.
func TestTrialFarmingByConversionIsRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(cfg *app.Config) { cfg.TrustedProxies = prefixes("127.0.0.0/8") })
		from := s.from("198.51.100.20")
		buyer := from.identify("foo@gmail.com", "")
		_, svcID := from.activeService(buyer.Token, trial())
		from.wantTrialRefused("second trial", buyer.Token)
		from.convert(buyer.Token, svcID)
		from.wantTrialRefused("trial after converting the first", buyer.Token)

		// The same mailbox as new clients, each from an address of its own.
		for i, email := range []string{"Foo+x@gmail.com", "f.o.o@googlemail.com", "F.O.O+farm@GMail.com"} {
			other := s.from(fmt.Sprintf("198.51.100.%d", 30+i))
			other.wantTrialRefused(email, other.identify(email, "").Token)
		}
		// Another mailbox at Gmail, and one elsewhere, is another person: dots count outside Gmail.
		s.from("198.51.100.60").buy(s.from("198.51.100.60").identify("foobar@gmail.com", "").Token, trial())
		s.from("198.51.100.61").buy(s.from("198.51.100.61").identify("f.oo@example.com", "").Token, trial())
		s.from("198.51.100.62").buy(s.from("198.51.100.62").identify("foo@example.com", "").Token, trial())

		// Three trials from one address, each converted: the fourth client there has none.
		house := s.from("203.0.113.9")
		for _, email := range []string{"one@example.org", "two@example.org", "three@example.org"} {
			token := house.identify(email, "").Token
			_, svc := house.activeService(token, trial())
			house.convert(token, svc)
		}
		house.wantTrialRefused("fourth trial from the address", house.identify("four@example.org", "").Token)
		if n := s.count(`SELECT COUNT(*) FROM trial_starts`); n != 7 {
			t.Fatalf("%d trial starts recorded, want 7 (the refused ones store nothing)", n)
		}
	})
}

// Finding 2: a full refund of a trial's conversion puts the line back to the trial it was (its
// plan, name, cycle and connections, flagged trial, ending when the trial ended; Expired, and off
// on the panel, once that is past) and gives no trial back. Before, the refund took a month off
// a paid plan: after the trial's end the line was Overdue, three more days of service.
func TestRefundOfTrialConversionRestoresTheTrial(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx, st := t.Context(), c.app.Store()
		owner := c.roles()["owner"]
		refund := func(id string) {
			t.Helper()
			r, err := cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: id, Reason: "asked"})
			if err != nil || r.Order.Status != "refunded" {
				t.Fatalf("refund %s: %+v %v", id, r, err)
			}
			c.drain()
		}
		check := func(when, svcID string, was order.Service, status order.ServiceStatus, enabled bool) {
			t.Helper()
			svc, err := st.Service(ctx, svcID)
			if err != nil || !svc.Trial || svc.PID != was.PID || svc.Name != was.Name || svc.BillingCycle != was.BillingCycle ||
				svc.MaxConnections != was.MaxConnections || !svc.ExpiresAt.Equal(was.ExpiresAt) || !svc.NextDueDate.IsZero() ||
				svc.Status != status || svc.Username != was.Username {
				t.Fatalf("%s: %+v %v, want the trial %+v back, %s", when, svc, err, was, status)
			}
			line, err := st.LineByRef(ctx, svcID)
			if err != nil || !line.ExpiresAt.Equal(was.ExpiresAt) || line.MaxConnections != was.MaxConnections || line.Enabled != enabled {
				t.Fatalf("%s: panel line %+v %v, want expiring %s, enabled %v", when, line, err, was.ExpiresAt, enabled)
			}
		}

		// Refunded while the trial would still run: the trial again, until its own end.
		token := c.identify("early@example.com", "").Token
		_, svcID := c.activeService(token, trial())
		was, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		conv := c.convert(token, svcID)
		refund(conv.OrderID)
		check("refunded within the trial", svcID, was, order.ServiceActive, true)
		c.wantTrialRefused("trial after the refund", token)
		// The trial ends as a trial: Expired, never Overdue.
		c.clock.Add(25 * time.Hour)
		owner = c.signIn("owner@example.com", owner.secret)
		lapse(t, c.shop)
		check("after the trial's end", svcID, was, order.ServiceExpired, true)

		// Refunded after the trial's end: Expired at once, the panel line off at the trial's end.
		token = c.identify("late@example.com", "").Token
		_, svcID = c.activeService(token, trial())
		if was, err = st.Service(ctx, svcID); err != nil {
			t.Fatal(err)
		}
		conv = c.convert(token, svcID)
		c.clock.Add(3 * 24 * time.Hour)
		owner = c.signIn("owner@example.com", owner.secret)
		refund(conv.OrderID)
		check("refunded after the trial's end", svcID, was, order.ServiceExpired, false)
		lapse(t, c.shop)
		check("after the lifecycle sweep", svcID, was, order.ServiceExpired, false)
		c.wantTrialRefused("trial after the late refund", token)
		// The buyer may still convert the trial it has back, and pay for it this time.
		c.convert(token, svcID)
	})
}

// msgTrialUnavailable is the API's answer to a free trial for a throwaway address.
const msgTrialUnavailable = "Free trials are not available for this email address. Please use your own email address or choose a plan."

// Scope 2: a free trial for a throwaway address (the built-in list: mailinator.com, its
// subdomains, in any case) or one of the seller's domains (STREAMCART_TRIAL_BLOCKED_DOMAINS,
// compared in IDNA form) is 409 trial_unavailable, and stores nothing; a paid plan is sold to it.
// STREAMCART_TRIAL_BLOCK_DISPOSABLE=false gives throwaway addresses their trial, the seller's
// domains still refused.
func TestTrialRefusedToThrowawayAddresses(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		seller := []string{"blocked.example", "bücher.example"}
		s := newShop(t, func(cfg *app.Config) { cfg.TrialBlockedDomains = seller })
		refused := func(s *shop, email string) {
			t.Helper()
			token := s.identify(email, "").Token
			_, err := s.order.Create(t.Context(), &genorder.CreatePayload{Token: ptr(token), Pid: 1, BillingCycle: "onetime"})
			wantErr(t, err, "trial_unavailable", msgTrialUnavailable)
		}
		for _, email := range []string{"x@mailinator.com", "x@Mail.MAILINATOR.com", "x@mailinator.com.", "y@blocked.example",
			"y@deep.sub.blocked.example", "z@xn--bcher-kva.example", "z@BÜCHER.example"} {
			refused(s, email)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`) + s.count(`SELECT COUNT(*) FROM services`) + s.count(`SELECT COUNT(*) FROM trial_starts`); n != 0 {
			t.Fatalf("%d orders, services and trial starts stored for refused trials, want none", n)
		}
		token := s.identify("x@mailinator.com", "").Token
		status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", token, strings.NewReader(`{"pid":1,"billingCycle":"onetime"}`))
		if status != http.StatusConflict || !strings.Contains(string(body), `"name":"trial_unavailable"`) || !strings.Contains(string(body), msgTrialUnavailable) {
			t.Fatalf("trial for a throwaway address: %d %s, want 409 trial_unavailable", status, body)
		}
		s.buy(token, standard()) // a paid plan is no trial
		s.buy(s.identify("x@not-blocked.example", "").Token, trial())

		off := newShop(t, func(cfg *app.Config) { cfg.TrialAllowDisposable, cfg.TrialBlockedDomains = true, seller })
		off.buy(off.identify("x@mailinator.com", "").Token, trial())
		refused(off, "y@blocked.example")
	})
}
