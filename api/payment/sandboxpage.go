package payment

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/invoice"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

// sandboxStyle is the page's only style sheet; its hash is all the CSP allows.
const sandboxStyle = `
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0f1629;color:#1b2136;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{box-sizing:border-box;background:#fff;border-radius:16px;padding:clamp(20px,6vw,32px);width:min(420px,calc(100vw - 32px));box-shadow:0 20px 60px rgba(0,0,0,.35)}
h1{margin:0 0 4px;font-size:1.3rem}.tag{display:inline-block;background:#fff4d6;color:#7a5200;border-radius:999px;padding:2px 10px;font-size:.8rem;font-weight:600}
dl{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:6px 0;margin:20px 0}dt{color:#5b6275;overflow-wrap:anywhere}dd{margin:0;padding-left:16px;text-align:right;font-weight:600;white-space:nowrap}
.total{font-size:1.6rem;color:#405db1}.row{display:flex;gap:12px}button{flex:1;border:0;border-radius:10px;padding:14px;font:inherit;font-weight:700;cursor:pointer}
button:focus-visible{outline:3px solid #405db1;outline-offset:2px}.pay{background:#405db1;color:#fff}.fail{background:#f1f2f6;color:#8a1c1c}
p.note{color:#5b6275;font-size:.85rem}a{color:#405db1}
.shop{display:flex;align-items:center;gap:10px;font-weight:700;margin-bottom:14px}.shop img{border-radius:8px;object-fit:contain}
dt.sum,dd.sum{border-top:1px solid #e3e5ec;padding-top:8px;margin-top:4px}dt.sum{align-self:stretch;display:flex;align-items:center}
`

