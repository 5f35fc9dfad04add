package app_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	gencustomers "github.com/streamcart/streamcart/gen/admin_customers"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genservices "github.com/streamcart/streamcart/gen/admin_services"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
)

// TestWHMCSConsoleLines: in WHMCS mode the console's line actions act on the WHMCS service (its
// module acts on the panel), never on the built-in panel where a WHMCS-made line does not exist:
// 40 suspends at once are one suspension here and one ModuleSuspend (with our reason) there;
// unsuspend is one ModuleUnsuspend, terminate one ModuleTerminate; a line WHMCS suspended
// already is suspended here without asking WHMCS again; WHMCS down, or a line not placed in
// WHMCS, is 503 unavailable with our status as it was. Extend and change are WHMCS's (its cron
// owns due dates and prices): 409 conflict, audited as failed, with nothing stored or sent to
// WHMCS.
func TestWHMCSConsoleLines(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, token := paidWHMCSOrder(t, c, "console@example.com")
		svc := c.getOrder(token, id).ServiceIds[0]
		cl := c.clientsOf().services
		ctx, st := t.Context(), c.app.Store()
		s := c.roles()
		status := func(want string) {
			t.Helper()
			if n := c.count(`SELECT COUNT(*) FROM services WHERE id = ? AND status = ?`, svc, want); n != 1 {
				v, _ := st.Service(ctx, svc)
				t.Fatalf("our line is %s, want %s", v.Status, want)
			}
		}
		whmcsStatus := func(want string) {
			t.Helper()
			if got := f.State().Services[0]; got.Status != want {
				t.Fatalf("WHMCS service %+v, want %s", got, want)
			}
		}
		sup := s["support"]
		// The console reads who bills the lines from its session, to offer extend and change or not.
		if me, err := c.session.Get(ctx, &genadminsession.GetPayload{Session: &sup.cookie}); err != nil || me.Billing != "whmcs" {
			t.Fatalf("GET /admin/session: %+v %v", me, err)
		}

		// 40 suspends at once: one applies, one ModuleSuspend with our reason.
		errs := make([]error, 40)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = cl.Suspend(ctx, &genservices.SuspendPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc})
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
				continue
			}
			wantErr(t, err, "conflict", "")
		}
		if ok != 1 || f.CallCount("ModuleSuspend") != 1 {
			t.Fatalf("%d suspends applied, ModuleSuspend %d: want one each", ok, f.CallCount("ModuleSuspend"))
		}
		if got := lastCall(t, f, "ModuleSuspend").Params.Get("suspendreason"); got != whmcsorder.SuspendReason {
			t.Fatalf("suspendreason %q", got)
		}
		status("Suspended")
		whmcsStatus("Suspended")

		l, err := cl.Unsuspend(ctx, &genservices.UnsuspendPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc})
		if err != nil || l.Status != "Active" || f.CallCount("ModuleUnsuspend") != 1 {
			t.Fatalf("unsuspend: %+v %v (ModuleUnsuspend %d)", l, err, f.CallCount("ModuleUnsuspend"))
		}
		status("Active")
		whmcsStatus("Active")

		// WHMCS down: 503 naming WHMCS (not the panel), our line as it was.
		f.SetStatus(http.StatusServiceUnavailable)
		_, err = cl.Suspend(ctx, &genservices.SuspendPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc})
		wantErr(t, err, "unavailable", "WHMCS did not answer or refused: the line is as it was. Try again later.")
		f.SetStatus(0)
		status("Active")
		whmcsStatus("Active")

		// A line not placed in WHMCS (no mapping): 503, WHMCS not asked to act, our line as it was.
		storetest.Exec(t, c.cfg.DB, `UPDATE whmcs_services SET service_id = 'svc_elsewhere' WHERE service_id = ?`, svc)
		_, err = cl.Suspend(ctx, &genservices.SuspendPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc})
		wantErr(t, err, "unavailable", "")
		storetest.Exec(t, c.cfg.DB, `UPDATE whmcs_services SET service_id = ? WHERE service_id = 'svc_elsewhere'`, svc)
		if f.CallCount("ModuleSuspend") != 1 {
			t.Fatalf("ModuleSuspend %d for a line not placed in WHMCS", f.CallCount("ModuleSuspend"))
		}
		status("Active")

		// Extend and change: refused before anything is stored.
		before, err := st.Service(ctx, svc)
		if err != nil {
			t.Fatal(err)
		}
		calls := len(f.Calls())
		o := s["owner"]
		_, err = cl.Extend(ctx, &genservices.ExtendPayload{Session: &o.cookie, CsrfToken: &o.csrf, ID: svc, Days: 10})
		wantErr(t, err, "conflict", "This line is billed in WHMCS: extend it there.")
		for _, p := range []genservices.ChangePayload{
			{ID: svc, MaxConnections: ptr(4), Charge: "free", Reason: "asked by phone"},
			{ID: svc, MaxConnections: ptr(4), Charge: "now", Reason: "asked by phone"},
			{ID: svc, MaxConnections: ptr(4), Charge: "next-renewal", Reason: "asked by phone", Preview: true},
		} {
			p.Session, p.CsrfToken = &o.cookie, &o.csrf
			_, err = cl.Change(ctx, &p)
			wantErr(t, err, "conflict", "This line is billed in WHMCS: change it there.")
		}
		after, err := st.Service(ctx, svc)
		if err != nil {
			t.Fatal(err)
		}
		if !after.ExpiresAt.Equal(before.ExpiresAt) || !after.NextDueDate.Equal(before.NextDueDate) || after.MaxConnections != before.MaxConnections {
			t.Fatalf("line %+v after a refused extend or change, was %+v", after, before)
		}
		for q, want := range map[string]int{
			`SELECT COUNT(*) FROM line_extensions`: 0,
			`SELECT COUNT(*) FROM service_changes`: 0,
			`SELECT COUNT(*) FROM orders`:          1,
			`SELECT COUNT(*) FROM audit_log WHERE action IN ('line-extend', 'line-change') AND result = 'ok'`:     0,
			`SELECT COUNT(*) FROM audit_log WHERE action IN ('line-extend', 'line-change') AND result = 'failed'`: 3,
		} {
			if n := c.count(q); n != want {
				t.Errorf("%s = %d, want %d", q, n, want)
			}
		}
		if got := f.Calls()[calls:]; len(got) != 0 {
			t.Fatalf("a refused extend or change reached WHMCS: %+v", got)
		}

		// Suspended in WHMCS already (its cron, an admin there): our suspend follows, WHMCS is not asked again.
		admin, err := whmcs.New(whmcs.Config{URL: c.cfg.WHMCS.URL, Identifier: c.cfg.WHMCS.Identifier, Secret: c.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		if err := admin.Module(ctx, "ModuleSuspend", f.State().Services[0].ID); err != nil {
			t.Fatal(err)
		}
		if l, err := cl.Suspend(ctx, &genservices.SuspendPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc}); err != nil ||
			l.Status != "Suspended" || f.CallCount("ModuleSuspend") != 2 {
			t.Fatalf("suspend of a line WHMCS suspended: %+v %v (ModuleSuspend %d)", l, err, f.CallCount("ModuleSuspend"))
		}

		// Terminate: one ModuleTerminate.
		l, err = cl.Terminate(ctx, &genservices.TerminatePayload{Session: &o.cookie, CsrfToken: &o.csrf, ID: svc})
		if err != nil || l.Status != "Terminated" || f.CallCount("ModuleTerminate") != 1 {
			t.Fatalf("terminate: %+v %v (ModuleTerminate %d)", l, err, f.CallCount("ModuleTerminate"))
		}
		status("Terminated")
		whmcsStatus("Terminated")
	})
}

