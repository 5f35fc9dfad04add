package app_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	goahttp "goa.design/goa/v3/http"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/operator"
	genaudit "github.com/streamcart/streamcart/gen/admin_audit"
	gencatalog "github.com/streamcart/streamcart/gen/admin_catalog"
	gencustomers "github.com/streamcart/streamcart/gen/admin_customers"
	genmail "github.com/streamcart/streamcart/gen/admin_mail"
	genoperators "github.com/streamcart/streamcart/gen/admin_operators"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genpromos "github.com/streamcart/streamcart/gen/admin_promotions"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
	gensettings "github.com/streamcart/streamcart/gen/admin_settings"
	genwebhooks "github.com/streamcart/streamcart/gen/admin_webhooks"
	auditcli "github.com/streamcart/streamcart/gen/http/admin_audit/client"
	catalogcli "github.com/streamcart/streamcart/gen/http/admin_catalog/client"
	customerscli "github.com/streamcart/streamcart/gen/http/admin_customers/client"
	mailcli "github.com/streamcart/streamcart/gen/http/admin_mail/client"
	operatorscli "github.com/streamcart/streamcart/gen/http/admin_operators/client"
	actionscli "github.com/streamcart/streamcart/gen/http/admin_order_actions/client"
	promoscli "github.com/streamcart/streamcart/gen/http/admin_promotions/client"
	servicescli "github.com/streamcart/streamcart/gen/http/admin_services/client"
	settingscli "github.com/streamcart/streamcart/gen/http/admin_settings/client"
	webhookscli "github.com/streamcart/streamcart/gen/http/admin_webhooks/client"
)

// consoleClients are the clients of the console's actions.
type consoleClients struct {
	actions   *genactions.Client
	customers *gencustomers.Client
	services  *genservices.Client
	mail      *genmail.Client
	webhooks  *genwebhooks.Client
	catalog   *gencatalog.Client
	promos    *genpromos.Client
	audit     *genaudit.Client
	operators *genoperators.Client
	settings  *gensettings.Client
}

func (c *console) clientsOf() consoleClients {
	u, _ := url.Parse(c.base)
	enc, dec := goahttp.RequestEncoder, goahttp.ResponseDecoder
	a := actionscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	cu := customerscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	sv := servicescli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	ml := mailcli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	wh := webhookscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	ca := catalogcli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	pr := promoscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	au := auditcli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	op := operatorscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	st := settingscli.NewClient(u.Scheme, u.Host, c.http, enc, dec, false)
	return consoleClients{
		actions:   genactions.NewClient(a.Approve(), a.Reject(), a.Refund(), a.Refunds()),
		customers: gencustomers.NewClient(cu.List(), cu.Get(), cu.Signout(), cu.SigninLink()),
		services:  genservices.NewClient(sv.List(), sv.Export(), sv.Cancel(), sv.Resume(), sv.RenewalLink(), sv.Suspend(), sv.Unsuspend(), sv.Extend(), sv.Change(), sv.Terminate()),
		mail:      genmail.NewClient(ml.List(), ml.Resend()),
		webhooks:  genwebhooks.NewClient(wh.List()),
		catalog:   gencatalog.NewClient(ca.Get(), ca.Put(), ca.Check(), ca.Draft(), ca.Versions(), ca.Version()),
		promos:    genpromos.NewClient(pr.List(), pr.Create(), pr.Update()),
		audit:     genaudit.NewClient(au.List()),
		operators: genoperators.NewClient(op.List(), op.Invite(), op.Disable()),
		settings:  gensettings.NewClient(st.List()),
	}
}

// roles signs in an owner, a support and a viewer.
func (c *console) roles() map[string]operatorSession {
	out := map[string]operatorSession{}
	for _, r := range []operator.Role{operator.RoleOwner, operator.RoleSupport, operator.RoleViewer} {
		email := string(r) + "@example.com"
		out[string(r)] = c.signIn(email, c.enrol(email, r))
	}
	return out
}

// paidOrder buys a Standard plan through the sandbox and provisions it.
func (c *console) paidOrder(email string) (orderID, serviceID, token string) {
	c.t.Helper()
	token = c.identify(email, "").Token
	o := c.buy(token, standard())
	if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("sandbox payment answered %d", resp.StatusCode)
	}
	c.drain()
	return o.OrderID, o.ServiceIds[0], token
}

