package app_test

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/renewal"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// renew posts POST /services/{id}/renew.
func (s *shop) renew(token, id string, p genservices.RenewPayload) (*genservices.OrderResult, error) {
	p.Token, p.ServiceID = ptr(token), id
	return s.services.Renew(s.t.Context(), &p)
}

// payLink is the pay link of a renewal invoice, split into the invoice and its token.
func (s *shop) payLink(invoiceID string) (link, token string) {
	s.t.Helper()
	link, err := s.app.PayLink(s.t.Context(), invoiceID)
	if err != nil {
		s.t.Fatal(err)
	}
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("invoice") != invoiceID || u.Query().Get("t") == "" || !strings.HasSuffix(u.Path, "/renew") {
		s.t.Fatalf("pay link %q: %v", link, err)
	}
	return link, u.Query().Get("t")
}

// A buyer renews early from the services view: the renewal reuses the open invoice of the same
// cycle, another cycle replaces it (the first one cancelled), and paying moves the due date by
// the chosen cycle from the due date, the service then billed quarterly. Only a session that may
// read the service renews it; a cycle the plan does not sell and an unknown gateway are 400.
func TestRenewNowReusesTheInvoiceAndChangesTheCycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		owner := s.register("early@example.com", "early-password")
		_, svcID := s.activeService(owner.Token, standard())
		got := s.getService(owner.Token, svcID)
		if !got.AutoRenew || got.RenewsWithCard || got.RenewalInvoiceID != nil || got.RecurringAmount == nil ||
			got.RecurringAmount.Amount != 1299 || got.RecurringAmount.Currency != "EUR" {
			t.Fatalf("GET /services/%s: %+v, want autoRenew, no open invoice, 12.99 EUR recurring", svcID, got)
		}
		before, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := before.NextDueDate

		first, err := s.renew(owner.Token, svcID, genservices.RenewPayload{})
		if err != nil {
			t.Fatal(err)
		}
		if first.Status != "pending" || first.PaymentURL == "" || first.Total.Amount != 1299 {
			t.Fatalf("renew: %+v, want a pending 12.99 EUR order with a payment link", first)
		}
		again, err := s.renew(owner.Token, svcID, genservices.RenewPayload{BillingCycle: ptr("monthly")})
		if err != nil || again.OrderID != first.OrderID || again.InvoiceID != first.InvoiceID {
			t.Fatalf("renew again: %+v %v, want the open invoice %s again", again, err, first.InvoiceID)
		}
		if got := s.getService(owner.Token, svcID); got.RenewalInvoiceID == nil || *got.RenewalInvoiceID != first.InvoiceID ||
			got.RenewalOrderID == nil || *got.RenewalOrderID != first.OrderID {
			t.Fatalf("GET /services/%s: renewal %v, want %s", svcID, got.RenewalInvoiceID, first.InvoiceID)
		}

		stranger := s.register("stranger@example.com", "stranger-password")
		_, err = s.renew(stranger.Token, svcID, genservices.RenewPayload{})
		wantErr(t, err, "not_found", "")
		_, err = s.renew(owner.Token, svcID, genservices.RenewPayload{BillingCycle: ptr("biennially")})
		wantErr(t, err, "bad_request", "")
		_, err = s.renew(owner.Token, svcID, genservices.RenewPayload{Gateway: ptr("paypal")})
		wantErr(t, err, "bad_request", "")

		quarterly, err := s.renew(owner.Token, svcID, genservices.RenewPayload{BillingCycle: ptr("quarterly")})
		if err != nil {
			t.Fatal(err)
		}
		if quarterly.OrderID == first.OrderID || quarterly.Quote.BillingCycle != "quarterly" {
			t.Fatalf("another cycle: %+v, want a new quarterly order", quarterly)
		}
		if o, err := st.Order(ctx, first.OrderID); err != nil || o.Status != order.StatusCancelled || o.Invoice.Status != order.InvoiceCancelled {
			t.Fatalf("the replaced renewal: %+v %v, want cancelled", o, err)
		}
		if n := s.count(`SELECT COUNT(*) FROM renewals WHERE service_id = ? AND cancelled_at = ''`, svcID); n != 1 {
			t.Fatalf("%d live renewals for the period, want 1", n)
		}
		// The replaced invoice's page refuses payment; the new one pays.
		if resp := s.sandbox(quarterly.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		svc, err := st.Service(ctx, svcID)
		if err != nil || !svc.NextDueDate.Equal(monthsOn(due, before.CreatedAt, 3)) || svc.BillingCycle != "quarterly" || svc.Status != order.ServiceActive {
			t.Fatalf("after paying a quarter early: %+v %v, want quarterly, due %s", svc, err, monthsOn(due, before.CreatedAt, 3))
		}
		if got := s.getService(owner.Token, svcID); got.RenewalInvoiceID != nil || got.RecurringAmount == nil || got.RecurringAmount.Amount != 3299 {
			t.Fatalf("GET /services/%s after paying: %+v, want no open invoice and the quarterly price 32.99", svcID, got)
		}
	})
}

