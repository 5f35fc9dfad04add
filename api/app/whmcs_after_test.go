package app_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genservices "github.com/streamcart/streamcart/gen/services"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// dropAnswer wraps the fake so that, while armed for an action, the fake runs the call but its
// answer never reaches the shop (a 502 in its place): WHMCS did it, the shop cannot know.
type dropAnswer struct {
	next   http.Handler
	action atomic.Value // string; "" disarmed
	when   atomic.Pointer[func(url.Values) bool]
}

func (d *dropAnswer) arm(action string) { d.when.Store(nil); d.action.Store(action) }

// armWhen drops the answers of the calls of action whose parameters when accepts.
func (d *dropAnswer) armWhen(action string, when func(url.Values) bool) {
	d.when.Store(&when)
	d.action.Store(action)
}

func (d *dropAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a, _ := d.action.Load().(string); a != "" && r.ParseForm() == nil && r.PostForm.Get("action") == a &&
		(d.when.Load() == nil || (*d.when.Load())(r.PostForm)) {
		d.next.ServeHTTP(httptest.NewRecorder(), r)
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	d.next.ServeHTTP(w, r)
}

// whmcsConsole is a console on a test clock in WHMCS mode, in front of a fake WHMCS reached
// through a dropAnswer.
func whmcsConsole(t *testing.T) (*console, *whmcsfake.Fake, *dropAnswer) {
	t.Helper()
	// The fake's dates (due dates, its cron) follow the console's business clock.
	var clk atomic.Pointer[clock]
	f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time {
		if c := clk.Load(); c != nil {
			return c.Now()
		}
		return time.Now()
	}))
	drop := &dropAnswer{next: f.Handler()}
	drop.arm("")
	srv := httptest.NewServer(drop)
	t.Cleanup(srv.Close)
	c := newConsole(t, func(cfg *app.Config) { cfg.Backend, cfg.WHMCS = app.BackendWHMCS, whmcsSettings(srv.URL) })
	clk.Store(c.clock)
	return c, f, drop
}

// jobState is the state and attempts of the job with unique key key.
func jobState(t *testing.T, s *shop, key string) (string, int) {
	t.Helper()
	j, err := storetest.Inspect(s.app.Store()).JobByKey(t.Context(), key)
	if err != nil {
		t.Fatalf("job %s: %v", key, err)
	}
	return j.State, j.Attempts
}

// TestWHMCSBuyerCancel: a buyer cancelling an unpaid WHMCS-placed order cancels the WHMCS order
// once, through a durable job: 40 cancels at once are one cancel here and one CancelOrder there;
// with WHMCS down the cancel still answers (ours) and the job retries until WHMCS takes it.
func TestWHMCSBuyerCancel(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		buyer := c.identify("cancel@example.com", "")
		o := c.buy(buyer.Token, whmcsBuy())
		var wg sync.WaitGroup
		statuses := make([]int, 40)
		for i := range statuses {
			wg.Go(func() {
				statuses[i], _, _ = c.raw(http.MethodPost, "/checkout/api/orders/"+o.OrderID+"/cancel", buyer.Token, nil)
			})
		}
		wg.Wait()
		ok := 0
		for _, st := range statuses {
			switch st {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
			default:
				t.Fatalf("cancel answered %d", st)
			}
		}
		if ok != 1 {
			t.Fatalf("%d cancels succeeded, want 1", ok)
		}
		c.drain()
		st := f.State()
		if n := f.CallCount("CancelOrder"); n != 1 || st.Orders[0].Status != "Cancelled" || st.Invoices[0].Status != "Cancelled" {
			t.Fatalf("CancelOrder %d, WHMCS %+v: want its order cancelled once", n, st)
		}
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "cancelled" {
			t.Fatalf("order %s", got.Status)
		}

		// WHMCS down: the buyer's cancel is ours; WHMCS hears of it once it is back.
		o2 := c.buy(buyer.Token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", Currency: ptr("EUR")})
		f.SetStatus(http.StatusServiceUnavailable)
		if status, _, body := c.raw(http.MethodPost, "/checkout/api/orders/"+o2.OrderID+"/cancel", buyer.Token, nil); status != http.StatusOK {
			t.Fatalf("cancel with WHMCS down = %d %s", status, body)
		}
		c.drain()
		if state, attempts := jobState(t, c.shop, order.JobUpstreamCancel+":"+o2.OrderID); state != store.JobQueued || attempts != 1 {
			t.Fatalf("cancel job %s after %d attempts, want queued again", state, attempts)
		}
		if st := f.State(); st.Orders[1].Status != "Pending" {
			t.Fatalf("WHMCS order %+v while down", st.Orders[1])
		}
		f.SetStatus(0)
		c.clock.Add(time.Hour)
		c.drain()
		if st := f.State(); st.Orders[1].Status != "Cancelled" || f.CallCount("CancelOrder") != 2 {
			t.Fatalf("WHMCS order %+v after WHMCS is back (CancelOrder %d)", st.Orders[1], f.CallCount("CancelOrder"))
		}
	})
}