func TestAdminRefundPartialThenFull(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		id, svc, _ := c.paidOrder("buyer@example.com")
		refund := func(role string, amount *int64, keep bool) (*genactions.RefundResult, error) {
			x := s[role]
			return cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: id, Amount: amount, Reason: "goodwill", KeepLine: keep})
		}
		_, err := refund("viewer", ptr(int64(100)), false)
		wantErr(t, err, "forbidden", "")
		_, err = refund("support", ptr(int64(100)), false)
		wantErr(t, err, "forbidden", "")
		_, err = refund("owner", ptr(int64(5000)), false)
		wantErr(t, err, "bad_request", "") // more than the 12.99 paid

		r, err := refund("owner", ptr(int64(500)), false)
		if err != nil || r.Order.Status != "partially_refunded" || r.Refund.Method != "sandbox" || r.Refund.Reference == "" ||
			r.Refund.Amount.Amount != 500 || r.Refunded.Amount != 500 || r.Refund.Operator != "owner@example.com" {
			t.Fatalf("partial refund: %+v %v", r, err)
		}
		if st := c.count(`SELECT COUNT(*) FROM services WHERE id = ? AND status = 'Active'`, svc); st != 1 {
			t.Fatal("a partial refund stopped the line")
		}
		r, err = refund("owner", nil, false) // the rest
		if err != nil || r.Order.Status != "refunded" || r.Refund.Amount.Amount != 799 || r.Refunded.Amount != 1299 {
			t.Fatalf("full refund: %+v %v", r, err)
		}
		if st := c.count(`SELECT COUNT(*) FROM services WHERE id = ? AND status = 'Cancelled'`, svc); st != 1 {
			t.Fatal("a full refund left the line running")
		}
		// The panel line is switched off by the line-sync job queued with the refund.
		c.drain()
		if line, err := c.app.Store().LineByRef(ctx, svc); err != nil || line.Enabled {
			t.Fatalf("panel line after a full refund: %+v %v, want switched off", line, err)
		}
		_, err = refund("owner", nil, false)
		wantErr(t, err, "conflict", "") // nothing left
		list, err := cl.actions.Refunds(ctx, &genactions.RefundsPayload{Session: ptr(s["viewer"].cookie), ID: id})
		if err != nil || len(list.Refunds) != 2 || list.Refunded.Amount != 1299 {
			t.Fatalf("refunds: %+v %v", list, err)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE operator = 'owner@example.com' AND action = 'order-refund' AND target = ? AND result = 'ok'`, id); n != 2 {
			t.Fatalf("%d audited refunds, want 2", n)
		}
		// Each entry's detail in parts, for the console to word it: the amount in minor units, the method, the reason.
		entries, err := cl.audit.List(ctx, &genaudit.ListPayload{Session: ptr(s["viewer"].cookie), Action: ptr("order-refund"), Target: &id, Limit: 10})
		if err != nil {
			t.Fatalf("audit of the refunds: %v", err)
		}
		for _, e := range entries.Entries {
			if e.Result != "ok" {
				continue
			}
			if len(e.Args) != 6 || e.Args[0] != "refund" || e.Args[2] != "EUR" || e.Args[4] != "goodwill" || e.Args[5] != "" {
				t.Errorf("refund entry %q: args %q", e.Detail, e.Args)
			}
		}

		// keepLine leaves the line of a fully refunded order running.
		id2, svc2, _ := c.paidOrder("keeper@example.com")
		o := s["owner"]
		r, err = cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &o.cookie, CsrfToken: &o.csrf, ID: id2, Reason: "kept", KeepLine: true})
		if err != nil || r.Order.Status != "refunded" {
			t.Fatalf("refund keepLine: %+v %v", r, err)
		}
		if st := c.count(`SELECT COUNT(*) FROM services WHERE id = ? AND status = 'Active'`, svc2); st != 1 {
			t.Fatal("keepLine: the line was stopped")
		}
		// An unpaid order has nothing to refund.
		unpaid := c.buy(c.identify("unpaid@example.com", "").Token, standard())
		_, err = cl.actions.Refund(ctx, &genactions.RefundPayload{Session: &o.cookie, CsrfToken: &o.csrf, ID: unpaid.OrderID, Reason: "x"})
		wantErr(t, err, "conflict", "")
	})
}

func TestAdminApproveAndRejectHeld(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t, func(cfg *app.Config) { cfg.FraudBanned = []string{"fraud.example"} })
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		held := c.buy(c.identify("a@fraud.example", "").Token, standard())
		held2 := c.buy(c.identify("b@fraud.example", "").Token, standard())
		if held.Status != "fraud" {
			t.Fatalf("order not held: %s", held.Status)
		}
		approve := func(role, id string) (*genactions.AdminOrder, error) {
			x := s[role]
			return cl.actions.Approve(ctx, &genactions.ApprovePayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: id, Mode: "provision"})
		}
		_, err := approve("viewer", held.OrderID)
		wantErr(t, err, "forbidden", "")
		_, err = approve("support", held.OrderID)
		wantErr(t, err, "forbidden", "")
		o, err := approve("owner", held.OrderID)
		if err != nil || o.Status != "paid" {
			t.Fatalf("approve: %+v %v", o, err)
		}
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND status = 'active'`, held.OrderID); n != 1 {
			t.Fatal("the approved order was not provisioned")
		}
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Active'`, held.OrderID); n != 1 {
			t.Fatal("the approved order has no active line")
		}
		_, err = approve("owner", held.OrderID)
		wantErr(t, err, "conflict", "") // not held any more

		x := s["owner"]
		rj, err := cl.actions.Reject(ctx, &genactions.RejectPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: held2.OrderID, Reason: ptr("stolen card")})
		if err != nil || rj.Order.Status != "cancelled" || rj.Refund != nil {
			t.Fatalf("reject: %+v %v", rj, err)
		}
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Active'`, held2.OrderID); n != 0 {
			t.Fatal("the rejected order was provisioned")
		}
		_, err = cl.actions.Reject(ctx, &genactions.RejectPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: "ord_nope"})
		wantErr(t, err, "not_found", "")
	})
}

