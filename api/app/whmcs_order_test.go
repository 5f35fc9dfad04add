package app_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	genorder "github.com/streamcart/streamcart/gen/order"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// whmcsBuy is the plan the acceptance buys: Premium monthly in EUR with two extra connections,
// proxy protection and WELCOME10, a promotion of the fake WHMCS's demo data.
func whmcsBuy() genorder.CreatePayload {
	return genorder.CreatePayload{Pid: 3, BillingCycle: "monthly", Currency: ptr("EUR"), ExtraConnections: 2,
		ProxyProtection: true, PromoCode: ptr("WELCOME10")}
}

// lastCall is the last call of action the fake answered.
func lastCall(t *testing.T, f *whmcsfake.Fake, action string) whmcsfake.Call {
	t.Helper()
	calls := f.Calls()
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Action == action {
			return calls[i]
		}
	}
	t.Fatalf("WHMCS never received %s", action)
	return whmcsfake.Call{}
}

// TestWHMCSBuyerFlow: the whole buyer flow in WHMCS mode. The client is made in WHMCS when the
// order is placed (not at sign-in); AddOrder carries the client from the session, the product,
// cycle, options PHP-serialised and base64-encoded, the promotion, the mapped payment module and
// the buyer's IP, never priceoverride; the buyer pays on the sandbox page; the jobs record the
// payment once with our transaction id, accept the order and copy the line WHMCS's module made,
// whose credentials the buyer reads. No WHMCS id reaches the buyer.
func TestWHMCSBuyerFlow(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("buyer@example.com", "")
		if n := f.CallCount("AddClient"); n != 0 {
			t.Fatalf("a session made %d WHMCS clients; want none before an order", n)
		}
		o := s.buy(buyer.Token, whmcsBuy())
		// 15.99 + 2 × 3.00 + 2.00 = 23.99, less 10 %: 21.59.
		if o.Status != "pending" || o.Total.Amount != 2159 || o.Total.Currency != "EUR" || !strings.HasPrefix(o.OrderID, "ord_") ||
			!strings.HasPrefix(o.InvoiceID, "inv_") || len(o.ServiceIds) != 1 || !strings.HasPrefix(o.ServiceIds[0], "svc_") {
			t.Fatalf("order = %+v", o)
		}
		st := f.State()
		if len(st.Clients) != 1 || st.Clients[0].Email != "buyer@example.com" || st.Clients[0].Currency != "EUR" || st.Clients[0].Language != "english" {
			t.Fatalf("WHMCS clients %+v, want the buyer, in EUR, english", st.Clients)
		}
		if len(st.Orders) != 1 || st.Orders[0].Status != "Pending" || st.Orders[0].PriceOverride || st.Orders[0].Amount != "21.59" ||
			len(st.Invoices) != 1 || st.Invoices[0].Total != "21.59" {
			t.Fatalf("WHMCS orders %+v invoices %+v", st.Orders, st.Invoices)
		}
		add := lastCall(t, f, "AddOrder").Params
		opts, err := base64.StdEncoding.DecodeString(add.Get("configoptions[0]"))
		if err != nil || string(opts) != "a:2:{i:2;i:2;i:4;i:1;}" {
			t.Fatalf("configoptions[0] = %q (%v), want base64 of a:2:{i:2;i:2;i:4;i:1;}", opts, err)
		}
		for k, want := range map[string]string{"clientid": "1", "pid[0]": "3", "billingcycle[0]": "monthly", "promocode": "WELCOME10",
			"paymentmethod": "banktransfer", "clientip": "127.0.0.1"} {
			if got := add.Get(k); got != want {
				t.Errorf("AddOrder %s = %q, want %q", k, got, want)
			}
		}
		for k := range add {
			if strings.HasPrefix(k, "priceoverride") {
				t.Errorf("AddOrder sent %s", k)
			}
		}
		if n := f.CallCount("GetInvoice"); n != 1 {
			t.Fatalf("%d GetInvoice calls after placing, want 1", n)
		}

		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		got := s.getOrder(buyer.Token, o.OrderID)
		if got.Status != "active" {
			t.Fatalf("order %s after the jobs, want active", got.Status)
		}
		svc := s.getService(buyer.Token, o.ServiceIds[0])
		st = f.State()
		if len(st.Services) != 1 || svc.Status != "Active" || svc.Username == "" || svc.Username != st.Services[0].Username ||
			svc.Password == "" || svc.ServerHostname != "line.whmcs-fake.test:8080" {
			t.Fatalf("service %+v, WHMCS services %+v: want WHMCS's line and credentials", svc, st.Services)
		}
		if len(st.Clients) != 1 || len(st.Orders) != 1 || st.Orders[0].Status != "Active" || st.Orders[0].PriceOverride ||
			len(st.Invoices) != 1 || st.Invoices[0].Status != "Paid" || len(st.Transactions) != 1 ||
			st.Transactions[0].TransID != "sandbox:"+o.InvoiceID || st.Transactions[0].Amount != "21.59" || st.Transactions[0].Gateway != "banktransfer" {
			t.Fatalf("WHMCS state %+v: want one client, one order accepted, one invoice paid once with our transaction id", st)
		}
		// Checked before recorded; set up on payment by WHMCS, so accepted without a second setup.
		if f.CallCount("GetTransactions") < 1 || f.CallCount("AddInvoicePayment") != 1 {
			t.Fatalf("GetTransactions %d, AddInvoicePayment %d", f.CallCount("GetTransactions"), f.CallCount("AddInvoicePayment"))
		}
		if a := lastCall(t, f, "AcceptOrder").Params; a.Get("autosetup") != "false" || a.Get("orderid") != "1" {
			t.Fatalf("AcceptOrder %v, want autosetup=false for a line set up on payment", a)
		}
		if n := len(st.Module); n != 1 || st.Module[0].Function != "CreateAccount" {
			t.Fatalf("module calls %+v, want one CreateAccount", st.Module)
		}
		// A replay of the order (same session, no key) is another order; the first stays as it is.
		if n := s.count("SELECT COUNT(*) FROM whmcs_orders WHERE state = 'placed'"); n != 1 {
			t.Fatalf("%d placed WHMCS orders mapped", n)
		}
	})
}

