package whmcs

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
)

// Answers are the WHMCS answers a catalog is made of.
type Answers struct {
	Currencies []Currency
	Plans      []Product // GetProducts of the plans group, in WHMCS's order
	Resellers  []Product // GetProducts of the reseller group
	Promotions []Promotion
}

// Options say which WHMCS config options are the storefront's extras (catalog option 2) and
// proxy protection (catalog option 4); 0 is none.
type Options struct {
	ExtraOption, ProxyOption int
}

// Sold is what the storefront sells, made from WHMCS: the parts of a catalog.Catalog WHMCS owns.
type Sold struct {
	DefaultCurrency string
	Currencies      []catalog.Currency
	Products        []catalog.Product
	Promotions      []catalog.Promotion
}

// Convert makes the storefront's currencies, products and promotions from WHMCS's answers.
// What the catalog cannot sell as WHMCS would price it is left out, each with a note saying
// why (a setup fee, an unknown currency, a promotion type Streamcart does not apply…): the
// storefront never shows a price WHMCS's invoice would not match. An error is a catalog that
// cannot be made at all (no default currency, no plan).
func Convert(a Answers, opts Options) (Sold, []string, error) {
	var s Sold
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	one := big.NewRat(1, 1)
	for _, c := range a.Currencies {
		code := strings.ToUpper(strings.TrimSpace(c.Code))
		r, ok := new(big.Rat).SetString(string(c.Rate))
		switch {
		case !money.Known(code):
			note("currency %q: not an ISO 4217 code, left out", c.Code)
			continue
		case !ok || r.Sign() <= 0:
			note("currency %s: rate %q is not a positive decimal, left out", code, c.Rate)
			continue
		}
		if r.Cmp(one) == 0 && s.DefaultCurrency == "" {
			s.DefaultCurrency = code
		}
		s.Currencies = append(s.Currencies, catalog.Currency{Code: code, Rate: r.FloatString(rateDigits(string(c.Rate))),
			Prefix: c.Prefix, Suffix: c.Suffix})
	}
	if s.DefaultCurrency == "" {
		return Sold{}, notes, fmt.Errorf("whmcs: catalog: no currency at rate 1 (WHMCS's default currency) among %d", len(a.Currencies))
	}
	for _, group := range []struct {
		name     string
		products []Product
	}{{catalog.GroupPlan, a.Plans}, {catalog.GroupReseller, a.Resellers}} {
		for _, p := range group.products {
			if pr, ok := s.product(p, group.name, opts, note); ok {
				s.Products = append(s.Products, pr)
			}
		}
	}
	if !slices.ContainsFunc(s.Products, func(p catalog.Product) bool { return p.Group == catalog.GroupPlan }) {
		return Sold{}, notes, fmt.Errorf("whmcs: catalog: no plan can be sold (of %d products in the plans group)", len(a.Plans))
	}
	for _, p := range a.Promotions {
		if pr, ok := s.promotion(p, note); ok {
			s.Promotions = append(s.Promotions, pr)
		}
	}
	return s, notes, nil
}

// rateDigits keeps a rate's written decimals ("1.08000" → 5).
func rateDigits(s string) int {
	_, frac, _ := strings.Cut(s, ".")
	return len(frac)
}

// prices converts one cycle's prices (field in each currency's pricing): every currency where
// it is sold; ok is false when the default currency does not sell it. A setup fee leaves the
// cycle out (Streamcart's quote has none) with a note.
func (s *Sold) prices(pricing map[string]Pricing, cycle, field, what string, note func(string, ...any)) (catalog.Price, bool) {
	out := catalog.Price{}
	for _, cur := range s.Currencies {
		pc, ok := pricing[cur.Code]
		if !ok {
			continue
		}
		p := pc.Cycles[field]
		if !p.Sold {
			continue
		}
		if fee := pc.SetupFee[field]; fee != "" {
			if a, err := money.Parse(string(fee), cur.Code); err != nil || a != 0 {
				note("%s: %s has a setup fee of %s %s, which Streamcart's quote does not add: cycle left out", what, cycle, fee, cur.Code)
				return nil, false
			}
		}
		a, err := money.Parse(string(p.Amount), cur.Code)
		if err != nil {
			note("%s: %s price %q %s: %v: cycle left out", what, cycle, p.Amount, cur.Code, err)
			return nil, false
		}
		out[cur.Code] = a
	}
	_, ok := out[s.DefaultCurrency]
	return out, ok
}