func TestAdminCustomerSignoutAndLines(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		_, svc, _ := c.paidOrder("buyer@example.com")
		token := c.proven("buyer@example.com").Token
		c.getService(token, svc) // the token works

		found, err := cl.customers.List(ctx, &gencustomers.ListPayload{Session: ptr(s["viewer"].cookie), Q: ptr("buyer@"), Limit: 50})
		if err != nil || len(found.Customers) != 1 || found.Customers[0].Orders != 1 || found.Customers[0].ActiveLines != 1 {
			t.Fatalf("customers: %+v %v", found, err)
		}
		cid := found.Customers[0].ID
		d, err := cl.customers.Get(ctx, &gencustomers.GetPayload{Session: ptr(s["viewer"].cookie), ID: cid})
		if err != nil || len(d.Orders) != 1 || len(d.Services) != 1 || d.Services[0].Password != "••••" || len(d.Sessions) == 0 {
			t.Fatalf("customer: %+v %v", d, err)
		}
		signout := func(role string) (*gencustomers.SignoutResult, error) {
			x := s[role]
			return cl.customers.Signout(ctx, &gencustomers.SignoutPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: cid})
		}
		_, err = signout("viewer")
		wantErr(t, err, "forbidden", "")
		res, err := signout("support")
		if err != nil || res.SessionsEnded < 1 {
			t.Fatalf("signout: %+v %v", res, err)
		}
		if status, _, _ := c.raw(http.MethodGet, "/checkout/api/services/"+svc, token, nil); status != http.StatusUnauthorized {
			t.Fatalf("the signed-out token still answers %d", status)
		}
		sup := s["support"]
		sent, err := cl.customers.SigninLink(ctx, &gencustomers.SigninLinkPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: cid})
		if err != nil || sent.SentTo != "buyer@example.com" {
			t.Fatalf("signin-link: %+v %v", sent, err)
		}
		if tok, _ := c.lastLink("buyer@example.com"); tok == "" {
			t.Fatal("no sign-in link mailed")
		}

		// Lines: support suspends, unsuspends and extends; only an owner terminates.
		line := func(role string, do string) (*genservices.AdminLine, error) {
			x := s[role]
			switch do {
			case "suspend":
				return cl.services.Suspend(ctx, &genservices.SuspendPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: svc})
			case "unsuspend":
				return cl.services.Unsuspend(ctx, &genservices.UnsuspendPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: svc})
			case "extend":
				return cl.services.Extend(ctx, &genservices.ExtendPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: svc, Days: 10})
			}
			return cl.services.Terminate(ctx, &genservices.TerminatePayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: svc})
		}
		_, err = line("viewer", "suspend")
		wantErr(t, err, "forbidden", "")
		if l, err := line("support", "suspend"); err != nil || l.Status != "Suspended" {
			t.Fatalf("suspend: %+v %v", l, err)
		}
		_, err = line("support", "suspend")
		wantErr(t, err, "conflict", "")
		if l, err := line("support", "unsuspend"); err != nil || l.Status != "Active" {
			t.Fatalf("unsuspend: %+v %v", l, err)
		}
		before := c.getService(c.proven("buyer@example.com").Token, svc)
		l, err := line("support", "extend")
		if err != nil || l.ExpiresAt == "" || l.ExpiresAt <= before.ExpiresAt {
			t.Fatalf("extend: %+v (was %s) %v", l, before.ExpiresAt, err)
		}
		_, err = line("support", "terminate")
		wantErr(t, err, "forbidden", "")
		if l, err := line("owner", "terminate"); err != nil || l.Status != "Terminated" {
			t.Fatalf("terminate: %+v %v", l, err)
		}
		entries, err := cl.audit.List(ctx, &genaudit.ListPayload{Session: ptr(s["viewer"].cookie), Operator: ptr("support@example.com"), Limit: 100})
		if err != nil || len(entries.Entries) < 5 {
			t.Fatalf("audit of support: %+v %v", entries, err)
		}
	})
}

