package app_test

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/money"
	genaffiliates "github.com/streamcart/streamcart/gen/affiliates"
	genorder "github.com/streamcart/streamcart/gen/order"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
	genservices "github.com/streamcart/streamcart/gen/services"
	gensession "github.com/streamcart/streamcart/gen/session"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// activeService buys p with token, pays it in the sandbox and provisions it.
func (s *shop) activeService(token string, p genorder.CreatePayload) (orderID, serviceID string) {
	s.t.Helper()
	o := s.buy(token, p)
	if o.PaymentURL != "" { // a trial has nothing to pay
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			s.t.Fatalf("pay: status %d", resp.StatusCode)
		}
	}
	s.drain()
	if got := s.getOrder(token, o.OrderID); got.Status != "active" {
		s.t.Fatalf("order %s status %s, want active", o.OrderID, got.Status)
	}
	return o.OrderID, o.ServiceIds[0]
}

var signinToken = regexp.MustCompile(`[?&]signin=([A-Za-z0-9_-]+)`)

// lastLink returns the newest mail of the outbox, and the sign-in token and link it holds.
func (s *shop) lastLink(to string) (token, link string) {
	s.t.Helper()
	msgs, err := s.app.Store().ListMail(s.t.Context(), 1)
	if err != nil || len(msgs) == 0 {
		s.t.Fatalf("outbox: %v, %d messages", err, len(msgs))
	}
	m := msgs[0]
	if m.To != to || m.Status != "stored" {
		s.t.Fatalf("newest mail to %q status %q, want to %q stored", m.To, m.Status, to)
	}
	link = regexp.MustCompile(`https?://\S+`).FindString(m.Body)
	match := signinToken.FindStringSubmatch(link)
	if match == nil {
		s.t.Fatalf("no sign-in link in %q", m.Body)
	}
	return match[1], link
}

// proven signs email in through an emailed link.
func (s *shop) proven(email string) *gensession.SessionResult {
	s.t.Helper()
	if err := s.session.RequestLink(s.t.Context(), &gensession.RequestLinkPayload{Email: email}); err != nil {
		s.t.Fatalf("POST /session/link: %v", err)
	}
	token, _ := s.lastLink(email)
	res, err := s.session.RedeemLink(s.t.Context(), &gensession.RedeemLinkPayload{Token: token})
	if err != nil {
		s.t.Fatalf("POST /session/link/{token}: %v", err)
	}
	return res
}

// register makes email a client with password the only way there is: an email-only session,
// a sign-in link, and the password set by the proven session it gives, which it returns.
func (s *shop) register(email, password string) *gensession.SessionResult {
	s.t.Helper()
	s.identify(email, "")
	p := s.proven(email)
	if err := s.session.SetPassword(s.t.Context(), &gensession.SetPasswordPayload{Token: ptr(p.Token), Password: password}); err != nil {
		s.t.Fatalf("PUT /session/password: %v", err)
	}
	return p
}