// TestWHMCSConsoleNextDue: in WHMCS mode a line's next due date is WHMCS's (its cron owns it;
// nothing of it is stored here): the console's order and customer views show WHMCS's nextduedate
// (GetClientsProducts), where they showed none before; after WHMCS's cron made a renewal invoice
// and it was paid, the date WHMCS moved it to.
func TestWHMCSConsoleNextDue(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "due@example.com")
		ctx := t.Context()
		o := c.roles()["owner"]
		due := func(want string) {
			t.Helper()
			d, err := c.orders.Get(ctx, &genadminorders.GetPayload{Session: &o.cookie, ID: id})
			if err != nil || len(d.Lines) != 1 {
				t.Fatalf("GET /admin/orders/{id}: %+v %v", d, err)
			}
			if d.Lines[0].NextDueDate != want {
				t.Fatalf("order view's line due %q, want WHMCS's %q", d.Lines[0].NextDueDate, want)
			}
			cu, err := c.clientsOf().customers.Get(ctx, &gencustomers.GetPayload{Session: &o.cookie, ID: d.Order.CustomerID})
			if err != nil || len(cu.Services) != 1 {
				t.Fatalf("GET /admin/customers/{id}: %+v %v", cu, err)
			}
			if cu.Services[0].NextDueDate != want {
				t.Fatalf("customer view's line due %q, want WHMCS's %q", cu.Services[0].NextDueDate, want)
			}
		}
		first := f.State().Services[0].NextDueDate
		if first == "" || first == "0000-00-00" {
			t.Fatalf("WHMCS service has no due date: %+v", f.State().Services[0])
		}
		due(first)
		// WHMCS's cron invoices the renewal, the invoice is paid in WHMCS: its due date moves.
		d, _ := time.Parse(time.DateOnly, first)
		if res := f.RunCronAt(d.AddDate(0, 0, -whmcsfake.RenewalDays)); len(res.Invoices) != 1 {
			t.Fatalf("cron: %+v", res)
		}
		inv := f.State().Invoices[len(f.State().Invoices)-1]
		form := url.Values{"action": {"AddInvoicePayment"}, "identifier": {"demo-identifier"}, "secret": {"demo-secret"},
			"responsetype": {"json"}, "invoiceid": {strconv.Itoa(inv.ID)}, "transid": {"txn_due_1"}, "gateway": {"banktransfer"}}
		req := httptest.NewRequest(http.MethodPost, whmcsfake.Path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		f.Handler().ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), `"result":"success"`) {
			t.Fatalf("AddInvoicePayment: %s", rec.Body)
		}
		next := f.State().Services[0].NextDueDate
		if next == first {
			t.Fatalf("WHMCS did not move the due date: %s", next)
		}
		c.clock.Add(time.Minute) // past the short services cache
		due(next)
	})
}

