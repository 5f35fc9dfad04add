package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	genactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
)

// resellerCredits is the reseller ledger's balance of account (0 when none).
func resellerCredits(s *shop, account string) int {
	return s.count(`SELECT COALESCE(SUM(credits), 0) FROM panel_resellers WHERE account = ?`, account)
}

// TestWHMCSResellerOrder: in WHMCS mode a reseller plan is a product of the reseller group,
// ordered in WHMCS for the session's client (AddOrder, no priceoverride, its invoice checked
// against the quote), paid through Streamcart's gateway, recorded once (AddInvoicePayment after
// GetTransactions), accepted (AcceptOrder: the product has no module, so no line is made), and
// its credits granted once in Streamcart's ledger, read by GET /resellers/me and
// GET /resellers/services/{id} as in the built-in back end. A full refund from the console takes
// the credits back, is recorded on the WHMCS invoice and cancels the WHMCS service.
func TestWHMCSResellerOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		ctx := t.Context()
		buyer := c.identify("res@example.com", "")
		ord, err := c.after.resellers.Order(ctx, &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 10, Currency: ptr("EUR"),
			Password: "reseller-pw-1", ConfirmPassword: "reseller-pw-1"})
		if err != nil {
			t.Fatalf("POST /resellers/orders: %v", err)
		}
		if ord.Status != "pending" || ord.Total.Amount != 14900 || ord.Total.Currency != "EUR" || !strings.HasPrefix(ord.ServiceID, "svc_") {
			t.Fatalf("reseller order %+v total %+v", ord, ord.Total)
		}
		st := f.State()
		if len(st.Clients) != 1 || st.Clients[0].Email != "res@example.com" || len(st.Orders) != 1 || st.Orders[0].Status != "Pending" ||
			st.Orders[0].PriceOverride || len(st.Invoices) != 1 || st.Invoices[0].Total != "149.00" {
			t.Fatalf("WHMCS state after the order %+v", st)
		}
		add := lastCall(t, f, "AddOrder").Params
		for k, want := range map[string]string{"clientid": "1", "pid[0]": "10", "billingcycle[0]": "monthly", "paymentmethod": "banktransfer"} {
			if got := add.Get(k); got != want {
				t.Errorf("AddOrder %s = %q, want %q", k, got, want)
			}
		}
		for k := range add {
			if strings.HasPrefix(k, "priceoverride") {
				t.Errorf("AddOrder sent %s", k)
			}
		}
		if resp := c.sandbox(ord.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		c.drain()
		if got := c.getOrder(buyer.Token, ord.OrderID); got.Status != "active" {
			t.Fatalf("reseller order %s after the jobs, want active", got.Status)
		}
		if n := resellerCredits(c.shop, "res@example.com"); n != 100 {
			t.Fatalf("%d credits, want the plan's 100", n)
		}
		me, err := c.after.resellers.Me(ctx, &genresellers.MePayload{Token: ptr(buyer.Token)})
		if err != nil || !me.IsReseller || me.Balance != 100 {
			t.Fatalf("GET /resellers/me = %+v %v", me, err)
		}
		svc, err := c.after.resellers.GetService(ctx, &genresellers.GetServicePayload{Token: ptr(buyer.Token), ServiceID: ord.ServiceID})
		if err != nil || svc.Status != "Active" || svc.Credits != 100 || svc.Balance != 100 || svc.Account != "res@example.com" || svc.Pid != 10 {
			t.Fatalf("GET /resellers/services/%s = %+v %v", ord.ServiceID, svc, err)
		}
		st = f.State()
		if len(st.Orders) != 1 || st.Orders[0].Status != "Active" || len(st.Invoices) != 1 || st.Invoices[0].Status != "Paid" ||
			len(st.Transactions) != 1 || st.Transactions[0].Amount != "149.00" || f.CallCount("AddInvoicePayment") != 1 ||
			len(st.Services) != 1 || st.Services[0].Status != "Active" || len(st.Module) != 0 {
			t.Fatalf("WHMCS state after payment %+v: want the order accepted, the invoice paid once, no module call", st)
		}
		// The jobs run again (a retry, a second worker): nothing more is granted or recorded.
		c.clock.Add(time.Hour)
		c.drain()
		if n := resellerCredits(c.shop, "res@example.com"); n != 100 || f.CallCount("AddInvoicePayment") != 1 {
			t.Fatalf("%d credits, %d AddInvoicePayment after more runs", n, f.CallCount("AddInvoicePayment"))
		}

		// WHMCS's cron invoices the next month: that invoice is not sold here (it would grant no
		// credits), and the services view places no order for it.
		due, _ := time.Parse(time.DateOnly, st.Services[0].NextDueDate)
		if res := f.RunCronAt(due.AddDate(0, 0, -whmcsfake.RenewalDays)); len(res.Invoices) != 1 {
			t.Fatalf("cron: %+v", res)
		}
		c.clock.Add(time.Minute)
		c.getService(buyer.Token, ord.ServiceID)
		status, _, out := c.raw(http.MethodPost, "/checkout/api/services/"+ord.ServiceID+"/renew", buyer.Token, strings.NewReader(`{}`))
		if status != http.StatusConflict {
			t.Fatalf("POST /services/{id}/renew of a reseller plan = %d %s, want 409", status, out)
		}
		if n := c.count(`SELECT COUNT(*) FROM orders WHERE kind = 'renewal'`); n != 0 {
			t.Fatalf("%d renewal orders placed for a reseller plan's WHMCS invoice", n)
		}

		// A full refund: the credits come back off, the refund is recorded in WHMCS, its service cancelled there.
		owner := c.roles()["owner"]
		r, err := c.clientsOf().actions.Refund(ctx, &genactions.RefundPayload{Session: &owner.cookie, CsrfToken: &owner.csrf, ID: ord.OrderID, Reason: "asked"})
		if err != nil || r.Order.Status != "refunded" {
			t.Fatalf("refund: %+v %v", r, err)
		}
		c.drain()
		if n := resellerCredits(c.shop, "res@example.com"); n != 0 {
			t.Fatalf("%d credits after the full refund, want 0", n)
		}
		if n := c.count(`SELECT COUNT(*) FROM services WHERE order_id = ? AND status = 'Cancelled'`, ord.OrderID); n != 1 {
			t.Fatalf("%d cancelled services of the refunded plan, want 1", n)
		}
		st = f.State()
		refunds := refundsOut(st)
		if len(refunds) != 1 || refunds[0].Refunded != "149.00" || st.Invoices[0].Status != "Refunded" || st.Services[0].Status != "Cancelled" ||
			len(st.Module) != 0 {
			t.Fatalf("WHMCS after the refund: refunds %+v, invoice %+v, service %+v, module %+v", refunds, st.Invoices[0], st.Services[0], st.Module)
		}
	})
}

