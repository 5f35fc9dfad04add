package payment_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
)

// pageOrders is the orders the sandbox page sees: one order per invoice, and the settlements and
// failures asked of it.
type pageOrders struct {
	byInvoice map[string]order.Order
	settleErr error
	settled   []string
	failed    []string
}

func (f *pageOrders) InvoiceOrder(_ context.Context, invoiceID string) (order.Order, error) {
	o, ok := f.byInvoice[invoiceID]
	if !ok {
		return order.Order{}, order.ErrNotFound
	}
	return o, nil
}

func (f *pageOrders) Settle(_ context.Context, invoiceID, txn string) (order.Order, error) {
	f.settled = append(f.settled, invoiceID+" "+txn)
	return f.byInvoice[invoiceID], f.settleErr
}

func (f *pageOrders) Fail(_ context.Context, invoiceID string) (order.Order, error) {
	f.failed = append(f.failed, invoiceID)
	return f.byInvoice[invoiceID], nil
}

func pageOrder(invoice, gateway string, status order.InvoiceStatus) order.Order {
	total := money.Money{Amount: 1500, Currency: "JPY"}
	return order.Order{ID: "ord_" + invoice, ReturnURL: "https://partner.test/done?sc_order={orderId}",
		Quote:   pricing.Quote{Lines: []pricing.Line{{Key: pricing.LinePlan, Label: "Premium — Monthly", Amount: total}}, Total: total},
		Invoice: order.Invoice{ID: invoice, Gateway: gateway, Status: status, Amount: total}}
}

// The sandbox page, on its own: it shows the invoice with the currency's own decimals, settles or
// fails only the sandbox's unpaid invoices, and answers 404 while the catalog turns it off.
func TestSandboxPage(t *testing.T) {
	on := catalog.Demo()
	off := *on
	off.Gateways = nil
	tests := []struct {
		name, method, invoice, action string
		cat                           *catalog.Catalog
		settleErr                     error
		status                        int
		body, location                string
		settled, failed               int
	}{
		{name: "the page", method: http.MethodGet, invoice: "inv_a", cat: on, status: http.StatusOK, body: "data-testid=\"sandbox-total\">JP¥1,500</dd>"},
		// An icon of its own, which the CSP lets load: no request for /favicon.ico (a 404).
		{name: "its icon", method: http.MethodGet, invoice: "inv_a", cat: on, status: http.StatusOK, body: `<link rel="icon" href="data:,">`},
		{name: "a paid invoice", method: http.MethodGet, invoice: "inv_paid", cat: on, status: http.StatusOK, body: "This invoice is paid."},
		{name: "pay", method: http.MethodPost, invoice: "inv_a", action: "pay", cat: on, status: http.StatusSeeOther,
			location: "https://partner.test/done?sc_order=ord_inv_a", settled: 1},
		{name: "fail", method: http.MethodPost, invoice: "inv_a", action: "fail", cat: on, status: http.StatusSeeOther, failed: 1},
		{name: "paid twice", method: http.MethodPost, invoice: "inv_a", action: "pay", cat: on, settleErr: order.ErrAlreadySettled,
			status: http.StatusConflict, body: "already settled", settled: 1},
		{name: "an order that can no longer be paid", method: http.MethodPost, invoice: "inv_a", action: "pay", cat: on,
			settleErr: order.ErrNeedsReview, status: http.StatusConflict, body: "being refunded", settled: 1},
		{name: "an unknown action", method: http.MethodPost, invoice: "inv_a", action: "steal", cat: on, status: http.StatusBadRequest},
		{name: "an unknown invoice", method: http.MethodGet, invoice: "inv_none", cat: on, status: http.StatusNotFound},
		{name: "another gateway's invoice", method: http.MethodPost, invoice: "inv_card", action: "pay", cat: on, status: http.StatusNotFound},
		{name: "the sandbox turned off", method: http.MethodPost, invoice: "inv_a", action: "pay", cat: &off, status: http.StatusNotFound,
			body: "Sandbox payments are turned off"},
		{name: "another method", method: http.MethodPut, invoice: "inv_a", cat: on, status: http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orders := &pageOrders{settleErr: tt.settleErr, byInvoice: map[string]order.Order{
				"inv_a":    pageOrder("inv_a", "sandbox", order.InvoiceUnpaid),
				"inv_paid": pageOrder("inv_paid", "sandbox", order.InvoicePaid),
				"inv_card": pageOrder("inv_card", "stripe", order.InvoiceUnpaid),
			}}
			page := payment.NewSandboxPage(func() *catalog.Catalog { return tt.cat }, orders, slog.New(slog.DiscardHandler))
			var body io.Reader
			if tt.action != "" {
				body = strings.NewReader(url.Values{"action": {tt.action}}.Encode())
			}
			req := httptest.NewRequest(tt.method, payment.SandboxPath+tt.invoice, body)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			rec := httptest.NewRecorder()
			page.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if !strings.Contains(rec.Body.String(), tt.body) {
				t.Errorf("body %q lacks %q", rec.Body, tt.body)
			}
			if got := rec.Header().Get("Location"); tt.location != "" && got != tt.location {
				t.Errorf("Location %q, want %q", got, tt.location)
			}
			if len(orders.settled) != tt.settled || len(orders.failed) != tt.failed {
				t.Errorf("settled %q, failed %q; want %d and %d", orders.settled, orders.failed, tt.settled, tt.failed)
			}
			if tt.settled > 0 && orders.settled[0] != tt.invoice+" sandbox:"+tt.invoice {
				t.Errorf("settled %q: want the invoice and the sandbox's transaction", orders.settled[0])
			}
			if tt.status == http.StatusOK {
				csp := rec.Header().Get("Content-Security-Policy")
				if !strings.Contains(csp, "img-src 'self' https: data:;") {
					t.Errorf("CSP %q: the page's data: icon cannot load", csp)
				}
				if !strings.Contains(csp, "default-src 'none'") || !strings.HasSuffix(csp, "form-action 'self' https://partner.test") {
					t.Errorf("CSP %q: want no default source and forms to the shop and the return site", csp)
				}
			}
		})
	}
}