// TestWHMCSConsoleListNextDue: the console's list of lines (GET /admin/services) shows a WHMCS
// line's next due date as WHMCS has it (nothing of it is stored here: the rows showed none
// before), with the overdue days derived from it, reading WHMCS once per distinct client of the
// page (three lines of one client, one of another: two GetClientsProducts, not four). WHMCS down:
// the list still answers, its WHMCS lines without a date, dueDatesUnavailable set, after at most
// one failed call per client.
func TestWHMCSConsoleListNextDue(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		ctx := t.Context()
		for range 3 {
			paidWHMCSOrder(t, c, "many@example.com")
		}
		paidWHMCSOrder(t, c, "one@example.com")
		owner := c.roles()["owner"] // a viewer sees usernames masked
		list := func() *genservices.ListResult {
			t.Helper()
			res, err := c.clientsOf().services.List(ctx, &genservices.ListPayload{Session: &owner.cookie, Limit: 50})
			if err != nil {
				t.Fatalf("GET /admin/services at %s: %v", c.clock.Now(), err)
			}
			if len(res.Services) != 4 {
				t.Fatalf("%d lines listed, want 4", len(res.Services))
			}
			return res
		}
		wantDue := map[string]string{} // WHMCS username → its due date
		for _, s := range f.State().Services {
			wantDue[s.Username] = s.NextDueDate
		}
		c.clock.Add(time.Minute) // past the services cache the purchases filled
		before := f.CallCount("GetClientsProducts")
		res := list()
		if n := f.CallCount("GetClientsProducts") - before; n != 2 {
			t.Fatalf("%d GetClientsProducts for a page of 4 lines of 2 clients, want 2", n)
		}
		if res.DueDatesUnavailable != nil {
			t.Fatal("dueDatesUnavailable with WHMCS up")
		}
		for _, r := range res.Services {
			if want := wantDue[r.Username]; want == "" || want == "0000-00-00" || r.NextDueDate != want || r.OverdueDays != 0 {
				t.Fatalf("line %+v: want WHMCS's next due date %q, not overdue", r, want)
			}
		}
		// Again within the cache's few seconds: no more calls.
		before = f.CallCount("GetClientsProducts")
		list()
		if n := f.CallCount("GetClientsProducts") - before; n != 0 {
			t.Fatalf("%d GetClientsProducts for the same page a moment later, want 0", n)
		}

		// Past WHMCS's due date (nobody paid WHMCS's renewal): the rows say how many days overdue.
		due, _ := time.Parse(time.DateOnly, res.Services[0].NextDueDate)
		c.clock.Add(due.Add(3*24*time.Hour + time.Hour).Sub(c.clock.Now()))
		owner = c.signIn("owner2@example.com", c.enrol("owner2@example.com", operator.RoleOwner)) // the month-old session ran out
		for _, r := range list().Services {
			if r.OverdueDays != 3 {
				t.Fatalf("line %s due %s: %d days overdue on %s, want 3", r.ServiceID, r.NextDueDate, r.OverdueDays, c.clock.Now())
			}
		}

		// WHMCS down: the list answers, without WHMCS's dates, and says so.
		f.SetStatus(http.StatusServiceUnavailable)
		c.clock.Add(time.Minute)
		before = f.CallCount("GetClientsProducts")
		res = list()
		if n := f.CallCount("GetClientsProducts") - before; n > 2 {
			t.Fatalf("%d GetClientsProducts with WHMCS down for 2 clients, want at most 2", n)
		}
		if res.DueDatesUnavailable == nil || !*res.DueDatesUnavailable {
			t.Fatal("dueDatesUnavailable not set with WHMCS down")
		}
		for _, r := range res.Services {
			if r.NextDueDate != "" || r.OverdueDays != 0 {
				t.Fatalf("line %+v with WHMCS down: want no date (none is stored)", r)
			}
		}
	})
}