// TestWHMCSExpiredCancelled: an order its deadline cancels is cancelled in WHMCS by the same job.
func TestWHMCSExpiredCancelled(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		buyer := c.identify("late@example.com", "")
		o := c.buy(buyer.Token, whmcsBuy())
		c.clock.Add(order.PaymentDeadline + time.Minute)
		c.drain()
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "cancelled" {
			t.Fatalf("order %s after its deadline", got.Status)
		}
		if st := f.State(); st.Orders[0].Status != "Cancelled" || f.CallCount("CancelOrder") != 1 {
			t.Fatalf("WHMCS %+v, CancelOrder %d", st.Orders, f.CallCount("CancelOrder"))
		}
	})
}

// paidWHMCSOrder buys whmcsBuy, pays it and runs the jobs: the order is active with WHMCS's line.
func paidWHMCSOrder(t *testing.T, c *console, email string) (orderID, token string) {
	t.Helper()
	buyer := c.identify(email, "")
	o := c.buy(buyer.Token, whmcsBuy())
	if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("pay: %d", resp.StatusCode)
	}
	c.drain()
	if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
		t.Fatalf("order %s, want active", got.Status)
	}
	return o.OrderID, buyer.Token
}

// TestWHMCSRefund: a full refund of a WHMCS-backed order from the console terminates the WHMCS
// service (the module's TerminateAccount) and records the refund on the WHMCS invoice once:
// 40 refunds at once are one refund, one termination and one refund transaction; a lost answer
// to AddTransaction is not posted again (GetTransactions first); WHMCS down: retried.
func TestWHMCSRefund(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		id, token := paidWHMCSOrder(t, c, "refund@example.com")
		f.SetStatus(http.StatusServiceUnavailable)
		var wg sync.WaitGroup
		errs := make([]error, 40)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
					ID: id, Reason: "requested by the buyer"})
			})
		}
		wg.Wait()
		done := 0
		for _, err := range errs {
			if err == nil {
				done++
			}
		}
		if done != 1 {
			t.Fatalf("%d refunds succeeded, want 1 (errors %v)", done, errs)
		}
		if got := c.getOrder(token, id); got.Status != "refunded" {
			t.Fatalf("order %s, want refunded", got.Status)
		}
		// WHMCS down: the take-back waits, visible as a queued job.
		c.drain()
		if state, attempts := jobState(t, c.shop, whmcsorder.JobTakeBack+":"+id); state != store.JobQueued || attempts != 1 {
			t.Fatalf("take-back job %s after %d attempts", state, attempts)
		}
		// Back, but AddTransaction's answer is lost: the retry finds it and posts nothing more.
		f.SetStatus(0)
		drop.arm("AddTransaction")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		c.clock.Add(2 * time.Hour)
		c.drain()
		if state, _ := jobState(t, c.shop, whmcsorder.JobTakeBack+":"+id); state != store.JobDone {
			t.Fatalf("take-back job %s, want done", state)
		}
		st := f.State()
		var refunds []whmcsfake.TransactionState
		for _, tx := range st.Transactions {
			if tx.Refunded != "0.00" {
				refunds = append(refunds, tx)
			}
		}
		if len(refunds) != 1 || refunds[0].Refunded != "21.59" || refunds[0].InvoiceID != st.Invoices[0].ID ||
			!strings.HasPrefix(refunds[0].TransID, "refund:ref_") || refunds[0].Gateway != "banktransfer" || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS transactions %+v (AddTransaction %d): want one refund of 21.59 on the invoice", st.Transactions, f.CallCount("AddTransaction"))
		}
		terminated := 0
		for _, m := range st.Module {
			if m.Function == "TerminateAccount" {
				terminated++
			}
		}
		if st.Services[0].Status != "Terminated" || terminated != 1 || st.Invoices[0].Status != "Refunded" {
			t.Fatalf("WHMCS service %+v, module %+v, invoice %+v: want terminated once, invoice refunded", st.Services[0], st.Module, st.Invoices[0])
		}
		// Cancelled here, Terminated in WHMCS: the buyer is shown WHMCS's.
		svcID := c.getOrder(token, id).ServiceIds[0]
		if n := c.count(`SELECT COUNT(*) FROM services WHERE id = ? AND status = 'Cancelled'`, svcID); n != 1 {
			t.Fatalf("our service not cancelled here")
		}
		if svc := c.getService(token, svcID); svc.Status != "Terminated" || svc.Username != "" {
			t.Fatalf("the buyer's view of the refunded service %+v, want WHMCS's Terminated without credentials", svc)
		}
	})
}