// TestWHMCSResellerOrderRefused: WHMCS unreachable or refusing when a reseller plan is ordered
// answers 503 unavailable with none of WHMCS's words, and WHMCS invoicing another total than
// the quote answers 409 price_changed with WHMCS's total (its order cancelled there): either
// way nothing is stored (no order, no purchase) and nothing charged; the same Idempotency-Key
// places it once WHMCS is back.
func TestWHMCSResellerOrderRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s, f := whmcsShop(t)
		buyer := s.identify("down@example.com", "")
		body := `{"pid":10,"password":"long enough 1","confirmPassword":"long enough 1","idempotencyKey":"k-res"}`
		nothingStored := func(what string) {
			t.Helper()
			for _, table := range []string{"orders", "invoices", "services", "jobs", "reseller_orders", "panel_resellers"} {
				if n := s.count("SELECT COUNT(*) FROM " + table); n != 0 {
					t.Fatalf("%s: %d rows in %s", what, n, table)
				}
			}
			if st := f.State(); len(st.Transactions) != 0 {
				t.Fatalf("%s: WHMCS transactions %+v", what, st.Transactions)
			}
		}
		for _, fault := range []struct {
			name      string
			set, lift func()
		}{
			{"HTTP 502", func() { f.SetStatus(http.StatusBadGateway) }, func() { f.SetStatus(0) }},
			{"maintenance", func() { f.SetMaintenance(true) }, func() { f.SetMaintenance(false) }},
			{"AddOrder refused", func() { f.Fail("AddOrder", "Invalid Payment Method. Valid options include secretmodule") },
				func() { f.Fail("AddOrder", "") }},
		} {
			fault.set()
			status, _, out := s.raw(http.MethodPost, "/checkout/api/resellers/orders", buyer.Token, strings.NewReader(body))
			fault.lift()
			if status != http.StatusServiceUnavailable || !strings.Contains(string(out), `"name":"unavailable"`) ||
				strings.Contains(string(out), "Invalid") || strings.Contains(string(out), "secretmodule") {
				t.Fatalf("%s: POST /resellers/orders = %d %s, want 503 unavailable without WHMCS's words", fault.name, status, out)
			}
			nothingStored(fault.name)
		}

		f.EditProduct(10, func(p *whmcsfake.Product) { p.Pricing["EUR"]["monthly"] = "159.00" })
		status, _, out := s.raw(http.MethodPost, "/checkout/api/resellers/orders", buyer.Token,
			strings.NewReader(`{"pid":10,"password":"long enough 1","confirmPassword":"long enough 1","idempotencyKey":"k-changed"}`))
		var pc struct {
			Name  string
			Quote struct{ Total struct{ Amount int64 } }
		}
		if status != http.StatusConflict || json.Unmarshal(out, &pc) != nil || pc.Name != "price_changed" || pc.Quote.Total.Amount != 15900 {
			t.Fatalf("POST /resellers/orders at another WHMCS price = %d %s, want 409 price_changed with WHMCS's 159.00", status, out)
		}
		nothingStored("price changed")
		for _, o := range f.State().Orders {
			if o.Status != "Cancelled" {
				t.Fatalf("WHMCS order %+v left pending", o)
			}
		}

		f.EditProduct(10, func(p *whmcsfake.Product) { p.Pricing["EUR"]["monthly"] = "149.00" })
		status, _, out = s.raw(http.MethodPost, "/checkout/api/resellers/orders", buyer.Token, strings.NewReader(body))
		if status != http.StatusCreated || !strings.Contains(string(out), `"status":"pending"`) {
			t.Fatalf("reseller order once WHMCS is back: %d %s", status, out)
		}
		if n := s.count("SELECT COUNT(*) FROM reseller_orders"); n != 1 {
			t.Fatalf("%d reseller purchases, want 1", n)
		}
	})
}

