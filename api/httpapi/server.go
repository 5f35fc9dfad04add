// Package httpapi implements the Goa-designed HTTP API under /checkout/api: each generated service
// interface by a small adapter over the domain packages, with domain errors mapped to design errors.
package httpapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/compress"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/planchange"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/upsell"
	genaffiliates "github.com/streamcart/streamcart/gen/affiliates"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	gengeo "github.com/streamcart/streamcart/gen/geo"
	affiliatessrv "github.com/streamcart/streamcart/gen/http/affiliates/server"
	catalogsrv "github.com/streamcart/streamcart/gen/http/catalog/server"
	geosrv "github.com/streamcart/streamcart/gen/http/geo/server"
	invoicessrv "github.com/streamcart/streamcart/gen/http/invoices/server"
	ordersrv "github.com/streamcart/streamcart/gen/http/order/server"
	pricingsrv "github.com/streamcart/streamcart/gen/http/pricing/server"
	promotionsrv "github.com/streamcart/streamcart/gen/http/promotion/server"
	resellerssrv "github.com/streamcart/streamcart/gen/http/resellers/server"
	servicessrv "github.com/streamcart/streamcart/gen/http/services/server"
	sessionsrv "github.com/streamcart/streamcart/gen/http/session/server"
	upsellsrv "github.com/streamcart/streamcart/gen/http/upsell/server"
	geninvoices "github.com/streamcart/streamcart/gen/invoices"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
	genservices "github.com/streamcart/streamcart/gen/services"
	gensession "github.com/streamcart/streamcart/gen/session"
	genupsell "github.com/streamcart/streamcart/gen/upsell"
)

// OpenAPI is the generated OpenAPI 3 document (a copy of gen/http/openapi3.json kept in step by
// `make gen` and checked by a test).
//
//go:embed openapi3.json
var OpenAPI []byte

// Deps is what the API is built from.
type Deps struct {
	Catalog   func() *catalog.Catalog
	Accounts  *account.Service
	Orders    *order.Orders
	Panel     panel.Panel
	Geo       *geo.Lookup
	Webhooks  *payment.Webhooks // providers' webhooks, served raw; nil: none
	PayQuotes payment.Quotes    // invoices' quotes in a gateway's own currency (Coinbase: USDC); nil: none
	// PayProgress: pending invoices whose payment a provider has seen and is confirming; zero: none.
	PayProgress payment.Progress
	Now         func() time.Time // business clock (promotion dates; the test clock moves it); nil: time.Now
	Storefront  Storefront
	// TrustedProxies are the proxies whose X-Forwarded-For names the client (geo.ClientIP).
	TrustedProxies []netip.Prefix
	Logger         *slog.Logger

	// PublicURL is the shop's origin (https://shop.example) that links and return URLs are built
	// on and checked against; never taken from a request.
	PublicURL string

	// After the sale (sign-in links, service management, upsell, resellers, affiliates).
	Signin     *signin.Service
	Manage     *manage.Services
	Upsells    *upsell.Upsells
	Resellers  *reseller.Resellers
	Affiliates *affiliate.Affiliates
	Renewals   *renewal.Renewals
	// Changes are the operators' changes of lines; their charge-now invoices open on the pay page.
	Changes *planchange.Changes
	// PayLinks checks the tokens of renewal pay links (GET/POST /invoices/{id}?t=…).
	PayLinks *paylink.Signer

	// CreditNotes reads the credit notes refunds issued (listed on orders, served as PDFs).
	CreditNotes refund.CreditNotes

	// Limiter holds the per-address rate limits; nil: off.
	Limiter *Limiter

	// OrderStreams are the replica's order streams (GET /orders/{orderId}/events): caps, and
	// the hub that tells them of changes; nil: defaults, each stream re-reading on a tick.
	OrderStreams *OrderStreams

	// Admin is the seller's console API under /checkout/api/admin; nil: none.
	Admin *Admin
	// Stock says which plans the panel's reseller credits can cover now (products' available);
	// nil: every plan.
	Stock Stock

	// UpstreamRenew, when set, renews services through the billing system that invoices them
	// (WHMCS mode); nil: the shop's renewals.
	UpstreamRenew UpstreamRenewer
}