// The page as the buyer's checkout shows the order: the shop's name, every line and the discount
// with amounts formatted for the buyer's language, the page in that language, a way back.
func TestSandboxPageItemisedInTheBuyersLanguage(t *testing.T) {
	eur := func(minor int64) money.Money { return money.Money{Amount: minor, Currency: "EUR"} }
	withLogo := func(logo string) *catalog.Catalog {
		c := *catalog.Demo()
		c.Storefronts = []catalog.Storefront{{Key: "pk_test_shop", Name: "Example Streams", Default: true, Logo: logo}}
		return &c
	}
	o := order.Order{ID: "ord_de", Locale: "de-de", ReturnURL: "https://shop.test/checkout/waiting?order={orderId}",
		Quote: pricing.Quote{Cycle: catalog.Quarterly, ExtraConnections: 2, Lines: []pricing.Line{
			{Key: pricing.LinePlan, Label: "Premium — Quarterly", Amount: eur(6099)},
			{Key: pricing.LineExtraConnections, Label: "2 extra connections", Amount: eur(1000)},
		}, Discount: &pricing.Discount{Code: "SPRING", Amount: eur(1610)}, Total: eur(5489)},
		Invoice: order.Invoice{ID: "inv_de", Gateway: "sandbox", Status: order.InvoiceUnpaid, Amount: eur(5489)}}
	tests := []struct {
		name, locale, logo string
		want, not          []string
	}{
		{name: "German", locale: "de-de", logo: "https://cdn.example/logo.png",
			// The quote's labels are English: the page writes them in German, as the invoice does.
			want: []string{`lang="de"`, "Example Streams", "Premium — vierteljährlich", "60,99\u00a0€", "Zusätzliche Verbindungen × 2", "10,00\u00a0€",
				"Rabatt (SPRING)", "−16,10\u00a0€",
				"data-testid=\"sandbox-total\">54,89\u00a0€", ">Bezahlen<", ">Ablehnen<", "Ohne Zahlung zurück zum Shop",
				`href="https://shop.test/checkout/waiting?order=ord_de"`, `src="https://cdn.example/logo.png"`},
			not: []string{"Sandbox — no real money", "EUR", "Quarterly", "extra connections"}},
		{name: "English, a logo the page may not load", locale: "en", logo: "javascript:alert(1)",
			want: []string{`lang="en"`, "Premium — quarterly", "€60.99", "Discount (SPRING)", `data-testid="sandbox-total">€54.89`, ">Pay<", "Back to the shop without paying"},
			not:  []string{"<img", "javascript"}},
		{name: "a language the shop has no words in", locale: "fr-fr", logo: "/checkout/logo.svg",
			want: []string{`lang="en"`, ">Pay<", `src="/checkout/logo.svg"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := o
			o.Locale = tt.locale
			orders := &pageOrders{byInvoice: map[string]order.Order{"inv_de": o}}
			page := payment.NewSandboxPage(func() *catalog.Catalog { return withLogo(tt.logo) }, orders, slog.New(slog.DiscardHandler))
			rec := httptest.NewRecorder()
			page.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, payment.SandboxPath+"inv_de", nil))
			body := rec.Body.String()
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("page has %q", n)
				}
			}
		})
	}
}