// TestWHMCSPriceChanged: WHMCS's invoice totals otherwise than our quote (a price changed in
// WHMCS the storefront has not read yet): the WHMCS order is cancelled, the buyer gets 409
// price_changed with WHMCS's total, and nothing is stored or charged.
func TestWHMCSPriceChanged(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		f.EditProduct(2, func(p *whmcsfake.Product) { p.Pricing["EUR"]["monthly"] = "13.49" })
		buyer := s.identify("changed@example.com", "")
		p := standard()
		p.Token, p.Currency = ptr(buyer.Token), ptr("EUR")
		_, err := s.order.Create(t.Context(), &p)
		var pc *genorder.PriceChanged
		if !asPriceChanged(err, &pc) || pc.Quote == nil || pc.Quote.Total.Amount != 1349 || pc.Quote.Total.Currency != "EUR" {
			t.Fatalf("POST /orders = %v, want 409 price_changed with WHMCS's 13.49", err)
		}
		st := f.State()
		if len(st.Orders) != 1 || st.Orders[0].Status != "Cancelled" || len(st.Invoices) != 1 || st.Invoices[0].Status != "Cancelled" || len(st.Transactions) != 0 {
			t.Fatalf("WHMCS state %+v: want its order cancelled, nothing paid", st)
		}
		for _, table := range []string{"orders", "invoices", "services", "jobs"} {
			if n := s.count("SELECT COUNT(*) FROM " + table); n != 0 {
				t.Fatalf("%d rows in %s after price_changed", n, table)
			}
		}
		// With WHMCS's price read, the order goes through.
		if _, err := s.app.RefreshWHMCS(t.Context()); err != nil {
			t.Fatal(err)
		}
		p.ExpectedTotal = &genorder.Money{Amount: 1349, Currency: "EUR"}
		if o := s.buy(buyer.Token, p); o.Status != "pending" || o.Total.Amount != 1349 {
			t.Fatalf("order at WHMCS's price %+v", o)
		}
	})
}