func TestAdminCatalogAndPromotions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		o := s["owner"]
		cur, err := cl.catalog.Get(ctx, &gencatalog.GetPayload{Session: ptr(s["viewer"].cookie)})
		if err != nil || !strings.Contains(cur.Source, `"12.99"`) {
			t.Fatalf("GET /admin/catalog: %v", err)
		}
		// A bad catalog: 400 with the field's path and line, and nothing changes.
		bad := strings.Replace(cur.Source, `monthly:      {EUR: "12.99"`, `monthly:      {EUR: "twelve"`, 1)
		_, err = cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: bad})
		var ic *gencatalog.InvalidCatalog
		if !errors.As(err, &ic) || ic.Name != "invalid_catalog" || len(ic.Problems) != 1 || ic.Problems[0].Path != "products[1].cycles.monthly.EUR" || ic.Problems[0].Line == 0 {
			t.Fatalf("bad catalog: %v %+v", err, ic)
		}
		if _, _, body := c.raw(http.MethodGet, "/checkout/api/products", "", nil); !strings.Contains(string(body), `1299`) {
			t.Fatal("a refused catalog changed the products")
		}
		_, err = cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), Source: cur.Source})
		wantErr(t, err, "forbidden", "")

		cheaper := strings.Replace(cur.Source, `monthly:      {EUR: "12.99"`, `monthly:      {EUR: "11.49"`, 1)
		v, err := cl.catalog.Put(ctx, &gencatalog.PutPayload{Session: &o.cookie, CsrfToken: &o.csrf, Source: cheaper, Comment: ptr("cheaper")})
		if err != nil || v.Version.Version != 2 || v.Version.Operator != "owner@example.com" {
			t.Fatalf("PUT /admin/catalog: %+v %v", v, err)
		}
		if _, _, body := c.raw(http.MethodGet, "/checkout/api/products", "", nil); !strings.Contains(string(body), `1149`) {
			t.Fatal("the new price is not on /checkout/api/products")
		}

		// Promotions: disable one, add one; each a new version.
		promos, err := cl.promos.List(ctx, &genpromos.ListPayload{Session: ptr(s["viewer"].cookie)})
		if err != nil || len(promos.Promotions) == 0 {
			t.Fatalf("promotions: %+v %v", promos, err)
		}
		if status, _, body := c.raw(http.MethodGet, "/checkout/api/promotions/WELCOME10?pid=2", "", nil); status != http.StatusOK {
			t.Fatalf("WELCOME10 before: %d %s", status, body)
		}
		_, err = cl.promos.Update(ctx, &genpromos.UpdatePayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), Code: "WELCOME10", Disabled: ptr(true)})
		wantErr(t, err, "forbidden", "")
		p, err := cl.promos.Update(ctx, &genpromos.UpdatePayload{Session: &o.cookie, CsrfToken: &o.csrf, Code: "WELCOME10", Disabled: ptr(true), MaxUses: ptr(5)})
		if err != nil || !p.Disabled || p.MaxUses != 5 {
			t.Fatalf("disable WELCOME10: %+v %v", p, err)
		}
		if status, _, _ := c.raw(http.MethodGet, "/checkout/api/promotions/WELCOME10?pid=2", "", nil); status == http.StatusOK {
			t.Fatal("a disabled promotion still applies")
		}
		_, err = cl.promos.Update(ctx, &genpromos.UpdatePayload{Session: &o.cookie, CsrfToken: &o.csrf, Code: "WELCOME10", ExpirationDate: ptr("not a date")})
		if !errors.As(err, new(*genpromos.InvalidCatalog)) {
			t.Fatalf("bad date: %v", err)
		}
		np, err := cl.promos.Create(ctx, &genpromos.CreatePayload{Session: &o.cookie, CsrfToken: &o.csrf, Code: "NEW20", Type: "Percentage", Value: "20", AppliesTo: []int{2}})
		if err != nil || np.Code != "NEW20" || np.Uses != 0 {
			t.Fatalf("create NEW20: %+v %v", np, err)
		}
		_, err = cl.promos.Create(ctx, &genpromos.CreatePayload{Session: &o.cookie, CsrfToken: &o.csrf, Code: "NEW20", Type: "Percentage", Value: "20", AppliesTo: []int{2}})
		wantErr(t, err, "conflict", "")
		if np.Amount != nil {
			t.Errorf("a percentage with an amount: %+v", np.Amount)
		}
		// A fixed amount also in minor units and the catalog's default currency, for the console to format as all money.
		off, err := cl.promos.Create(ctx, &genpromos.CreatePayload{Session: &o.cookie, CsrfToken: &o.csrf, Code: "OFF5", Type: "Fixed Amount", Value: "5.00", AppliesTo: []int{2}})
		if err != nil || off.Value != "5.00" || off.Amount == nil || off.Amount.Amount != 500 || off.Amount.Currency != "EUR" {
			t.Fatalf("create OFF5: %+v %+v %v", off, off.Amount, err)
		}
		vs, err := cl.catalog.Versions(ctx, &gencatalog.VersionsPayload{Session: ptr(s["viewer"].cookie)})
		if err != nil || len(vs.Versions) != 5 {
			t.Fatalf("versions: %+v %v", vs, err)
		}
		first, err := cl.catalog.Version(ctx, &gencatalog.VersionPayload{Session: ptr(s["viewer"].cookie), Version: 2})
		if err != nil || first.Source != cheaper {
			t.Fatalf("version 1: %v", err)
		}
	})
}