// Cancelling auto-renew cancels the open renewal invoice and ends the line at its due date
// (Cancelled, line disabled) with no invoice for the next period; resuming before then invoices
// again at once. Only a proven session of the owner may change it.
func TestCancelAutoRenewEndsTheLineAtItsDueDate(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		s.register("cancel@example.com", "cancel-password")
		owner := s.identify("cancel@example.com", "cancel-password")
		_, svcID := s.activeService(owner.Token, standard())
		svc, err := st.Service(ctx, svcID)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		owner = s.identify("cancel@example.com", "cancel-password")
		open := s.getService(owner.Token, svcID).RenewalOrderID
		if open == nil {
			t.Fatal("no open renewal after the sweep")
		}

		emailOnly := s.identify("cancel@example.com", "")
		_, err = s.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(emailOnly.Token), ServiceID: svcID})
		wantErr(t, err, "not_found", "")

		got, err := s.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(owner.Token), ServiceID: svcID})
		if err != nil || got.AutoRenew || got.RenewalInvoiceID != nil || got.Status != "Active" {
			t.Fatalf("cancel: %+v %v, want autoRenew off, no open invoice, still Active", got, err)
		}
		if o, err := st.Order(ctx, *open); err != nil || o.Status != order.StatusCancelled {
			t.Fatalf("open renewal after cancel: %+v %v, want cancelled", o, err)
		}
		_, err = s.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "conflict", "")

		got, err = s.services.Resume(ctx, &genservices.ResumePayload{Token: ptr(owner.Token), ServiceID: svcID})
		if err != nil || !got.AutoRenew || got.RenewalInvoiceID == nil {
			t.Fatalf("resume within the lead: %+v %v, want autoRenew and a fresh invoice", got, err)
		}
		_, err = s.services.Resume(ctx, &genservices.ResumePayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "conflict", "")
		if _, err := s.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(owner.Token), ServiceID: svcID}); err != nil {
			t.Fatal(err)
		}

		advanceTo(t, due.Add(time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 0 {
			t.Fatalf("sweep after cancel: %d %v, want none", n, err)
		}
		lapse(t, s)
		svc, err = st.Service(ctx, svcID)
		if err != nil || svc.Status != order.ServiceCancelled {
			t.Fatalf("at its due date: %+v %v, want Cancelled", svc, err)
		}
		if l, err := st.LineByRef(ctx, svcID); err != nil || l.Enabled {
			t.Fatalf("line %+v %v, want disabled", l, err)
		}
		owner = s.identify("cancel@example.com", "cancel-password")
		_, err = s.services.Resume(ctx, &genservices.ResumePayload{Token: ptr(owner.Token), ServiceID: svcID})
		wantErr(t, err, "conflict", "")
		_, err = s.renew(owner.Token, svcID, genservices.RenewPayload{})
		wantErr(t, err, "conflict", "")
		advanceTo(t, due.AddDate(0, 1, 0), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 0 {
			t.Fatalf("next period: %d renewals %v, want none", n, err)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders o JOIN renewals r ON r.order_id = o.id WHERE r.service_id = ? AND o.status = 'pending'`, svcID); n != 0 {
			t.Fatalf("%d pending renewal orders, want none", n)
		}
	})
}

// The pay link opens its one invoice without a session: the right token views and pays it; a
// forged token, another invoice's token, a token used on another endpoint, or the invoice once
// closed (cancelled, past its deadline) answers 404 and changes nothing. A paid invoice shows
// paid and refuses a second payment link.
func TestPayLinkOpensOneInvoiceUntilItCloses(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		a := s.register("paylink@example.com", "paylink-password")
		_, svcA := s.activeService(a.Token, standard())
		b := s.register("other@example.com", "other-password")
		_, svcB := s.activeService(b.Token, standard())
		svc, err := st.Service(ctx, svcA)
		if err != nil {
			t.Fatal(err)
		}
		due := svc.NextDueDate
		advanceTo(t, due.Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 2 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		invoiceOf := func(svcID string) order.Order {
			t.Helper()
			rn, err := st.LatestRenewal(ctx, svcID)
			if err != nil {
				t.Fatal(err)
			}
			o, err := st.Order(ctx, rn.OrderID)
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		invA, invB := invoiceOf(svcA), invoiceOf(svcB)
		link, tokA := s.payLink(invA.Invoice.ID)
		if !strings.HasPrefix(link, s.base+"/checkout/renew?") {
			t.Fatalf("pay link %s, want the shop's /checkout/renew page", link)
		}
		_, tokB := s.payLink(invB.Invoice.ID)

		inv, err := s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: invA.Invoice.ID, T: ptr(tokA)})
		if err != nil {
			t.Fatal(err)
		}
		if inv.Status != "unpaid" || inv.ServiceID != svcA || inv.Total.Amount != 1299 || inv.PeriodStart != due.Format(time.DateOnly) ||
			len(inv.Lines) == 0 || len(inv.Gateways) == 0 || inv.Gateway != "sandbox" || inv.Username == "" || inv.Net != nil || inv.Tax != nil {
			t.Fatalf("GET /invoices/%s: %+v", invA.Invoice.ID, inv)
		}
		for name, tok := range map[string]string{
			"another invoice's token": tokB,
			"forged":                  tokA[:len(tokA)-3] + "abc",
			"empty":                   "",
			"a session token":         a.Token,
		} {
			_, err := s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: invA.Invoice.ID, T: ptr(tok)})
			wantErr(t, err, "not_found", "")
			_, err = s.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: invA.Invoice.ID, T: ptr(tok)})
			if err == nil {
				t.Fatalf("%s: POST pay answered", name)
			}
		}
		if code, _, _ := s.raw(http.MethodGet, "/checkout/api/services/"+svcA, tokA, nil); code != http.StatusUnauthorized {
			t.Fatalf("the pay-link token as a session: %d, want 401", code)
		}
		if code, _, _ := s.raw(http.MethodGet, "/checkout/api/invoices/"+invA.Invoice.ID+"?t="+url.QueryEscape(tokA)+"x", "", nil); code != http.StatusNotFound {
			t.Fatalf("tampered token over HTTP: %d, want 404", code)
		}

		paid, err := s.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: invA.Invoice.ID, T: ptr(tokA), Gateway: ptr("sandbox")})
		if err != nil || paid.PaymentURL == "" || paid.InvoiceID != invA.Invoice.ID {
			t.Fatalf("POST pay: %+v %v", paid, err)
		}
		if resp := s.sandbox(paid.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		} else if loc := resp.Header.Get("Location"); !strings.Contains(loc, "/checkout/renew?") || !strings.Contains(loc, "invoice="+invA.Invoice.ID) {
			t.Fatalf("back from paying to %q, want the pay page", loc)
		}
		s.drain()
		inv, err = s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: invA.Invoice.ID, T: ptr(tokA)})
		if err != nil || inv.Status != "paid" || inv.NextDueDate != monthsOn(due, svc.CreatedAt, 1).Format(time.DateOnly) {
			t.Fatalf("paid invoice: %+v %v, want paid with the due date a month on", inv, err)
		}
		_, err = s.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: invA.Invoice.ID, T: ptr(tokA)})
		wantErr(t, err, "conflict", "")

		// A token properly signed for a first order's invoice opens nothing: pay links are for
		// renewals only (App.PayLink refuses to make one; the API refuses one made anyway).
		planOrder := s.buy(a.Token, standard())
		if _, err := s.app.PayLink(ctx, planOrder.InvoiceID); !errors.Is(err, renewal.ErrNotRenewal) {
			t.Fatalf("pay link of a plan invoice: %v, want ErrNotRenewal", err)
		}
		key, err := st.Setting(ctx, "session_hmac_key")
		if err != nil {
			t.Fatal(err)
		}
		planToken, err := paylink.New(key, s.app.Now).Sign(planOrder.InvoiceID, s.app.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: planOrder.InvoiceID, T: ptr(planToken)})
		wantErr(t, err, "not_found", "")
		_, err = s.after.invoices.Pay(ctx, &geninvoices.PayPayload{InvoiceID: planOrder.InvoiceID, T: ptr(planToken)})
		wantErr(t, err, "not_found", "")

		// B cancels auto-renew: its invoice closes and its link dies.
		if _, err := s.services.Cancel(ctx, &genservices.CancelPayload{Token: ptr(b.Token), ServiceID: svcB}); err != nil {
			t.Fatal(err)
		}
		_, err = s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: invB.Invoice.ID, T: ptr(tokB)})
		wantErr(t, err, "not_found", "")

		// A's next invoice, left past its deadline (the period's end), closes too.
		advanceTo(t, monthsOn(due, svc.CreatedAt, 1).Add(-6*24*time.Hour), s)
		if n, err := s.app.SweepRenewals(ctx); err != nil || n != 1 {
			t.Fatalf("next sweep: %d %v", n, err)
		}
		next := invoiceOf(svcA)
		_, tokNext := s.payLink(next.Invoice.ID)
		advanceTo(t, next.Invoice.Deadline.Add(time.Minute), s)
		_, err = s.after.invoices.Get(ctx, &geninvoices.GetPayload{InvoiceID: next.Invoice.ID, T: ptr(tokNext)})
		wantErr(t, err, "not_found", "")
	})
}

// A trial converts to a paid plan on the same line: same username and password, no longer a
// trial, due one cycle after the payment.
func TestTrialConvertsOnItsLine(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		ctx, st := t.Context(), s.app.Store()
		buyer := s.register("convert@example.com", "convert-password")
		_, svcID := s.activeService(buyer.Token, trial())
		before, err := st.Service(ctx, svcID)
		if err != nil || !before.Trial {
			t.Fatalf("trial %+v %v", before, err)
		}
		_, err = s.renew(buyer.Token, svcID, genservices.RenewPayload{})
		wantErr(t, err, "bad_request", "") // a trial names the plan it converts to
		_, err = s.renew(buyer.Token, svcID, genservices.RenewPayload{Pid: ptr(1)})
		wantErr(t, err, "bad_request", "") // not to another trial

		o, err := s.renew(buyer.Token, svcID, genservices.RenewPayload{Pid: ptr(2), BillingCycle: ptr("monthly")})
		if err != nil || o.Total.Amount != 1299 || o.PaymentURL == "" {
			t.Fatalf("convert: %+v %v, want a 12.99 EUR order to pay", o, err)
		}
		paidAt := s.app.Now()
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay: %d", resp.StatusCode)
		}
		s.drain()
		after, err := st.Service(ctx, svcID)
		if err != nil || after.Trial || after.PID != 2 || after.BillingCycle != "monthly" || after.Status != order.ServiceActive ||
			after.Username != before.Username || after.Password != before.Password {
			t.Fatalf("converted: %+v %v, want the same line as a monthly Standard plan", after, err)
		}
		if after.NextDueDate.Before(monthsFrom(paidAt, 1).Add(-time.Minute)) || after.NextDueDate.After(monthsFrom(s.app.Now(), 1)) {
			t.Fatalf("converted: due %s, want a month after the payment %s", after.NextDueDate, paidAt)
		}
		if l, err := st.LineByRef(ctx, svcID); err != nil || !l.Enabled || !l.ExpiresAt.Equal(after.NextDueDate) {
			t.Fatalf("line %+v %v, want enabled until %s", l, err, after.NextDueDate)
		}
		if got := s.getService(buyer.Token, svcID); !got.AutoRenew || got.Trial || got.RecurringAmount == nil {
			t.Fatalf("GET /services/%s: %+v, want a renewing paid line", svcID, got)
		}
	})
}

// A promotion marked recurring keeps its discount on the renewals of a service bought with it,
// even once it has expired for new orders and its one use is spent; a one-time promotion
// (WELCOME10) applies to the first period only.
func TestRecurringPromotionAppliesToRenewals(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		demo, err := os.ReadFile(filepath.Join("..", "catalog", "demo.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		ends := time.Now().AddDate(0, 0, 10).Format(time.DateOnly)
		custom := strings.Replace(string(demo), "promotions:\n", `promotions:
  - code: LOYAL
    type: Percentage
    value: "20"
    appliesTo: [2]
    expirationDate: "`+ends+`"
    maxUses: 1
    recurring: true
`, 1)
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		if err := os.WriteFile(file, []byte(custom), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		loyal := s.register("loyal@example.com", "loyal-password")
		p := standard()
		p.PromoCode = ptr("LOYAL")
		_, loyalSvc := s.activeService(loyal.Token, p)
		once := s.register("once@example.com", "once-password")
		p.PromoCode = ptr("WELCOME10")
		_, onceSvc := s.activeService(once.Token, p)

		svc, err := s.app.Store().Service(t.Context(), loyalSvc)
		if err != nil {
			t.Fatal(err)
		}
		advanceTo(t, svc.NextDueDate.Add(-6*24*time.Hour), s) // LOYAL has expired by now
		if n, err := s.app.SweepRenewals(t.Context()); err != nil || n != 2 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		for _, tt := range []struct {
			svc, email, password string
			want                 int64
		}{
			{loyalSvc, "loyal@example.com", "loyal-password", 1039}, // 12.99 − 20 %
			{onceSvc, "once@example.com", "once-password", 1299},
		} {
			got := s.getService(s.identify(tt.email, tt.password).Token, tt.svc)
			if got.RecurringAmount == nil || got.RecurringAmount.Amount != tt.want || got.RenewalOrderID == nil {
				t.Fatalf("%s: recurring %+v, want %d with an open renewal", tt.email, got.RecurringAmount, tt.want)
			}
			o, err := s.app.Store().Order(t.Context(), *got.RenewalOrderID)
			if err != nil || o.Invoice.Amount.Amount != tt.want {
				t.Fatalf("%s: renewal invoice %+v %v, want %d", tt.email, o.Invoice, err, tt.want)
			}
		}
	})
}

// Forty renewals asked at once (double clicks, tabs, a script) place one order: every answer names it.
func TestConcurrentRenewPlacesOneOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.register("clicks@example.com", "clicks-password")
		_, svcID := s.activeService(owner.Token, standard())
		ids := make([]string, 40)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				o, err := s.services.Renew(t.Context(), &genservices.RenewPayload{Token: ptr(owner.Token), ServiceID: svcID})
				if err != nil {
					t.Errorf("renew %d: %v", i, err)
					return
				}
				ids[i] = o.OrderID
			})
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("orders %v, want one", ids)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE kind = 'renewal'`); n != 1 {
			t.Fatalf("%d renewal orders, want 1", n)
		}
	})
}