// TestWHMCSResellerConcurrentWebhooks: 40 deliveries at once of the provider's notice that a
// reseller order was paid (Stripe's checkout.session.completed, each its own event id) settle it
// once: one payment on the WHMCS invoice, one accepted order, the credits granted once.
func TestWHMCSResellerConcurrentWebhooks(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		fs := newFakeStripe(t)
		wf := whmcsfake.New(whmcsfake.Demo())
		srv := httptest.NewServer(wf.Handler())
		t.Cleanup(srv.Close)
		s := newShop(t, func(c *app.Config) {
			c.Backend, c.WHMCS = app.BackendWHMCS, whmcsSettings(srv.URL)
			c.WHMCS.Gateways = map[string]string{"sandbox": "banktransfer", "stripe": "stripe"}
			c.CatalogFile = catalogWithGateways(t, "stripe-sandbox")
			c.PublicURL = "https://shop.example"
			c.Payment = payment.Config{StripeSecretKey: "sk_test_card", StripeWebhookSecret: cardWebhookSecret, StripeAPIURL: fs.srv.URL}
		})
		buyer := s.identify("hooks@example.com", "")
		ord, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 10, Currency: ptr("EUR"),
			Gateway: ptr("stripe"), Password: "reseller-pw-1", ConfirmPassword: "reseller-pw-1"})
		if err != nil || ord.Total.Amount != 14900 {
			t.Fatalf("reseller order %+v %v", ord, err)
		}
		cs, err := s.app.Store().Ref(t.Context(), "stripe", ord.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				body, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("evt_res_%d", i), "object": "event", "api_version": "2020-08-27",
					"created": time.Now().Unix(), "type": "checkout.session.completed", "data": map[string]any{"object": map[string]any{
						"id": cs, "object": "checkout.session", "client_reference_id": ord.InvoiceID, "payment_status": "paid",
						"amount_total": 14900, "currency": "eur", "payment_intent": "pi_reseller"}}})
				signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: cardWebhookSecret, Timestamp: time.Now()})
				status, _, out := s.rawWith(http.MethodPost, payment.WebhookPath("stripe"), "", strings.NewReader(string(body)),
					http.Header{"Stripe-Signature": {signed.Header}})
				if status != http.StatusOK {
					t.Errorf("webhook %d: %d %s", i, status, out)
				}
			})
		}
		wg.Wait()
		s.drain()
		if got := s.getOrder(buyer.Token, ord.OrderID); got.Status != "active" {
			t.Fatalf("reseller order %s, want active", got.Status)
		}
		if n := resellerCredits(s, "hooks@example.com"); n != 100 {
			t.Fatalf("%d credits after 40 deliveries, want 100", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM panel_reseller_credits WHERE ref = ?`, ord.OrderID); n != 1 {
			t.Fatalf("%d ledger credits for the order, want 1", n)
		}
		st := wf.State()
		if wf.CallCount("AddInvoicePayment") != 1 || len(st.Transactions) != 1 || st.Invoices[0].Status != "Paid" || st.Orders[0].Status != "Active" ||
			wf.CallCount("AcceptOrder") != 1 {
			t.Fatalf("WHMCS after 40 deliveries: AddInvoicePayment %d, AcceptOrder %d, %+v", wf.CallCount("AddInvoicePayment"),
				wf.CallCount("AcceptOrder"), st)
		}
	})
}