// TestWHMCSLostAddOrder: WHMCS makes the order but AddOrder's answer is lost. The buyer gets 503
// unavailable with nothing stored; the replay with the same Idempotency-Key finds that WHMCS
// order by the reference written in its service's domain and takes it over: one WHMCS order,
// paid and made active once. An order whose answer was lost and that nobody replays is
// cancelled in WHMCS after a while: no pending order left behind.
func TestWHMCSLostAddOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		buyer := c.identify("lost@example.com", "")
		body := `{"pid":3,"billingCycle":"monthly","currency":"EUR","extraConnections":2,"proxyProtection":true,"promoCode":"WELCOME10"}`
		post := func(key string) (int, []byte) {
			status, _, answer := c.rawWith(http.MethodPost, "/checkout/api/orders", buyer.Token, strings.NewReader(body),
				http.Header{"Idempotency-Key": {key}})
			return status, answer
		}
		drop.arm("AddOrder")
		status, answer := post("k-lost")
		drop.arm("")
		if status != http.StatusServiceUnavailable || !strings.Contains(string(answer), `"name":"unavailable"`) {
			t.Fatalf("POST /orders with AddOrder's answer lost = %d %s", status, answer)
		}
		for _, table := range []string{"orders", "invoices", "services"} {
			if n := c.count("SELECT COUNT(*) FROM " + table); n != 0 {
				t.Fatalf("%d rows in %s after a lost answer", n, table)
			}
		}
		if st := f.State(); len(st.Orders) != 1 || st.Orders[0].Status != "Pending" || !strings.HasPrefix(st.Services[0].Domain, "streamcart-") {
			t.Fatalf("WHMCS %+v: want the order it made, with our reference", st)
		}
		// 40 replays at once: one order here, WHMCS's one taken over, no second AddOrder.
		var wg sync.WaitGroup
		ids := make([]string, 40)
		for i := range ids {
			wg.Go(func() {
				p := whmcsBuy()
				p.Token, p.IdempotencyKey = ptr(buyer.Token), ptr("k-lost")
				if o, err := c.order.Create(t.Context(), &p); err == nil {
					ids[i] = o.OrderID
				} else {
					t.Errorf("replay %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		for i := range ids {
			if ids[i] != ids[0] {
				t.Fatalf("replay %d made order %q, want %q", i, ids[i], ids[0])
			}
		}
		if n := f.CallCount("AddOrder"); n != 1 || len(f.State().Orders) != 1 {
			t.Fatalf("%d AddOrder calls, WHMCS orders %+v: want the first one taken over", n, f.State().Orders)
		}
		o := c.getOrder(buyer.Token, ids[0])
		if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.clock.Add(time.Hour) // past the lost order's wait: its cancel job must leave it alone
		c.drain()
		st := f.State()
		if got := c.getOrder(buyer.Token, ids[0]); got.Status != "active" || len(st.Orders) != 1 || st.Orders[0].Status != "Active" ||
			len(st.Transactions) != 1 || f.CallCount("CancelOrder") != 0 {
			t.Fatalf("order %s, WHMCS %+v, CancelOrder %d: want the taken-over order paid once and active", got.Status, st, f.CallCount("CancelOrder"))
		}

		// Nobody replays: the WHMCS order is cancelled once the wait is over, not before.
		drop.arm("AddOrder")
		status, _ = post("k-gone")
		drop.arm("")
		if status != http.StatusServiceUnavailable {
			t.Fatalf("second lost answer: %d", status)
		}
		c.drain()
		if st := f.State(); len(st.Orders) != 2 || st.Orders[1].Status != "Pending" {
			t.Fatalf("WHMCS orders %+v: want the lost one pending while a replay may come", st.Orders)
		}
		c.clock.Add(16 * time.Minute)
		c.drain()
		if st := f.State(); st.Orders[1].Status != "Cancelled" || st.Orders[0].Status != "Active" || f.CallCount("CancelOrder") != 1 {
			t.Fatalf("WHMCS orders %+v (CancelOrder %d): want the unclaimed one cancelled, the paid one kept", st.Orders, f.CallCount("CancelOrder"))
		}
	})
}

// TestWHMCSPromotionsLive: a promo code is checked against WHMCS (GetPromotions) when a buyer
// applies it, not against the catalog read earlier: a code WHMCS added since is taken (and
// ordered at WHMCS's price), one used up, expired or no longer for the product is refused once
// WHMCS's answer kept for the code (whmcs.ReadFor) is over; with WHMCS unreachable the catalog
// read last decides.
func TestWHMCSPromotionsLive(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		clk := newClock()
		s, f := whmcsShop(t, func(c *app.Config) { c.Now = clk.Now })
		get := func(code string) (int, string) {
			status, _, body := s.raw(http.MethodGet, "/checkout/api/promotions/"+code+"?pid=3", "", nil)
			return status, string(body)
		}
		f.SetPromotion(whmcsfake.Promotion{Code: "FLASH20", Type: "Percentage", Value: "20.00", AppliesTo: "3"})
		if status, body := get("flash20"); status != http.StatusOK || !strings.Contains(body, `"code":"FLASH20"`) {
			t.Fatalf("a code WHMCS added since the catalog read: %d %s", status, body)
		}
		buyer := s.identify("promo@example.com", "")
		p := whmcsBuy()
		p.PromoCode = ptr("FLASH20")
		// 15.99 + 2 × 3.00 + 2.00 = 23.99, less 20 %: 19.19 — WHMCS's invoice agrees.
		if o := s.buy(buyer.Token, p); o.Status != "pending" || o.Total.Amount != 1919 {
			t.Fatalf("order with FLASH20 %+v", o)
		}
		if st := f.State(); len(st.Orders) != 1 || st.Orders[0].PromoCode != "FLASH20" || st.Orders[0].Amount != "19.19" {
			t.Fatalf("WHMCS orders %+v", st.Orders)
		}
		cached := s.app.Catalog()
		for _, tc := range []struct {
			name   string
			promo  whmcsfake.Promotion
			status int
			want   string
		}{
			{"used up", whmcsfake.Promotion{Code: "WELCOME10", Type: "Percentage", Value: "10.00", AppliesTo: "2,3,4", MaxUses: 5, Uses: 5},
				http.StatusNotFound, `"name":"not_found"`},
			{"expired", whmcsfake.Promotion{Code: "WELCOME10", Type: "Percentage", Value: "10.00", AppliesTo: "2,3,4", ExpirationDate: "2020-01-01"},
				http.StatusNotFound, `"name":"not_found"`},
			{"not for this product", whmcsfake.Promotion{Code: "WELCOME10", Type: "Percentage", Value: "10.00", AppliesTo: "2"},
				http.StatusUnprocessableEntity, `"name":"not_applicable"`},
			{"a type the storefront cannot apply", whmcsfake.Promotion{Code: "WELCOME10", Type: "Price Override", Value: "1.00", AppliesTo: "3"},
				http.StatusNotFound, `"name":"not_found"`},
		} {
			f.SetPromotion(tc.promo)
			clk.Add(whmcs.ReadFor) // WHMCS's answer for the code is kept that long
			if status, body := get("WELCOME10"); status != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("%s: GET /promotions/WELCOME10 = %d %s, want %d %s", tc.name, status, body, tc.status, tc.want)
			}
			q := &genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", Currency: ptr("EUR"), PromoCode: ptr("WELCOME10")}
			if _, err := s.pricing.Quote(t.Context(), q); err == nil {
				t.Fatalf("%s: POST /quote took WELCOME10", tc.name)
			}
		}
		if _, ok := cached.Promotion("WELCOME10"); !ok {
			t.Fatal("the cached catalog lost WELCOME10: the live check must not change it")
		}
		// WHMCS unreachable (once the last answer kept is over): the catalog read last decides.
		f.SetStatus(http.StatusServiceUnavailable)
		clk.Add(whmcs.ReadFor)
		if status, body := get("WELCOME10"); status != http.StatusOK {
			t.Fatalf("WHMCS down: %d %s, want the cached promotion", status, body)
		}
	})
}

