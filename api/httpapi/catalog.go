package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/compress"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/shoplink"
	"github.com/streamcart/streamcart/api/storefront"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	catalogsrv "github.com/streamcart/streamcart/gen/http/catalog/server"
)

// catalogService serves what is for sale. Product lists are built once per catalog, currency and
// locale: the read path never touches the database.
type catalogService struct {
	catalog   func() *catalog.Catalog
	storefont Storefront
	// stock says which plans the panel can make lines of now; nil: all of them.
	stock     Stock
	mu        sync.Mutex
	cachedFor *catalog.Catalog
	cache     map[string]*gencatalog.ProductList
	encoded   map[string]encodedList
	// answers maps a GET /products request (as asked: raw currency, locale, storefront) to its
	// encoded list, so a repeated request costs one map lookup.
	answers map[productsRequest]encodedList
	// usual is the answer to the usual request (no query, the shop's own plans and currency)
	// for the catalog it was made for, read without the lock; written and dropped under mu as
	// answers is.
	usual atomic.Pointer[usualAnswer]
}

type usualAnswer struct {
	cat  *catalog.Catalog
	body encodedList
}

type productsRequest struct{ store, currency, locale string }

// Stock says whether the panel can make a line of a product now (its reseller credits cover the
// product's cost, package credits), and calls back when that may have changed.
type Stock interface {
	Available(p catalog.Product) bool
	// OnChange registers fn, called after each change of what Available answers.
	OnChange(fn func())
}

// available is the product's availability now.
func (s *catalogService) available(p catalog.Product) bool {
	return s.stock == nil || s.stock.Available(p)
}

// forget drops the cached lists: a change of availability recomputes their bytes once, on the
// next request, and never per request.
func (s *catalogService) forget() {
	s.mu.Lock()
	s.cachedFor = nil
	s.usual.Store(nil)
	s.mu.Unlock()
}

// Header values of the products fast path, shared so a request allocates none.
var (
	jsonContentType    = []string{"application/json"}
	varyAcceptEncoding = []string{"Accept-Encoding"}
	// varyOriginAcceptEncoding is CORS's Vary with the list's own after it, as one field value
	// (one header line to write instead of two: the same list, RFC 9110 §5.3).
	varyOriginAcceptEncoding = []string{"Origin, Accept-Encoding"}
	// varyOriginThenAcceptEncoding is what Header.Add makes of CORS's Vary and withCompression's
	// (two field lines), shared.
	varyOriginThenAcceptEncoding = []string{"Origin", "Accept-Encoding"}
	gzipEncoding                 = []string{"gzip"}
	brotliEncoding               = []string{"br"}
)

// encodedList is a product list's JSON as sent: plain, gzip- and brotli-compressed.
type encodedList struct {
	plain, gz, br []byte
	// plainLen, gzLen and brLen are the Content-Length values: a body of known length goes out
	// in one piece instead of chunks.
	plainLen, gzLen, brLen []string
}

// newEncodedList compresses a list once per catalog, currency and locale, so brotli at its
// smallest costs nothing per request.
func newEncodedList(plain []byte) encodedList {
	gz, br := compress.Gzip(plain), compress.BrotliSmallest(plain)
	return encodedList{
		plain: plain, gz: gz, br: br,
		plainLen: []string{strconv.Itoa(len(plain))}, gzLen: []string{strconv.Itoa(len(gz))}, brLen: []string{strconv.Itoa(len(br))},
	}
}

// Storefront is the shop-wide settings the storefront endpoint adds to the catalog.
type Storefront struct {
	Name         string
	DashboardURL string
	SupportURL   string
	// PublicURL is the shop's origin, which the legal pages' links are built on (a widget
	// embedded elsewhere links back to them); New sets it from Deps.PublicURL.
	PublicURL string
}

// NewCatalog returns the catalog service.
func NewCatalog(cat func() *catalog.Catalog, sf Storefront) gencatalog.Service {
	return newCatalog(cat, sf)
}