// New returns the handler of everything under /checkout/api.
func New(d Deps) http.Handler {
	mux := goahttp.NewMuxer()
	mux.Use(withRoute) // the access line and metrics name the route template, not the path
	dec, enc := checkedDecoder(requestDecoder), goahttp.ResponseEncoder
	errh := func(ctx context.Context, w http.ResponseWriter, err error) {
		d.Logger.ErrorContext(ctx, "encode response", "err", err)
	}
	hide := hideInternal(d.Logger)

	if d.Storefront.PublicURL == "" {
		d.Storefront.PublicURL = d.PublicURL
	}
	cs := newCatalog(d.Catalog, d.Storefront).withStock(d.Stock)
	ce := gencatalog.NewEndpoints(cs)
	ce.Use(hide)
	catalogsrv.Mount(mux, catalogsrv.New(ce, mux, dec, enc, errh, formatError))

	pe := genpromotion.NewEndpoints(NewPromotion(d.Orders, d.Now))
	pe.Use(hide)
	promotionsrv.Mount(mux, promotionsrv.New(pe, mux, dec, enc, errh, formatError))

	qe := genpricing.NewEndpoints(NewPricing(d.Orders, d.Geo))
	qe.Use(hide)
	pricingsrv.Mount(mux, pricingsrv.New(qe, mux, dec, enc, errh, formatError))

	se := gensession.NewEndpoints(NewSession(d.Accounts, d.Signin))
	se.Use(hide)
	sessionsrv.Mount(mux, sessionsrv.New(se, mux, dec, enc, errh, formatError))

	ge := gengeo.NewEndpoints(NewGeo(d.Geo))
	ge.Use(hide)
	geosrv.Mount(mux, geosrv.New(ge, mux, dec, enc, errh, formatError))

	oe := genorder.NewEndpoints(NewOrder(d.Accounts, d.Orders, d.PayQuotes, d.PayProgress, d.CreditNotes, d.Geo, d.OrderStreams))
	oe.Use(hide)
	ordersrv.Mount(mux, ordersrv.New(oe, mux, dec, enc, errh, formatError))

	ve := genservices.NewEndpoints(NewServices(d.Catalog, d.Accounts, d.Orders, d.Panel, d.Manage, d.Renewals, d.PayQuotes, d.UpstreamRenew))
	ve.Use(hide)
	servicessrv.Mount(mux, servicessrv.New(ve, mux, emptyAsObject(dec), enc, errh, formatError))

	var changes changeReader // a nil *planchange.Changes is no reader
	if d.Changes != nil {
		changes = d.Changes
	}
	ie := geninvoices.NewEndpoints(NewInvoices(d.Catalog, d.Orders, d.Renewals, d.PayLinks, d.PublicURL, clock.OrReal(d.Now),
		receipts{accounts: d.Accounts, orders: d.Orders, notes: d.CreditNotes, links: d.PayLinks, catalog: d.Catalog, geo: d.Geo}, changes))
	ie.Use(hide)
	invoicessrv.Mount(mux, invoicessrv.New(ie, mux, emptyAsObject(dec), enc, errh, formatError))

	ue := genupsell.NewEndpoints(NewUpsell(d.Catalog, d.Accounts, d.Upsells, d.Geo))
	ue.Use(hide)
	upsellsrv.Mount(mux, upsellsrv.New(ue, mux, dec, enc, errh, formatError))

	re := genresellers.NewEndpoints(NewResellers(d.Catalog, d.Accounts, d.Resellers))
	re.Use(hide)
	resellerssrv.Mount(mux, resellerssrv.New(re, mux, dec, enc, errh, formatError))

	ae := genaffiliates.NewEndpoints(NewAffiliates(d.Affiliates))
	ae.Use(hide)
	affiliatessrv.Mount(mux, affiliatessrv.New(ae, mux, dec, enc, errh, formatError))

	if d.Admin != nil {
		mountAdmin(mux, *d.Admin, dec, enc, errh, hide)
	}

	sandbox := payment.NewSandboxPage(d.Catalog, d.Orders, d.Logger)
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		mux.Handle(m, payment.SandboxPath+"{invoiceId}", sandbox.ServeHTTP)
	}
	if d.Webhooks != nil {
		// Plain handlers: the signature covers the raw body, which no decoder may touch first.
		for _, m := range d.Webhooks.Modules() {
			mux.Handle(http.MethodPost, payment.WebhookPath(m), d.Webhooks.Handler(m))
		}
	}
	mux.Handle(http.MethodGet, "/checkout/api/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Write(OpenAPI)
	})
	// The product lists, the hottest read, skip the caller's context: they never ask for it.
	api := withClientIP(mux, d.TrustedProxies, d.PublicURL)
	root := http.NewServeMux()
	list := cs.productsHandler(api)
	// The same for a client taking a coding: its answers other than the list's own encoded
	// bytes (errors, another media type) are compressed as withCompression would.
	listCoded := cs.productsHandler(compressedAfterVary(api))
	products := withRoute(list)
	root.Handle(productsPattern, products)
	// Webhooks keep their own body limit; every other request is bounded and, on the endpoints
	// an attacker would hammer, rate limited per address.
	hooks := map[string]bool{}
	if d.Webhooks != nil {
		for _, m := range d.Webhooks.Modules() {
			hooks[payment.WebhookPath(m)] = true
		}
	}
	root.Handle("/", boundBodies(d.Limiter.guard(guardAdmin(api, strings.HasPrefix(d.PublicURL, "https://"))), func(p string) bool { return hooks[p] }))
	return productsFirst(list, listCoded, withCompression(keepPattern(ExactFirst(productsPattern, products, root))))
}