// TestWHMCSServicesAfterSale: after the sale the buyer's services are read from WHMCS
// (GetClientsProducts, for the session's client only): status, next due date, credentials,
// connections and MAC as WHMCS has them, a suspension WHMCS made shown at once, the credentials
// hidden while suspended. The MAC change is the service's custom field (UpdateClientProduct),
// restart the module's custom function, terminate ModuleTerminate. Another client's service is
// 404 and reaches no WHMCS call; WHMCS down is 503 unavailable for an action and the stored view
// for a read.
func TestWHMCSServicesAfterSale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "after@example.com")
		owner := c.proven("after@example.com")
		svcID := c.getOrder(owner.Token, id).ServiceIds[0]
		admin, err := whmcs.New(whmcs.Config{URL: c.cfg.WHMCS.URL, Identifier: c.cfg.WHMCS.Identifier, Secret: c.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		ws := f.State().Services[0]
		svc := c.getService(owner.Token, svcID)
		if svc.Status != "Active" || svc.Username != ws.Username || svc.NextDueDate != ws.NextDueDate || svc.NextDueDate == "" || svc.MaxConnections != 3 {
			t.Fatalf("service %+v, WHMCS %+v: want WHMCS's status, due date, credentials and 1 + 2 connections", svc, ws)
		}
		// WHMCS suspends it (its cron, an admin): the view says so once the client's services read
		// for the view (kept whmcs.ReadFor) is over, without the credentials.
		if err := admin.Module(t.Context(), "ModuleSuspend", ws.ID); err != nil {
			t.Fatal(err)
		}
		c.clock.Add(whmcs.ReadFor)
		list, err := c.services.List(t.Context(), &genservices.ListPayload{Token: ptr(owner.Token)})
		if err != nil || len(list.Services) != 1 || list.Services[0].Status != "Suspended" || list.Services[0].Username != "" {
			t.Fatalf("GET /services while WHMCS suspended it: %+v %v", list, err)
		}
		if err := admin.Module(t.Context(), "ModuleUnsuspend", ws.ID); err != nil {
			t.Fatal(err)
		}
		// The MAC address: the service's custom field in WHMCS.
		res, err := c.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(owner.Token), ServiceID: svcID, MacAddress: "00-1a-79-aa-bb-cc"})
		if err != nil || res.MacAddress != "00:1A:79:AA:BB:CC" {
			t.Fatalf("POST /services/%s/mac: %+v %v", svcID, res, err)
		}
		if got := f.State().Services[0].CustomFields[5]; got != "00:1A:79:AA:BB:CC" {
			t.Fatalf("WHMCS's MAC Address field = %q", got)
		}
		if u := lastCall(t, f, "UpdateClientProduct").Params; u.Get("serviceid") != strconv.Itoa(ws.ID) || u.Get("status") != "" {
			t.Fatalf("UpdateClientProduct %v", u)
		}
		// Restart: the module's restart function, no suspension.
		if _, err := c.services.Restart(t.Context(), &genservices.RestartPayload{Token: ptr(owner.Token), ServiceID: svcID}); err != nil {
			t.Fatalf("restart: %v", err)
		}
		if m := f.State().Module; m[len(m)-1].Function != "restart" || f.CallCount("ModuleSuspend") != 1 {
			t.Fatalf("module calls %+v: want the restart function", m)
		}
		// Another client's session: 404, WHMCS not asked.
		c.identify("other@example.com", "")
		other := c.proven("other@example.com")
		calls := len(f.Calls())
		_, err = c.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(other.Token), ServiceID: svcID, MacAddress: "00:1A:79:00:00:01"})
		wantErr(t, err, "not_found", "")
		if len(f.Calls()) != calls {
			t.Fatalf("a foreign session's MAC change reached WHMCS: %+v", f.Calls()[calls:])
		}
		// WHMCS down: an action is 503 unavailable naming WHMCS (not the panel), a read shows the
		// service as stored.
		f.SetStatus(http.StatusServiceUnavailable)
		_, err = c.services.Restart(t.Context(), &genservices.RestartPayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "unavailable", "The shop's billing system (WHMCS) did not answer: nothing was changed. Please try again in a few minutes.")
		if svc := c.getService(owner.Token, svcID); svc.Status != "Active" || svc.Username != ws.Username {
			t.Fatalf("service while WHMCS is down %+v", svc)
		}
		f.SetStatus(0)
		// Terminate: ModuleTerminate, once confirmed.
		if _, err := c.services.Terminate(t.Context(), &genservices.TerminatePayload{Token: ptr(owner.Token), ServiceID: svcID, Confirm: ptr(true)}); err != nil {
			t.Fatalf("terminate: %v", err)
		}
		if st := f.State(); st.Services[0].Status != "Terminated" || f.CallCount("ModuleTerminate") != 1 {
			t.Fatalf("WHMCS service %+v after terminate", st.Services[0])
		}
		if svc := c.getService(owner.Token, svcID); svc.Status != "Terminated" {
			t.Fatalf("service %s after terminate", svc.Status)
		}
	})
}