func newCatalog(cat func() *catalog.Catalog, sf Storefront) *catalogService {
	return &catalogService{catalog: cat, storefont: sf}
}

// withStock makes the lists say which plans stock can sell now, rebuilt when it changes.
func (s *catalogService) withStock(stock Stock) *catalogService {
	if stock != nil {
		s.stock = stock
		stock.OnChange(s.forget)
	}
	return s
}

func (s *catalogService) currency(cat *catalog.Catalog, code *string) (string, error) {
	if code == nil || *code == "" {
		return cat.DefaultCurrency, nil
	}
	c, ok := cat.Currency(*code)
	if !ok {
		return "", gencatalog.MakeBadRequest(errors.New("Unknown currency " + strings.ToUpper(*code) + "."))
	}
	return c.Code, nil
}

// locale is the requested locale, "" for none (Goa has checked it against the enum).
func locale(l *string) string {
	if l == nil {
		return ""
	}
	return *l
}

// sells reports whether the request's storefront, if any, sells plan pid.
func sells(ctx context.Context, pid int) bool {
	sf, ok := storefront.FromContext(ctx)
	return !ok || sf.Sells(pid)
}

// storefrontCurrency is the currency asked for, else the request's storefront's default currency.
func storefrontCurrency(ctx context.Context, code *string) *string {
	if code != nil && *code != "" {
		return code
	}
	if sf, ok := storefront.FromContext(ctx); ok && sf.DefaultCurrency != "" {
		return &sf.DefaultCurrency
	}
	return code
}

