package payment

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// sandboxStyle is the page's only style sheet; its hash is all the CSP allows.
const sandboxStyle = `
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0f1629;color:#1b2136;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{box-sizing:border-box;background:#fff;border-radius:16px;padding:clamp(20px,6vw,32px);width:min(420px,calc(100vw - 32px));box-shadow:0 20px 60px rgba(0,0,0,.35)}
h1{margin:0 0 4px;font-size:1.3rem}.tag{display:inline-block;background:#fff4d6;color:#7a5200;border-radius:999px;padding:2px 10px;font-size:.8rem;font-weight:600}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:6px 16px;margin:20px 0}dt{color:#5b6275}dd{margin:0;text-align:right;font-weight:600;overflow-wrap:anywhere}
.total{font-size:1.6rem;color:#405db1}.row{display:flex;gap:12px}button{flex:1;border:0;border-radius:10px;padding:14px;font:inherit;font-weight:700;cursor:pointer}
button:focus-visible{outline:3px solid #405db1;outline-offset:2px}.pay{background:#405db1;color:#fff}.fail{background:#f1f2f6;color:#8a1c1c}
p.note{color:#5b6275;font-size:.85rem}a{color:#405db1}
`

// sandboxPage is the built-in gateway's hosted payment page: self-contained, no script.
var sandboxPage = template.Must(template.New("sandbox").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Sandbox payment</title>
<style>` + sandboxStyle + `</style></head><body><main>
<span class="tag">Sandbox — no real money</span>
<h1>{{.Title}}</h1>
{{if .Done}}<p>{{.Done}}</p><p><a href="{{.Return}}">Continue</a></p>{{else}}
<dl><dt>Invoice</dt><dd>{{.Invoice}}</dd><dt>Product</dt><dd>{{.Product}}</dd><dt>Total</dt><dd class="total">{{.Total}}</dd></dl>
<form method="post"><div class="row">
<button class="pay" name="action" value="pay" type="submit" data-testid="sandbox-pay">Pay</button>
<button class="fail" name="action" value="fail" type="submit" data-testid="sandbox-fail">Fail</button>
</div></form>
<p class="note">This page stands in for a card payment. “Pay” settles the invoice, “Fail” declines it.</p>{{end}}
</main></body></html>`))

// sandboxCSP allows the page's own style sheet and a form posting to itself, nothing else: no
// script, no frame, no other resource. form-action also covers the redirect after the post,
// so the return URL's origin is added per order (sandboxHeaders).
var sandboxCSP = func() string {
	sum := sha256.Sum256([]byte(sandboxStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
}()

// msgSandboxOff answers the sandbox page while the catalog in force does not enable the sandbox.
const msgSandboxOff = "Sandbox payments are turned off in this shop."

// SandboxOrders is what the sandbox page does with orders (order.Orders does it).
type SandboxOrders interface {
	InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error)
	Settle(ctx context.Context, invoiceID, txn string) (order.Order, error)
	Fail(ctx context.Context, invoiceID string) (order.Order, error)
}

// NewSandboxPage is the sandbox gateway's hosted page: GET (the page) and POST (settle or fail)
// of SandboxPath followed by the invoice id. cat is read per request, so a catalog import that
// turns the sandbox off closes the page at once.
func NewSandboxPage(cat func() *catalog.Catalog, orders SandboxOrders, log *slog.Logger) http.Handler {
	return sandboxHandler{catalog: cat, orders: orders, log: log}
}

type sandboxHandler struct {
	catalog func() *catalog.Catalog
	orders  SandboxOrders
	log     *slog.Logger
}

func (h sandboxHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The route stays mounted (a catalog import may turn the sandbox back on), so each request asks
	// the catalog in force: a shop that turned the sandbox off must not settle anything for free.
	if _, on := h.catalog().Gateway((Sandbox{}).Module()); !on {
		http.Error(w, msgSandboxOff, http.StatusNotFound)
		return
	}
	invoiceID := strings.TrimPrefix(r.URL.Path, SandboxPath)
	o, err := h.orders.InvoiceOrder(r.Context(), invoiceID)
	// Only the sandbox's own invoices: an invoice of a real gateway would be "paid" here for free.
	if errors.Is(err, order.ErrNotFound) || strings.Contains(invoiceID, "/") || (err == nil && o.Invoice.Gateway != (Sandbox{}).Module()) {
		http.Error(w, "Invoice not found.", http.StatusNotFound)
		return
	}
	if err != nil {
		h.log.Error("sandbox: read invoice", "invoice", invoiceID, "err", err)
		http.Error(w, "Something went wrong. Please try again.", http.StatusInternalServerError)
		return
	}
	sandboxHeaders(w.Header(), o.PaymentReturnURL())
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		h.render(w, o, "")
	case http.MethodPost:
		switch r.PostFormValue("action") {
		case "pay":
			// One payment per page, as with a provider's checkout: paying the page again is
			// a duplicate, never a second settlement nor a second refund.
			_, err = h.orders.Settle(r.Context(), invoiceID, "sandbox:"+invoiceID)
		case "fail":
			_, err = h.orders.Fail(r.Context(), invoiceID)
		default:
			http.Error(w, `Unknown action: choose "pay" or "fail".`, http.StatusBadRequest)
			return
		}
		if errors.Is(err, order.ErrAlreadySettled) {
			w.WriteHeader(http.StatusConflict)
			h.render(w, o, "This invoice was already settled. Nothing was charged twice.")
			return
		}
		if errors.Is(err, order.ErrNeedsReview) {
			// The order cannot take this payment (cancelled, expired, held, paid): it is refunded.
			w.WriteHeader(http.StatusConflict)
			h.render(w, o, "This order can no longer be paid. Your payment is being refunded.")
			return
		}
		if err != nil {
			h.log.Error("sandbox: settle", "invoice", invoiceID, "err", err)
			http.Error(w, "Something went wrong. Please try again.", http.StatusInternalServerError)
			return
		}
		http.Redirect(w, r, o.PaymentReturnURL(), http.StatusSeeOther)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
	}
}

func (h sandboxHandler) render(w http.ResponseWriter, o order.Order, done string) {
	if done == "" && o.Invoice.Status != order.InvoiceUnpaid {
		done = "This invoice is " + string(o.Invoice.Status) + "."
	}
	title := "Pay your order"
	if done != "" {
		title = "Nothing to pay"
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := sandboxPage.Execute(w, map[string]string{
		"Title": title, "Done": done, "Return": o.PaymentReturnURL(), "Invoice": o.Invoice.ID,
		"Product": o.Quote.Lines[0].Label, "Total": money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency) + " " + o.Invoice.Amount.Currency,
	})
	if err != nil {
		h.log.Error("sandbox: render", "err", err)
	}
}

// sandboxHeaders are the page's security headers. The referrer goes to this shop only: the
// page's URL names the invoice and must not reach the return site. (Not no-referrer: browsers
// then send "Origin: null" with the Pay form, which the origin check refuses.)
func sandboxHeaders(h http.Header, back string) {
	csp := sandboxCSP
	if u, err := url.Parse(back); err == nil && u.Scheme != "" && u.Host != "" {
		csp += " " + u.Scheme + "://" + u.Host
	}
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
}
