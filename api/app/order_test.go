package app_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	genorder "github.com/streamcart/streamcart/gen/order"
	genservices "github.com/streamcart/streamcart/gen/services"
)

func TestCreateOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("create@example.com", "")
		p := genorder.CreatePayload{Pid: 3, BillingCycle: "quarterly", Currency: ptr("gbp"), ExtraConnections: 1, ProxyProtection: true,
			AffiliateID: ptr("aff42"), ExpectedTotal: &genorder.Money{Amount: 3399 + 690 + 430, Currency: "GBP"}}
		o := s.buy(buyer.Token, p)

		if !strings.HasPrefix(o.OrderID, "ord_") || !strings.HasPrefix(o.InvoiceID, "inv_") || len(o.ServiceIds) != 1 || o.Fraud {
			t.Fatalf("order = %+v", o)
		}
		if o.Status != "pending" || o.Total.Amount != 4519 || o.Total.Currency != "GBP" {
			t.Fatalf("status %s total %+v, want pending 4519 GBP", o.Status, o.Total)
		}
		// Without a public URL, on the address the shop listens on.
		if want := s.base + "/checkout/api/payments/sandbox/" + o.InvoiceID; o.PaymentURL != want {
			t.Fatalf("paymentUrl = %q, want %q", o.PaymentURL, want)
		}
		created, err1 := time.Parse(time.RFC3339, o.CreatedAt)
		deadline, err2 := time.Parse(time.RFC3339, o.PaymentDeadline)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		if d := deadline.Sub(created); d < 24*time.Hour-time.Second || d > 24*time.Hour+time.Second {
			t.Fatalf("payment deadline is %v after creation, want one day", d)
		}
		if o.Quote == nil || o.Quote.Pid != 3 || o.Quote.BillingCycle != "quarterly" || len(o.Quote.Lines) != 3 {
			t.Fatalf("quote = %+v", o.Quote)
		}

		got := s.getOrder(buyer.Token, o.OrderID)
		if got.OrderID != o.OrderID || got.Status != "pending" || got.PaymentURL != o.PaymentURL || !slices.Equal(got.ServiceIds, o.ServiceIds) {
			t.Fatalf("GET order = %+v, want %+v", got, o)
		}
		svc := s.getService(buyer.Token, o.ServiceIds[0])
		if svc.Status != "Pending" || svc.Username != "" || svc.Password != "" || svc.MaxConnections != 2 || svc.Pid != 3 {
			t.Fatalf("unpaid service = %+v: want Pending, no credentials, 2 connections", svc)
		}

		// The raw 201 carries every field of the contract.
		status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token, strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`))
		var raw map[string]any
		if err := json.Unmarshal(body, &raw); err != nil || status != http.StatusCreated {
			t.Fatalf("POST /orders = %d %s", status, body)
		}
		for _, k := range []string{"orderId", "invoiceId", "serviceIds", "fraud", "status", "total", "paymentUrl", "paymentDeadline"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("order reply lacks %q", k)
			}
		}

		bad := []struct {
			name string
			p    genorder.CreatePayload
			err  string
		}{
			{name: "unknown gateway", p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", Gateway: ptr("stripe")}, err: "bad_request"},
			{name: "foreign return URL", p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr("https://evil.example/x")}, err: "bad_request"},
			{name: "scheme-relative return URL", p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", ReturnURL: ptr("//evil.example/x")}, err: "bad_request"},
			{name: "unknown product", p: genorder.CreatePayload{Pid: 999, BillingCycle: "monthly"}, err: "not_found"},
			{name: "disabled cycle", p: genorder.CreatePayload{Pid: 2, BillingCycle: "biennially"}, err: "bad_request"},
			{name: "promo not for this product", p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", PromoCode: ptr("SAVE5")}, err: "not_applicable"},
			{name: "expired promo", p: genorder.CreatePayload{Pid: 2, BillingCycle: "monthly", PromoCode: ptr("SUMMER2020")}, err: "not_found"},
		}
		before := s.count(`SELECT COUNT(*) FROM orders`)
		for _, tc := range bad {
			t.Run(tc.name, func(t *testing.T) {
				p := tc.p
				p.Token = ptr(buyer.Token)
				_, err := s.order.Create(t.Context(), &p)
				wantErr(t, err, tc.err, "")
			})
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != before {
			t.Fatalf("refused orders stored %d rows", n-before)
		}
		if status, _, body := s.raw(http.MethodPost, "/checkout/api/orders", "", strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`)); status != http.StatusUnauthorized && status != http.StatusBadRequest {
			t.Fatalf("POST /orders without a token = %d %s", status, body)
		}
	})
}