func (s *catalogService) list(ctx context.Context, code, loc *string, reseller bool) (*gencatalog.ProductList, error) {
	cat := s.catalog()
	cur, err := s.currency(cat, storefrontCurrency(ctx, code))
	if err != nil {
		return nil, err
	}
	key := cur + "|" + locale(loc)
	if reseller {
		key = "reseller:" + key
	} else if sf, ok := storefront.FromContext(ctx); ok && !sf.SellsEveryPlan() {
		key = sf.Key + ":" + key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cachedFor != cat {
		s.cachedFor, s.cache, s.encoded = cat, map[string]*gencatalog.ProductList{}, map[string]encodedList{}
		s.answers = map[productsRequest]encodedList{}
	}
	if l, ok := s.cache[key]; ok {
		return l, nil
	}
	products := cat.Plans()
	if reseller {
		products = cat.Resellers()
	}
	l := &gencatalog.ProductList{Products: make(gencatalog.ProductResultCollection, 0, len(products))}
	for _, p := range products {
		if !reseller && !sells(ctx, p.PID) {
			continue
		}
		pr, err := productResult(cat, p.Localized(locale(loc)), cur)
		if err != nil {
			return nil, err
		}
		pr.Available = s.available(p)
		l.Products = append(l.Products, pr)
	}
	s.cache[key] = l
	return l, nil
}

// productsJSON is GET /products as Goa encodes it (same generated body type, same JSON encoder),
// built (and compressed) once per catalog, currency and locale: the hottest read serves bytes, not
// a fresh encoding.
func (s *catalogService) productsJSON(ctx context.Context, currency, loc *string) (encodedList, error) {
	list, err := s.list(ctx, currency, loc, false)
	if err != nil {
		return encodedList{}, err
	}
	cur := s.catalog().DefaultCurrency
	if len(list.Products) > 0 {
		cur = list.Products[0].Currency
	}
	key := cur + "|" + locale(loc)
	if sf, ok := storefront.FromContext(ctx); ok && !sf.SellsEveryPlan() {
		key = sf.Key + ":" + key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.encoded[key]; ok {
		return b, nil
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(catalogsrv.NewListProductsResponseBody(list)); err != nil {
		return encodedList{}, err
	}
	e := newEncodedList(buf.Bytes())
	s.encoded[key] = e
	return e, nil
}

// productsHandler answers GET /checkout/api/products from productsJSON, and leaves every other
// case (errors, a locale outside the enum, non-JSON Accept) to the Goa handler next.
func (s *catalogService) productsHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The map itself, not Header.Get: the key is canonical already.
		if accept := r.Header["Accept"]; len(accept) > 0 && accept[0] != "" && !strings.Contains(accept[0], "json") && !strings.Contains(accept[0], "*/*") {
			next.ServeHTTP(w, r)
			return
		}
		var q url.Values
		if r.URL.RawQuery != "" {
			q = r.URL.Query()
		}
		var currency, loc *string
		if q.Has("currency") {
			c := q.Get("currency")
			currency = &c
		}
		// Goa reads an empty locale as absent and answers 400 for one outside its enum.
		if l := q.Get("locale"); l != "" {
			if !slices.Contains(catalog.Locales, l) {
				next.ServeHTTP(w, r)
				return
			}
			loc = &l
		}
		req := productsRequest{currency: q.Get("currency"), locale: q.Get("locale")}
		if currency != nil && req.currency == "" {
			req.currency = "\x00" // ?currency= (empty) is Goa's to judge, apart from no currency at all
		}
		// Only a storefront with its own plans or currency answers differently from the shop's.
		if sf, ok := storefront.FromContext(r.Context()); ok && (!sf.SellsEveryPlan() || sf.DefaultCurrency != "") {
			req.store = sf.Key
		}
		cat := s.catalog()
		var body encodedList
		ok := false
		if u := s.usual.Load(); u != nil && req == (productsRequest{}) && u.cat == cat {
			body, ok = u.body, true
		} else {
			s.mu.Lock()
			body, ok = s.answers[req]
			ok = ok && s.cachedFor == cat
			s.mu.Unlock()
		}
		if !ok {
			var err error
			if body, err = s.productsJSON(r.Context(), currency, loc); err != nil {
				next.ServeHTTP(w, r)
				return
			}
			s.mu.Lock()
			if s.cachedFor == cat {
				s.answers[req] = body
				if req == (productsRequest{}) {
					s.usual.Store(&usualAnswer{cat: cat, body: body})
				}
			}
			s.mu.Unlock()
		}
		h := w.Header()
		h["Content-Type"] = jsonContentType
		// CORS has named Origin already, and withCompression Accept-Encoding when the client
		// takes a coding.
		switch vary := h["Vary"]; {
		case len(vary) == 1 && vary[0] == "Origin": // CORS's, as usual
			h["Vary"] = varyOriginAcceptEncoding
		case !slices.Contains(vary, varyAcceptEncoding[0]):
			h["Vary"] = append(vary, varyAcceptEncoding...)
		}
		switch compress.Prefer(r, "br", "gzip") {
		case "br":
			h["Content-Encoding"] = brotliEncoding
			h["Content-Length"] = body.brLen
			w.Write(body.br)
		case "gzip":
			h["Content-Encoding"] = gzipEncoding
			h["Content-Length"] = body.gzLen
			w.Write(body.gz)
		default:
			h["Content-Length"] = body.plainLen
			w.Write(body.plain)
		}
	})
}

// ListProducts returns the plans for sale (the first three).
func (s *catalogService) ListProducts(ctx context.Context, p *gencatalog.ListProductsPayload) (*gencatalog.ProductList, error) {
	return s.list(ctx, p.Currency, p.Locale, false)
}

// ListResellerProducts returns the reseller credit plans.
func (s *catalogService) ListResellerProducts(ctx context.Context, p *gencatalog.ListResellerProductsPayload) (*gencatalog.ProductList, error) {
	return s.list(ctx, p.Currency, p.Locale, true)
}

// GetProduct returns one product.
func (s *catalogService) GetProduct(ctx context.Context, p *gencatalog.GetProductPayload) (*gencatalog.ProductResult, error) {
	cat := s.catalog()
	cur, err := s.currency(cat, storefrontCurrency(ctx, p.Currency))
	if err != nil {
		return nil, err
	}
	prod, ok := cat.Product(p.Pid)
	// A plan the storefront does not sell is as unknown there as a missing one.
	if !ok || prod.Hidden || (prod.Group == catalog.GroupPlan && !sells(ctx, prod.PID)) {
		return nil, gencatalog.MakeNotFound(errors.New("Product not found."))
	}
	r, err := productResult(cat, prod.Localized(locale(p.Locale)), cur)
	if err != nil {
		return nil, err
	}
	r.Available = s.available(prod)
	return r, nil
}