func TestAdminMailWebhooksOperators(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		ctx := t.Context()
		s := c.roles()
		c.paidOrder("buyer@example.com")
		mails, err := cl.mail.List(ctx, &genmail.ListPayload{Session: ptr(s["viewer"].cookie), Q: ptr("buyer@"), Limit: 1})
		if err != nil || len(mails.Mails) != 1 || mails.NextCursor == "" {
			t.Fatalf("mail page 1: %+v %v", mails, err)
		}
		more, err := cl.mail.List(ctx, &genmail.ListPayload{Session: ptr(s["viewer"].cookie), Q: ptr("buyer@"), Limit: 50, Cursor: &mails.NextCursor})
		if err != nil || len(more.Mails) == 0 || more.Mails[0].ID >= mails.Mails[0].ID {
			t.Fatalf("mail page 2: %+v %v", more, err)
		}
		resend := func(role string) (*genmail.AdminMail, error) {
			x := s[role]
			return cl.mail.Resend(ctx, &genmail.ResendPayload{Session: &x.cookie, CsrfToken: &x.csrf, ID: mails.Mails[0].ID})
		}
		_, err = resend("viewer")
		wantErr(t, err, "forbidden", "")
		m, err := resend("support")
		if err != nil || m.ID <= mails.Mails[0].ID || m.Subject != mails.Mails[0].Subject {
			t.Fatalf("resend: %+v %v", m, err)
		}
		if _, err := cl.webhooks.List(ctx, &genwebhooks.ListPayload{Session: ptr(s["viewer"].cookie), Provider: ptr("stripe"), Limit: 50}); err != nil {
			t.Fatalf("webhooks: %v", err)
		}
		_, err = cl.webhooks.List(ctx, &genwebhooks.ListPayload{Session: ptr(s["viewer"].cookie), Limit: 50, Cursor: ptr("x")})
		wantErr(t, err, "bad_request", "")

		// Operators: an owner invites and disables; the others only read.
		o := s["owner"]
		_, err = cl.operators.Invite(ctx, &genoperators.InvitePayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), Email: "new@example.com", Role: "viewer"})
		wantErr(t, err, "forbidden", "")
		inv, err := cl.operators.Invite(ctx, &genoperators.InvitePayload{Session: &o.cookie, CsrfToken: &o.csrf, Email: "new@example.com", Role: "viewer"})
		if err != nil || !strings.Contains(inv.SetupURL, "/checkout/admin/setup?token=") || inv.Operator.Status != "pending" {
			t.Fatalf("invite: %+v %v", inv, err)
		}
		_, err = cl.operators.Disable(ctx, &genoperators.DisablePayload{Session: &o.cookie, CsrfToken: &o.csrf, Email: "owner@example.com"})
		wantErr(t, err, "conflict", "")
		d, err := cl.operators.Disable(ctx, &genoperators.DisablePayload{Session: &o.cookie, CsrfToken: &o.csrf, Email: "support@example.com"})
		if err != nil || d.Status != "disabled" {
			t.Fatalf("disable: %+v %v", d, err)
		}
		_, err = cl.mail.List(ctx, &genmail.ListPayload{Session: ptr(s["support"].cookie), Limit: 10})
		wantErr(t, err, "unauthorized", "") // its session ended
		ops, err := cl.operators.List(ctx, &genoperators.ListPayload{Session: ptr(s["viewer"].cookie)})
		if err != nil || len(ops.Operators) != 4 {
			t.Fatalf("operators: %+v %v", ops, err)
		}
	})
}