func asPriceChanged(err error, pc **genorder.PriceChanged) bool {
	v, ok := err.(*genorder.PriceChanged)
	*pc = v
	return ok
}

// TestWHMCSDownWhenOrdering: WHMCS unreachable, answering an error page, in maintenance or
// refusing the shop's address when an order is placed: 503 unavailable with none of WHMCS's
// words, nothing stored, nothing charged; the same Idempotency-Key places it once WHMCS is back.
func TestWHMCSDownWhenOrdering(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("down@example.com", "")
		for _, fault := range []struct {
			name      string
			set, lift func()
		}{
			{"HTTP 502", func() { f.SetStatus(http.StatusBadGateway) }, func() { f.SetStatus(0) }},
			{"maintenance", func() { f.SetMaintenance(true) }, func() { f.SetMaintenance(false) }},
			{"invalid IP", func() { f.SetInvalidIP("203.0.113.7") }, func() { f.SetInvalidIP("") }},
			{"AddOrder refused", func() { f.Fail("AddOrder", "Invalid Payment Method. Valid options include secretmodule") },
				func() { f.Fail("AddOrder", "") }},
			{"GetInvoice refused", func() { f.Fail("GetInvoice", "Invoice ID Not Found") }, func() { f.Fail("GetInvoice", "") }},
		} {
			fault.set()
			status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token,
				strings.NewReader(`{"pid":2,"billingCycle":"monthly","idempotencyKey":"k-down"}`))
			fault.lift()
			if status != http.StatusServiceUnavailable || !strings.Contains(string(body), `"name":"unavailable"`) ||
				strings.Contains(string(body), "Invalid") || strings.Contains(string(body), "secretmodule") || strings.Contains(string(body), "203.0.113.7") {
				t.Fatalf("%s: POST /orders = %d %s, want 503 unavailable without WHMCS's words", fault.name, status, body)
			}
			for _, table := range []string{"orders", "invoices", "services", "jobs", "trial_starts"} {
				if n := s.count("SELECT COUNT(*) FROM " + table); n != 0 {
					t.Fatalf("%s: %d rows in %s", fault.name, n, table)
				}
			}
		}
		// The GetInvoice failure left a WHMCS order behind: cancelled, never paid.
		for _, o := range f.State().Orders {
			if o.Status != "Cancelled" {
				t.Fatalf("WHMCS order %+v left pending", o)
			}
		}
		o := s.buy(buyer.Token, genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", IdempotencyKey: ptr("k-down")})
		if o.Status != "pending" || o.PaymentURL == "" {
			t.Fatalf("order once WHMCS is back %+v", o)
		}
		if v, ok := metric(s.scrape(), "streamcart_whmcs_call_failures_total", "action", "AddOrder", "reason", "refused"); !ok || v < 1 {
			t.Fatalf("streamcart_whmcs_call_failures_total{action=AddOrder,reason=refused} = %v, %v", v, ok)
		}
	})
}

// lostAnswers wraps the fake so that, while armed, an AddInvoicePayment is recorded by the fake
// but its answer never reaches the shop (a 502 in its place): a payment posted, its answer lost.
type lostAnswers struct {
	next  http.Handler
	armed atomic.Bool
}