func TestSignInLink(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("link@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())

		before := s.count(`SELECT COUNT(*) FROM mail_outbox`)
		// Unknown or known, the answer is the same 202; only a client gets mail.
		for _, email := range []string{"nobody@example.com", "link@example.com"} {
			status, _, body := s.raw(http.MethodPost, "/checkout/api/session/link", "", strings.NewReader(`{"email":"`+email+`","returnUrl":"/checkout/upsell?x=1"}`))
			if status != http.StatusAccepted || len(bytes.TrimSpace(body)) != 0 {
				t.Fatalf("POST /session/link %s: %d %s, want 202 and no body", email, status, body)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox`); n != before+1 {
			t.Fatalf("outbox grew by %d, want 1 (no mail for an unknown email)", n-before)
		}
		token, link := s.lastLink("link@example.com")
		u, err := url.Parse(link)
		if err != nil || u.Path != "/checkout/upsell" || u.Query().Get("x") != "1" || u.Query().Get("signin") != token || u.Host != strings.TrimPrefix(s.base, "http://") {
			t.Fatalf("link %q: want %s/checkout/upsell?x=1&signin=<token>", link, s.base)
		}
		if s.count(`SELECT COUNT(*) FROM signin_links WHERE token_hash = ?`, token) != 0 {
			t.Fatal("the token is stored in clear; only its hash may be")
		}

		res, err := s.session.RedeemLink(t.Context(), &gensession.RedeemLinkPayload{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		if res.Scope != "proven" || res.Email != "link@example.com" || res.UserID != buyer.UserID {
			t.Fatalf("redeemed session %+v, want proven for the buyer", res)
		}
		// A proven session sees the purchase another (email-only) session made.
		if got := s.getService(res.Token, svcID); got.Status != "Active" {
			t.Fatalf("service status %s", got.Status)
		}
		_, err = s.session.RedeemLink(t.Context(), &gensession.RedeemLinkPayload{Token: token})
		wantErr(t, err, "invalid_link", "This sign-in link is invalid, expired or already used. Please ask for a new one.")
		_, err = s.session.RedeemLink(t.Context(), &gensession.RedeemLinkPayload{Token: "made-up"})
		wantErr(t, err, "invalid_link", "")
		if status, _, _ := s.raw(http.MethodPost, "/checkout/api/session/link/"+token, "", nil); status != http.StatusUnauthorized {
			t.Fatalf("used link: status %d, want 401", status)
		}

		// The token never leaves the shop's origin.
		err = s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "link@example.com", ReturnURL: ptr("https://evil.example/")})
		wantErr(t, err, "bad_request", "")
		err = s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "not-an-email"})
		wantErr(t, err, "invalid_email", "Please enter a Valid Email.")

		// Asked too often, links stop silently (still 202).
		for range 5 {
			if err := s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "link@example.com"}); err != nil {
				t.Fatal(err)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM signin_links`); n != 3 {
			t.Fatalf("%d links in the window, want the limit 3", n)
		}
	})
}

func TestPasswordThrottle(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		s.register("pw@example.com", "right-password")
		for range 5 {
			_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "pw@example.com", Password: ptr("wrong")})
			wantErr(t, err, "invalid_credentials", "Wrong email or password.")
		}
		// Locked: even the right password waits.
		_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "pw@example.com", Password: ptr("right-password")})
		wantThrottled(t, err)
		status, header, body := s.raw(http.MethodPost, "/checkout/api/session", "", strings.NewReader(`{"email":"pw@example.com","password":"right-password"}`))
		if status != http.StatusTooManyRequests || header.Get("Retry-After") == "" ||
			!strings.Contains(string(body), `"name":"too_many_attempts"`) || !strings.Contains(string(body), "Please wait 15 minutes") {
			t.Fatalf("%d Retry-After %q %s, want 429 too_many_attempts with Retry-After", status, header.Get("Retry-After"), body)
		}
		// Email-only sessions are not throttled, and other emails from the address still sign in.
		s.identify("pw@example.com", "")
		s.register("other@example.com", "pass-other")
		if got := s.identify("other@example.com", "pass-other"); got.Scope != "proven" {
			t.Fatalf("scope %s", got.Scope)
		}

		// Per address: 20 failures over many emails lock the address.
		s2 := newShop(t)
		for i := range 20 {
			email := "victim" + string(rune('a'+i)) + "@example.com"
			s2.identify(email, "") // a client without a password: any password is wrong
			_, err := s2.session.Create(t.Context(), &gensession.CreatePayload{Email: email, Password: ptr("guess")})
			wantErr(t, err, "invalid_credentials", "")
		}
		_, err = s2.session.Create(t.Context(), &gensession.CreatePayload{Email: "fresh@example.com", Password: ptr("fresh-password")})
		wantThrottled(t, err)
	})
}

func TestSetPassword(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		email := s.identify("setpw@example.com", "")
		err := s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(email.Token), Password: "long-enough"})
		wantErr(t, err, "unauthorized", "")
		proven := s.proven("setpw@example.com")
		err = s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(proven.Token), Password: "short"})
		wantErr(t, err, "weak_password", "Please choose a password of at least 8 characters.")
		if err := s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(proven.Token), Password: "long-enough"}); err != nil {
			t.Fatal(err)
		}
		if got := s.identify("setpw@example.com", "long-enough"); got.Scope != "proven" {
			t.Fatalf("scope %s, want proven", got.Scope)
		}
	})
}