func (s *Sold) product(p Product, group string, opts Options, note func(string, ...any)) (catalog.Product, bool) {
	what := fmt.Sprintf("product %d (%s)", p.PID, p.Name)
	pr := catalog.Product{PID: int(p.PID), Group: group, Name: p.Name, Description: p.Description, Cycles: map[catalog.Cycle]catalog.Price{}}
	switch p.PayType {
	case "free":
		if group == catalog.GroupReseller {
			note("%s: a free reseller plan cannot be sold: left out", what)
			return pr, false
		}
		// A free product is sold as the storefront's free trial (one per person, Streamcart's rules).
		pr.Trial = true
		zero := catalog.Price{}
		for _, c := range s.Currencies {
			zero[c.Code] = 0
		}
		pr.Cycles[catalog.OneTime] = zero
	case "onetime":
		if price, ok := s.prices(p.Pricing, string(catalog.OneTime), "monthly", what, note); ok {
			pr.Cycles[catalog.OneTime] = price
		}
	case "recurring":
		for _, c := range Cycles {
			if price, ok := s.prices(p.Pricing, c.Name, c.Name, what, note); ok {
				pr.Cycles[catalog.Cycle(c.Name)] = price
			}
		}
	default:
		note("%s: pay type %q unknown: left out", what, p.PayType)
		return pr, false
	}
	if len(pr.Cycles) == 0 {
		note("%s: no cycle sold in %s: left out", what, s.DefaultCurrency)
		return pr, false
	}
	if group == catalog.GroupReseller {
		if _, ok := pr.Cycles[catalog.Monthly]; !ok {
			note("%s: a reseller plan needs a monthly price: left out", what)
			return pr, false
		}
	}
	for _, o := range p.ConfigOptions {
		if pr.Trial {
			break // a free trial takes no extras
		}
		if co, ok := s.option(p, o, pr, opts, note); ok {
			pr.ConfigOptions = append(pr.ConfigOptions, co)
		}
	}
	for _, f := range p.CustomFields {
		pr.CustomFields = append(pr.CustomFields, catalog.CustomField{ID: int(f.ID), Name: f.Name, Type: "text",
			Description: f.Description, Required: bool(f.Required)})
	}
	return pr, true
}

// option converts the extras or proxy option of a product; any other option is not sold
// through the storefront (WHMCS applies its first choice).
func (s *Sold) option(p Product, o ConfigOption, pr catalog.Product, opts Options, note func(string, ...any)) (catalog.ConfigOption, bool) {
	what := fmt.Sprintf("product %d config option %d (%s)", p.PID, o.ID, o.Name)
	var co catalog.ConfigOption
	switch {
	case opts.ExtraOption > 0 && int(o.ID) == opts.ExtraOption:
		if o.Type != OptionQuantity {
			note("%s: the extra-connections option must be a quantity (type 4), not type %d: left out", what, o.Type)
			return co, false
		}
		if o.MaxQty < 1 || o.MinQty < 0 || o.MaxQty < o.MinQty {
			note("%s: quantities %d to %d: left out", what, o.MinQty, o.MaxQty)
			return co, false
		}
		co = catalog.ConfigOption{ID: catalog.ExtraConnectionsOption, Name: o.Name, Type: catalog.OptionQuantity, MinQty: int(o.MinQty), MaxQty: int(o.MaxQty)}
	case opts.ProxyOption > 0 && int(o.ID) == opts.ProxyOption:
		if o.Type != OptionYesNo {
			note("%s: the proxy option must be a yes/no (type 3), not type %d: left out", what, o.Type)
			return co, false
		}
		co = catalog.ConfigOption{ID: catalog.ProxyProtectionOption, Name: o.Name, Type: catalog.OptionYesNo, MaxQty: 1}
	default:
		note("%s: not sold through the storefront (only the extra-connections and proxy options are): WHMCS applies its default", what)
		return co, false
	}
	if len(o.Options) == 0 {
		note("%s: no choice to price: left out", what)
		return co, false
	}
	co.Pricing = map[catalog.Cycle]catalog.Price{}
	for cycle := range pr.Cycles {
		field := string(cycle)
		if cycle == catalog.OneTime {
			field = "monthly"
		}
		if price, ok := s.prices(o.Options[0].Pricing, string(cycle), field, what, note); ok {
			co.Pricing[cycle] = price
		}
	}
	if len(co.Pricing) == 0 {
		note("%s: priced on none of the product's cycles: left out", what)
		return co, false
	}
	return co, true
}