func (l *lostAnswers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ParseForm() == nil && r.PostForm.Get("action") == "AddInvoicePayment" && l.armed.Load() {
		l.next.ServeHTTP(httptest.NewRecorder(), r)
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	l.next.ServeHTTP(w, r)
}

// TestWHMCSDownAfterPayment: WHMCS goes down once the buyer has paid: the job recording the
// payment is retried with backoff (visible as a queued job with its error, and in /metrics)
// until WHMCS is back; an answer lost after WHMCS recorded the payment is not posted again
// (GetInvoice and GetTransactions are read first): the invoice is paid once, the line becomes
// Active.
func TestWHMCSDownAfterPayment(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c := newClock()
		f := whmcsfake.New(whmcsfake.Demo())
		lost := &lostAnswers{next: f.Handler()}
		srv := httptest.NewServer(lost)
		t.Cleanup(srv.Close)
		s := newShop(t, func(cfg *app.Config) {
			cfg.Backend, cfg.WHMCS, cfg.Now = app.BackendWHMCS, whmcsSettings(srv.URL), c.Now
		})
		buyer := s.identify("later@example.com", "")
		o := s.buy(buyer.Token, whmcsBuy())
		f.SetStatus(http.StatusServiceUnavailable)
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		j, err := storetest.Inspect(s.app.Store()).JobByKey(t.Context(), whmcsorder.JobRecordPayment+":"+o.OrderID)
		if err != nil || j.State != store.JobQueued || j.Attempts != 1 || !strings.Contains(j.LastError, "HTTP 503") {
			t.Fatalf("record-payment job %+v, %v: want queued again after one failed attempt", j, err)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "provisioning" {
			t.Fatalf("order %s while WHMCS is down, want provisioning (paid, being delivered)", got.Status)
		}
		scrape := s.scrape()
		if v, ok := metric(scrape, "streamcart_whmcs_call_failures_total", "action", "GetInvoice", "reason", "unavailable"); !ok || v < 1 {
			t.Fatalf("WHMCS failures not counted: %v %v", v, ok)
		}
		if v, ok := metric(scrape, "streamcart_job_failures_total", "kind", whmcsorder.JobRecordPayment); !ok || v < 1 {
			t.Fatalf("job failure not counted: %v %v", v, ok)
		}
		// Back, but the answer to the payment is lost: recorded in WHMCS, retried here.
		f.SetStatus(0)
		lost.armed.Store(true)
		c.Add(time.Hour)
		s.drain()
		lost.armed.Store(false)
		if n := f.CallCount("AddInvoicePayment"); n != 1 {
			t.Fatalf("%d AddInvoicePayment calls, want 1", n)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "provisioning" {
			t.Fatalf("order %s after a lost answer, want provisioning", got.Status)
		}
		c.Add(2 * time.Hour)
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
			t.Fatalf("order %s once WHMCS answers, want active", got.Status)
		}
		st := f.State()
		if n := f.CallCount("AddInvoicePayment"); n != 1 || len(st.Transactions) != 1 || st.Transactions[0].TransID != "sandbox:"+o.InvoiceID ||
			st.Invoices[0].Status != "Paid" || st.Orders[0].Status != "Active" {
			t.Fatalf("AddInvoicePayment %d, WHMCS %+v: want the invoice paid once", n, st)
		}
		if svc := s.getService(buyer.Token, o.ServiceIds[0]); svc.Status != "Active" || svc.Username != st.Services[0].Username {
			t.Fatalf("service %+v", svc)
		}
	})
}