// upgrades counts the UpgradeProduct calls that ordered (not calconly).
func upgrades(f *whmcsfake.Fake) int {
	n := 0
	for _, c := range f.Calls() {
		if c.Action == "UpgradeProduct" && c.Params.Get("calconly") != "true" {
			n++
		}
	}
	return n
}

// TestWHMCSUpsell: extra connections on a WHMCS-made line are a WHMCS upgrade: priced by WHMCS
// (UpgradeProduct calconly, prorated), ordered once however many requests carry one
// Idempotency-Key (one UpgradeProduct), the upgrade invoice paid through Streamcart's gateway and
// recorded with AddInvoicePayment, so WHMCS runs the module's ChangePackage; the buyer then sees
// the connections WHMCS has. WHMCS down when ordering: 503 unavailable, nothing stored.
func TestWHMCSUpsell(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "more@example.com")
		owner := c.proven("more@example.com")
		svcID := c.getOrder(owner.Token, id).ServiceIds[0]
		admin, err := whmcs.New(whmcs.Config{URL: c.cfg.WHMCS.URL, Identifier: c.cfg.WHMCS.Identifier, Secret: c.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		ws := f.State().Services[0]
		calc, err := admin.UpgradeOptions(t.Context(), ws.ID, map[int]int{2: 3}, "banktransfer", true)
		if err != nil {
			t.Fatal(err)
		}
		want, err := whmcsorder.PriceOf(calc.Price, "EUR")
		if err != nil || want <= 0 {
			t.Fatalf("WHMCS's price %q: %v", calc.Price, err)
		}
		q, err := c.after.upsell.Quote(t.Context(), &genupsell.QuotePayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1})
		if err != nil || q.Total.Amount != want || q.Total.Currency != "EUR" {
			t.Fatalf("quote %+v %v, want WHMCS's %d EUR", q, err, want)
		}
		// WHMCS down: the order is refused, nothing stored or sent.
		orders := c.count("SELECT COUNT(*) FROM orders")
		f.SetStatus(http.StatusServiceUnavailable)
		_, err = c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1})
		f.SetStatus(0)
		wantErr(t, err, "unavailable", "")
		if n := c.count("SELECT COUNT(*) FROM orders"); n != orders || c.count("SELECT COUNT(*) FROM upsells") != 0 || upgrades(f) != 0 {
			t.Fatalf("after a refused upsell: %d orders (had %d), %d upsells, %d upgrades ordered", n, orders, c.count("SELECT COUNT(*) FROM upsells"), upgrades(f))
		}
		// Ordered, then replayed 40 times at once with its key: one order, one WHMCS upgrade. (40
		// first submissions at once are not all one order in either back end: the connections are
		// reserved before the key is checked, so the plan's cap may refuse some: the upsell's own limit.)
		first, err := c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1,
			IdempotencyKey: ptr("more-1")})
		if err != nil {
			t.Fatalf("upsell order: %v", err)
		}
		var wg sync.WaitGroup
		ids := make([]string, 40)
		var results [40]*genupsell.UpsellOrderResult
		for i := range ids {
			wg.Go(func() {
				r, err := c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(owner.Token), ServiceID: svcID, ExtraQuantity: 1,
					IdempotencyKey: ptr("more-1")})
				if err != nil {
					t.Errorf("upsell %d: %v", i, err)
					return
				}
				ids[i], results[i] = r.OrderID, r
			})
		}
		wg.Wait()
		for i := range ids {
			if ids[i] != first.OrderID {
				t.Fatalf("replay %d answered %q, want %q", i, ids[i], first.OrderID)
			}
		}
		up := results[0]
		st := f.State()
		if up.Total.Amount != want || upgrades(f) != 1 || len(st.Orders) != 2 || !st.Orders[1].Upgrade ||
			len(st.Invoices) != 2 || st.Invoices[1].Total != money.Format(want, "EUR") {
			t.Fatalf("upsell %+v, WHMCS orders %+v, upgrades ordered %d: want one upgrade at WHMCS's price", up, st.Orders, upgrades(f))
		}
		if resp := c.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		st = f.State()
		changes := 0
		for _, m := range st.Module {
			if m.Function == "ChangePackage" {
				changes++
			}
		}
		if st.Services[0].ConfigOptions[2] != 3 || changes != 1 || st.Invoices[1].Status != "Paid" || len(st.Transactions) != 2 ||
			st.Transactions[1].InvoiceID != st.Invoices[1].ID || f.CallCount("AddInvoicePayment") != 2 {
			t.Fatalf("WHMCS %+v: want the upgrade invoice paid once and the package changed once", st)
		}
		if got := c.getOrder(owner.Token, up.OrderID); got.Status != "active" {
			t.Fatalf("upsell order %s, want active", got.Status)
		}
		if svc := c.getService(owner.Token, svcID); svc.MaxConnections != 4 {
			t.Fatalf("service connections %d, want 4 (1 + 3 in WHMCS)", svc.MaxConnections)
		}
		if n := c.count("SELECT COUNT(*) FROM services WHERE id = ? AND max_connections = 4", svcID); n != 1 {
			t.Fatal("our copy of the line did not follow the upgrade")
		}
	})
}

