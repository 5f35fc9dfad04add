package app_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
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
