package app_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"
	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/store/storetest"
	genadminjobs "github.com/streamcart/streamcart/gen/admin_jobs"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
	adminjobscli "github.com/streamcart/streamcart/gen/http/admin_jobs/client"
	adminorderscli "github.com/streamcart/streamcart/gen/http/admin_orders/client"
	adminsessioncli "github.com/streamcart/streamcart/gen/http/admin_session/client"
	adminsummarycli "github.com/streamcart/streamcart/gen/http/admin_summary/client"
)

const opPassword = "console password 1"

func init() { app.OperatorPasswordCost = bcrypt.MinCost }

// console is a shop on a test clock with the admin clients.
type console struct {
	*shop
	clock   *clock
	session *genadminsession.Client
	orders  *genadminorders.Client
	summary *genadminsummary.Client
	jobs    *genadminjobs.Client
}

func newConsole(t *testing.T, opts ...func(*app.Config)) *console {
	c := &clock{t: time.Now().UTC()}
	s := newShop(t, append([]func(*app.Config){func(cfg *app.Config) {
		cfg.Now = c.Now
		// The sign-in guard's delay moves the clock instead of waiting.
		cfg.Sleep = func(context.Context, time.Duration) error { return nil }
	}}, opts...)...)
	return consoleOf(s, c)
}

// consoleOf is the console's clients on shop s, whose business time is c.
func consoleOf(s *shop, c *clock) *console {
	u, _ := url.Parse(s.base)
	enc, dec := goahttp.RequestEncoder, goahttp.ResponseDecoder
	sc := adminsessioncli.NewClient(u.Scheme, u.Host, s.http, enc, dec, false)
	oc := adminorderscli.NewClient(u.Scheme, u.Host, s.http, enc, dec, false)
	mc := adminsummarycli.NewClient(u.Scheme, u.Host, s.http, enc, dec, false)
	jc := adminjobscli.NewClient(u.Scheme, u.Host, s.http, enc, dec, false)
	return &console{shop: s, clock: c,
		session: genadminsession.NewClient(sc.Setup(), sc.ConfirmSetup(), sc.Create(), sc.Get(), sc.Delete()),
		orders:  genadminorders.NewClient(oc.List(), oc.Get()),
		summary: genadminsummary.NewClient(mc.Get()),
		jobs:    genadminjobs.NewClient(jc.List(), jc.Retry(), jc.Cancel()),
	}
}

// operatorSession is a signed-in operator: its cookie and CSRF token.
type operatorSession struct {
	cookie, csrf string
	secret       string
}

// enrol adds an operator (as streamcart operator add does) and sets it up through the API.
func (c *console) enrol(email string, role operator.Role) string {
	c.t.Helper()
	inv, err := c.app.Operators().Add(c.t.Context(), email, role)
	if err != nil {
		c.t.Fatal(err)
	}
	en, err := c.session.Setup(c.t.Context(), &genadminsession.SetupPayload{Token: inv.Token, Password: opPassword})
	if err != nil {
		c.t.Fatalf("POST /admin/setup: %v", err)
	}
	code, _ := operator.Code(en.TotpSecret, c.clock.Now())
	if err := c.session.ConfirmSetup(c.t.Context(), &genadminsession.ConfirmSetupPayload{Token: inv.Token, Otp: code}); err != nil {
		c.t.Fatalf("POST /admin/setup/confirm: %v", err)
	}
	c.clock.Add(30 * time.Second) // a code works once
	return en.TotpSecret
}

func (c *console) signIn(email, secret string) operatorSession {
	c.t.Helper()
	code, _ := operator.Code(secret, c.clock.Now())
	res, err := c.session.Create(c.t.Context(), &genadminsession.CreatePayload{Email: email, Password: opPassword, Otp: code})
	if err != nil {
		c.t.Fatalf("POST /admin/session: %v", err)
	}
	c.clock.Add(30 * time.Second)
	return operatorSession{cookie: res.Session, csrf: res.CsrfToken, secret: secret}
}