// TestWHMCSRenewalInvoicePaid: WHMCS's cron makes the renewal invoice; POST /services/{id}/renew
// answers an order of ours for its balance (one however many calls: 40 at once), paid through
// Streamcart's gateway and recorded on that invoice once, so WHMCS's module renews the line and
// its due date moves a period. Before WHMCS invoices, there is nothing to renew (409); WHMCS
// down: 503 unavailable.
func TestWHMCSRenewalInvoicePaid(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "renew@example.com")
		owner := c.proven("renew@example.com")
		svcID := c.getOrder(owner.Token, id).ServiceIds[0]
		renew := func() (*genservices.OrderResult, error) {
			return c.services.Renew(t.Context(), &genservices.RenewPayload{Token: ptr(owner.Token), ServiceID: svcID})
		}
		_, err := renew()
		wantErr(t, err, "conflict", "")
		due := f.State().Services[0].NextDueDate
		c.clock.Add(20 * 24 * time.Hour)
		if res := f.RunCron(); len(res.Invoices) != 1 {
			t.Fatalf("WHMCS's cron made %+v, want one renewal invoice", res)
		}
		st := f.State()
		inv := st.Invoices[len(st.Invoices)-1]
		f.SetStatus(http.StatusServiceUnavailable)
		_, err = renew()
		f.SetStatus(0)
		wantErr(t, err, "unavailable", "")
		var wg sync.WaitGroup
		ids := make([]string, 40)
		var first *genservices.OrderResult
		var mu sync.Mutex
		for i := range ids {
			wg.Go(func() {
				r, err := renew()
				if err != nil {
					t.Errorf("renew %d: %v", i, err)
					return
				}
				mu.Lock()
				ids[i], first = r.OrderID, r
				mu.Unlock()
			})
		}
		wg.Wait()
		for i := range ids {
			if ids[i] != ids[0] {
				t.Fatalf("renew %d answered %q, want %q", i, ids[i], ids[0])
			}
		}
		if money.Format(first.Total.Amount, first.Total.Currency) != inv.Total || first.Total.Currency != "EUR" || first.PaymentURL == "" {
			t.Fatalf("renewal order %+v, want WHMCS's invoice %+v", first, inv)
		}
		if svc := c.getService(owner.Token, svcID); svc.RenewalOrderID == nil || *svc.RenewalOrderID != first.OrderID ||
			svc.RenewalInvoiceID == nil || *svc.RenewalInvoiceID != first.InvoiceID {
			t.Fatalf("service %+v: want its open renewal (our order for WHMCS's invoice)", svc)
		}
		if resp := c.sandbox(first.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		st = f.State()
		renewed := 0
		for _, m := range st.Module {
			if m.Function == "Renew" {
				renewed++
			}
		}
		paid := st.Invoices[len(st.Invoices)-1]
		var txns []whmcsfake.TransactionState
		for _, tx := range st.Transactions {
			if tx.InvoiceID == paid.ID {
				txns = append(txns, tx)
			}
		}
		if paid.Status != "Paid" || len(txns) != 1 || txns[0].TransID != "sandbox:"+first.InvoiceID || renewed != 1 || st.Services[0].NextDueDate == due {
			t.Fatalf("WHMCS %+v: want the renewal invoice paid once with our transaction, the line renewed once, its due date moved", st)
		}
		if got := c.getOrder(owner.Token, first.OrderID); got.Status != "active" {
			t.Fatalf("renewal order %s, want active", got.Status)
		}
		if svc := c.getService(owner.Token, svcID); svc.NextDueDate != st.Services[0].NextDueDate || svc.RenewalOrderID != nil {
			t.Fatalf("service %+v, WHMCS's due date %s: want it, and no open renewal", svc, st.Services[0].NextDueDate)
		}
	})
}

