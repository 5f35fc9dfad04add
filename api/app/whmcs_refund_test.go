package app_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genservices "github.com/streamcart/streamcart/gen/services"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// refundsOut are the fake's transactions paying money out (refunds), in order.
func refundsOut(st whmcsfake.State) []whmcsfake.TransactionState {
	var out []whmcsfake.TransactionState
	for _, tx := range st.Transactions {
		if tx.Refunded != "0.00" {
			out = append(out, tx)
		}
	}
	return out
}

// moduleCalls counts the fake module's calls of function.
func moduleCalls(st whmcsfake.State, function string) int {
	n := 0
	for _, m := range st.Module {
		if m.Function == function {
			n++
		}
	}
	return n
}

// TestWHMCSPartialRefund: a partial refund from the console is recorded on the WHMCS invoice
// too (AddTransaction paying out the refunded amount), once: 40 submissions at once with one
// Idempotency-Key are one refund and one transaction; WHMCS down, the job waits; its answer
// lost, the retry finds it and posts nothing more. The service is not ended, the invoice stays
// Paid. A later full refund of the rest records only the rest and ends the service once.
func TestWHMCSPartialRefund(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		id, token := paidWHMCSOrder(t, c, "partial@example.com")
		refund := func(amount *int64, key string) (*genactions.RefundResult, error) {
			return cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
				ID: id, Amount: amount, Reason: "a gesture", IdempotencyKey: &key})
		}
		f.SetStatus(http.StatusServiceUnavailable)
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				if r, err := refund(ptr(int64(500)), "part-1"); err != nil || r.Refunded.Amount != 500 {
					t.Errorf("refund %d: %+v %v", i, r, err)
				}
			})
		}
		wg.Wait()
		if n := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, id); n != 1 {
			t.Fatalf("%d refunds for one Idempotency-Key", n)
		}
		if got := c.getOrder(token, id); got.Status != "partially_refunded" {
			t.Fatalf("order %s, want partially_refunded", got.Status)
		}
		// WHMCS down: the recording waits, visible as a queued job.
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = ? AND attempts = 1`, whmcsorder.JobRecordRefund, store.JobQueued); n != 1 {
			t.Fatalf("%d record-refund jobs queued again after one attempt, want 1", n)
		}
		// Back, but AddTransaction's answer is lost: the retry finds it and posts nothing more.
		f.SetStatus(0)
		drop.arm("AddTransaction")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		c.clock.Add(2 * time.Hour)
		c.drain()
		if n := c.count(`SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = ?`, whmcsorder.JobRecordRefund, store.JobDone); n != 1 {
			t.Fatalf("%d record-refund jobs done, want 1", n)
		}
		st := f.State()
		out := refundsOut(st)
		if len(out) != 1 || out[0].Refunded != "5.00" || out[0].InvoiceID != st.Invoices[0].ID || !strings.HasPrefix(out[0].TransID, "refund:ref_") ||
			out[0].Gateway != "banktransfer" || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS refunds %+v (AddTransaction %d): want one of 5.00 on the invoice", out, f.CallCount("AddTransaction"))
		}
		if st.Services[0].Status != "Active" || moduleCalls(st, "TerminateAccount") != 0 || st.Invoices[0].Status != "Paid" {
			t.Fatalf("WHMCS service %+v invoice %+v after a partial refund: want it running, the invoice paid", st.Services[0], st.Invoices[0])
		}
		if svc := c.getService(token, c.getOrder(token, id).ServiceIds[0]); svc.Status != "Active" || svc.Username == "" {
			t.Fatalf("service after a partial refund %+v", svc)
		}

		// The rest: recorded alone (the first is not posted again), the service ended once.
		r, err := refund(nil, "rest")
		if err != nil || r.Refund.Amount.Amount != 2159-500 {
			t.Fatalf("full refund of the rest: %+v %v", r, err)
		}
		c.drain()
		st = f.State()
		out = refundsOut(st)
		if len(out) != 2 || out[1].Refunded != "16.59" || f.CallCount("AddTransaction") != 2 || st.Invoices[0].Status != "Refunded" ||
			st.Services[0].Status != "Terminated" || moduleCalls(st, "TerminateAccount") != 1 {
			t.Fatalf("WHMCS after the rest: refunds %+v, AddTransaction %d, invoice %+v, service %+v",
				out, f.CallCount("AddTransaction"), st.Invoices[0], st.Services[0])
		}
		if !strings.HasPrefix(out[1].TransID, "refund:ref_") {
			t.Fatalf("refund transaction id %q", out[1].TransID)
		}
	})
}

// TestWHMCSUpsellRefund: a fully refunded upsell takes its connections back in WHMCS too: the
// extra connections option of the WHMCS service is set back (UpdateClientProduct configoptions,
// its recurring amount recalculated) once, and the module's ChangePackage pushes it to the line
// once; the line itself keeps running. 40 refunds at once are one; WHMCS down, the job waits;
// the answer to UpdateClientProduct lost, the retry reads WHMCS's value and sends nothing more.
func TestWHMCSUpsellRefund(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		id, _ := paidWHMCSOrder(t, c, "undo@example.com")
		buyer := c.proven("undo@example.com")
		svcID := c.getOrder(buyer.Token, id).ServiceIds[0]
		recurring := f.State().Services[0].Recurring
		up, err := c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(buyer.Token), ServiceID: svcID, ExtraQuantity: 1})
		if err != nil {
			t.Fatalf("upsell: %v", err)
		}
		if resp := c.sandbox(up.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		if st := f.State(); st.Services[0].ConfigOptions[2] != 3 || moduleCalls(st, "ChangePackage") != 1 || st.Services[0].Recurring == recurring {
			t.Fatalf("WHMCS service after the upsell %+v", st.Services[0])
		}

		f.SetStatus(http.StatusServiceUnavailable)
		if n := refundsAtOnce(t, cl, owner, up.OrderID, "connections not wanted"); n != 1 {
			t.Fatalf("%d refunds of the upsell succeeded, want 1", n)
		}
		if n := c.count("SELECT COUNT(*) FROM services WHERE id = ? AND max_connections = 3", svcID); n != 1 {
			t.Fatal("our service still has the refunded connections")
		}
		c.drain()
		if state, attempts := jobState(t, c.shop, whmcsorder.JobTakeBack+":"+up.OrderID); state != store.JobQueued || attempts != 1 {
			t.Fatalf("take-back job %s after %d attempts, want queued again", state, attempts)
		}
		f.SetStatus(0)
		drop.arm("UpdateClientProduct")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		c.clock.Add(2 * time.Hour)
		c.drain()
		st := f.State()
		if n := callsWith(f, "UpdateClientProduct", "autorecalc", "true"); n != 1 {
			t.Fatalf("%d UpdateClientProduct calls setting the option, want 1", n)
		}
		if ws := st.Services[0]; ws.ConfigOptions[2] != 2 || ws.Recurring != recurring || ws.Status != "Active" ||
			moduleCalls(st, "ChangePackage") != 2 || moduleCalls(st, "TerminateAccount") != 0 {
			t.Fatalf("WHMCS service %+v, module %+v: want 2 extra connections again at the old price, one more ChangePackage, the line running",
				ws, st.Module)
		}
		out := refundsOut(st)
		if len(out) != 1 || out[0].InvoiceID != st.Invoices[1].ID || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS refunds %+v: want the upgrade invoice's refund once", out)
		}
		if svc := c.getService(buyer.Token, svcID); svc.MaxConnections != 3 || svc.Status != "Active" {
			t.Fatalf("service after the upsell's refund %+v, want 3 connections, active", svc)
		}
	})
}

// TestWHMCSTrialConversionRefused: in WHMCS mode POST /services/{id}/renew {"pid": …} on a free
// trial is 409 conflict with a message saying what to do (order the plan), with nothing stored
// and nothing asked of WHMCS: WHMCS does not document converting a free product in place.
func TestWHMCSTrialConversionRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		buyer := c.identify("convert@example.com", "")
		o := c.buy(buyer.Token, trial())
		c.drain()
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
			t.Fatalf("trial %s, want active", got.Status)
		}
		owner := c.proven("convert@example.com")
		orders, calls := c.count("SELECT COUNT(*) FROM orders"), len(f.Calls())
		_, err := c.services.Renew(t.Context(), &genservices.RenewPayload{Token: ptr(owner.Token), ServiceID: o.ServiceIds[0],
			Pid: ptr(2), BillingCycle: ptr("monthly")})
		wantErr(t, err, "conflict", "This free trial cannot be turned into a paid plan here. Please order the plan you want: it comes with its own line, and your trial keeps running until it ends. Nothing was charged.")
		if n := c.count("SELECT COUNT(*) FROM orders"); n != orders {
			t.Fatalf("%d orders after a refused conversion, had %d", n, orders)
		}
		for _, call := range f.Calls()[calls:] {
			if call.Action != "GetClientsProducts" && call.Action != "GetInvoices" {
				t.Fatalf("a refused conversion asked WHMCS %s", call.Action)
			}
		}
	})
}

// TestWHMCSLostUpgrade: WHMCS makes the upgrade but UpgradeProduct's answer is lost. The buyer
// gets 503 unavailable with nothing stored; the replay with the same Idempotency-Key (then 40 at
// once) finds that pending upgrade again (GetOrders: the client's pending upgrade of the service, held by
// none of our orders) and take it over: one upgrade in WHMCS, paid once, the connections raised
// once. One whose answer was lost and that nobody replays is cancelled in WHMCS after a while,
// after which a new upsell goes through.
func TestWHMCSLostUpgrade(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "lostup@example.com")
		buyer := c.proven("lostup@example.com")
		svcID := c.getOrder(buyer.Token, id).ServiceIds[0]
		ordering := func(p url.Values) bool { return p.Get("calconly") != "true" }
		buy := func(key string) (*genupsell.UpsellOrderResult, error) {
			return c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(buyer.Token), ServiceID: svcID, ExtraQuantity: 1,
				IdempotencyKey: ptr(key)})
		}
		orders := c.count("SELECT COUNT(*) FROM orders")
		drop.armWhen("UpgradeProduct", ordering)
		_, err := buy("up-lost")
		drop.arm("")
		wantErr(t, err, "unavailable", "")
		if n := c.count("SELECT COUNT(*) FROM orders"); n != orders || c.count("SELECT COUNT(*) FROM upsells") != 0 {
			t.Fatalf("after a lost answer: %d orders (had %d), %d upsells", n, orders, c.count("SELECT COUNT(*) FROM upsells"))
		}
		if st := f.State(); len(st.Orders) != 2 || !st.Orders[1].Upgrade || st.Orders[1].Status != "Pending" {
			t.Fatalf("WHMCS orders %+v: want the upgrade it made, pending", st.Orders)
		}
		// The replay takes it over; 40 more at once answer that order. (40 first replays at once are
		// not all one order in either back end: the connections are reserved before the key is
		// checked, as TestWHMCSUpsell says.)
		first, err := buy("up-lost")
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		var wg sync.WaitGroup
		ids := make([]string, 40)
		for i := range ids {
			wg.Go(func() {
				if r, err := buy("up-lost"); err != nil {
					t.Errorf("replay %d: %v", i, err)
				} else {
					ids[i] = r.OrderID
				}
			})
		}
		wg.Wait()
		for i := range ids {
			if ids[i] != first.OrderID {
				t.Fatalf("replay %d answered %q, want %q", i, ids[i], first.OrderID)
			}
		}
		if st := f.State(); upgrades(f) != 1 || len(st.Orders) != 2 || len(st.Invoices) != 2 || first.Total.Amount <= 0 {
			t.Fatalf("UpgradeProduct %d, WHMCS orders %+v: want the lost upgrade taken over", upgrades(f), st.Orders)
		}
		if resp := c.sandbox(first.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.clock.Add(time.Hour) // past the lost placement's wait: its cancel job must leave it alone
		c.drain()
		st := f.State()
		if st.Services[0].ConfigOptions[2] != 3 || st.Orders[1].Status != "Active" || st.Invoices[1].Status != "Paid" ||
			f.CallCount("AddInvoicePayment") != 2 || f.CallCount("CancelOrder") != 0 || moduleCalls(st, "ChangePackage") != 1 {
			t.Fatalf("WHMCS %+v (CancelOrder %d): want the taken-over upgrade paid once and applied once", st, f.CallCount("CancelOrder"))
		}
		if got := c.getOrder(buyer.Token, first.OrderID); got.Status != "active" {
			t.Fatalf("upsell %s, want active", got.Status)
		}

		// Nobody replays: WHMCS refuses another upgrade meanwhile (503), then the lost one is
		// cancelled there, and a new upsell goes through.
		drop.armWhen("UpgradeProduct", ordering)
		_, err = buy("up-gone")
		drop.arm("")
		wantErr(t, err, "unavailable", "")
		_, err = buy("up-other")
		wantErr(t, err, "unavailable", "")
		c.drain()
		if st := f.State(); len(st.Orders) != 3 || st.Orders[2].Status != "Pending" {
			t.Fatalf("WHMCS orders %+v: want the lost upgrade pending while a replay may come", st.Orders)
		}
		c.clock.Add(16 * time.Minute)
		c.drain()
		if st := f.State(); st.Orders[2].Status != "Cancelled" || st.Orders[1].Status != "Active" || f.CallCount("CancelOrder") != 1 {
			t.Fatalf("WHMCS orders %+v (CancelOrder %d): want the unclaimed upgrade cancelled, the paid one kept", st.Orders, f.CallCount("CancelOrder"))
		}
		if r, err := buy("up-new"); err != nil || r.Total.Amount <= 0 {
			t.Fatalf("a new upsell once the lost upgrade is cancelled: %+v %v", r, err)
		}
	})
}

// TestWHMCSTaxIsWHMCSs: in WHMCS mode WHMCS owns tax: a catalog file whose tax block says its
// prices exclude tax (DE 19 %) adds nothing on top of WHMCS's prices, so a German buyer's quote
// and order are WHMCS's price and WHMCS's invoice total, not 19 % more refused as price_changed.
func TestWHMCSTaxIsWHMCSs(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		f := whmcsfake.New(whmcsfake.Demo())
		srv := httptest.NewServer(f.Handler())
		t.Cleanup(srv.Close)
		src := bytes.Replace(euCatalog(t), []byte("pricesIncludeTax: true"), []byte("pricesIncludeTax: false"), 1)
		c := taxShopOf(t, src, func(cfg *app.Config) { cfg.Backend, cfg.WHMCS = app.BackendWHMCS, whmcsSettings(srv.URL) })
		de := c.shop.from(ipDE)
		q, err := de.pricing.Quote(t.Context(), &genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", Currency: ptr("EUR")})
		if err != nil || q.Total.Amount != 1299 || q.Tax != nil {
			t.Fatalf("quote from Germany %+v (tax %+v) %v: want WHMCS's 12.99 and no tax of ours", q, q.Tax, err)
		}
		buyer := de.identify("steuer@example.com", "")
		o := de.buy(buyer.Token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", Currency: ptr("EUR")})
		if st := f.State(); o.Total.Amount != 1299 || len(st.Invoices) != 1 || st.Invoices[0].Total != "12.99" || st.Invoices[0].Status != "Unpaid" {
			t.Fatalf("order %+v, WHMCS invoices %+v: want WHMCS's invoice total, nothing added", o, st.Invoices)
		}
	})
}

// TestWHMCSPartialRefundWhileProvisioning: a partial refund of an order WHMCS has not recorded
// the payment of yet (WHMCS down after the payment) does not stop its fulfilment: once WHMCS is
// back (a lost AddInvoicePayment answer too) the payment is recorded once, then the refund once,
// the line made, and the order ends partially_refunded. 40 submissions with one key are one refund.
func TestWHMCSPartialRefundWhileProvisioning(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		buyer := c.identify("early@example.com", "")
		o := c.buy(buyer.Token, whmcsBuy())
		f.SetStatus(http.StatusServiceUnavailable)
		if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "provisioning" {
			t.Fatalf("order %s with WHMCS down after the payment, want provisioning", got.Status)
		}
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				r, err := cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
					ID: o.OrderID, Amount: ptr(int64(500)), Reason: "late delivery", IdempotencyKey: ptr("early-part")})
				if err != nil || r.Refunded.Amount != 500 {
					t.Errorf("refund %d: %+v %v", i, r, err)
				}
			})
		}
		wg.Wait()
		if n := c.count(`SELECT COUNT(*) FROM order_refunds WHERE order_id = ?`, o.OrderID); n != 1 {
			t.Fatalf("%d refunds for one Idempotency-Key", n)
		}
		if got := c.getOrder(buyer.Token, o.OrderID); got.Status != "provisioning" {
			t.Fatalf("order %s after a partial refund while provisioning, want still provisioning", got.Status)
		}
		c.drain()
		if f.CallCount("AddInvoicePayment") != 0 || f.CallCount("AddTransaction") != 0 {
			t.Fatal("WHMCS was written while down")
		}
		// Back, the payment's answer lost once: recorded once, then the refund, then the line.
		f.SetStatus(0)
		drop.arm("AddInvoicePayment")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		for range 3 {
			c.clock.Add(2 * time.Hour)
			c.drain()
		}
		st := f.State()
		if f.CallCount("AddInvoicePayment") != 1 || len(st.Transactions) != 2 || st.Transactions[0].Amount != "21.59" ||
			st.Transactions[1].Refunded != "5.00" || st.Transactions[1].InvoiceID != st.Invoices[0].ID || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS transactions %+v (AddInvoicePayment %d, AddTransaction %d): want the payment, then the refund, once each",
				st.Transactions, f.CallCount("AddInvoicePayment"), f.CallCount("AddTransaction"))
		}
		if st.Invoices[0].Status != "Paid" || st.Orders[0].Status != "Active" || st.Services[0].Status != "Active" {
			t.Fatalf("WHMCS invoice %+v order %+v service %+v: want paid, accepted, the line made", st.Invoices[0], st.Orders[0], st.Services[0])
		}
		got := c.getOrder(buyer.Token, o.OrderID)
		if got.Status != "partially_refunded" {
			t.Fatalf("order %s once fulfilled, want partially_refunded", got.Status)
		}
		if svc := c.getService(buyer.Token, got.ServiceIds[0]); svc.Status != "Active" || svc.Username == "" {
			t.Fatalf("service %+v, want the line made", svc)
		}
		// The console's timeline of the order shows the refund's recording job too.
		d, err := c.orders.Get(t.Context(), &genadminorders.GetPayload{Session: &owner.cookie, ID: o.OrderID})
		if err != nil {
			t.Fatalf("GET /admin/orders/{id}: %v", err)
		}
		if !slices.ContainsFunc(d.Timeline, func(e *genadminorders.AdminTimelineEvent) bool {
			return strings.HasPrefix(e.Summary, whmcsorder.JobRecordRefund+" job")
		}) {
			t.Fatalf("timeline lacks the %s job: %+v", whmcsorder.JobRecordRefund, d.Timeline)
		}
	})
}

// TestPartialRefundBeforeProvisioning: in the built-in back end too, a partial refund of a paid
// order whose provisioning job has not run yet does not stop it: the line is made, and the order
// ends partially_refunded.
func TestPartialRefundBeforeProvisioning(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newConsole(t)
		cl := c.clientsOf()
		owner := c.roles()["owner"]
		buyer := c.identify("builtin-early@example.com", "")
		o := c.buy(buyer.Token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly"})
		if resp := c.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		if _, err := cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
			ID: o.OrderID, Amount: ptr(int64(100)), Reason: "a gesture"}); err != nil {
			t.Fatalf("refund: %v", err)
		}
		c.drain()
		got := c.getOrder(buyer.Token, o.OrderID)
		if got.Status != "partially_refunded" {
			t.Fatalf("order %s, want partially_refunded once provisioned", got.Status)
		}
		if svc := c.getService(buyer.Token, got.ServiceIds[0]); svc.Status != "Active" || svc.Username == "" {
			t.Fatalf("service %+v after a partial refund before provisioning, want the line made", svc)
		}
	})
}

// TestWHMCSRenewalRefund: a fully refunded renewal is recorded on WHMCS's renewal invoice and
// moves the WHMCS service's due date back by the period its payment added (UpdateClientProduct
// nextduedate), once: 40 refunds at once are one; WHMCS down, the take-back waits; its answer
// lost, the retry reads the date back and sends nothing more. The line is not ended.
func TestWHMCSRenewalRefund(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		id, _ := paidWHMCSOrder(t, c, "renewback@example.com")
		buyer := c.proven("renewback@example.com")
		svcID := c.getOrder(buyer.Token, id).ServiceIds[0]
		due := f.State().Services[0].NextDueDate
		c.clock.Add(20 * 24 * time.Hour)
		if res := f.RunCron(); len(res.Invoices) != 1 {
			t.Fatalf("WHMCS's cron made %+v, want one renewal invoice", res)
		}
		r, err := c.services.Renew(t.Context(), &genservices.RenewPayload{Token: ptr(buyer.Token), ServiceID: svcID})
		if err != nil {
			t.Fatalf("renew: %v", err)
		}
		if resp := c.sandbox(r.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		renewed := f.State().Services[0].NextDueDate
		if renewed == due {
			t.Fatalf("WHMCS due date %s not moved by the renewal", renewed)
		}

		cl := c.clientsOf()
		owner := c.roles()["owner"]
		f.SetStatus(http.StatusServiceUnavailable)
		if n := refundsAtOnce(t, cl, owner, r.OrderID, "renewed by mistake"); n != 1 {
			t.Fatalf("%d refunds of the renewal succeeded, want 1", n)
		}
		c.drain()
		if state, attempts := jobState(t, c.shop, whmcsorder.JobTakeBack+":"+r.OrderID); state != store.JobQueued || attempts != 1 {
			t.Fatalf("take-back job %s after %d attempts, want queued again", state, attempts)
		}
		f.SetStatus(0)
		drop.arm("UpdateClientProduct")
		c.clock.Add(time.Hour)
		c.drain()
		drop.arm("")
		c.clock.Add(2 * time.Hour)
		c.drain()
		st := f.State()
		if n := f.CallCount("UpdateClientProduct"); n != 1 || callsWith(f, "UpdateClientProduct", "nextduedate", due) != 1 {
			t.Fatalf("%d UpdateClientProduct calls, want one moving the due date back to %s", n, due)
		}
		if ws := st.Services[0]; ws.NextDueDate != due || ws.Status != "Active" || moduleCalls(st, "TerminateAccount") != 0 {
			t.Fatalf("WHMCS service %+v: want its due date back at %s (from %s), the line running", ws, due, renewed)
		}
		out := refundsOut(st)
		if len(out) != 1 || out[0].InvoiceID != st.Invoices[len(st.Invoices)-1].ID || f.CallCount("AddTransaction") != 1 {
			t.Fatalf("WHMCS refunds %+v: want the renewal invoice's refund once", out)
		}
		if svc := c.getService(buyer.Token, svcID); svc.NextDueDate != due || svc.Status != "Active" {
			t.Fatalf("service %+v: want WHMCS's due date %s, active", svc, due)
		}
	})
}

// holdUpgrade is a WHMCS in front of the fake that fails the first UpgradeProduct placing an
// upgrade without it reaching WHMCS (no answer), and holds the answer of the second after WHMCS
// made the upgrade: made is told, the answer is sent once release is closed.
type holdUpgrade struct {
	next          http.Handler
	n             atomic.Int32
	made, release chan struct{}
}

func (h *holdUpgrade) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ParseForm() == nil && r.PostForm.Get("action") == "UpgradeProduct" && r.PostForm.Get("calconly") != "true" {
		switch h.n.Add(1) {
		case 1:
			w.WriteHeader(http.StatusBadGateway)
			return
		case 2:
			rec := httptest.NewRecorder()
			h.next.ServeHTTP(rec, r)
			close(h.made)
			<-h.release
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
	}
	h.next.ServeHTTP(w, r)
}

// TestWHMCSLostUpgradeRace: an upsell's UpgradeProduct gets no answer (lost); a second upsell of
// the same line under another Idempotency-Key is placed, and while its UpgradeProduct is in
// flight (WHMCS made the upgrade, its answer not back yet) the first one's replays (40 at once)
// and its cancel job look for the lost upgrade. They must neither take over nor cancel the
// upgrade in flight: the replays are refused with nothing stored, the job waits; the
// second upsell gets its upgrade, paid once, and the job then cancels nothing of it.
func TestWHMCSLostUpgradeRace(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, drop := whmcsConsole(t)
		hold := &holdUpgrade{next: f.Handler(), made: make(chan struct{}), release: make(chan struct{})}
		drop.next = hold
		var once sync.Once
		release := func() { once.Do(func() { close(hold.release) }) }
		t.Cleanup(release)
		id, _ := paidWHMCSOrder(t, c, "race@example.com")
		buyer := c.proven("race@example.com")
		svcID := c.getOrder(buyer.Token, id).ServiceIds[0]
		buy := func(key string) (*genupsell.UpsellOrderResult, error) {
			return c.after.upsell.Order(t.Context(), &genupsell.OrderPayload{Token: ptr(buyer.Token), ServiceID: svcID, ExtraQuantity: 1,
				IdempotencyKey: ptr(key)})
		}
		_, err := buy("first")
		wantErr(t, err, "unavailable", "")
		orders := c.count("SELECT COUNT(*) FROM orders")

		var second *genupsell.UpsellOrderResult
		var secondErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			second, secondErr = buy("second")
		}()
		<-hold.made
		// The second's upgrade is made in WHMCS, its answer not back: the first's replays and its
		// cancel job (past the lost wait) look now.
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				// Refused (503: the line's upgrade is being placed; or the plan's cap while the
				// second's connections are reserved). A replay arriving while the first of them
				// is being dropped may be answered that order before it is: nothing of it stays
				// (counted below).
				buy("first")
			})
		}
		wg.Wait()
		c.clock.Add(16 * time.Minute)
		c.drain()
		if n := f.CallCount("CancelOrder"); n != 0 {
			t.Fatalf("%d CancelOrder while the second upgrade was in flight", n)
		}
		if n := c.count("SELECT COUNT(*) FROM orders"); n != orders+1 {
			t.Fatalf("%d orders while the second is in flight, want %d (the second's): a replay stored one", n, orders+1)
		}
		release()
		<-done
		if secondErr != nil {
			t.Fatalf("second upsell: %v", secondErr)
		}
		if resp := c.sandbox(second.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.clock.Add(time.Hour)
		c.drain()
		st := f.State()
		if upgrades(f) != 1 || len(st.Orders) != 2 || st.Orders[1].Status != "Active" || st.Invoices[1].Status != "Paid" ||
			f.CallCount("CancelOrder") != 0 || st.Services[0].ConfigOptions[2] != 3 || moduleCalls(st, "ChangePackage") != 1 {
			t.Fatalf("WHMCS orders %+v invoices %+v (CancelOrder %d): want the second upgrade ours, paid once, applied once",
				st.Orders, st.Invoices, f.CallCount("CancelOrder"))
		}
		if got := c.getOrder(buyer.Token, second.OrderID); got.Status != "active" {
			t.Fatalf("second upsell %s, want active", got.Status)
		}
		if n := c.count("SELECT COUNT(*) FROM whmcs_orders WHERE whmcs_order = ?", st.Orders[1].ID); n != 1 {
			t.Fatalf("%d of our orders hold the WHMCS upgrade, want 1", n)
		}
	})
}

// refundsAtOnce sends 40 full refunds of one order at once, as the owner, and answers how many
// succeeded.
func refundsAtOnce(t *testing.T, cl consoleClients, owner operatorSession, orderID, reason string) int {
	t.Helper()
	var wg sync.WaitGroup
	var ok atomic.Int32
	for range 40 {
		wg.Go(func() {
			if _, err := cl.actions.Refund(t.Context(), &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf,
				ID: orderID, Reason: reason}); err == nil {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	return int(ok.Load())
}