// sandboxPage is the built-in gateway's hosted payment page: self-contained, no script, in the
// buyer's language, itemised as the checkout's summary is.
var sandboxPage = template.Must(template.New("sandbox").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>{{.T.PageTitle}} · {{.Shop}}</title>
{{/* An icon of its own: without one the browser asks for /favicon.ico, a 404 on the buyer's console. */}}<link rel="icon" href="{{if .Logo}}{{.Logo}}{{else}}data:,{{end}}">
<style>` + sandboxStyle + `</style></head><body><main>
<header class="shop">{{if .Logo}}<img src="{{.Logo}}" alt="" width="32" height="32">{{end}}<span data-testid="sandbox-shop">{{.Shop}}</span></header>
<span class="tag">{{.T.Tag}}</span>
<h1>{{.Title}}</h1>
{{if .Done}}<p>{{.Done}}</p><p><a href="{{.Return}}">{{.T.Continue}}</a></p>{{else}}
<dl data-testid="sandbox-lines">{{range .Lines}}<dt>{{.Label}}</dt><dd>{{.Amount}}</dd>{{end}}
<dt class="sum">{{.T.Total}}</dt><dd class="total sum" data-testid="sandbox-total">{{.Total}}</dd></dl>
<form method="post"><div class="row">
<button class="pay" name="action" value="pay" type="submit" data-testid="sandbox-pay">{{.T.Pay}}</button>
<button class="fail" name="action" value="fail" type="submit" data-testid="sandbox-fail">{{.T.Fail}}</button>
</div></form>
<p class="note">{{.T.Note}} {{.T.Invoice}} {{.Invoice}}.</p>
<p><a href="{{.Return}}" data-testid="sandbox-back">← {{.T.Back}}</a></p>{{end}}
</main></body></html>`))

// sandboxText is the page's wording in one language.
type sandboxText struct {
	PageTitle, Tag, Pay, Fail, Total, Invoice, Note, Back, Continue string
	PayTitle, DoneTitle, AlreadySettled, CannotPay, InvoiceIs       string
}

// sandboxTexts are the page's words per language of mail.Locales (the order's Locale), English
// the fallback. InvoiceIs takes the invoice's status.
var sandboxTexts = map[string]sandboxText{
	"en": {PageTitle: "Sandbox payment", Tag: "Sandbox — no real money", Pay: "Pay", Fail: "Fail", Total: "Total", Invoice: "Invoice",
		Note: "This page stands in for a card payment: “Pay” settles the invoice, “Fail” declines it.", Back: "Back to the shop without paying",
		Continue: "Continue", PayTitle: "Pay your order", DoneTitle: "Nothing to pay",
		AlreadySettled: "This invoice was already settled. Nothing was charged twice.",
		CannotPay:      "This order can no longer be paid. Your payment is being refunded.", InvoiceIs: "This invoice is %s."},
	"de": {PageTitle: "Testzahlung", Tag: "Testmodus — kein echtes Geld", Pay: "Bezahlen", Fail: "Ablehnen", Total: "Gesamt", Invoice: "Rechnung",
		Note: "Diese Seite ersetzt eine Kartenzahlung: „Bezahlen“ begleicht die Rechnung, „Ablehnen“ lehnt sie ab.", Back: "Ohne Zahlung zurück zum Shop",
		Continue: "Weiter", PayTitle: "Bestellung bezahlen", DoneTitle: "Nichts zu bezahlen",
		AlreadySettled: "Diese Rechnung wurde bereits beglichen. Es wurde nichts doppelt berechnet.",
		CannotPay:      "Diese Bestellung kann nicht mehr bezahlt werden. Ihre Zahlung wird erstattet.", InvoiceIs: "Status dieser Rechnung: %s."},
	"es": {PageTitle: "Pago de prueba", Tag: "Modo de prueba — sin dinero real", Pay: "Pagar", Fail: "Rechazar", Total: "Total", Invoice: "Factura",
		Note: "Esta página sustituye a un pago con tarjeta: «Pagar» liquida la factura, «Rechazar» la rechaza.", Back: "Volver a la tienda sin pagar",
		Continue: "Continuar", PayTitle: "Paga tu pedido", DoneTitle: "Nada que pagar",
		AlreadySettled: "Esta factura ya estaba pagada. No se ha cobrado dos veces.",
		CannotPay:      "Este pedido ya no se puede pagar. Se está reembolsando tu pago.", InvoiceIs: "Estado de esta factura: %s."},
	"nl": {PageTitle: "Testbetaling", Tag: "Testmodus — geen echt geld", Pay: "Betalen", Fail: "Weigeren", Total: "Totaal", Invoice: "Factuur",
		Note: "Deze pagina vervangt een kaartbetaling: „Betalen” voldoet de factuur, „Weigeren” weigert hem.", Back: "Terug naar de winkel zonder te betalen",
		Continue: "Doorgaan", PayTitle: "Bestelling betalen", DoneTitle: "Niets te betalen",
		AlreadySettled: "Deze factuur was al voldaan. Er is niets dubbel berekend.",
		CannotPay:      "Deze bestelling kan niet meer worden betaald. Je betaling wordt terugbetaald.", InvoiceIs: "Status van deze factuur: %s."},
	"pt": {PageTitle: "Pagamento de teste", Tag: "Modo de teste — sem dinheiro real", Pay: "Pagar", Fail: "Recusar", Total: "Total", Invoice: "Fatura",
		Note: "Esta página substitui um pagamento com cartão: «Pagar» liquida a fatura, «Recusar» recusa-a.", Back: "Voltar à loja sem pagar",
		Continue: "Continuar", PayTitle: "Pagar a encomenda", DoneTitle: "Nada a pagar",
		AlreadySettled: "Esta fatura já estava paga. Nada foi cobrado duas vezes.",
		CannotPay:      "Esta encomenda já não pode ser paga. O seu pagamento está a ser reembolsado.", InvoiceIs: "Estado desta fatura: %s."},
}

// sandboxLanguage is the page's language for an order's locale ("de-de" → "de"), English when
// the shop has no words in it.
func sandboxLanguage(locale string) string {
	lang, _, _ := strings.Cut(strings.ToLower(locale), "-")
	if _, ok := sandboxTexts[lang]; ok {
		return lang
	}
	return "en"
}

// sandboxCSP allows the page's own style sheet and a form posting to itself, nothing else: no
// script, no frame, no other resource. form-action also covers the redirect after the post,
// so the return URL's origin is added per order (sandboxHeaders).
var sandboxCSP = func() string {
	sum := sha256.Sum256([]byte(sandboxStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
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
			h.render(w, o, sandboxTexts[sandboxLanguage(o.Locale)].AlreadySettled)
			return
		}
		if errors.Is(err, order.ErrNeedsReview) {
			// The order cannot take this payment (cancelled, expired, held, paid): it is refunded.
			w.WriteHeader(http.StatusConflict)
			h.render(w, o, sandboxTexts[sandboxLanguage(o.Locale)].CannotPay)
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

// sandboxLine is one row of the page's itemised list.
type sandboxLine struct{ Label, Amount string }

func (h sandboxHandler) render(w http.ResponseWriter, o order.Order, done string) {
	lang := sandboxLanguage(o.Locale)
	t := sandboxTexts[lang]
	if done == "" && o.Invoice.Status != order.InvoiceUnpaid {
		done = fmt.Sprintf(t.InvoiceIs, o.Invoice.Status)
	}
	title := t.PayTitle
	if done != "" {
		title = t.DoneTitle
	}
	format := func(m money.Money) string { return money.FormatLocale(m.Amount, m.Currency, o.Locale) }
	// The lines in the buyer's words, as the invoice writes them (the quote's labels are English).
	var lines []sandboxLine
	for _, l := range invoice.Items(o) {
		if l.Amount.Amount < 0 {
			lines = append(lines, sandboxLine{Label: l.Description, Amount: "−" + format(money.Money{Amount: -l.Amount.Amount, Currency: l.Amount.Currency})})
			continue
		}
		lines = append(lines, sandboxLine{Label: l.Description, Amount: format(l.Amount)})
	}
	shop, logo := h.shop()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := sandboxPage.Execute(w, map[string]any{
		"Lang": lang, "T": t, "Shop": shop, "Logo": logo,
		"Title": title, "Done": done, "Return": o.PaymentReturnURL(), "Invoice": o.Invoice.ID,
		"Lines": lines, "Total": format(o.Invoice.Amount),
	})
	if err != nil {
		h.log.Error("sandbox: render", "err", err)
	}
}

// shop is the name and logo the page shows: the default storefront's, as the storefront's own
// header; the logo only when it is an https address or one of this shop's paths (the page's CSP
// names no other image source).
func (h sandboxHandler) shop() (name, logo string) {
	name = "Streamcart"
	if s, ok := h.catalog().DefaultStorefront(); ok {
		if s.Name != "" {
			name = s.Name
		}
		if u, err := url.Parse(s.Logo); err == nil && (u.Scheme == "https" || (u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/"))) {
			logo = s.Logo
		}
	}
	return name, logo
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
