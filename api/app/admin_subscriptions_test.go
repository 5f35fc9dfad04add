package app_test

import (
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	goa "goa.design/goa/v3/pkg"

	genservices "github.com/streamcart/streamcart/gen/admin_services"
	genbuyer "github.com/streamcart/streamcart/gen/services"
)

// subIDs are the service ids of a page of the Subscriptions list.
func subIDs(res *genservices.ListResult) []string {
	var out []string
	for _, v := range res.Services {
		out = append(out, v.ServiceID)
	}
	return out
}

// sameIDs reports whether got holds exactly want, in any order.
func sameIDs(got []string, want ...string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// TestAdminSubscriptions: the list with each filter (q by MAC, email, username and id; status in
// any case; autoRenew; pid; dueWithin on the test clock), masked usernames for a viewer, cursor
// paging, the CSV export; cancel and resume of auto-renew (support, not viewer, CSRF, 404, 409)
// and the renewal link (409 without an open renewal, then mailed).
func TestAdminSubscriptions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf().services
		ctx, st := t.Context(), c.app.Store()
		s := c.roles()
		alice := c.register("alice@example.com", "alice-password")
		_, svcA := c.activeService(alice.Token, standard())
		if _, err := c.services.SetMac(ctx, &genbuyer.SetMacPayload{Token: ptr(alice.Token), ServiceID: svcA, MacAddress: "00-1a-79-aa-bb-cc"}); err != nil {
			t.Fatal(err)
		}
		_, svcB := c.activeService(c.identify("bob@example.com", "").Token, standard())
		_, svcT := c.activeService(c.identify("trial@example.com", "").Token, trial())
		lineB, err := st.Service(ctx, svcB)
		if err != nil || lineB.Username == "" {
			t.Fatalf("line B %+v %v", lineB, err)
		}
		due := lineB.NextDueDate

		list := func(role string, p genservices.ListPayload) (*genservices.ListResult, error) {
			t.Helper()
			p.Session = ptr(s[role].cookie)
			if p.Limit == 0 {
				p.Limit = 50
			}
			return cl.List(ctx, &p)
		}
		want := func(p genservices.ListPayload, ids ...string) {
			t.Helper()
			res, err := list("viewer", p)
			if err != nil || !sameIDs(subIDs(res), ids...) {
				t.Fatalf("list %+v: %v %v, want %v", p, subIDs(res), err, ids)
			}
		}

		all, err := list("viewer", genservices.ListPayload{})
		if err != nil || len(all.Services) != 3 || all.NextCursor != "" {
			t.Fatalf("viewer's list: %+v %v", all, err)
		}
		for _, v := range all.Services {
			if v.Username != "••••" {
				t.Errorf("viewer sees username %q of %s", v.Username, v.ServiceID)
			}
			if v.ServiceID == svcA && (v.Customer.Email != "alice@example.com" || !strings.HasPrefix(v.Customer.ID, "usr_") ||
				v.MacAddress != "00:1A:79:AA:BB:CC" || !v.AutoRenew || v.RecurringAmount == nil || v.RecurringAmount.Amount != 1299 ||
				v.Status != "Active" || v.NextDueDate != due.Format(time.DateOnly) || v.OverdueDays != 0 || v.RenewalInvoiceID != nil ||
				v.Pid != 2 || v.BillingCycle != "monthly" || v.MaxConnections != 1 || v.Plan == "") {
				t.Errorf("line A as listed: %+v %+v", v, v.Customer)
			}
			if v.ServiceID == svcT && (v.AutoRenew || v.RecurringAmount != nil || v.NextDueDate != "") {
				t.Errorf("trial as listed: %+v", v)
			}
		}
		// The soonest due first, the trial (no due date) last.
		if all.Services[2].ServiceID != svcT {
			t.Errorf("order %v: the trial without a due date is not last", subIDs(all))
		}
		sup, err := list("support", genservices.ListPayload{Q: ptr(svcB)})
		if err != nil || len(sup.Services) != 1 || sup.Services[0].Username != lineB.Username {
			t.Fatalf("support's list by id: %+v %v, want the username", sup, err)
		}

		want(genservices.ListPayload{Q: ptr("00:1a:79:aa:bb:cc")}, svcA)
		want(genservices.ListPayload{Q: ptr("00-1A-79-AA-BB-CC")}, svcA)
		want(genservices.ListPayload{Q: ptr("Bob@Example.com")}, svcB)
		want(genservices.ListPayload{Q: ptr("ali")}, svcA)
		want(genservices.ListPayload{Q: ptr(lineB.Username)}, svcB)
		want(genservices.ListPayload{Q: ptr(svcT)}, svcT)
		want(genservices.ListPayload{Q: ptr("nobody")})
		want(genservices.ListPayload{Status: ptr("ACTIVE")}, svcA, svcB, svcT)
		want(genservices.ListPayload{Status: ptr("active")}, svcA, svcB, svcT)
		want(genservices.ListPayload{Status: ptr("overdue")})
		want(genservices.ListPayload{AutoRenew: ptr(true)}, svcA, svcB)
		want(genservices.ListPayload{AutoRenew: ptr(false)}, svcT)
		want(genservices.ListPayload{Pid: ptr(2)}, svcA, svcB)
		want(genservices.ListPayload{Pid: ptr(1)}, svcT)
		want(genservices.ListPayload{DueWithin: ptr("14d")})
		want(genservices.ListPayload{DueWithin: ptr("12h")})
		want(genservices.ListPayload{DueWithin: ptr("0d")})
		want(genservices.ListPayload{DueWithin: ptr("40d")}, svcA, svcB)
		want(genservices.ListPayload{DueWithin: ptr("40d"), Q: ptr("bob@example.com")}, svcB)

		for _, bad := range []string{"14", "d", "two weeks", "-3d", "14m", "3661d", "1.5d"} {
			_, err := list("viewer", genservices.ListPayload{DueWithin: ptr(bad)})
			wantErr(t, err, "invalid_due_within", "")
		}
		_, err = list("viewer", genservices.ListPayload{Status: ptr("paid")})
		wantErr(t, err, "invalid_status", "")
		_, err = list("viewer", genservices.ListPayload{Cursor: ptr("not-a-cursor")})
		wantErr(t, err, "bad_request", "")
		status, _, body := c.rawWith(http.MethodGet, "/checkout/api/admin/services?dueWithin=soon", "", nil,
			http.Header{"Cookie": {"streamcart_admin=" + s["viewer"].cookie}})
		if status != http.StatusBadRequest || !strings.Contains(string(body), "invalid_due_within") {
			t.Fatalf("raw bad dueWithin: %d %s", status, body)
		}
		status, _, _ = c.rawWith(http.MethodGet, "/checkout/api/admin/services", "", nil, nil)
		if status != http.StatusUnauthorized {
			t.Fatalf("list without a session: %d", status)
		}

		// Cursor paging: one line a page, each once, in the list's order.
		var paged []string
		cursor := ""
		for range 5 {
			res, err := list("viewer", genservices.ListPayload{Limit: 1, Cursor: &cursor})
			if err != nil || len(res.Services) != 1 {
				t.Fatalf("page after %q: %+v %v", cursor, res, err)
			}
			paged = append(paged, res.Services[0].ServiceID)
			if cursor = res.NextCursor; cursor == "" {
				break
			}
		}
		if !slices.Equal(paged, subIDs(all)) {
			t.Fatalf("paged %v, want %v", paged, subIDs(all))
		}

		// The CSV export of the filtered list, masked for a viewer.
		res, rc, err := cl.Export(ctx, &genservices.ExportPayload{Session: ptr(s["viewer"].cookie), AutoRenew: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(rc)
		rc.Close()
		rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
		if err != nil || len(rows) != 3 || rows[0][0] != "serviceId" || !strings.HasPrefix(res.ContentType, "text/csv") ||
			!strings.Contains(res.ContentDisposition, "attachment") {
			t.Fatalf("csv %+v: %q %v", res, raw, err)
		}
		col := slices.Index(rows[0], "username")
		for _, r := range rows[1:] {
			if r[col] != "••••" || !sameIDs([]string{rows[1][0], rows[2][0]}, svcA, svcB) {
				t.Fatalf("csv row %v", r)
			}
		}
		status, _, _ = c.rawWith(http.MethodGet, "/checkout/api/admin/services.csv?dueWithin=x", "", nil,
			http.Header{"Cookie": {"streamcart_admin=" + s["viewer"].cookie}})
		if status != http.StatusBadRequest {
			t.Fatalf("csv with a bad dueWithin: %d", status)
		}

		// Cancel and resume: support may, a viewer may not, a change needs the CSRF token.
		cancel := func(role, id string, csrf *string) (*genservices.AdminSubscription, error) {
			return cl.Cancel(ctx, &genservices.CancelPayload{Session: ptr(s[role].cookie), CsrfToken: csrf, ID: id})
		}
		autoRenew := func(id string) bool {
			t.Helper()
			v, err := st.Service(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return v.AutoRenew
		}
		_, err = cancel("viewer", svcA, ptr(s["viewer"].csrf))
		wantErr(t, err, "forbidden", "")
		_, err = cancel("support", svcA, ptr("not-the-token"))
		wantErr(t, err, "invalid_csrf_token", "")
		_, err = cl.RenewalLink(ctx, &genservices.RenewalLinkPayload{Session: ptr(s["viewer"].cookie), CsrfToken: ptr(s["viewer"].csrf), ID: svcA})
		wantErr(t, err, "forbidden", "")
		if !autoRenew(svcA) {
			t.Fatal("a refused cancel changed the line")
		}
		_, err = cancel("support", "svc_nope", ptr(s["support"].csrf))
		wantErr(t, err, "not_found", "")
		_, err = cl.Resume(ctx, &genservices.ResumePayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), ID: "svc_nope"})
		wantErr(t, err, "not_found", "")
		_, err = cl.RenewalLink(ctx, &genservices.RenewalLinkPayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), ID: "svc_nope"})
		wantErr(t, err, "not_found", "")
		_, err = cancel("support", svcT, ptr(s["support"].csrf))
		wantErr(t, err, "conflict", "") // a trial does not renew

		got, err := cancel("support", svcA, ptr(s["support"].csrf))
		if err != nil || got.AutoRenew || got.ServiceID != svcA || autoRenew(svcA) {
			t.Fatalf("cancel: %+v %v", got, err)
		}
		want(genservices.ListPayload{AutoRenew: ptr(false)}, svcA, svcT)
		_, err = cancel("owner", svcA, ptr(s["owner"].csrf))
		wantErr(t, err, "conflict", "") // cancelled already
		got, err = cl.Resume(ctx, &genservices.ResumePayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), ID: svcA})
		if err != nil || !got.AutoRenew || !autoRenew(svcA) {
			t.Fatalf("resume: %+v %v", got, err)
		}
		for action, n := range map[string]int{"cancel-auto-renew": 1, "resume-auto-renew": 1} {
			if got := c.count(`SELECT COUNT(*) FROM audit_log WHERE operator = 'support@example.com' AND action = ? AND target = ?`, action, svcA); got != n {
				t.Errorf("%d %s audit lines, want %d", got, action, n)
			}
		}

		// The renewal link: 409 until a renewal invoice is open, then mailed to the buyer.
		link := func() (*genservices.RenewalLinkResult, error) {
			return cl.RenewalLink(ctx, &genservices.RenewalLinkPayload{Session: ptr(s["support"].cookie), CsrfToken: ptr(s["support"].csrf), ID: svcA})
		}
		_, err = link()
		wantErr(t, err, "no_open_renewal", "")
		advanceTo(t, due.Add(-6*24*time.Hour), c.shop)
		if n, err := c.app.SweepRenewals(ctx); err != nil || n != 2 {
			t.Fatalf("renewals placed: %d %v", n, err)
		}
		c.drain()
		// Operator sessions are on real time (security time): the test clock's move leaves them open.
		want(genservices.ListPayload{DueWithin: ptr("14d")}, svcA, svcB)
		want(genservices.ListPayload{DueWithin: ptr("5d")})
		mailed := c.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'alice@example.com'`)
		sent, err := link()
		if err != nil || sent.SentTo != "alice@example.com" || sent.InvoiceID == "" {
			t.Fatalf("renewal link: %+v %v", sent, err)
		}
		if n := c.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'alice@example.com'`); n != mailed+1 {
			t.Fatalf("%d mails to the buyer after the renewal link, want %d", n, mailed+1)
		}
		if n := c.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'alice@example.com' AND body LIKE ?`, "%"+sent.InvoiceID+"%"); n < 2 {
			t.Fatalf("%d mails carry the invoice's pay link, want the invoice mail and the link", n)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE operator = 'support@example.com' AND action = 'renewal-link' AND target = ? AND result = 'ok'`, svcA); n != 1 {
			t.Fatalf("%d renewal-link audit lines", n)
		}
		listed, err := list("viewer", genservices.ListPayload{Q: ptr(svcA)})
		if err != nil || len(listed.Services) != 1 || deref(listed.Services[0].RenewalInvoiceID) != sent.InvoiceID {
			t.Fatalf("listed renewal invoice: %+v %v, want %s", listed, err, sent.InvoiceID)
		}

		// Two days past the due date, unpaid, the lines are Overdue by two days.
		advanceTo(t, due.Add(2*24*time.Hour+time.Hour), c.shop)
		lapse(t, c.shop)
		res2, err := list("viewer", genservices.ListPayload{Status: ptr("OVERDUE"), Q: ptr("00:1A:79:AA:BB:CC")})
		if err != nil || len(res2.Services) != 1 || res2.Services[0].OverdueDays != 2 || res2.Services[0].Status != "Overdue" {
			t.Fatalf("overdue line by its MAC: %+v %v", res2, err)
		}
		want(genservices.ListPayload{DueWithin: ptr("1h")}, svcA, svcB)
		want(genservices.ListPayload{DueWithin: ptr("0d")}, svcA, svcB)
	})
}

// TestAdminSubscriptionCancelConcurrent: 40 concurrent cancels of one line apply once: one 200,
// the others 409, one audit line.
func TestAdminSubscriptionCancelConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf().services
		sup := c.signIn("support@example.com", c.enrol("support@example.com", "support"))
		_, svc := c.activeService(c.identify("many@example.com", "").Token, standard())
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, conflicts := 0, 0
		for range 40 {
			wg.Go(func() {
				var se *goa.ServiceError
				_, err := cl.Cancel(t.Context(), &genservices.CancelPayload{Session: &sup.cookie, CsrfToken: &sup.csrf, ID: svc})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.As(err, &se) && se.Name == "conflict":
					conflicts++
				default:
					t.Errorf("cancel: %v", err)
				}
			})
		}
		wg.Wait()
		if ok != 1 || conflicts != 39 {
			t.Fatalf("%d applied, %d conflicts; want 1 and 39", ok, conflicts)
		}
		if n := c.count(`SELECT COUNT(*) FROM audit_log WHERE action = 'cancel-auto-renew' AND target = ?`, svc); n != 1 {
			t.Fatalf("%d audit lines, want 1", n)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