func TestMACValidation(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("mac@example.com", "mac-password")
		_, svcID := s.activeService(owner.Token, standard())
		cases := []struct {
			in, want string // want "" means invalid
		}{
			{"00:1a:79:12:34:56", "00:1A:79:12:34:56"},
			{"00-1A-79-AB-cd-EF", "00:1A:79:AB:CD:EF"},
			{" 00:1A:79:12:34:57 ", "00:1A:79:12:34:57"},
			{"00:1A-79:12:34:56", ""},
			{"001A79123456", ""},
			{"00:1A:79:12:34", ""},
			{"00:1A:79:12:34:56:78", ""},
			{"00:1G:79:12:34:56", ""},
			{"0:1A:79:12:34:56", ""},
			{"00.1A.79.12.34.56", ""},
			{"", ""},
		}
		for _, tc := range cases {
			t.Run(tc.in, func(t *testing.T) {
				res, err := s.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(owner.Token), ServiceID: svcID, MacAddress: tc.in})
				if tc.want == "" {
					wantErr(t, err, "invalid_mac", "Please enter a valid MAC address: six pairs of hex digits separated by ':' or '-', e.g. 00:1A:79:12:34:56.")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.MacAddress != tc.want {
					t.Fatalf("mac %q, want %q", res.MacAddress, tc.want)
				}
				line, err := s.app.Store().LineByRef(t.Context(), svcID)
				if err != nil || line.MAC != tc.want {
					t.Fatalf("panel line mac %q (%v), want %q", line.MAC, err, tc.want)
				}
			})
		}
		status, _, _ := s.raw(http.MethodPut, "/checkout/api/services/"+svcID+"/mac", owner.Token, strings.NewReader(`{"macAddress":"nope"}`))
		if status != http.StatusBadRequest {
			t.Fatalf("bad MAC: status %d, want 400", status)
		}
		if n := s.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'mac' AND target = ? AND result = 'ok'`, svcID); n != 3 {
			t.Fatalf("%d audited MAC changes, want 3", n)
		}
	})
}

func TestServiceActions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("act@example.com", "act-password")
		_, svcID := s.activeService(owner.Token, standard())
		before, err := s.app.Store().LineByRef(t.Context(), svcID)
		if err != nil {
			t.Fatal(err)
		}

		list, err := s.services.List(t.Context(), &genservices.ListPayload{Token: ptr(owner.Token)})
		if err != nil || len(list.Services) != 1 || list.Services[0].ServiceID != svcID || list.Services[0].Username == "" {
			t.Fatalf("GET /services: %+v %v", list, err)
		}
		if res, err := s.services.Restart(t.Context(), &genservices.RestartPayload{Token: ptr(owner.Token), ServiceID: svcID}); err != nil || res.Status != "Active" {
			t.Fatalf("restart: %+v %v", res, err)
		}
		if res, err := s.services.Recreate(t.Context(), &genservices.RecreatePayload{Token: ptr(owner.Token), ServiceID: svcID}); err != nil || res.Status != "Active" || res.Username != before.Username {
			t.Fatalf("recreate: %+v %v", res, err)
		}
		if line, err := s.app.Store().LineByRef(t.Context(), svcID); err != nil || !line.Enabled || line.Password != before.Password {
			t.Fatalf("line after restart and recreate: %+v %v", line, err)
		}
		_, err = s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "bad_request", "Please confirm that you want to terminate this service: send {\"confirm\": true}.")
		_, err = s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID, Confirm: ptr(false)})
		wantErr(t, err, "bad_request", "")
		if status, _, body := s.raw(http.MethodPost, "/checkout/api/services/"+svcID+"/terminate", owner.Token, nil); status != http.StatusBadRequest ||
			!strings.Contains(string(body), `"name":"bad_request"`) {
			t.Fatalf("terminate without a body: %d %s, want 400 bad_request", status, body)
		}
		res, err := s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID, Confirm: ptr(true)})
		if err != nil || res.Status != "Terminated" {
			t.Fatalf("terminate: %+v %v", res, err)
		}
		if _, err := s.app.Store().LineByRef(t.Context(), svcID); err == nil {
			t.Fatal("the panel still has the terminated line")
		}
		_, err = s.services.Restart(t.Context(), &genservices.RestartPayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "conflict", "")
		for _, action := range []string{"restart", "recreate", "terminate"} {
			if n := s.count(`SELECT COUNT(*) FROM audit_log WHERE action = ? AND target = ? AND result = 'ok' AND session_id <> ''
				AND client_id = (SELECT id FROM clients WHERE public_id = ?)`, action, svcID, owner.UserID); n != 1 {
				t.Errorf("%d audit entries for %s, want 1", n, action)
			}
		}
	})
}

// TestAfterSaleOwnership: every endpoint acting on a purchase answers 404 to a foreign session,
// to an email-only session of the same client that did not buy it, and (for actions, which need
// a proven session) to the email-only session that bought it.
func TestAfterSaleOwnership(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("own@example.com", "")
		_, svcID := s.activeService(buyer.Token, standard())
		owner := s.proven("own@example.com")
		resOrder, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(owner.Token), Pid: 10, Password: "reseller-pw", ConfirmPassword: "reseller-pw"})
		if err != nil {
			t.Fatal(err)
		}
		sameClient := s.identify("own@example.com", "") // email-only, bought nothing
		foreign := s.register("stranger@example.com", "stranger-pw")

		type call func(token string) error
		calls := map[string]call{
			"POST restart": func(tok string) error {
				_, err := s.services.Restart(t.Context(), &genservices.RestartPayload{Token: ptr(tok), ServiceID: svcID})
				return err
			},
			"POST recreate": func(tok string) error {
				_, err := s.services.Recreate(t.Context(), &genservices.RecreatePayload{Token: ptr(tok), ServiceID: svcID})
				return err
			},
			"POST terminate": func(tok string) error {
				_, err := s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(tok), ServiceID: svcID, Confirm: ptr(true)})
				return err
			},
			"POST terminate unconfirmed": func(tok string) error {
				_, err := s.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(tok), ServiceID: svcID})
				return err
			},
			"PUT mac": func(tok string) error {
				_, err := s.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(tok), ServiceID: svcID, MacAddress: "00:1A:79:00:00:01"})
				return err
			},
			"PUT bad mac": func(tok string) error {
				_, err := s.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(tok), ServiceID: svcID, MacAddress: "bad"})
				return err
			},
			"POST upsell quote": func(tok string) error {
				_, err := s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(tok), ServiceID: svcID, ExtraQuantity: 1})
				return err
			},
			"POST upsell order": func(tok string) error {
				_, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(tok), ServiceID: svcID, ExtraQuantity: 1})
				return err
			},
		}
		reads := map[string]call{
			"GET service": func(tok string) error {
				_, err := s.services.Get(t.Context(), &genservices.GetPayload{Token: ptr(tok), ServiceID: svcID})
				return err
			},
			"GET reseller service": func(tok string) error {
				_, err := s.after.resellers.GetService(t.Context(), &genresellers.GetServicePayload{Token: ptr(tok), ServiceID: resOrder.ServiceID})
				return err
			},
		}
		for name, c := range calls {
			for who, tok := range map[string]string{"foreign": foreign.Token, "email-only same client": sameClient.Token, "email-only buyer": buyer.Token} {
				t.Run(name+"/"+who, func(t *testing.T) { wantErr(t, c(tok), "not_found", "") })
			}
		}
		for name, c := range reads {
			for who, tok := range map[string]string{"foreign": foreign.Token, "email-only same client": sameClient.Token} {
				t.Run(name+"/"+who, func(t *testing.T) { wantErr(t, c(tok), "not_found", "") })
			}
			t.Run(name+"/owner", func(t *testing.T) {
				if err := c(owner.Token); err != nil {
					t.Fatal(err)
				}
			})
		}
		// Raw HTTP: the status is 404.
		for _, tok := range []string{foreign.Token, sameClient.Token, buyer.Token} {
			status, _, _ := s.raw(http.MethodPost, "/checkout/api/services/"+svcID+"/restart", tok, nil)
			if status != http.StatusNotFound {
				t.Fatalf("restart: status %d, want 404", status)
			}
			if status, _, _ := s.raw(http.MethodPost, "/checkout/api/services/"+svcID+"/terminate", tok, nil); status != http.StatusNotFound {
				t.Fatalf("terminate without a body: status %d, want 404", status)
			}
		}
		// Lists hold only what the session may read.
		for who, tc := range map[string]struct {
			token string
			want  int
		}{"foreign": {foreign.Token, 0}, "email-only same client": {sameClient.Token, 0}, "email-only buyer": {buyer.Token, 1}, "proven": {owner.Token, 2}} {
			list, err := s.services.List(t.Context(), &genservices.ListPayload{Token: ptr(tc.token)})
			if err != nil || len(list.Services) != tc.want {
				t.Errorf("%s: GET /services %d services (%v), want %d", who, len(list.Services), err, tc.want)
			}
		}
		for who, tok := range map[string]string{"foreign": foreign.Token, "email-only buyer": buyer.Token} {
			offers, err := s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(tok)})
			if err != nil || len(offers.Offers) != 0 {
				t.Errorf("%s: %d upsell offers (%v), want none", who, len(offers.Offers), err)
			}
		}
		// Nothing was done to the service.
		if got := s.getService(owner.Token, svcID); got.Status != "Active" || got.MacAddress != "" || got.MaxConnections != 1 {
			t.Fatalf("service changed by refused calls: %+v", got)
		}
	})
}

func TestUpsellRaisesConnectionsOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("ups@example.com", "ups-password")
		_, svcID := s.activeService(owner.Token, standard())

		offers, err := s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(owner.Token)})
		if err != nil || len(offers.Offers) != 1 {
			t.Fatalf("offers: %+v %v", offers, err)
		}
		o := offers.Offers[0]
		if o.ServiceID != svcID || o.PricingCycle != "monthly" || o.MaxConnections != 1 || o.MaxExtra != 4 || o.UnitPrice.Amount != 300 || o.UnitPrice.Currency != "EUR" {
			t.Fatalf("offer %+v, unit %+v: want monthly, 1 connection, up to 4 more at 3.00 EUR", o, o.UnitPrice)
		}
		q, err := s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 2, Currency: ptr("GBP")})
		if err != nil || q.Total.Amount != 500 || q.Total.Currency != "GBP" || q.MaxConnections != 3 {
			t.Fatalf("GBP quote %+v %v: want 2 × 2.50 GBP, 3 connections", q, err)
		}
		_, err = s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 5})
		wantErr(t, err, "bad_request", "")

		ord, err := s.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		if ord.Status != "pending" || ord.Total.Amount != 600 || ord.Total.Currency != "EUR" || ord.PaymentURL == "" || ord.PaymentDeadline == "" || ord.InvoiceID == "" {
			t.Fatalf("upsell order %+v total %+v", ord, ord.Total)
		}
		if got := s.getOrder(owner.Token, ord.OrderID); got.Status != "pending" || got.Total.Amount != 600 {
			t.Fatalf("GET /orders/%s: %+v", ord.OrderID, got)
		}
		if resp := s.sandbox(ord.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		// A duplicate settlement (a provider's retried webhook) changes nothing.
		if resp := s.sandbox(ord.PaymentURL, "pay"); resp.StatusCode != http.StatusConflict {
			t.Fatalf("second pay: %d, want 409", resp.StatusCode)
		}
		s.drain()
		// Even a second run of the job (a lease taken over after a crash) does not raise twice.
		if err := s.app.Store().Enqueue(t.Context(), "provision", ord.OrderID, "provision:"+ord.OrderID+":again", time.Now()); err != nil {
			t.Fatal(err)
		}
		if n := s.drain(); n != 1 {
			t.Fatalf("%d jobs ran, want the repeated one", n)
		}
		if got := s.getOrder(owner.Token, ord.OrderID); got.Status != "active" {
			t.Fatalf("upsell order status %s, want active", got.Status)
		}
		if got := s.getService(owner.Token, svcID); got.MaxConnections != 3 {
			t.Fatalf("max connections %d, want 1 + 2 = 3", got.MaxConnections)
		}
		if line, err := s.app.Store().LineByRef(t.Context(), svcID); err != nil || line.MaxConnections != 3 {
			t.Fatalf("panel line max connections %d (%v), want 3", line.MaxConnections, err)
		}
		// The plan allows 4 extra connections: 2 are left.
		offers, _ = s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(owner.Token)})
		if len(offers.Offers) != 1 || offers.Offers[0].MaxExtra != 2 {
			t.Fatalf("offers after upsell: %+v", offers.Offers)
		}
	})
}

func TestUpsellEligibility(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("elig@example.com", "elig-password")
		_, trialID := s.activeService(owner.Token, trial())
		_, err := s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: trialID, ExtraQuantity: 1})
		wantErr(t, err, "conflict", "This service cannot take more connections.")
		pending := s.buy(owner.Token, standard())
		_, err = s.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: pending.ServiceIds[0], ExtraQuantity: 1})
		wantErr(t, err, "service_not_active", "This service is not active, so it cannot take more connections.")
		offers, err := s.after.upsell.Offers(t.Context(), &genupsell.OffersPayload{Token: ptr(owner.Token)})
		if err != nil || len(offers.Offers) != 0 {
			t.Fatalf("offers %+v %v, want none (trial and pending)", offers, err)
		}
	})
}

func TestResellers(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("res@example.com", "")
		me, err := s.after.resellers.Me(t.Context(), &genresellers.MePayload{Token: ptr(buyer.Token)})
		if err != nil || me.IsReseller {
			t.Fatalf("me before: %+v %v", me, err)
		}
		_, err = s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 10, Password: "abcdefgh", ConfirmPassword: "abcdefgX"})
		wantErr(t, err, "password_mismatch", "Not the same password")
		status, _, body := s.raw(http.MethodPost, "/checkout/api/resellers/orders", buyer.Token,
			strings.NewReader(`{"pid":10,"password":"abcdefgh","confirmPassword":"other"}`))
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"name":"password_mismatch"`) || !strings.Contains(string(body), "Not the same password") {
			t.Fatalf("mismatch: %d %s", status, body)
		}
		_, err = s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 2, Password: "abcdefgh", ConfirmPassword: "abcdefgh"})
		wantErr(t, err, "not_found", "")

		ord, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 10, Password: "abcdefgh", ConfirmPassword: "abcdefgh"})
		if err != nil {
			t.Fatal(err)
		}
		// The order's password is the panel account's: the answer gives the caller's own session back.
		if ord.Total.Amount != 14900 || ord.Total.Currency != "EUR" || ord.Status != "pending" || ord.PaymentURL == "" || ord.ServiceID == "" ||
			ord.Session.Scope != "email" || ord.Session.Token != buyer.Token || ord.Session.UserID != buyer.UserID {
			t.Fatalf("reseller order %+v total %+v session %+v", ord, ord.Total, ord.Session)
		}
		proven := s.proven("res@example.com").Token
		svc, err := s.after.resellers.GetService(t.Context(), &genresellers.GetServicePayload{Token: ptr(proven), ServiceID: ord.ServiceID})
		if err != nil || svc.Status != "Pending" || svc.Credits != 100 || svc.Balance != 0 {
			t.Fatalf("before payment: %+v %v", svc, err)
		}
		s.sandbox(ord.PaymentURL, "pay")
		s.sandbox(ord.PaymentURL, "pay")
		s.drain()
		svc, err = s.after.resellers.GetService(t.Context(), &genresellers.GetServicePayload{Token: ptr(proven), ServiceID: ord.ServiceID})
		if err != nil || svc.Status != "Active" || svc.Credits != 100 || svc.Balance != 100 || svc.Account != "res@example.com" {
			t.Fatalf("after payment: %+v %v", svc, err)
		}
		// The buying session reads it too (the success page), and the client is now a reseller.
		if _, err := s.after.resellers.GetService(t.Context(), &genresellers.GetServicePayload{Token: ptr(buyer.Token), ServiceID: ord.ServiceID}); err != nil {
			t.Fatalf("the buying session: %v", err)
		}
		for _, tok := range []string{proven, buyer.Token} {
			me, err = s.after.resellers.Me(t.Context(), &genresellers.MePayload{Token: ptr(tok)})
			if err != nil || !me.IsReseller || me.Balance != 100 {
				t.Fatalf("me after: %+v %v", me, err)
			}
		}
		// An email alone learns nothing about the client.
		if me, _ := s.after.resellers.Me(t.Context(), &genresellers.MePayload{Token: ptr(s.identify("res@example.com", "").Token)}); me.IsReseller {
			t.Fatal("an email-only session learnt that the client is a reseller")
		}
		// The order's password became the panel account's and nothing else: the client still has
		// no sign-in password.
		_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "res@example.com", Password: ptr("abcdefgh")})
		wantErr(t, err, "invalid_credentials", "")
		if n := s.count(`SELECT COUNT(*) FROM panel_resellers WHERE account = 'res@example.com' AND password_hash LIKE '$2%'`); n != 1 {
			t.Fatal("the panel account has no password")
		}
		second, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(proven), Pid: 11, Password: "abcdefgh", ConfirmPassword: "abcdefgh", ExistingReseller: true})
		if err != nil || second.Total.Amount != 59900 {
			t.Fatalf("second order %+v %v", second, err)
		}
		s.sandbox(second.PaymentURL, "pay")
		s.drain()
		if me, _ := s.after.resellers.Me(t.Context(), &genresellers.MePayload{Token: ptr(proven)}); me.Balance != 600 {
			t.Fatalf("balance %d, want 100 + 500", me.Balance)
		}
		if got := s.getOrder(proven, second.OrderID); got.Status != "active" {
			t.Fatalf("reseller order status %s", got.Status)
		}
	})
}