// TestWHMCSPlacingDiedAfterAddOrder: the process placing an order died after WHMCS made it and
// before its ids were kept (the claim's reference was kept before AddOrder was sent): the replay
// that takes the claim over finds that WHMCS order by its reference instead of adding a second.
func TestWHMCSPlacingDiedAfterAddOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("died@example.com", "")
		p := whmcsBuy()
		p.IdempotencyKey = ptr("k-died")
		o := s.buy(buyer.Token, p)
		// As the dead process left it: claimed (the claim run out), its reference kept, no ids.
		storetest.Exec(t, s.cfg.DB, `UPDATE whmcs_orders SET state = 'placing', claimed_until = '', whmcs_order = 0, whmcs_invoice = 0
			WHERE order_id = ?`, o.OrderID)
		storetest.Exec(t, s.cfg.DB, `DELETE FROM whmcs_services WHERE order_id = ?`, o.OrderID)
		again := s.buy(buyer.Token, p)
		if again.OrderID != o.OrderID || f.CallCount("AddOrder") != 1 || len(f.State().Orders) != 1 {
			t.Fatalf("replay %+v, AddOrder %d, WHMCS orders %+v: want the first WHMCS order taken over", again, f.CallCount("AddOrder"), f.State().Orders)
		}
		if n := s.count(`SELECT COUNT(*) FROM whmcs_orders WHERE order_id = ? AND state = 'placed' AND whmcs_order = 1 AND whmcs_invoice = 1`, o.OrderID); n != 1 {
			t.Fatal("the placement does not hold WHMCS's order again")
		}
		if n := s.count(`SELECT COUNT(*) FROM whmcs_services WHERE order_id = ? AND whmcs_id = 1`, o.OrderID); n != 1 {
			t.Fatal("the service's WHMCS id is not kept again")
		}
	})
}