func (s *Sold) promotion(p Promotion, note func(string, ...any)) (catalog.Promotion, bool) {
	code, ok := catalog.CanonicalPromoCode(p.Code)
	what := fmt.Sprintf("promotion %q", p.Code)
	if !ok {
		note("%s: a code of 1 to 32 letters, digits, - or _ is what the storefront takes: left out", what)
		return catalog.Promotion{}, false
	}
	pr := catalog.Promotion{Code: code, Recurring: bool(p.Recurring), StartDate: day(p.StartDate), ExpirationDate: day(p.ExpirationDate)}
	switch p.Type {
	case catalog.PromoPercentage:
		v, err := money.ParseDecimal(string(p.Value), 2)
		if err != nil || v <= 0 || v > 100_00 {
			note("%s: percentage %q: left out", what, p.Value)
			return pr, false
		}
	case catalog.PromoFixed:
		d, _ := money.Digits(s.DefaultCurrency)
		if v, err := money.ParseDecimal(string(p.Value), d); err != nil || v <= 0 {
			note("%s: amount %q: left out", what, p.Value)
			return pr, false
		}
	default:
		note("%s: type %q is not one Streamcart applies (Percentage, Fixed Amount): left out", what, p.Type)
		return pr, false
	}
	pr.Type, pr.Value = p.Type, strings.TrimSpace(string(p.Value))
	for _, pid := range p.AppliesTo {
		if slices.ContainsFunc(s.Products, func(x catalog.Product) bool { return x.PID == pid }) {
			pr.AppliesTo = append(pr.AppliesTo, pid)
		}
	}
	if len(pr.AppliesTo) == 0 {
		note("%s: applies to no product sold here: left out", what)
		return pr, false
	}
	// WHMCS counts the uses (AddOrder adds one): a code used up is off; otherwise WHMCS's own
	// count decides at order time, so no local limit is kept on top of it.
	if p.MaxUses > 0 && p.Uses >= p.MaxUses {
		pr.Disabled = true
	}
	if p.Cycles != "" || len(p.Requires) > 0 || p.NewSignups || p.ExistingClient || p.OncePerClient || p.ApplyOnce || p.RecurFor > 0 {
		note("%s: WHMCS also checks rules the storefront's quote does not (cycles, requires, new or existing clients, once per client, apply once, recur for): an order it refuses is answered price_changed", what)
	}
	return pr, true
}

// WithPromotion is cat with code's promotion as WHMCS answered it just now (GetPromotions at
// apply time, live) in place of the one read with the catalog: added when WHMCS has it since,
// left out when WHMCS no longer has it or the storefront cannot apply it, off when used up.
func WithPromotion(cat *catalog.Catalog, code string, live []Promotion) *catalog.Catalog {
	canon, ok := catalog.CanonicalPromoCode(code)
	if !ok {
		return cat
	}
	c := *cat
	c.Promotions = slices.DeleteFunc(slices.Clone(cat.Promotions), func(p catalog.Promotion) bool { return p.Code == canon })
	sold := Sold{DefaultCurrency: cat.DefaultCurrency, Products: cat.Products}
	for _, p := range live {
		if got, ok := catalog.CanonicalPromoCode(p.Code); ok && got == canon {
			if pr, ok := sold.promotion(p, func(string, ...any) {}); ok {
				c.Promotions = append(c.Promotions, pr)
			}
			break
		}
	}
	return &c
}

func day(d Date) string {
	if d.IsZero() {
		return catalog.NoDate
	}
	return d.Format(time.DateOnly)
}

// Merge is the catalog in force in WHMCS mode: the catalog file's own settings (storefronts,
// theme, apps, cards, gateways, legal pages, consent, numbering) with what WHMCS sells. The
// file still dresses a product WHMCS sells under the same pid: features, badges, guarantee,
// bouquets, hidden, reseller credits and translations; its options' and custom fields'
// translations apply to the options (by catalog id) and fields (by name) WHMCS sells.
//
// The file's tax block is left out: in WHMCS mode WHMCS owns tax (its invoice is the price the
// buyer pays and its tax rules decide), so Streamcart adds no tax of its own on top of WHMCS's
// prices nor carves any out of them (docs/whmcs.md, Tax).
func Merge(file *catalog.Catalog, s Sold) *catalog.Catalog {
	c := *file
	c.DefaultCurrency, c.Currencies, c.Promotions = s.DefaultCurrency, s.Currencies, s.Promotions
	c.Tax = nil
	c.Products = make([]catalog.Product, 0, len(s.Products))
	for _, p := range s.Products {
		// The slices are Sold's, shared with the cache: dressed on copies.
		p.ConfigOptions, p.CustomFields = slices.Clone(p.ConfigOptions), slices.Clone(p.CustomFields)
		if dress, ok := file.Product(p.PID); ok {
			p.Features, p.SaveBadge, p.SoldBadge, p.Guarantee = dress.Features, dress.SaveBadge, dress.SoldBadge, dress.Guarantee
			p.Bouquets, p.Hidden, p.ResellerCredits, p.I18n = dress.Bouquets, dress.Hidden, dress.ResellerCredits, dress.I18n
			for i, o := range p.ConfigOptions {
				if fo, ok := dress.Option(o.ID); ok {
					p.ConfigOptions[i].I18n = fo.I18n
				}
			}
			for i, f := range p.CustomFields {
				for _, ff := range dress.CustomFields {
					if strings.EqualFold(ff.Name, f.Name) {
						p.CustomFields[i].I18n = ff.I18n
						p.CustomFields[i].Type = ff.Type
					}
				}
			}
		}
		c.Products = append(c.Products, p)
	}
	return &c
}

func sameSold(a, b Sold) bool { return reflect.DeepEqual(a, b) }