// TestWHMCSCancelledInvoicePaid: WHMCS cancelled the invoice (its admin, its own cleanup) while
// the buyer was paying it here: the payment is not recorded there, the order is held for
// review and the payment refunded, as a payment of any cancelled order; no line is made.
func TestWHMCSCancelledInvoicePaid(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("cancelled@example.com", "")
		o := s.buy(buyer.Token, whmcsBuy())
		admin, err := whmcs.New(whmcs.Config{URL: s.cfg.WHMCS.URL, Identifier: s.cfg.WHMCS.Identifier, Secret: s.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		if err := admin.CancelOrder(t.Context(), f.State().Orders[0].ID); err != nil {
			t.Fatal(err)
		}
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "needs_review" {
			t.Fatalf("order %s, want needs_review", got.Status)
		}
		reviews, err := s.app.Store().Reviews(t.Context(), 10)
		if err != nil || len(reviews) != 1 || reviews[0].Reason != order.ReasonCancelled || !reviews[0].Refunded() {
			t.Fatalf("reviews %+v, %v: want the payment refunded as cancelled", reviews, err)
		}
		st := f.State()
		if len(st.Transactions) != 0 || f.CallCount("AcceptOrder") != 0 || len(st.Module) != 0 {
			t.Fatalf("WHMCS %+v: want nothing recorded, accepted or set up", st)
		}
		if svc := s.getService(buyer.Token, o.ServiceIds[0]); svc.Status == "Active" || svc.Username != "" {
			t.Fatalf("service %+v of a cancelled invoice", svc)
		}
	})
}

// TestWHMCSFreeTrial: the free trial is a free WHMCS product's order: no invoice, no payment
// recorded, accepted with the module's setup, its line's credentials read back.
func TestWHMCSFreeTrial(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("trial@example.com", "")
		o := s.buy(buyer.Token, trial())
		if o.Status != "paid" || o.Total.Amount != 0 || o.PaymentURL != "" {
			t.Fatalf("trial order %+v", o)
		}
		if c := lastCall(t, f, "AddOrder").Params; c.Get("pid[0]") != "1" || c.Get("billingcycle[0]") != "free" {
			t.Fatalf("AddOrder %v", c)
		}
		s.drain()
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
			t.Fatalf("trial %s, want active", got.Status)
		}
		st := f.State()
		if len(st.Invoices) != 0 || f.CallCount("AddInvoicePayment") != 0 || len(st.Orders) != 1 || st.Orders[0].Status != "Active" {
			t.Fatalf("WHMCS %+v: want one accepted order, no invoice, no payment", st)
		}
		if a := lastCall(t, f, "AcceptOrder").Params; a.Get("autosetup") != "true" {
			t.Fatalf("AcceptOrder %v, want autosetup=true for a pending line", a)
		}
		if svc := s.getService(buyer.Token, o.ServiceIds[0]); svc.Status != "Active" || svc.Username != st.Services[0].Username || svc.Password == "" {
			t.Fatalf("trial service %+v", svc)
		}
	})
}

