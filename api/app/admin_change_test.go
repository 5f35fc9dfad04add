package app_test

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/planchange"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
	gensettings "github.com/streamcart/streamcart/gen/admin_settings"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
)

// days counts whole UTC days from a's day to b's.
func days(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours()/24 + 0.5)
}

// TestAdminChangeLine: POST /admin/services/{id}/change by role (viewer never; support only
// next-renewal; owner all), CSRF, bad input (400 with a named error and nothing changed), the
// preview, 40 concurrent charge-now changes placing one order and one mail, the mailed link paid
// (the line changes, its panel line follows through line-sync), next-renewal and free applied
// at once, 40 concurrent identical changes applying once, with and without an Idempotency-Key.
func TestAdminChangeLine(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t, withPayKey)
		cl := c.clientsOf().services
		ctx, st := t.Context(), c.app.Store()
		_, svcA := c.activeService(c.identify("alice@example.com", "").Token, standard())
		_, svcB := c.activeService(c.identify("bob@example.com", "").Token, standard())
		c.clock.Add(10 * 24 * time.Hour) // ten days into the month
		s := c.roles()

		change := func(role string, p genservices.ChangePayload) (*genservices.AdminLineChange, error) {
			p.Session, p.CsrfToken = ptr(s[role].cookie), ptr(s[role].csrf)
			if p.Reason == "" {
				p.Reason = "asked by phone"
			}
			return cl.Change(ctx, &p)
		}
		line := func(id string) planchange.Terms {
			t.Helper()
			v, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return planchange.TermsOf(v)
		}
		changes := func() int { return c.count(`SELECT COUNT(*) FROM service_changes`) }
		changeOrders := func() int { return c.count(`SELECT COUNT(*) FROM orders WHERE kind = 'change'`) }
		before := line(svcB)

		// Roles: a viewer may do nothing; support may bill from the next renewal only.
		for _, tc := range []struct{ role, charge string }{{"viewer", "next-renewal"}, {"viewer", "now"}, {"support", "now"}, {"support", "free"}} {
			_, err := change(tc.role, genservices.ChangePayload{ID: svcB, MaxConnections: ptr(3), Charge: tc.charge})
			wantErr(t, err, "forbidden", "")
		}
		if p, err := change("support", genservices.ChangePayload{ID: svcB, MaxConnections: ptr(3), Charge: "next-renewal", Preview: true}); err != nil || !p.Preview {
			t.Fatalf("support's next-renewal preview: %+v %v", p, err)
		}
		// CSRF: a change without the session's token is refused before anything is read.
		_, err := cl.Change(ctx, &genservices.ChangePayload{Session: ptr(s["owner"].cookie), CsrfToken: ptr("forged"), ID: svcB,
			MaxConnections: ptr(3), Charge: "free", Reason: "x"})
		wantErr(t, err, "invalid_csrf_token", "")
		status, _, _ := c.rawWith(http.MethodPost, "/checkout/api/admin/services/"+svcB+"/change", "",
			strings.NewReader(`{"maxConnections":3,"charge":"free","reason":"x"}`), http.Header{"Cookie": {"streamcart_admin=" + s["owner"].cookie}})
		if status != http.StatusForbidden {
			t.Fatalf("change without X-CSRF-Token: %d, want 403", status)
		}

		// Bad input: 400 with a named error, and nothing changed.
		tomorrowish := c.clock.Now().AddDate(0, 0, -1).Format(time.DateOnly)
		for name, p := range map[string]genservices.ChangePayload{
			"unknown plan":        {Pid: ptr(999), Charge: "free"},
			"a trial":             {Pid: ptr(1), Charge: "free"},
			"cycle not sold":      {BillingCycle: ptr("weekly"), Charge: "free"},
			"one-time cycle":      {BillingCycle: ptr("onetime"), Charge: "free"},
			"no connection":       {MaxConnections: ptr(0), Charge: "free"},
			"too many":            {MaxConnections: ptr(6), Charge: "free"},
			"due date past":       {NextDueDate: ptr(tomorrowish), Charge: "free"},
			"due date not a date": {NextDueDate: ptr("next week"), Charge: "free"},
			"blank reason":        {MaxConnections: ptr(3), Charge: "free", Reason: " "},
		} {
			p.ID = svcB
			if p.Reason == " " {
				p.Reason = ""
				p.Session, p.CsrfToken = ptr(s["owner"].cookie), ptr(s["owner"].csrf)
				_, err = cl.Change(ctx, &p)
			} else {
				_, err = change("owner", p)
			}
			if se := wantErr(t, err, "invalid_change", ""); se != nil && !strings.Contains(se.Message, ":") {
				t.Errorf("%s: message %q names no field", name, se.Message)
			}
		}
		status, _, body := c.rawWith(http.MethodPost, "/checkout/api/admin/services/"+svcB+"/change", "",
			strings.NewReader(`{"maxConnections":3,"charge":"later","reason":"x"}`),
			http.Header{"Cookie": {"streamcart_admin=" + s["owner"].cookie}, "X-Csrf-Token": {s["owner"].csrf}})
		if status != http.StatusBadRequest || !strings.Contains(string(body), `"name":"invalid_enum_value"`) {
			t.Fatalf("charge later: %d %s", status, body)
		}
		_, err = change("owner", genservices.ChangePayload{ID: svcB, MaxConnections: ptr(1), Charge: "free"})
		wantErr(t, err, "nothing_to_change", "")
		_, err = change("owner", genservices.ChangePayload{ID: "svc_nope", MaxConnections: ptr(2), Charge: "free"})
		wantErr(t, err, "not_found", "")
		// A downgrade charged now costs nothing more: refused, pointing at next-renewal or free.
		_, err = change("owner", genservices.ChangePayload{ID: svcB, BillingCycle: ptr("annually"), Charge: "now"})
		wantErr(t, err, "nothing_to_charge", "")
		if got := line(svcB); !got.Same(before) || changes() != 0 || changeOrders() != 0 {
			t.Fatalf("refused changes changed something: %+v (was %+v), %d changes, %d orders", got, before, changes(), changeOrders())
		}

		// The preview: the rest of the period at 2 more connections (3.00 each a month), by days.
		due := before.NextDueDate
		svcBRow, err := st.Service(ctx, svcB)
		if err != nil {
			t.Fatal(err)
		}
		left, period := days(c.clock.Now(), due), days(monthsOn(due, svcBRow.CreatedAt, -1), due)
		want := planchange.Prorate(1299, left, period, 1899, left, period)
		p, err := change("owner", genservices.ChangePayload{ID: svcB, MaxConnections: ptr(3), Charge: "now", Preview: true})
		if err != nil || !p.Preview || p.Applied || p.ChangeID != "" || p.Amount.Amount != want || p.Amount.Currency != "EUR" ||
			p.RecurringAmount.Amount != 1299 || p.NewRecurringAmount.Amount != 1899 || p.DaysLeft != left || p.PeriodDays != period ||
			p.From.MaxConnections != 1 || p.To.MaxConnections != 3 || !strings.Contains(p.Effect, "pay link") {
			t.Fatalf("preview %+v %v, want %d for %d of %d days", p, err, want, left, period)
		}
		if want <= 0 || want >= 600 || changes() != 0 || changeOrders() != 0 {
			t.Fatalf("preview amount %d, %d changes, %d orders: the preview recorded something", want, changes(), changeOrders())
		}

		// 40 concurrent charge-now changes: one order, one mail; the others wait for it (409).
		var wg sync.WaitGroup
		var mu sync.Mutex
		var made []*genservices.AdminLineChange
		refused := map[string]int{}
		for range 40 {
			wg.Go(func() {
				r, err := change("owner", genservices.ChangePayload{ID: svcB, MaxConnections: ptr(3), Charge: "now"})
				mu.Lock()
				defer mu.Unlock()
				var se *goa.ServiceError
				switch {
				case err == nil:
					made = append(made, r)
				case errors.As(err, &se):
					refused[se.Name]++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if len(made) != 1 || refused["change_pending"]+refused["conflict"] != 39 || changeOrders() != 1 {
			t.Fatalf("40 charge-now changes: %d made, refused %v, %d orders", len(made), refused, changeOrders())
		}
		ch := made[0]
		if ch.Applied || ch.OrderID == "" || ch.InvoiceID != "" && ch.InvoiceID == ch.OrderID || ch.SentTo != "bob@example.com" || ch.Amount.Amount != want {
			t.Fatalf("charge-now change %+v", ch)
		}
		if got := line(svcB); !got.Same(before) {
			t.Fatalf("the line changed before the payment: %+v", got)
		}
		var mails []string
		for _, m := range c.mailsTo("bob@example.com") {
			if strings.Contains(m.Body, "/renew?invoice=") {
				mails = append(mails, m.Body)
			}
		}
		msgs := c.renewalMails("bob@example.com")
		if len(msgs) != 1 || !strings.Contains(msgs[0].Subject, "subscription change") {
			t.Fatalf("%d pay-link mails to the buyer (%v), want the change's", len(msgs), mails)
		}
		// Pay the mailed link: the same pay page as a renewal's.
		_, invoice, token := payLink(t, msgs[0])
		inv, err := c.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: invoice, T: ptr(token)})
		if err != nil || inv.OrderID != ch.OrderID || inv.Total.Amount != want || inv.Status != "unpaid" || inv.ServiceID != svcB {
			t.Fatalf("the pay page: %+v %v", inv, err)
		}
		paid, err := c.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: invoice, T: ptr(token), Gateway: ptr("sandbox")})
		if err != nil {
			t.Fatal(err)
		}
		if resp := c.sandbox(paid.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox: %d", resp.StatusCode)
		}
		c.drain()
		if got := line(svcB); got.MaxConnections != 3 || got.PID != 2 || !got.NextDueDate.Equal(due) {
			t.Fatalf("after paying: %+v, want 3 connections", got)
		}
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = 'line-sync' AND ref = ? AND state = 'done'`, svcB); n != 1 {
			t.Fatalf("%d line-sync jobs done for the line, want 1", n)
		}
		if o, err := st.Order(ctx, ch.OrderID); err != nil || o.Status != "active" {
			t.Fatalf("the change's order: %+v %v", o.Status, err)
		}
		// Audited twice on the line, in parts: the operator's change charged now, then the buyer's payment applying it.
		if got := c.auditArgs(t, s["viewer"], "line-change", svcB); len(got) != 2 || fmt.Sprint(got[0]) != fmt.Sprintf("[change-applied %s %s]", ch.OrderID, ch.ChangeID) ||
			len(got[1]) != 16 || got[1][1] != "now" || got[1][11] != strconv.FormatInt(want, 10) {
			t.Errorf("line-change args %q", got)
		}
		listed, err := cl.List(ctx, &genservices.ListPayload{Session: ptr(s["viewer"].cookie), Q: ptr(svcB), Limit: 50})
		if err != nil || listed.Services[0].MaxConnections != 3 || listed.Services[0].RecurringAmount.Amount != 1899 {
			t.Fatalf("listed after the change: %+v %v", listed.Services[0], err)
		}

		// next-renewal (support): the line changes now, the recurring amount from the next period.
		r, err := change("support", genservices.ChangePayload{ID: svcA, BillingCycle: ptr("quarterly"), Charge: "next-renewal"})
		if err != nil || !r.Applied || r.Amount.Amount != 0 || r.NewRecurringAmount.Amount != 3299 || line(svcA).BillingCycle != "quarterly" {
			t.Fatalf("next-renewal: %+v %v", r, err)
		}
		// free (owner): the due date ten days on, the expiry with it; audited as free.
		a := line(svcA)
		exp, _ := st.Service(ctx, svcA)
		newDue := a.NextDueDate.AddDate(0, 0, 10).Format(time.DateOnly)
		r, err = change("owner", genservices.ChangePayload{ID: svcA, NextDueDate: ptr(newDue), Charge: "free", Reason: "goodwill"})
		after, _ := st.Service(ctx, svcA)
		if err != nil || !r.Applied || after.NextDueDate.Format(time.DateOnly) != newDue || !after.ExpiresAt.Equal(exp.ExpiresAt.AddDate(0, 0, 10)) {
			t.Fatalf("free: %+v %v; due %s expiry %s (was %s)", r, err, after.NextDueDate, after.ExpiresAt, exp.ExpiresAt)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'line-change' AND target = ? AND operator = 'owner@example.com' AND detail LIKE 'free:%goodwill'`, svcA); n != 1 {
			t.Fatalf("%d free changes audited, want 1", n)
		}
		// In parts, as GET /admin/audit sends them: the charge, the reason, each term before and after.
		if got := c.auditArgs(t, s["owner"], "line-change", svcA); len(got) == 0 || len(got[0]) != 16 || got[0][0] != "line-change" || got[0][1] != "free" ||
			got[0][2] != "goodwill" || got[0][9] != a.NextDueDate.Format(time.DateOnly) || got[0][10] != newDue || got[0][7] != got[0][8] {
			t.Errorf("line-change args %q", got)
		}

		// 40 concurrent identical changes without a key: one applies, the others change nothing.
		made, refused = nil, map[string]int{}
		n0 := changes()
		for range 40 {
			wg.Go(func() {
				r, err := change("owner", genservices.ChangePayload{ID: svcA, MaxConnections: ptr(2), Charge: "free"})
				mu.Lock()
				defer mu.Unlock()
				var se *goa.ServiceError
				switch {
				case err == nil:
					made = append(made, r)
				case errors.As(err, &se):
					refused[se.Name]++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if len(made) != 1 || refused["nothing_to_change"]+refused["conflict"] != 39 || changes() != n0+1 || line(svcA).MaxConnections != 2 {
			t.Fatalf("40 identical changes: %d made, refused %v, %d changes recorded", len(made), refused, changes()-n0)
		}
		// With one Idempotency-Key: every call answers the one change.
		ids := make([]string, 40)
		for i := range ids {
			wg.Go(func() {
				r, err := change("owner", genservices.ChangePayload{ID: svcA, MaxConnections: ptr(4), Charge: "free", IdempotencyKey: ptr("k-1")})
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = r.ChangeID
			})
		}
		wg.Wait()
		for _, id := range ids {
			if id == "" || id != ids[0] {
				t.Fatalf("40 calls with one key answered changes %v", ids)
			}
		}
		if changes() != n0+2 || line(svcA).MaxConnections != 4 {
			t.Fatalf("one key: %d changes recorded, want 1", changes()-n0-1)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'line-change' AND target = ?`, svcA); n != 4 {
			t.Fatalf("%d changes of line A audited, want 4", n)
		}
		// The same key for another change is refused.
		_, err = change("owner", genservices.ChangePayload{ID: svcA, MaxConnections: ptr(5), Charge: "free", IdempotencyKey: ptr("k-1")})
		wantErr(t, err, "conflict", "")

		// An oversized body is refused before it is read; nothing changes.
		owner := http.Header{"Cookie": {"streamcart_admin=" + s["owner"].cookie}, "X-Csrf-Token": {s["owner"].csrf}}
		big := `{"maxConnections":5,"charge":"free","reason":"` + strings.Repeat("a", 70<<10) + `"}`
		if status, _, body := c.rawWith(http.MethodPost, "/checkout/api/admin/services/"+svcA+"/change", "", strings.NewReader(big), owner); status != http.StatusRequestEntityTooLarge {
			t.Fatalf("70 KB change: %d %s, want 413", status, body)
		}
		if line(svcA).MaxConnections != 4 {
			t.Fatal("an oversized change changed the line")
		}
		// A forged Host (and X-Forwarded-Host) never reaches the mailed pay link: it is built on the
		// shop's configured address.
		forged := owner.Clone()
		forged.Set("X-Forwarded-Host", "evil.example")
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/checkout/api/admin/services/"+svcA+"/change",
			strings.NewReader(`{"maxConnections":5,"charge":"now","reason":"forged host"}`))
		req.Header = forged
		req.Header.Set("Content-Type", "application/json")
		req.Host = "evil.example"
		resp, err := c.noJump.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("charge-now change with a forged Host: %d", resp.StatusCode)
		}
		for _, m := range c.renewalMails("alice@example.com") {
			if strings.Contains(m.Body+m.HTML, "evil.example") || !strings.Contains(m.Body, c.base+"/checkout/renew?") {
				t.Fatalf("the pay link follows the request's Host:\n%s", m.Body)
			}
		}
		if n := len(c.renewalMails("alice@example.com")); n != 1 {
			t.Fatalf("%d pay-link mails to alice, want the change's", n)
		}
	})
}

// TestAdminSettings: GET /admin/settings is the owner's; each setting with its source (default,
// environment, flag), secrets masked, a URL's password masked, a _FILE secret's path shown.
func TestAdminSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		set := config.New("serve")
		var addr, key, stripe, smtp, name string
		var poll time.Duration
		set.Addr(&addr, "addr", "127.0.0.1:8080", "listen address")
		set.Secret(&key, "secret-key", "the shop's key")
		set.Secret(&stripe, "stripe-secret-key", "Stripe's key")
		set.URL(&smtp, "smtp-url", "", "mail server", "smtp").MarkSecret()
		set.String(&name, "store-name", "Streamcart", "shop name")
		set.Duration(&poll, "job-poll", time.Second, "poll")
		env := map[string]string{"STREAMCART_SECRET_KEY": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==",
			"STREAMCART_STRIPE_SECRET_KEY_FILE": "/run/secrets/stripe", "STREAMCART_SMTP_URL": "smtp://shop:hunter2@mail.example:587?from=shop@example.com",
			"STREAMCART_STORE_NAME": "My Shop"}
		set.Lookup = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
		set.ReadFile = func(string) ([]byte, error) { return []byte("sk_test_123\n"), nil }
		if err := set.Parse([]string{"--job-poll", "2s"}, nil); err != nil {
			t.Fatal(err)
		}
		c := newConsole(t, func(cfg *app.Config) { cfg.Settings = set.InForce })
		cl := c.clientsOf().settings
		s := c.roles()
		for _, role := range []string{"viewer", "support"} {
			_, err := cl.List(t.Context(), &gensettings.ListPayload{Session: ptr(s[role].cookie)})
			wantErr(t, err, "forbidden", "")
		}
		if status, _, _ := c.rawWith(http.MethodGet, "/checkout/api/admin/settings", "", nil, nil); status != http.StatusUnauthorized {
			t.Fatalf("settings without a session: %d", status)
		}
		res, err := cl.List(t.Context(), &gensettings.ListPayload{Session: ptr(s["owner"].cookie)})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]*gensettings.AdminSetting{}
		for _, v := range res.Settings {
			got[v.Name] = v
		}
		for name, want := range map[string]gensettings.AdminSetting{
			"addr":              {Env: "STREAMCART_ADDR", Flag: "--addr", Value: "127.0.0.1:8080", Source: "default"},
			"secret-key":        {Env: "STREAMCART_SECRET_KEY", Value: "••••", Source: "environment", Secret: true},
			"stripe-secret-key": {Env: "STREAMCART_STRIPE_SECRET_KEY_FILE", Value: "/run/secrets/stripe", Source: "environment", Secret: true},
			"smtp-url":          {Env: "STREAMCART_SMTP_URL", Flag: "--smtp-url", Value: "smtp://shop:••••@mail.example:587?from=shop%40example.com", Source: "environment", Secret: true},
			"store-name":        {Env: "STREAMCART_STORE_NAME", Flag: "--store-name", Value: "My Shop", Source: "environment"},
			"job-poll":          {Env: "STREAMCART_JOB_POLL", Flag: "--job-poll", Value: "2s", Source: "flag"},
		} {
			g := got[name]
			if g == nil || g.Env != want.Env || g.Flag != want.Flag || g.Value != want.Value || g.Source != want.Source || g.Secret != want.Secret || g.Description == "" {
				t.Errorf("%s: %+v, want %+v", name, g, want)
			}
		}
		if len(res.Settings) != 6 {
			t.Errorf("%d settings, want 6", len(res.Settings))
		}
		_, _, raw := c.rawWith(http.MethodGet, "/checkout/api/admin/settings", "", nil, http.Header{"Cookie": {"streamcart_admin=" + s["owner"].cookie}})
		for _, secret := range []string{"hunter2", "sk_test_123", "c2VjcmV0"} {
			if strings.Contains(string(raw), secret) {
				t.Fatalf("the settings show a secret %q: %s", secret, raw)
			}
		}
	})
}