func TestIdempotency(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("retry@example.com", "")
		p := standard()
		p.Token = ptr(buyer.Token)
		p.IdempotencyKey = ptr("checkout-7f3a")

		const n = 20
		ids := make([]string, n)
		errs := make([]error, n)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range n {
			done.Go(func() {
				start.Wait()
				body := p
				res, err := s.order.Create(t.Context(), &body)
				if err == nil {
					ids[i] = res.OrderID
				}
				errs[i] = err
			})
		}
		start.Done()
		done.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("concurrent retries: %v", err)
		}
		for i, id := range ids {
			if id != ids[0] {
				t.Fatalf("retry %d got order %s, retry 0 got %s", i, id, ids[0])
			}
		}
		for table, want := range map[string]int{"orders": 1, "invoices": 1, "services": 1} {
			if got := s.count(`SELECT COUNT(*) FROM ` + table); got != want {
				t.Errorf("%s rows = %d, want %d", table, got, want)
			}
		}

		// A later retry still answers the same order.
		again := p
		if res, err := s.order.Create(t.Context(), &again); err != nil || res.OrderID != ids[0] || res.PaymentURL == "" {
			t.Fatalf("late retry = %+v, %v", res, err)
		}

		cases := []struct {
			name   string
			change func(*genorder.CreatePayload)
		}{
			{name: "other plan", change: func(p *genorder.CreatePayload) { p.Pid = 3 }},
			{name: "other cycle", change: func(p *genorder.CreatePayload) { p.BillingCycle = "annually" }},
			{name: "extras added", change: func(p *genorder.CreatePayload) { p.ExtraConnections = 1 }},
			{name: "promo added", change: func(p *genorder.CreatePayload) { p.PromoCode = ptr("WELCOME10") }},
			{name: "other currency", change: func(p *genorder.CreatePayload) { p.Currency = ptr("USD") }},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				body := p
				tc.change(&body)
				_, err := s.order.Create(t.Context(), &body)
				wantErr(t, err, "idempotency_mismatch", "")
			})
		}
		if got := s.count(`SELECT COUNT(*) FROM orders`); got != 1 {
			t.Fatalf("orders = %d after mismatching retries, want 1", got)
		}

		// Keys belong to a client: another buyer's same key is another order.
		other := p
		other.Token = ptr(s.identify("someone-else@example.com", "").Token)
		if res := s.buy(*other.Token, other); res.OrderID == ids[0] {
			t.Fatal("another client's order answered with the first client's order")
		}
	})
}