// productsFirst hands the product list's own requests straight to its handler, with the route
// noted as withRoute notes it: one layer instead of four (withCompression, keepPattern,
// ExactFirst, withRoute) on the hottest read (issue 24). A client taking no coding gets list
// (withCompression passes its answers through untouched); one taking br or gzip gets Vary as
// withCompression sets it, then listCoded, which writes the list's bytes encoded once without
// holding them in a compressing writer (which would pass them on unchanged) and compresses its
// other answers. r.Pattern is put back afterwards, as keepPattern would. Everything else goes to
// all.
func productsFirst(list, listCoded, all http.Handler) http.Handler {
	method, path, _ := strings.Cut(productsPattern, " ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method || r.URL.Path != path || r.URL.RawPath != "" {
			all.ServeHTTP(w, r)
			return
		}
		defer func(p string) { r.Pattern = p }(r.Pattern)
		r.Pattern = productsPattern
		noteRoute(r)
		if compress.Prefer(r, "br", "gzip") == "" {
			list.ServeHTTP(w, r)
			return
		}
		if h := w.Header(); len(h["Vary"]) == 1 && h["Vary"][0] == "Origin" { // CORS's, as usual
			h["Vary"] = varyOriginThenAcceptEncoding // Add's two lines, without its copy
		} else {
			h.Add("Vary", "Accept-Encoding")
		}
		listCoded.ServeHTTP(w, r)
	})
}

// productsPattern is the product list's route.
const productsPattern = "GET /checkout/api/products"

// ExactFirst hands requests for pattern's one path ("METHOD /path", no wildcards) straight to
// h, noting pattern on the request as mux would, without ServeMux's tree walk: a tenth of the
// product list's CPU in front of its pre-encoded bytes, at each of the site's two muxes (issue
// 24). mux serves everything else, HEAD and escaped spellings of the path included.
func ExactFirst(pattern string, h http.Handler, mux http.Handler) http.Handler {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || strings.ContainsAny(path, "{}") || !strings.HasPrefix(path, "/") {
		panic("httpapi.ExactFirst: want \"METHOD /exact/path\", got " + strconv.Quote(pattern))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == method && r.URL.Path == path && r.URL.RawPath == "" {
			r.Pattern = pattern
			h.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// keepPattern puts back the pattern the site's mux matched ("/checkout/api/") once root has
// answered: root's catch-all "/" replaces it on the request, which is shared from the site's mux
// on, not copied, and the access line of a path nothing serves names the site's pattern.
func keepPattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func(p string) { r.Pattern = p }(r.Pattern)
		next.ServeHTTP(w, r)
	})
}

// requestDecoder reads JSON bodies; a body sent without a JSON content type (curl -d sends a form
// type) is read as JSON too, so the API is easy to try by hand.
func requestDecoder(r *http.Request) goahttp.Decoder {
	ct := r.Header.Get("Content-Type")
	if ct == "" || strings.HasPrefix(ct, "application/x-www-form-urlencoded") || strings.HasPrefix(ct, "text/plain") {
		return json.NewDecoder(r.Body)
	}
	return goahttp.RequestDecoder(r)
}

// hideInternal turns any error that is not a design error into a logged, opaque 500: internals
// never reach a client.
func hideInternal(log *slog.Logger) func(goa.Endpoint) goa.Endpoint {
	return func(next goa.Endpoint) goa.Endpoint {
		return func(ctx context.Context, req any) (any, error) {
			res, err := next(ctx, req)
			if err == nil {
				return res, nil
			}
			if _, ok := err.(interface{ GoaErrorName() string }); ok {
				return res, err
			}
			f := goa.Fault("Something went wrong on our side. Please try again.")
			log.ErrorContext(ctx, "internal error", "err", err, "errorId", f.ID,
				"service", ctx.Value(goa.ServiceKey), "method", ctx.Value(goa.MethodKey))
			return nil, f
		}
	}
}