func TestNewResellerProduct(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.NewResellerPID = 11 }) // the demo has no set-up product: any reseller product prices it
		token := s.identify("newres@example.com", "").Token
		cases := []struct {
			existing bool
			want     int64
		}{{false, 14900 + 59900}, {true, 14900}}
		for _, tc := range cases {
			ord, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(token), Pid: 10, ExistingReseller: tc.existing,
				Password: "abcdefgh", ConfirmPassword: "abcdefgh"})
			if err != nil || ord.Total.Amount != tc.want {
				t.Fatalf("existingReseller=%v: total %+v (%v), want %d", tc.existing, ord.Total, err, tc.want)
			}
			token = ord.Session.Token
		}
	})
}

func TestAffiliateReport(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		for _, id := range []string{"42", "42", "42", "7"} {
			status, _, _ := s.raw(http.MethodPost, "/checkout/api/affiliates/clicks", "", strings.NewReader(`{"affId":"`+id+`","referer":"https://blog.example/post"}`))
			if status != http.StatusNoContent {
				t.Fatalf("click %s: status %d, want 204", id, status)
			}
		}
		for _, bad := range []string{"abc", "", "12a", "-1"} {
			err := s.after.affiliates.Click(t.Context(), &genaffiliates.ClickPayload{AffID: bad})
			if err == nil {
				t.Fatalf("click %q accepted", bad)
			}
		}
		if status, _, _ := s.raw(http.MethodPost, "/checkout/api/affiliates/clicks", "", strings.NewReader(`{"referer":"x"}`)); status != http.StatusBadRequest {
			t.Fatalf("missing affId: status %d, want 400", status)
		}
		buyer := s.identify("aff@example.com", "")
		withAff := func(id string) genorder.CreatePayload { p := standard(); p.AffiliateID = ptr(id); return p }
		s.activeService(buyer.Token, withAff("42"))
		s.buy(buyer.Token, withAff("42"))
		s.buy(buyer.Token, withAff("7"))
		s.activeService(buyer.Token, standard())

		rows, err := affiliate.New(s.app.Store(), nil).Report(t.Context(), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		want := []affiliate.Row{
			{AffID: "7", Clicks: 1, Orders: 1},
			// Three clicks from one address the same day count once.
			{AffID: "42", Clicks: 1, Orders: 2, PaidOrders: 1, Revenue: []money.Money{{Amount: 1299, Currency: "EUR"}}},
		}
		if len(rows) != len(want) {
			t.Fatalf("rows %+v, want %+v", rows, want)
		}
		for i := range want {
			g, w := rows[i], want[i]
			if g.AffID != w.AffID || g.Clicks != w.Clicks || g.Orders != w.Orders || g.PaidOrders != w.PaidOrders || len(g.Revenue) != len(w.Revenue) ||
				(len(w.Revenue) == 1 && g.Revenue[0] != w.Revenue[0]) {
				t.Errorf("row %d = %+v, want %+v", i, g, w)
			}
		}
		var out bytes.Buffer
		if err := affiliate.Print(&out, rows, money.Format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "42\t1\t2\t1\t12.99 EUR\n") || !strings.Contains(out.String(), "7\t1\t1\t0\t-\n") {
			t.Fatalf("report:\n%s", out.String())
		}
		future, err := affiliate.New(s.app.Store(), nil).Report(t.Context(), time.Now().Add(24*time.Hour))
		if err != nil || len(future) != 0 {
			t.Fatalf("report since tomorrow: %+v %v", future, err)
		}
	})
}