// TestAdminActionBoundaries: every new change refuses a client's Bearer token and a missing
// cookie (401) and a missing CSRF token (403), before doing anything.
func TestAdminActionBoundaries(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		s := c.roles()
		token := c.identify("buyer@example.com", "").Token
		// Each with a valid body: a malformed one is refused (400) before anything else.
		paths := []struct{ method, path, body string }{
			{"POST", "/admin/orders/ord_x/approve", "{}"}, {"POST", "/admin/orders/ord_x/reject", "{}"},
			{"POST", "/admin/orders/ord_x/refund", `{"reason":"r"}`},
			{"POST", "/admin/customers/usr_x/signout", "{}"}, {"POST", "/admin/customers/usr_x/signin-link", "{}"},
			{"POST", "/admin/services/svc_x/suspend", "{}"}, {"POST", "/admin/services/svc_x/unsuspend", "{}"},
			{"POST", "/admin/services/svc_x/extend", `{"days":3}`}, {"POST", "/admin/services/svc_x/terminate", "{}"},
			{"POST", "/admin/services/svc_x/change", `{"maxConnections":2,"charge":"free","reason":"r"}`}, {"GET", "/admin/settings", ""},
			{"POST", "/admin/mail/1/resend", "{}"}, {"PUT", "/admin/catalog", `{"source":"x: 1"}`},
			{"POST", "/admin/promotions", `{"code":"A","type":"Percentage","value":"5","appliesTo":[2]}`},
			{"PATCH", "/admin/promotions/X", `{"disabled":true}`}, {"POST", "/admin/operators", `{"email":"n@example.com","role":"viewer"}`},
			{"POST", "/admin/operators/a@b.c/disable", "{}"},
			{"GET", "/admin/customers", ""}, {"GET", "/admin/mail", ""}, {"GET", "/admin/webhooks", ""}, {"GET", "/admin/catalog", ""},
			{"GET", "/admin/catalog/versions", ""}, {"GET", "/admin/promotions", ""}, {"GET", "/admin/audit", ""}, {"GET", "/admin/operators", ""},
		}
		for _, p := range paths {
			if status, _, _ := c.raw(p.method, "/checkout/api"+p.path, token, strings.NewReader(p.body)); status != http.StatusUnauthorized {
				t.Errorf("%s %s with a client token: %d, want 401", p.method, p.path, status)
			}
			if p.method == "GET" {
				continue
			}
			h := http.Header{"Cookie": {"streamcart_admin=" + s["owner"].cookie}}
			if status, _, body := c.rawWith(p.method, "/checkout/api"+p.path, "", strings.NewReader(p.body), h); status != http.StatusForbidden || !strings.Contains(string(body), "invalid_csrf_token") {
				t.Errorf("%s %s without CSRF: %d %s, want 403 invalid_csrf_token", p.method, p.path, status, body)
			}
		}
		if n := c.count(`SELECT COUNT(*) FROM catalog_versions`); n != 0 {
			t.Fatalf("%d catalog versions after refused requests", n)
		}
	})
}