func productResult(cat *catalog.Catalog, p catalog.Product, cur string) (*gencatalog.ProductResult, error) {
	money := func(price catalog.Price) (*gencatalog.Money, error) {
		amount, err := pricing.PriceIn(cat, price, cur)
		if err != nil {
			return nil, gencatalog.MakeBadRequest(errors.New("This product has no price in " + cur + "."))
		}
		return &gencatalog.Money{Amount: amount, Currency: cur}, nil
	}
	r := &gencatalog.ProductResult{
		Pid: p.PID, Group: p.Group, Name: p.Name, Description: p.Description, Features: nonNil(p.Features), Trial: p.Trial,
		Cycles: []string{}, Pricing: map[string]*gencatalog.Money{}, Currency: cur,
		ConfigOptions: gencatalog.ConfigOptionResultCollection{}, CustomFields: []*gencatalog.CustomFieldResult{},
		SaveBadge: p.SaveBadge, SoldBadge: p.SoldBadge, Guarantee: p.Guarantee, Credits: p.ResellerCredits, Available: true,
	}
	for _, c := range p.EnabledCycles() {
		m, err := money(p.Cycles[c])
		if err != nil {
			return nil, err
		}
		r.Cycles = append(r.Cycles, string(c))
		r.Pricing[string(c)] = m
	}
	for _, o := range p.ConfigOptions {
		co := &gencatalog.ConfigOptionResult{ID: o.ID, Name: o.Name, Type: o.Type, MaxQty: o.MaxQty, Pricing: map[string]*gencatalog.Money{}}
		for c, price := range o.Pricing {
			m, err := money(price)
			if err != nil {
				return nil, err
			}
			co.Pricing[string(c)] = m
		}
		r.ConfigOptions = append(r.ConfigOptions, co)
	}
	for _, f := range p.CustomFields {
		r.CustomFields = append(r.CustomFields, &gencatalog.CustomFieldResult{ID: f.ID, Name: f.Name, Type: f.Type, Description: strPtr(f.Description), Required: f.Required})
	}
	return r, nil
}

// ListCurrencies returns the selling currencies.
func (s *catalogService) ListCurrencies(context.Context) (*gencatalog.ListCurrenciesResult, error) {
	cat := s.catalog()
	res := &gencatalog.ListCurrenciesResult{Default: cat.DefaultCurrency}
	for _, c := range cat.Currencies {
		res.Currencies = append(res.Currencies, &gencatalog.CurrencyResult{Code: c.Code, Rate: c.Rate, Prefix: c.Prefix, Suffix: c.Suffix})
	}
	return res, nil
}

// Convert converts an amount with the catalog's rates.
func (s *catalogService) Convert(_ context.Context, p *gencatalog.ConvertPayload) (*gencatalog.ConvertResult, error) {
	m, rate, err := pricing.Convert(s.catalog(), p.Amount, p.From, p.To)
	if errors.Is(err, pricing.ErrUnknownCurrency) {
		return nil, gencatalog.MakeBadRequest(errors.New("Currency conversion failed: unknown currency."))
	}
	if err != nil {
		return nil, err
	}
	return &gencatalog.ConvertResult{Amount: m.Amount, Currency: m.Currency, Rate: rate}, nil
}

// ListGateways returns the enabled payment gateways; the first is the default.
func (s *catalogService) ListGateways(_ context.Context, p *gencatalog.ListGatewaysPayload) (*gencatalog.ListGatewaysResult, error) {
	cat := s.catalog()
	loc := locale(p.Locale)
	res := &gencatalog.ListGatewaysResult{Gateways: []*gencatalog.GatewayResult{}, Default: cat.DefaultGateway().Module}
	for _, g := range cat.Gateways {
		res.Gateways = append(res.Gateways, &gencatalog.GatewayResult{Module: g.Module, DisplayName: cat.GatewayName(g.Module, loc)})
	}
	return res, nil
}