func TestExpectedTotal(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("tamper@example.com", "")
		cases := []struct {
			name     string
			expected genorder.Money
		}{
			{name: "lower amount", expected: genorder.Money{Amount: 1, Currency: "EUR"}},
			{name: "higher amount", expected: genorder.Money{Amount: 99999, Currency: "EUR"}},
			{name: "other currency", expected: genorder.Money{Amount: 1299, Currency: "USD"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := standard()
				p.Token, p.ExpectedTotal, p.IdempotencyKey = ptr(buyer.Token), &tc.expected, ptr("k-"+tc.name)
				_, err := s.order.Create(t.Context(), &p)
				var changed *genorder.PriceChanged
				if !errors.As(err, &changed) {
					t.Fatalf("error = %v (%T), want price_changed", err, err)
				}
				if changed.Name != "price_changed" || changed.Message == "" || changed.Quote == nil {
					t.Fatalf("price_changed = %+v", changed)
				}
				if q := changed.Quote; q.Total.Amount != 1299 || q.Total.Currency != "EUR" || q.Pid != 2 || len(q.Lines) != 1 {
					t.Fatalf("fresh quote = %+v total %+v, want 1299 EUR", q, q.Total)
				}
			})
		}
		for _, table := range []string{"orders", "invoices", "services", "jobs"} {
			if n := s.count(`SELECT COUNT(*) FROM ` + table); n != 0 {
				t.Errorf("%s rows = %d after refused orders, want 0", table, n)
			}
		}
		status, h, body := s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token,
			strings.NewReader(`{"pid":2,"billingCycle":"monthly","expectedTotal":{"amount":1,"currency":"EUR"}}`))
		if status != http.StatusConflict || h.Get("Goa-Error") != "price_changed" || !strings.Contains(string(body), `"quote"`) {
			t.Fatalf("tampered POST /orders = %d %s %s", status, h.Get("Goa-Error"), body)
		}

		// The right total goes through, and the same key may then be used (nothing was stored under it).
		p := standard()
		p.Token, p.ExpectedTotal, p.IdempotencyKey = ptr(buyer.Token), &genorder.Money{Amount: 1299, Currency: "eur"}, ptr("k-lower amount")
		if o := s.buy(buyer.Token, p); o.Total.Amount != 1299 {
			t.Fatalf("order total = %+v", o.Total)
		}
	})
}

func TestTrialOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("trial@example.com", "")
		o := s.buy(buyer.Token, trial())
		if o.Total.Amount != 0 || o.PaymentURL != "" || o.PaymentDeadline != "" || o.Status != "paid" || o.Fraud {
			t.Fatalf("trial order = %+v: want total 0, no payment URL or deadline, status paid", o)
		}
		// Provisioning, then the trial-ending mail's job, due at once for a 24-hour trial.
		if n := s.drain(); n != 2 {
			t.Fatalf("worker ran %d jobs, want 2", n)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "active" {
			t.Fatalf("trial status after provisioning = %s, want active", got.Status)
		}
		svc := s.getService(buyer.Token, o.ServiceIds[0])
		if !svc.Trial || svc.Status != "Active" || svc.MaxConnections != 1 || svc.NextDueDate != "" || svc.ServerHostname != "line.test:8000" {
			t.Fatalf("trial service = %+v", svc)
		}
		checkCredentials(t, svc)
		expires, err := time.Parse(time.RFC3339, svc.ExpiresAt)
		if err != nil {
			t.Fatal(err)
		}
		if left := time.Until(expires); left <= 23*time.Hour || left > 24*time.Hour {
			t.Fatalf("trial line expires in %v, want about a day", left)
		}
		// Nothing to pay: cancelling is refused, the sandbox page has nothing to settle.
		_, err = s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
		wantErr(t, err, "conflict", "")
	})
}

// checkCredentials checks a provisioned line: configured prefix + 8 digits, 12-digit password.
func checkCredentials(t *testing.T, svc *genservices.ServiceResult) {
	t.Helper()
	if !regexp.MustCompile(`^tst[0-9]{8}$`).MatchString(svc.Username) || !regexp.MustCompile(`^[0-9]{12}$`).MatchString(svc.Password) {
		t.Fatalf("credentials %q / %q, want tst + 8 digits / 12 digits", svc.Username, svc.Password)
	}
	want := "http://line.test:8000/get.php?username=" + svc.Username + "&password=" + svc.Password + "&type=m3u_plus&output=ts"
	if svc.PlaylistURL != want {
		t.Fatalf("playlistUrl = %q, want %q", svc.PlaylistURL, want)
	}
}

func TestCancelOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("cancel@example.com", "")
		o := s.buy(buyer.Token, standard())
		res, err := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != "cancelled" || res.PaymentURL != "" {
			t.Fatalf("cancelled order = %+v", res)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "cancelled" {
			t.Fatalf("status = %s", got.Status)
		}
		_, err = s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: o.OrderID})
		wantErr(t, err, "conflict", "")
		if status, _, _ := s.raw(http.MethodPost, "/checkout/api/orders/"+o.OrderID+"/cancel", buyer.Token, nil); status != http.StatusConflict {
			t.Fatalf("second cancel = %d, want 409", status)
		}
		// Its payment page can no longer settle it: a payment made anyway is refunded (one job)
		// and the order is under review, never provisioned.
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusConflict {
			t.Fatalf("paying a cancelled order = %d, want 409", resp.StatusCode)
		}
		if s.drain() != 1 || s.getOrder(buyer.Token, o.OrderID).Status != "needs_review" {
			t.Fatal("a cancelled order's payment was not set aside for review")
		}

		// A paid order is no longer pending.
		paid := s.buy(buyer.Token, standard())
		if resp := s.sandbox(paid.PaymentURL, "pay"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("pay = %d", resp.StatusCode)
		}
		_, err = s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: paid.OrderID})
		wantErr(t, err, "conflict", "")
	})
}

func TestOwnership(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		// Client A buys twice with one email-only session: a pending order and an active trial.
		a1 := s.identify("alice@example.com", "")
		pendingA := s.buy(a1.Token, standard())
		trialA := s.buy(a1.Token, trial())
		s.drain()
		if s.getService(a1.Token, trialA.ServiceIds[0]).Username == "" {
			t.Fatal("the buying session cannot read its own credentials")
		}
		// Another email-only session of the same client A, and client B.
		a2 := s.identify("alice@example.com", "")
		b := s.identify("bob@example.com", "")
		if a2.UserID != a1.UserID {
			t.Fatal("same email, different clients")
		}
		// Client P set a password (through a sign-in link); an email-only session of P buys.
		proven := s.register("pat@example.com", "pat-password")
		pe := s.identify("pat@example.com", "")
		orderP := s.buy(pe.Token, trial())
		s.drain()
		provenOwn := s.buy(proven.Token, standard())

		type check struct {
			name    string
			token   string
			order   string
			service string
			allowed bool
		}
		cases := []check{
			{name: "buying session reads its order and service", token: a1.Token, order: trialA.OrderID, service: trialA.ServiceIds[0], allowed: true},
			{name: "other client: order and service", token: b.Token, order: trialA.OrderID, service: trialA.ServiceIds[0]},
			{name: "other client: pending order", token: b.Token, order: pendingA.OrderID, service: pendingA.ServiceIds[0]},
			{name: "second email-only session of the same client", token: a2.Token, order: trialA.OrderID, service: trialA.ServiceIds[0]},
			{name: "second email-only session, pending order", token: a2.Token, order: pendingA.OrderID, service: pendingA.ServiceIds[0]},
			{name: "proven session reads what an email session of its client bought", token: proven.Token, order: orderP.OrderID, service: orderP.ServiceIds[0], allowed: true},
			{name: "a new proven session too", token: s.identify("pat@example.com", "pat-password").Token, order: orderP.OrderID, service: orderP.ServiceIds[0], allowed: true},
			{name: "email session does not read the proven session's purchase", token: pe.Token, order: provenOwn.OrderID, service: provenOwn.ServiceIds[0]},
			{name: "proven session of another client", token: proven.Token, order: trialA.OrderID, service: trialA.ServiceIds[0]},
			{name: "unknown ids", token: a1.Token, order: "ord_0000000000000000", service: "svc_0000000000000000"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				o, oerr := s.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(tc.token), OrderID: tc.order})
				svc, serr := s.services.Get(t.Context(), &genservices.GetPayload{Token: ptr(tc.token), ServiceID: tc.service})
				_, pbody, perr := s.services.Playlist(t.Context(), &genservices.PlaylistPayload{Token: ptr(tc.token), ServiceID: tc.service})
				if pbody != nil {
					pbody.Close()
				}
				// The line's QR code follows the playlist's rules.
				_, qbody, qerr := s.services.Qr(t.Context(), &genservices.QrPayload{Token: ptr(tc.token), ServiceID: tc.service, Kind: "xtream"})
				if qbody != nil {
					qbody.Close()
				}
				if tc.allowed {
					if err := errors.Join(oerr, serr, perr, qerr); err != nil {
						t.Fatal(err)
					}
					if o.OrderID != tc.order || svc.ServiceID != tc.service {
						t.Fatalf("read %s / %s", o.OrderID, svc.ServiceID)
					}
					checkCredentials(t, svc)
					return
				}
				wantErr(t, oerr, "not_found", "Order not found.")
				wantErr(t, serr, "not_found", "Service not found.")
				wantErr(t, perr, "not_found", "")
				wantErr(t, qerr, "not_found", "")
				_, cerr := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(tc.token), OrderID: tc.order})
				wantErr(t, cerr, "not_found", "Order not found.")
			})
		}
		if got := s.getOrder(a1.Token, pendingA.OrderID); got.Status != "pending" {
			t.Fatalf("a refused cancel changed the order: %s", got.Status)
		}

		// No existence oracle: a foreign id and an unknown id answer the same status and body shape.
		shape := func(path, token string) (int, string) {
			status, h, body := s.raw(http.MethodGet, path, token, nil)
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("GET %s: %s", path, body)
			}
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range m {
					if !yield(k) {
						return
					}
				}
			})
			return status, h.Get("Goa-Error") + " " + m["name"].(string) + " " + m["message"].(string) + " " + strings.Join(keys, ",")
		}
		for _, kind := range []struct{ foreign, unknown string }{
			{"/checkout/api/orders/" + trialA.OrderID, "/checkout/api/orders/ord_0000000000000000"},
			{"/checkout/api/services/" + trialA.ServiceIds[0], "/checkout/api/services/svc_0000000000000000"},
		} {
			fs, fb := shape(kind.foreign, b.Token)
			us, ub := shape(kind.unknown, b.Token)
			if fs != http.StatusNotFound || fs != us || fb != ub {
				t.Errorf("foreign %d %q vs unknown %d %q: want identical 404s", fs, fb, us, ub)
			}
		}
	})
}