// TestWHMCSRenewalInvoiceShown: once WHMCS's cron made a renewal invoice, the services view shows
// it open (renewalInvoiceId, renewalOrderId: our order for its balance, placed as the built-in
// sweep places a renewal's) without the buyer asking to renew first; 20 reads at once place one
// order, the one POST /services/{id}/renew answers. WHMCS down: the view answers, with none shown
// and nothing placed.
func TestWHMCSRenewalInvoiceShown(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "shown@example.com")
		owner := c.proven("shown@example.com")
		svcID := c.getOrder(owner.Token, id).ServiceIds[0]
		renewals := func() int { return c.count(`SELECT COUNT(*) FROM orders WHERE kind = 'renewal'`) }
		if svc := c.getService(owner.Token, svcID); svc.RenewalInvoiceID != nil || renewals() != 0 {
			t.Fatalf("service %+v before WHMCS invoiced: want no open renewal", svc)
		}
		c.clock.Add(20 * 24 * time.Hour)
		if res := f.RunCron(); len(res.Invoices) != 1 {
			t.Fatalf("WHMCS's cron made %+v, want one renewal invoice", res)
		}
		f.SetStatus(http.StatusServiceUnavailable)
		if svc := c.getService(owner.Token, svcID); svc.RenewalInvoiceID != nil || renewals() != 0 {
			t.Fatalf("service %+v with WHMCS down: want none shown, nothing placed", svc)
		}
		f.SetStatus(0)
		var wg sync.WaitGroup
		got := make([]string, 20)
		for i := range got {
			wg.Go(func() {
				if svc := c.getService(owner.Token, svcID); svc.RenewalInvoiceID != nil {
					got[i] = *svc.RenewalInvoiceID
				}
			})
		}
		wg.Wait()
		for i := range got {
			if got[i] == "" || got[i] != got[0] {
				t.Fatalf("read %d showed renewal invoice %q, read 0 %q: want one, the same", i, got[i], got[0])
			}
		}
		if n := renewals(); n != 1 {
			t.Fatalf("%d renewal orders placed, want 1", n)
		}
		r, err := c.services.Renew(t.Context(), &genservices.RenewPayload{Token: ptr(owner.Token), ServiceID: svcID})
		if err != nil || r.InvoiceID != got[0] || renewals() != 1 {
			t.Fatalf("POST /renew %+v %v: want the order shown (%s), no second", r, err, got[0])
		}
		inv := f.State().Invoices[len(f.State().Invoices)-1]
		if money.Format(r.Total.Amount, r.Total.Currency) != inv.Total {
			t.Fatalf("order %+v, WHMCS's invoice %+v", r, inv)
		}
	})
}