// Storefront returns the storefront settings and the success page's lists.
func (s *catalogService) Storefront(ctx context.Context, p *gencatalog.StorefrontPayload) (*gencatalog.StorefrontResult, error) {
	cat := s.catalog()
	loc := locale(p.Locale)
	res := &gencatalog.StorefrontResult{
		Name: s.storefont.Name, DefaultCurrency: cat.DefaultCurrency, DashboardURL: s.storefont.DashboardURL,
		SupportURL: s.storefont.SupportURL, Theme: map[string]string{}, Plans: []int{},
		Apps: []*gencatalog.AppResult{}, Cards: []*gencatalog.CardResult{},
	}
	if sf, ok := storefront.FromContext(ctx); ok {
		res.Key, res.Logo, res.DefaultLocale = sf.Key, sf.Logo, strings.ToLower(sf.DefaultLocale)
		// The shop's configured name stays on its own (default) storefront; a partner's shows its own.
		if sf.Name != "" && !sf.Default {
			res.Name = sf.Name
		}
		if sf.DefaultCurrency != "" {
			res.DefaultCurrency = sf.DefaultCurrency
		}
		maps.Copy(res.Theme, sf.Theme)
		res.Plans = append(res.Plans, sf.Plans...)
	}
	sl := cat.Seller
	res.Seller = &gencatalog.SellerResult{Name: strPtr(sl.Name), Address: strPtr(sl.Address), Country: strPtr(sl.Country),
		TaxID: strPtr(sl.TaxID), Email: strPtr(sl.Email), SupportURL: strPtr(sl.SupportURL)}
	res.Consent = &gencatalog.ConsentResult{Checkbox: cat.Consent.Checkbox}
	res.Legal = map[string]string{}
	pageLocale := loc
	if pageLocale == "" {
		pageLocale = res.DefaultLocale
	}
	for _, l := range cat.Legal {
		switch {
		case l.URL != "":
			res.Legal[l.Name] = l.URL
		case len(l.Docs) > 0: // files the shop could read: its rendered page, in the asked locale
			res.Legal[l.Name] = shoplink.Page(s.storefont.PublicURL, pageLocale, "legal/"+l.Name, nil)
		}
	}
	for _, a := range cat.Apps {
		a = a.Localized(loc)
		res.Apps = append(res.Apps, &gencatalog.AppResult{Name: a.Name, Platform: a.Platform, URL: a.URL, Icon: a.Icon})
	}
	for _, c := range cat.Cards {
		c = c.Localized(loc)
		res.Cards = append(res.Cards, &gencatalog.CardResult{Title: c.Title, Text: c.Text, URL: c.URL, Icon: c.Icon})
	}
	return res, nil
}

// Devices answers the device panel: the apps and how each takes a line, the set-top box families.
func (s *catalogService) Devices(_ context.Context, p *gencatalog.DevicesPayload) (*gencatalog.DevicesResult, error) {
	cat := s.catalog()
	loc := locale(p.Locale)
	res := &gencatalog.DevicesResult{Apps: []*gencatalog.SetupAppResult{}, Devices: []*gencatalog.DeviceResult{}}
	for _, a := range cat.Apps {
		a = a.Localized(loc)
		if a.Setup == "" { // a catalog built in code rather than parsed
			a.Setup = catalog.SetupXtream
		}
		res.Apps = append(res.Apps, &gencatalog.SetupAppResult{Name: a.Name, Platform: a.Platform, Setup: a.Setup})
	}
	for _, d := range cat.Devices {
		res.Devices = append(res.Devices, &gencatalog.DeviceResult{Family: d.Family, Name: d.Name, Portal: d.Portal, Command: d.Command})
	}
	return res, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