func TestSandboxPayment(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("payer@example.com", "")
		o := s.buy(buyer.Token, standard())

		// The page: 200, self-contained HTML with Pay and Fail.
		status, h, body := s.raw(http.MethodGet, o.PaymentURL, "", nil)
		page := string(body)
		if status != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/html") ||
			!strings.Contains(page, `data-testid="sandbox-pay"`) || !strings.Contains(page, `data-testid="sandbox-fail"`) ||
			!strings.Contains(page, ">Pay<") || !strings.Contains(page, ">Fail<") || !strings.Contains(page, "€12.99") {
			t.Fatalf("GET %s = %d %s\n%s", o.PaymentURL, status, h.Get("Content-Type"), page)
		}
		if status, _, _ := s.raw(http.MethodGet, "/checkout/api/payments/sandbox/inv_unknown", "", nil); status != http.StatusNotFound {
			t.Fatalf("unknown invoice page = %d, want 404", status)
		}
		if resp := s.sandbox(o.PaymentURL, "steal"); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("unknown action = %d, want 400", resp.StatusCode)
		}

		resp := s.sandbox(o.PaymentURL, "pay")
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/checkout/waiting?order="+o.OrderID {
			t.Fatalf("pay = %d Location %q, want 303 to /checkout/waiting?order=%s", resp.StatusCode, resp.Header.Get("Location"), o.OrderID)
		}
		if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "paid" || got.PaymentURL != "" {
			t.Fatalf("after payment, before the worker: %+v", got)
		}
		// Double settlement: refused, and it changes nothing.
		for _, action := range []string{"pay", "fail", "pay"} {
			if resp := s.sandbox(o.PaymentURL, action); resp.StatusCode != http.StatusConflict {
				t.Fatalf("second POST action=%s = %d, want 409", action, resp.StatusCode)
			}
		}
		if n := s.drain(); n != 1 {
			t.Fatalf("worker ran %d jobs, want 1", n)
		}
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusConflict {
			t.Fatalf("POST after provisioning = %d, want 409", resp.StatusCode)
		}
		if n := s.drain(); n != 0 {
			t.Fatalf("worker ran %d more jobs after a repeated settlement", n)
		}
		got := s.getOrder(buyer.Token, o.OrderID)
		if got.Status != "active" {
			t.Fatalf("status = %s, want active", got.Status)
		}
		svc := s.getService(buyer.Token, o.ServiceIds[0])
		checkCredentials(t, svc)
		if svc.Status != "Active" || svc.BillingCycle != "monthly" || svc.NextDueDate == "" {
			t.Fatalf("service = %+v", svc)
		}
		if n := s.count(`SELECT COUNT(*) FROM panel_lines`); n != 1 {
			t.Fatalf("panel lines = %d, want exactly one", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM panel_lines WHERE ref = ? AND username = ?`, svc.ServiceID, svc.Username); n != 1 {
			t.Fatal("the panel line is not the service's")
		}
		if n := s.count(`SELECT COUNT(*) FROM invoices WHERE status = 'paid' AND transaction_id <> ''`); n != 1 {
			t.Fatalf("paid invoices = %d, want 1", n)
		}
		_, body2, err := s.services.Playlist(t.Context(), &genservices.PlaylistPayload{Token: ptr(buyer.Token), ServiceID: svc.ServiceID})
		if err != nil {
			t.Fatal(err)
		}
		body2.Close()
	})
}

func TestSandboxReturnURL(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.PublicURL = "https://shop.example" })
		buyer := s.identify("return@example.com", "")
		cases := []struct {
			name      string
			returnURL *string
			want      func(orderID string) string
		}{
			{name: "default", want: func(id string) string { return "/checkout/waiting?order=" + id }},
			{name: "path gets the order parameter", returnURL: ptr("/thanks?x=1"),
				want: func(id string) string { return "/thanks?" + url.Values{"order": {id}, "x": {"1"}}.Encode() }},
			{name: "placeholder", returnURL: ptr("/done/{orderId}"), want: func(id string) string { return "/done/" + id }},
			{name: "absolute URL on the public origin", returnURL: ptr("https://shop.example/ok"),
				want: func(id string) string { return "https://shop.example/ok?order=" + id }},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := standard()
				p.ReturnURL = tc.returnURL
				o := s.buy(buyer.Token, p)
				if want := "https://shop.example/checkout/api/payments/sandbox/" + o.InvoiceID; o.PaymentURL != want {
					t.Fatalf("paymentUrl = %q, want %q", o.PaymentURL, want)
				}
				resp := s.sandbox(strings.TrimPrefix(o.PaymentURL, "https://shop.example"), "pay")
				if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tc.want(o.OrderID) {
					t.Fatalf("pay = %d Location %q, want 303 %q", resp.StatusCode, resp.Header.Get("Location"), tc.want(o.OrderID))
				}
			})
		}
	})
}

func TestSandboxFail(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("declined@example.com", "")
		o := s.buy(buyer.Token, standard())
		if resp := s.sandbox(o.PaymentURL, "fail"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("fail = %d, want 303", resp.StatusCode)
		}
		if resp := s.sandbox(o.PaymentURL, "pay"); resp.StatusCode != http.StatusConflict {
			t.Fatalf("pay after fail = %d, want 409", resp.StatusCode)
		}
		// The payment made after the decline is refunded (one job), nothing is provisioned.
		if n := s.drain(); n != 1 {
			t.Fatalf("worker ran %d jobs for a failed payment, want the refund", n)
		}
		got := s.getOrder(buyer.Token, o.OrderID)
		if got.Status != "needs_review" || got.PaymentURL != "" {
			t.Fatalf("order = %+v, want needs_review", got)
		}
		if svc := s.getService(buyer.Token, o.ServiceIds[0]); svc.Status != "Pending" || svc.Username != "" {
			t.Fatalf("service of a failed order = %+v", svc)
		}
		if n := s.count(`SELECT COUNT(*) FROM panel_lines`); n != 0 {
			t.Fatalf("panel lines = %d, want 0", n)
		}
	})
}

func TestFraudBannedDomain(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.FraudBanned = []string{"fraud.example"} })
		cases := []struct {
			email string
			fraud bool
		}{
			{email: "crook@fraud.example", fraud: true},
			{email: "Crook@FRAUD.example", fraud: true},
			{email: "honest@example.com"},
			{email: "crook@notfraud.example"},
		}
		for _, tc := range cases {
			t.Run(tc.email, func(t *testing.T) {
				buyer := s.identify(tc.email, "")
				for _, p := range []genorder.CreatePayload{standard(), trial()} {
					o := s.buy(buyer.Token, p)
					s.drain()
					got := s.getOrder(buyer.Token, o.OrderID)
					if !tc.fraud {
						if o.Fraud || got.Status == "fraud" {
							t.Fatalf("pid %d: held an honest order: %+v", p.Pid, got)
						}
						continue
					}
					if !o.Fraud || o.Status != "fraud" || o.PaymentURL != "" || !got.Fraud || got.Status != "fraud" {
						t.Fatalf("pid %d: order %+v, after the worker %+v: want fraud, held, nothing to pay", p.Pid, o, got)
					}
					if svc := s.getService(buyer.Token, o.ServiceIds[0]); svc.Status != "Pending" || svc.Username != "" {
						t.Fatalf("pid %d: held order's service = %+v", p.Pid, svc)
					}
					if resp := s.sandbox("/checkout/api/payments/sandbox/"+o.InvoiceID, "pay"); resp.StatusCode != http.StatusConflict {
						t.Fatalf("pid %d: paying a held order = %d, want 409", p.Pid, resp.StatusCode)
					}
					s.drain() // the payment the held order cannot take is refunded
					if got := s.getOrder(buyer.Token, o.OrderID); got.Status != "needs_review" {
						t.Fatalf("pid %d: held order paid: status %s, want needs_review", p.Pid, got.Status)
					}
				}
			})
		}
		if n := s.drain(); n != 0 {
			t.Fatalf("worker ran %d jobs", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM panel_lines l JOIN services v ON v.id = l.ref JOIN orders o ON o.id = v.order_id WHERE o.fraud`); n != 0 {
			t.Fatalf("held orders have %d panel lines", n)
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE fraud AND status = 'needs_review'`); n != 4 {
			t.Fatalf("held orders under review = %d, want 4 (two banned emails, two orders each, each paid once)", n)
		}
	})
}

func TestFraudOrdersPerIP(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t, func(c *app.Config) { c.FraudMaxPerIP, c.TrustedProxies = 2, prefixes("127.0.0.0/8") })
		one, two := s.from("203.0.113.7"), s.from("198.51.100.9")
		var got []bool
		for i := range 4 {
			buyer := one.identify("ip"+string(rune('a'+i))+"@example.com", "")
			got = append(got, one.buy(buyer.Token, standard()).Fraud)
		}
		if !slices.Equal(got, []bool{false, false, true, true}) {
			t.Fatalf("fraud flags of four orders from one IP with a limit of 2 = %v, want [false false true true]", got)
		}
		// The limit counts per address: another IP is not held.
		buyer := two.identify("elsewhere@example.com", "")
		if o := two.buy(buyer.Token, trial()); o.Fraud {
			t.Fatal("an order from another IP was held")
		}
		if s.drain(); s.count(`SELECT COUNT(*) FROM orders WHERE status = 'fraud'`) != 2 {
			t.Fatal("held orders left the fraud status")
		}
		if n := s.count(`SELECT COUNT(*) FROM orders WHERE ip = '203.0.113.7'`); n != 4 {
			t.Fatalf("orders from 203.0.113.7 = %d, want 4 (the client IP comes from X-Forwarded-For)", n)
		}
	})
}