func TestAdminSessionAndOrders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		owner := c.signIn("owner@example.com", c.enrol("owner@example.com", operator.RoleOwner))

		me, err := c.session.Get(ctx, &genadminsession.GetPayload{Session: &owner.cookie})
		if err != nil || me.Operator != "owner@example.com" || me.Role != "owner" || me.CsrfToken != owner.csrf || me.Billing != "builtin" {
			t.Fatalf("GET /admin/session: %+v %v", me, err)
		}

		tok := c.identify("buyer@example.com", "").Token
		bought := c.buy(tok, standard())
		c.buy(c.identify("other@example.com", "").Token, standard())

		list, err := c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Q: ptr("buyer@example.com"), Limit: 50})
		if err != nil {
			t.Fatalf("GET /admin/orders: %v", err)
		}
		if len(list.Orders) != 1 || list.Orders[0].ID != bought.OrderID || list.Orders[0].Total.Amount != 1299 || list.NextCursor != "" {
			t.Fatalf("orders of buyer@example.com: %+v", list)
		}
		// By invoice id, and by the beginning of an email.
		for _, q := range []string{list.Orders[0].InvoiceID, "buyer@", bought.OrderID} {
			l, err := c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Q: ptr(q), Limit: 50})
			if err != nil || len(l.Orders) != 1 || l.Orders[0].ID != bought.OrderID {
				t.Fatalf("q=%s: %+v %v", q, l, err)
			}
		}
		// Keyset paging: two orders, one a page.
		page1, err := c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Limit: 1})
		if err != nil || len(page1.Orders) != 1 || page1.NextCursor == "" {
			t.Fatalf("page 1: %+v %v", page1, err)
		}
		page2, err := c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Limit: 1, Cursor: &page1.NextCursor})
		if err != nil || len(page2.Orders) != 1 || page2.Orders[0].ID == page1.Orders[0].ID || page2.NextCursor != "" {
			t.Fatalf("page 2: %+v %v", page2, err)
		}
		_, err = c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Limit: 1, Cursor: ptr("nonsense!")})
		wantErr(t, err, "bad_request", "")
		_, err = c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Limit: 1, From: ptr("yesterday")})
		wantErr(t, err, "bad_request", "")

		// Pay through the sandbox and run the provisioning job: the timeline tells it.
		if resp := c.sandbox(bought.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox payment answered %d", resp.StatusCode)
		}
		c.drain()
		d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &owner.cookie, ID: bought.OrderID})
		if err != nil {
			t.Fatalf("GET /admin/orders/{id}: %v", err)
		}
		// The items' parts, for the console to word them (the plan's name as the catalog writes it, the cycle's key).
		if len(d.Items) == 0 || strings.Join(d.Items[0].Args, "|") != "plan|"+strings.SplitN(d.Items[0].Description, " — ", 2)[0]+"|monthly" {
			t.Errorf("items %+v: the plan item's args %q", d.Items, d.Items[0].Args)
		}
		kinds := map[string]bool{}
		// Each event's parts, for the console to word it in its operator's language (args by kind).
		wantArgs := map[string]int{"created": 2, "invoice": 4, "payment": 0, "review": 5, "webhook": 2, "job": 3, "mail": 2, "audit": 3}
		for _, e := range d.Timeline {
			kinds[e.Kind] = true
			if len(e.Args) != wantArgs[e.Kind] || e.Args == nil {
				t.Errorf("%s event args %q, want %d parts", e.Kind, e.Args, wantArgs[e.Kind])
			}
			switch e.Kind {
			case "created":
				if e.Args[0] != "plan" || e.Args[1] != "buyer@example.com" {
					t.Errorf("created args %q", e.Args)
				}
			case "invoice":
				if e.Args[1] != strconv.FormatInt(bought.Total.Amount, 10) || e.Args[2] != bought.Total.Currency || e.Args[3] != "sandbox" {
					t.Errorf("invoice args %q, order total %+v", e.Args, bought.Total)
				}
			}
		}
		for _, k := range []string{"created", "invoice", "payment", "job", "mail"} {
			if !kinds[k] {
				t.Errorf("timeline lacks %s: %+v", k, d.Timeline)
			}
		}
		if len(d.Lines) != 1 || d.Lines[0].Username == "" || d.Lines[0].Username == "••••" {
			t.Errorf("owner sees lines %+v", d.Lines)
		}
		_, err = c.orders.Get(ctx, &genadminorders.GetPayload{Session: &owner.cookie, ID: "ord_missing"})
		wantErr(t, err, "not_found", "")

		sum, err := c.summary.Get(ctx, &genadminsummary.GetPayload{Session: &owner.cookie, Days: 7})
		if err != nil {
			t.Fatalf("GET /admin/summary: %v", err)
		}
		if sum.Orders != 2 || sum.NewCustomers != 2 || sum.ActiveLines != 1 || len(sum.Series) != 7 ||
			len(sum.PaidRevenue) != 1 || sum.PaidRevenue[0].Amount != 1299 || sum.PaidRevenue[0].Currency != "EUR" {
			t.Fatalf("summary %+v", sum)
		}

		// Signed out, the cookie opens nothing.
		if _, err := c.session.Delete(ctx, &genadminsession.DeletePayload{Session: &owner.cookie, CsrfToken: &owner.csrf}); err != nil {
			t.Fatalf("DELETE /admin/session: %v", err)
		}
		_, err = c.orders.List(ctx, &genadminorders.ListPayload{Session: &owner.cookie, Limit: 50})
		wantErr(t, err, "unauthorized", "")
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE operator = 'owner@example.com' AND action IN ('console-signin', 'console-signout')`); n != 2 {
			t.Errorf("%d sign-in/out audit entries, want 2", n)
		}
	})
}

// TestAdminRoles: each role's boundary on the job actions (retry: support and owner; cancel:
// owner), credentials masked for a viewer, a client's token and no cookie refused.
func TestAdminRoles(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		sessions := map[string]operatorSession{}
		for _, r := range []operator.Role{operator.RoleOwner, operator.RoleSupport, operator.RoleViewer} {
			email := string(r) + "@example.com"
			sessions[string(r)] = c.signIn(email, c.enrol(email, r))
		}
		tok := c.identify("buyer@example.com", "").Token
		bought := c.buy(tok, standard())
		c.sandbox(bought.PaymentURL, "pay")
		c.drain()

		d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: ptr(sessions["viewer"].cookie), ID: bought.OrderID})
		if err != nil || len(d.Lines) != 1 || d.Lines[0].Username != "••••" || d.Lines[0].Password != "••••" {
			t.Fatalf("viewer's lines %+v %v", d, err)
		}
		d, err = c.orders.Get(ctx, &genadminorders.GetPayload{Session: ptr(sessions["support"].cookie), ID: bought.OrderID})
		if err != nil || d.Lines[0].Password == "••••" {
			t.Fatalf("support's lines %+v %v", d, err)
		}

		jobs, err := c.jobs.List(ctx, &genadminjobs.ListPayload{Session: ptr(sessions["viewer"].cookie), Limit: 100})
		if err != nil || len(jobs.Jobs) == 0 {
			t.Fatalf("jobs: %+v %v", jobs, err)
		}
		var done int64
		for _, j := range jobs.Jobs {
			if j.Kind == "provision" {
				done = j.ID
			}
		}
		retry := func(role string, id int64) error {
			s := sessions[role]
			_, err := c.jobs.Retry(ctx, &genadminjobs.RetryPayload{Session: &s.cookie, CsrfToken: &s.csrf, ID: id})
			return err
		}
		cancel := func(role string, id int64) error {
			s := sessions[role]
			_, err := c.jobs.Cancel(ctx, &genadminjobs.CancelPayload{Session: &s.cookie, CsrfToken: &s.csrf, ID: id})
			return err
		}
		wantErr(t, retry("viewer", done), "forbidden", "")
		wantErr(t, retry("support", done), "conflict", "") // allowed, but the job is done
		wantErr(t, retry("owner", done), "conflict", "")
		wantErr(t, cancel("viewer", done), "forbidden", "")
		wantErr(t, cancel("support", done), "forbidden", "")
		wantErr(t, cancel("owner", done), "conflict", "")
		wantErr(t, retry("owner", 999999), "not_found", "")

		// A client's Bearer token never reaches the console; nor does a request without a cookie.
		status, _, body := c.raw(http.MethodGet, "/checkout/api/admin/orders", tok, nil)
		if status != http.StatusUnauthorized || !strings.Contains(string(body), "unauthorized") {
			t.Fatalf("client token on /admin/orders: %d %s", status, body)
		}
		status, _, _ = c.raw(http.MethodGet, "/checkout/api/admin/summary", "", nil)
		if status != http.StatusUnauthorized {
			t.Fatalf("no cookie on /admin/summary: %d", status)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE operator = 'owner@example.com' AND action = 'job-cancel' AND result = 'failed'`); n != 1 {
			t.Errorf("%d failed job-cancel audit entries of the owner, want 1", n)
		}

		// A dead job retried, then cancelled: each audited with its parts, the job's kind and reference.
		storetest.Exec(t, c.cfg.DB, `UPDATE jobs SET state = 'dead' WHERE id = ?`, done)
		if err := retry("support", done); err != nil {
			t.Fatalf("retry of a dead job: %v", err)
		}
		if err := cancel("owner", done); err != nil {
			t.Fatalf("cancel of the retried job: %v", err)
		}
		target := "job:" + strconv.FormatInt(done, 10)
		for _, action := range []string{"job-retry", "job-cancel"} {
			got := c.auditArgs(t, sessions["viewer"], action, target)
			if len(got) != 1 || len(got[0]) != 3 || got[0][0] != "job" || got[0][1] != "provision" || got[0][2] == "" {
				t.Errorf("%s args %q", action, got)
			}
		}
	})
}