// TestWHMCSConcurrentOrders: 40 identical orders at once with one Idempotency-Key are one order
// here and one in WHMCS.
func TestWHMCSConcurrentOrders(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("many@example.com", "")
		var wg sync.WaitGroup
		ids := make([]string, 40)
		errs := make([]error, 40)
		for i := range ids {
			wg.Go(func() {
				p := whmcsBuy()
				p.Token, p.IdempotencyKey = ptr(buyer.Token), ptr("one-key")
				o, err := s.order.Create(t.Context(), &p)
				if err == nil {
					ids[i] = o.OrderID
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil || ids[i] != ids[0] {
				t.Fatalf("order %d: %q, %v; want %q", i, ids[i], err, ids[0])
			}
		}
		if n := f.CallCount("AddOrder"); n != 1 {
			t.Fatalf("%d WHMCS orders for one key", n)
		}
		if n := s.count("SELECT COUNT(*) FROM orders"); n != 1 {
			t.Fatalf("%d orders", n)
		}
	})
}

// TestWHMCSPasswordSignIn: in WHMCS mode a password sign-in is checked by WHMCS (ValidateLogin)
// behind the shop's throttling: a WHMCS client's own password proves the session, a wrong one is
// 401, WHMCS down is 503, and past the limit WHMCS is not even asked. The proven buyer's order
// goes to that WHMCS client: no second client is made.
func TestWHMCSPasswordSignIn(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		admin, err := whmcs.New(whmcs.Config{URL: s.cfg.WHMCS.URL, Identifier: s.cfg.WHMCS.Identifier, Secret: s.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.AddClient(t.Context(), whmcs.NewClient{FirstName: "Known", Email: "known@example.com", Password: "whmcs password 1", CurrencyID: 1}); err != nil {
			t.Fatal(err)
		}
		id := s.identify("known@example.com", "whmcs password 1")
		if id.Scope != "proven" || f.CallCount("ValidateLogin") != 1 {
			t.Fatalf("session %+v after %d ValidateLogin calls, want proven after one", id, f.CallCount("ValidateLogin"))
		}
		_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "known@example.com", Password: ptr("wrong password")})
		wantErr(t, err, "invalid_credentials", "")
		f.SetStatus(http.StatusServiceUnavailable)
		_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "known@example.com", Password: ptr("whmcs password 1")})
		f.SetStatus(0)
		wantErr(t, err, "unavailable", "")
		for range 4 {
			s.session.Create(t.Context(), &gensession.CreatePayload{Email: "known@example.com", Password: ptr("guess")})
		}
		asked := f.CallCount("ValidateLogin")
		status, _, body := s.raw(http.MethodPost, "/checkout/api/session", "", strings.NewReader(`{"email":"known@example.com","password":"whmcs password 1"}`))
		if status != http.StatusTooManyRequests || f.CallCount("ValidateLogin") != asked {
			t.Fatalf("past the limit: %d %s after %d more ValidateLogin calls, want 429 and none", status, body, f.CallCount("ValidateLogin")-asked)
		}
		s.buy(id.Token, whmcsBuy())
		st := f.State()
		if len(st.Clients) != 1 || f.CallCount("AddClient") != 1 || len(st.Orders) != 1 || st.Orders[0].ClientID != st.Clients[0].ID {
			t.Fatalf("WHMCS %+v: want the order on the known client, no second client", st)
		}
	})
}

// TestWHMCSSetPasswordRefused: in WHMCS mode WHMCS keeps the buyers' passwords (a sign-in is its
// ValidateLogin), so a password set here would never sign in: PUT /session/password answers 409
// conflict telling the buyer to use the emailed link, with nothing stored, the session kept and
// nothing asked of WHMCS. (The built-in back end sets it: TestSetPassword… in the app tests.)
func TestWHMCSSetPasswordRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		admin, err := whmcs.New(whmcs.Config{URL: s.cfg.WHMCS.URL, Identifier: s.cfg.WHMCS.Identifier, Secret: s.cfg.WHMCS.Secret})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.AddClient(t.Context(), whmcs.NewClient{FirstName: "Known", Email: "setpw@example.com", Password: "whmcs password 1", CurrencyID: 1}); err != nil {
			t.Fatal(err)
		}
		id := s.identify("setpw@example.com", "whmcs password 1")
		calls := len(f.Calls())
		err = s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(id.Token), Password: "a new password here"})
		wantErr(t, err, "conflict", "This shop's passwords are kept by its billing system, so one cannot be set here and nothing was changed. To sign in, ask for an emailed sign-in link.")
		status, _, body := s.raw(http.MethodPut, "/checkout/api/session/password", id.Token, strings.NewReader(`{"password":"a new password here"}`))
		if status != http.StatusConflict || !strings.Contains(string(body), `"name":"conflict"`) {
			t.Fatalf("PUT /session/password: %d %s, want 409 conflict", status, body)
		}
		if n := s.count(`SELECT COUNT(*) FROM clients WHERE password_hash <> ''`); n != 0 {
			t.Fatalf("%d password hashes stored", n)
		}
		if got := f.Calls()[calls:]; len(got) != 0 {
			t.Fatalf("setting a password asked WHMCS: %+v", got)
		}
		// The session still works, and the WHMCS password still signs in.
		if again := s.identify("setpw@example.com", "whmcs password 1"); again.Scope != "proven" {
			t.Fatalf("sign-in with WHMCS's password after the refusal: %+v", again)
		}
	})
}