func TestAdminCSRF(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		owner := c.signIn("owner@example.com", c.enrol("owner@example.com", operator.RoleOwner))
		for _, csrf := range []*string{nil, ptr(""), ptr("not-the-token"), ptr(operator.CSRFToken("another session"))} {
			_, err := c.jobs.Cancel(t.Context(), &genadminjobs.CancelPayload{Session: &owner.cookie, CsrfToken: csrf, ID: 1})
			wantErr(t, err, "invalid_csrf_token", "")
			_, err = c.session.Delete(t.Context(), &genadminsession.DeletePayload{Session: &owner.cookie, CsrfToken: csrf})
			wantErr(t, err, "invalid_csrf_token", "")
		}
		// The refused sign-out left the session working.
		if _, err := c.session.Get(t.Context(), &genadminsession.GetPayload{Session: &owner.cookie}); err != nil {
			t.Fatalf("session after refused changes: %v", err)
		}
		status, _, _ := c.rawWith(http.MethodPost, "/checkout/api/admin/jobs/1/cancel", "", nil,
			http.Header{"Cookie": {"streamcart_admin=" + owner.cookie}})
		if status != http.StatusForbidden {
			t.Fatalf("raw change without X-CSRF-Token: %d", status)
		}
	})
}

// TestAdminSignInLock: 40 concurrent wrong sign-ins from one address; at most 10 are checked
// (401), the rest and then the right password from that address answer 429 too_many_attempts
// with Retry-After.
func TestAdminSignInLock(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		secret := c.enrol("owner@example.com", operator.RoleOwner)
		var wg sync.WaitGroup
		var mu sync.Mutex
		names := map[string]int{}
		for range 40 {
			wg.Go(func() {
				_, err := c.session.Create(t.Context(), &genadminsession.CreatePayload{Email: "owner@example.com", Password: "wrong password!!", Otp: "123456"})
				name := "none"
				var se *goa.ServiceError
				var ta *genadminsession.TooManyAttempts
				switch {
				case errors.As(err, &ta):
					name = ta.Name
				case errors.As(err, &se):
					name = se.Name
				}
				mu.Lock()
				names[name]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if names["invalid_credentials"] > operator.MaxPerAddress || names["invalid_credentials"]+names["too_many_attempts"] != 40 {
			t.Fatalf("outcomes %v: want at most 10 invalid_credentials, the rest too_many_attempts", names)
		}
		code, _ := operator.Code(secret, c.clock.Now())
		_, err := c.session.Create(t.Context(), &genadminsession.CreatePayload{Email: "owner@example.com", Password: opPassword, Otp: code})
		var ta *genadminsession.TooManyAttempts
		if !errors.As(err, &ta) || ta.RetryAfter < 1 || ta.RetryAfter > 15*60+1 {
			t.Fatalf("right password while locked: %v", err)
		}
		c.clock.Add(15*time.Minute + time.Second)
		c.signIn("owner@example.com", secret)
	})
}

func TestAdminDisabledOperatorAndSetupToken(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		ctx := t.Context()
		secret := c.enrol("gone@example.com", operator.RoleSupport)
		s := c.signIn("gone@example.com", secret)
		if _, err := c.app.Operators().Disable(ctx, "gone@example.com"); err != nil {
			t.Fatal(err)
		}
		_, err := c.session.Get(ctx, &genadminsession.GetPayload{Session: &s.cookie})
		wantErr(t, err, "unauthorized", "")
		code, _ := operator.Code(secret, c.clock.Now())
		_, err = c.session.Create(ctx, &genadminsession.CreatePayload{Email: "gone@example.com", Password: opPassword, Otp: code})
		wantErr(t, err, "invalid_credentials", "")

		inv, err := c.app.Operators().Add(ctx, "new@example.com", operator.RoleViewer)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.session.Setup(ctx, &genadminsession.SetupPayload{Token: inv.Token, Password: "too short"})
		wantErr(t, err, "weak_password", "")
		en, err := c.session.Setup(ctx, &genadminsession.SetupPayload{Token: inv.Token, Password: opPassword})
		if err != nil {
			t.Fatal(err)
		}
		err = c.session.ConfirmSetup(ctx, &genadminsession.ConfirmSetupPayload{Token: inv.Token, Otp: "000000"})
		wantErr(t, err, "invalid_otp", "")
		code, _ = operator.Code(en.TotpSecret, c.clock.Now())
		if err := c.session.ConfirmSetup(ctx, &genadminsession.ConfirmSetupPayload{Token: inv.Token, Otp: code}); err != nil {
			t.Fatal(err)
		}
		// Used.
		_, err = c.session.Setup(ctx, &genadminsession.SetupPayload{Token: inv.Token, Password: opPassword})
		wantErr(t, err, "invalid_setup_token", "")
		// Expired.
		late, err := c.app.Operators().Add(ctx, "late@example.com", operator.RoleViewer)
		if err != nil {
			t.Fatal(err)
		}
		c.clock.Add(24 * time.Hour)
		_, err = c.session.Setup(ctx, &genadminsession.SetupPayload{Token: late.Token, Password: opPassword})
		wantErr(t, err, "invalid_setup_token", "")
	})
}

// TestAdminCookieAttributes: HttpOnly, SameSite=Strict, the console's path, 12 h; Secure on an
// https shop only.
func TestAdminCookieAttributes(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, public := range []string{"", "https://shop.example"} {
			c := newConsole(t, func(cfg *app.Config) { cfg.PublicURL = public })
			secret := c.enrol("owner@example.com", operator.RoleOwner)
			code, _ := operator.Code(secret, c.clock.Now())
			status, h, body := c.raw(http.MethodPost, "/checkout/api/admin/session", "",
				strings.NewReader(`{"email":"owner@example.com","password":"`+opPassword+`","otp":"`+code+`"}`))
			if status != http.StatusCreated {
				t.Fatalf("sign-in: %d %s", status, body)
			}
			if strings.Contains(string(body), `"session"`) {
				t.Errorf("the cookie's value is in the body too: %s", body)
			}
			cookie := h.Get("Set-Cookie")
			for _, want := range []string{"streamcart_admin=", "Path=/checkout/", "Max-Age=43200", "HttpOnly", "SameSite=Strict"} {
				if !strings.Contains(cookie, want) {
					t.Errorf("public URL %q: Set-Cookie %q lacks %s", public, cookie, want)
				}
			}
			if secure := strings.Contains(cookie, "Secure"); secure != (public != "") {
				t.Errorf("public URL %q: Set-Cookie %q Secure = %v", public, cookie, secure)
			}
		}
	})
}
