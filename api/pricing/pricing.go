// Package pricing computes quotes from a catalog: plan price, extra
// connections, proxy protection, promotions and currency conversion. Every
// function is pure (no I/O, the clock is a parameter) and works in integer
// minor units; exact rationals (math/big.Rat) carry intermediate values and
// round exactly once, to the target currency's own minor units, in
// money.Round (through money.Exchange for conversions).
package pricing

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/country"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/tax"
)

// Errors returned (wrapped) by this package.
var (
	ErrUnknownProduct   = errors.New("pricing: unknown product")
	ErrCycleUnavailable = errors.New("pricing: billing cycle not available for this product")
	ErrUnknownCurrency  = errors.New("pricing: unknown currency")
	// ErrPromoNotFound covers a code that is unknown, not started yet,
	// expired or used up: the buyer cannot tell these apart (spec §5).
	ErrPromoNotFound = errors.New("pricing: promotion not found")
	// ErrPromoNotApplicable: the code exists and is valid, but not for this
	// product ("This Coupon is not available for this product.").
	ErrPromoNotApplicable = errors.New("pricing: promotion not applicable to this product")
	// ErrInvalidExtras: negative or above the option's maximum, or the option
	// is not offered with this product and cycle.
	ErrInvalidExtras = errors.New("pricing: invalid extras")
	// ErrInvalidCountry: a billing country that is not an ISO 3166-1 alpha-2 code.
	ErrInvalidCountry = errors.New("pricing: invalid country")
)

// Request describes what the buyer wants priced.
type Request struct {
	PID int
	// Cycle defaults to the product's first enabled cycle when empty.
	Cycle catalog.Cycle
	// Currency defaults to the catalog's default currency when empty;
	// matched case-insensitively.
	Currency string
	// ExtraConnections is the number of EXTRA connections (option 2) on top
	// of the one every plan includes: 0 means none, negative is invalid. A
	// storefront holding the spec's connection count converts it with
	// ExtraFromCount.
	ExtraConnections int
	ProxyProtection  bool
	PromoCode        string
	// PromoUses is how many times the promotion has been used so far, as
	// counted by the store; it is checked against the promotion's maxUses.
	PromoUses int
	// Storefront is the storefront the buyer shops in; nil for none (the
	// shop's own range). A plan it does not sell is ErrUnknownProduct.
	Storefront *catalog.Storefront
	// BillingCountry is the country of the buyer's billing address (ISO 3166-1 alpha-2, any
	// case); "" takes IPCountry. It picks the catalog's tax rate; without a tax block it is
	// only checked.
	BillingCountry string
	// IPCountry is the country of the buyer's address (package geo), the default billing country
	// and the second piece of evidence; "" when it is not known.
	IPCountry string
	// Untaxed prices a sale the tax block does not apply to (reseller credit plans, sold to
	// businesses): no tax, the net is the total, as without a tax block.
	Untaxed bool
}

// Sold refuses a pid the request's storefront does not sell, with
// ErrUnknownProduct: there it is as unknown as a missing one.
func (r Request) Sold() error {
	if r.Storefront != nil && !r.Storefront.Sells(r.PID) {
		return fmt.Errorf("pid %d: not sold by storefront %s: %w", r.PID, r.Storefront.Key, ErrUnknownProduct)
	}
	return nil
}

// Line keys.
const (
	LinePlan             = "plan"
	LineExtraConnections = "extraConnections"
	LineProxyProtection  = "proxyProtection"
)

// Line is one priced item of a quote. Key is stable (for translations),
// Label is English.
type Line struct {
	Key    string      `json:"key"`
	Label  string      `json:"label"`
	Amount money.Money `json:"amount"`
}

// Discount is the promotion applied to a quote; Amount is what it takes off
// (positive, never more than the subtotal).
type Discount struct {
	Code   string      `json:"code"`
	Type   string      `json:"type"`
	Value  string      `json:"value"`
	Amount money.Money `json:"amount"`
}

// Quote is the server's price for a Request.
type Quote struct {
	PID              int           `json:"pid"`
	Cycle            catalog.Cycle `json:"billingCycle"`
	Currency         string        `json:"currency"`
	Lines            []Line        `json:"lines"`
	Subtotal         money.Money   `json:"subtotal"`
	Discount         *Discount     `json:"discount"`
	Total            money.Money   `json:"total"`
	ExtraConnections int           `json:"extraConnections"`
	ProxyProtection  bool          `json:"proxyProtection"`
	// Recurring is what renews after the period this quote pays; nil for a one-time plan, a free
	// trial (it ends, nothing is charged) and a reseller credit plan. Kept with the order's quote.
	Recurring *Recurring `json:"recurring,omitempty"`
	// Net is Total without tax: Total itself when the catalog has no tax block. Zero in the
	// quotes of orders placed before it was kept (NetAmount answers Total for them).
	Net money.Money `json:"net"`
	// Tax is the tax in Total, at the rate of the buyer's country; nil when the catalog has no
	// tax block.
	Tax *Tax `json:"tax,omitempty"`
}

// NetAmount is q's net: Total for a quote kept before Net was (it had no tax).
func (q Quote) NetAmount() money.Money {
	if q.Net.Currency == "" {
		return q.Total
	}
	return q.Net
}

// Tax is the tax of a quote, computed once on its total after the discount (package tax):
// Country is the billing country it was charged for (the buyer's, else the IP's, else the
// seller's; "" when none is known), Rate the catalog's rate there ("0" where it names none),
// Amount the tax in minor units of Currency. IPCountry is the address's country, kept as
// evidence ("" unknown); Included says whether the catalog's prices included the tax.
type Tax struct {
	Country   string `json:"country"`
	Rate      string `json:"rate"`
	Amount    int64  `json:"amount"`
	Currency  string `json:"currency"`
	Included  bool   `json:"pricesIncludeTax"`
	IPCountry string `json:"ipCountry"`
}

// Recurring is the price of each next period, as the renewals will bill it (renewal.RecurringQuote):
// the plan and extras at today's catalog prices, the promotion again only when it is recurring.
// Amount is in minor units of Currency.
type Recurring struct {
	Amount   int64         `json:"amount"`
	Currency string        `json:"currency"`
	Cycle    catalog.Cycle `json:"billingCycle"`
}

// ExtraFromCount turns the storefront's connection count into the extra
// connections quantity the spec sends (§9): a count of 1 or less is sent as
// 0, any larger count is sent unchanged. It does not subtract the included
// connection because the original storefront did not; callers that hold a
// total connection count and want "total − 1" must do that themselves.
func ExtraFromCount(count int) int {
	if count <= 1 {
		return 0
	}
	return count
}

func currency(c *catalog.Catalog, code string) (catalog.Currency, error) {
	if code == "" {
		code = c.DefaultCurrency
	}
	cur, ok := c.Currency(code)
	if !ok {
		return catalog.Currency{}, fmt.Errorf("%w: %q", ErrUnknownCurrency, code)
	}
	return cur, nil
}

// exchange converts minor units of from into minor units of to at the
// catalog's rates (amount / rate_from × rate_to, each side in its own minor
// units), rounded once by money.Exchange.
func exchange(amount int64, from, to catalog.Currency) int64 {
	return money.Exchange(amount, from.Code, rate(from, to), to.Code)
}

// rate is units of to per unit of from.
func rate(from, to catalog.Currency) *big.Rat {
	return new(big.Rat).Quo(to.RateValue(), from.RateValue())
}

// Convert converts amount (minor units of from) into to, and returns the
// effective rate (rate_to / rate_from) as a decimal string with at most 6
// decimals ("1.08", "0.796296").
func Convert(c *catalog.Catalog, amount int64, from, to string) (money.Money, string, error) {
	f, err := currency(c, from)
	if err != nil {
		return money.Money{}, "", fmt.Errorf("convert: %w", err)
	}
	t, err := currency(c, to)
	if err != nil {
		return money.Money{}, "", fmt.Errorf("convert: %w", err)
	}
	return money.Money{Amount: exchange(amount, f, t), Currency: t.Code}, decimal(rate(f, t)), nil
}

// decimal renders a rate with up to 6 decimals, trailing zeros trimmed.
func decimal(r *big.Rat) string {
	s := r.FloatString(6)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// PriceIn returns p in currency: the explicit price when the catalog gives
// one, otherwise the default-currency price converted by rate.
func PriceIn(c *catalog.Catalog, p catalog.Price, currencyCode string) (int64, error) {
	cur, err := currency(c, currencyCode)
	if err != nil {
		return 0, fmt.Errorf("price: %w", err)
	}
	if a, ok := p[cur.Code]; ok {
		return a, nil
	}
	base, ok := p[c.DefaultCurrency]
	if !ok {
		return 0, fmt.Errorf("price: no %s price to convert from: %w", c.DefaultCurrency, ErrCycleUnavailable)
	}
	return exchange(base, c.Default(), cur), nil
}

// CheckPromotion finds code and checks it against spec §5 at time now:
// started, not expired, not used up (uses so far < maxUses unless 0), then
// applicable to pid. Dates are whole UTC days, both inclusive: a promotion
// starting 2025-01-01 and expiring 2025-01-31 is valid from 2025-01-01T00:00Z
// to 2025-01-31T23:59:59Z. A pid of 0 or less skips the product check.
func CheckPromotion(c *catalog.Catalog, code string, pid int, uses int, now time.Time) (catalog.Promotion, error) {
	code = strings.TrimSpace(code)
	p, ok := c.Promotion(code)
	if !ok {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: unknown: %w", code, ErrPromoNotFound)
	}
	if p.Disabled {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: disabled: %w", p.Code, ErrPromoNotFound)
	}
	today := now.UTC().Format(time.DateOnly)
	// YYYY-MM-DD strings compare in date order.
	if p.StartDate != catalog.NoDate && today < p.StartDate {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: starts %s: %w", p.Code, p.StartDate, ErrPromoNotFound)
	}
	if p.ExpirationDate != catalog.NoDate && today > p.ExpirationDate {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: expired %s: %w", p.Code, p.ExpirationDate, ErrPromoNotFound)
	}
	if p.MaxUses > 0 && uses >= p.MaxUses {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: used up: %w", p.Code, ErrPromoNotFound)
	}
	if pid > 0 && !slices.Contains(p.AppliesTo, pid) {
		return catalog.Promotion{}, fmt.Errorf("promotion %q: pid %d: %w", p.Code, pid, ErrPromoNotApplicable)
	}
	return p, nil
}

// QuoteFor prices r against the catalog at time now (for promotion dates).
// A trial product quotes 0 and takes no extras.
func QuoteFor(c *catalog.Catalog, r Request, now time.Time) (Quote, error) {
	if err := r.Sold(); err != nil {
		return Quote{}, fmt.Errorf("quote: %w", err)
	}
	prod, ok := c.Product(r.PID)
	if !ok {
		return Quote{}, fmt.Errorf("quote: pid %d: %w", r.PID, ErrUnknownProduct)
	}
	cur, err := currency(c, r.Currency)
	if err != nil {
		return Quote{}, fmt.Errorf("quote: %w", err)
	}
	cycle := r.Cycle
	if cycle == "" {
		if cycles := prod.EnabledCycles(); len(cycles) > 0 {
			cycle = cycles[0]
		}
	}
	price, ok := prod.Cycles[cycle]
	if !ok {
		return Quote{}, fmt.Errorf("quote: pid %d cycle %q: %w", r.PID, cycle, ErrCycleUnavailable)
	}
	q := Quote{PID: prod.PID, Cycle: cycle, Currency: cur.Code,
		ExtraConnections: r.ExtraConnections, ProxyProtection: r.ProxyProtection}
	inCur := func(a int64) money.Money { return money.Money{Amount: a, Currency: cur.Code} }

	planAmount, err := PriceIn(c, price, cur.Code)
	if err != nil {
		return Quote{}, fmt.Errorf("quote: %w", err)
	}
	if prod.Trial {
		planAmount = 0
	}
	q.Lines = append(q.Lines, Line{Key: LinePlan, Label: prod.Name + " — " + cycle.Label(), Amount: inCur(planAmount)})

	if r.ExtraConnections < 0 {
		return Quote{}, fmt.Errorf("quote: %d extra connections: %w", r.ExtraConnections, ErrInvalidExtras)
	}
	if r.ExtraConnections > 0 {
		unit, err := optionPrice(c, prod, catalog.ExtraConnectionsOption, cycle, cur.Code)
		if err != nil {
			return Quote{}, fmt.Errorf("quote: extra connections: %w", err)
		}
		o, _ := prod.Option(catalog.ExtraConnectionsOption)
		if r.ExtraConnections > o.MaxQty || r.ExtraConnections < o.MinQty {
			return Quote{}, fmt.Errorf("quote: %d extra connections, allowed %d to %d: %w",
				r.ExtraConnections, o.MinQty, o.MaxQty, ErrInvalidExtras)
		}
		label := fmt.Sprintf("%d extra connections", r.ExtraConnections)
		if r.ExtraConnections == 1 {
			label = "1 extra connection"
		}
		q.Lines = append(q.Lines, Line{Key: LineExtraConnections, Label: label, Amount: inCur(unit * int64(r.ExtraConnections))})
	}
	if r.ProxyProtection {
		a, err := optionPrice(c, prod, catalog.ProxyProtectionOption, cycle, cur.Code)
		if err != nil {
			return Quote{}, fmt.Errorf("quote: proxy protection: %w", err)
		}
		q.Lines = append(q.Lines, Line{Key: LineProxyProtection, Label: "Proxy protection", Amount: inCur(a)})
	}

	var subtotal int64
	for _, l := range q.Lines {
		subtotal += l.Amount.Amount
	}
	q.Subtotal = inCur(subtotal)
	q.Total = inCur(subtotal)
	// A one-time promotion takes off the first period only: the next ones cost the subtotal.
	recurring := subtotal

	if strings.TrimSpace(r.PromoCode) != "" {
		p, err := CheckPromotion(c, r.PromoCode, prod.PID, r.PromoUses, now)
		if err != nil {
			return Quote{}, fmt.Errorf("quote: %w", err)
		}
		off := discount(c, p, subtotal, cur)
		q.Discount = &Discount{Code: p.Code, Type: p.Type, Value: p.Value, Amount: inCur(off)}
		q.Total = inCur(subtotal - off)
		if p.Recurring {
			recurring = q.Total.Amount
		}
	}
	if !prod.Trial && prod.Group != catalog.GroupReseller && cycle.Months() > 0 {
		q.Recurring = &Recurring{Amount: recurring, Currency: cur.Code, Cycle: cycle}
	}
	if err := applyTax(c, r, &q); err != nil {
		return Quote{}, fmt.Errorf("quote: %w", err)
	}
	return q, nil
}

// TaxCountry is the country r is taxed in: its billing country, else its IP's, else the
// seller's (catalog seller.country); "" when none is known. A billing country that is not an
// ISO 3166-1 alpha-2 code is ErrInvalidCountry.
func TaxCountry(c *catalog.Catalog, r Request) (string, error) {
	if r.BillingCountry != "" {
		code, ok := country.Normalize(r.BillingCountry)
		if !ok {
			return "", fmt.Errorf("%w: %q", ErrInvalidCountry, r.BillingCountry)
		}
		return code, nil
	}
	if code, ok := country.Normalize(r.IPCountry); ok {
		return code, nil
	}
	if code, ok := country.Normalize(c.Seller.Country); ok {
		return code, nil
	}
	return "", nil
}

// Taxed taxes a quote priced outside QuoteFor (an upsell, a plan change) as QuoteFor taxes a
// first order: q's Total at catalog prices (tax included or not, as the catalog says), at the
// rate of r's country (BillingCountry, IPCountry: the buyer's evidence), setting its Net and Tax.
func Taxed(c *catalog.Catalog, r Request, q *Quote) error { return applyTax(c, r, q) }

// TaxedGross taxes a quote whose Total already includes the tax whatever the catalog says (a
// plan change's proration of two taxed periods): its tax is taken out at the rate of r's country;
// when the catalog's prices exclude tax, its lines and subtotal become net so that, as on a first
// order, the lines plus the tax make the total.
func TaxedGross(c *catalog.Catalog, r Request, q *Quote) error {
	where, err := TaxCountry(c, r)
	if err != nil {
		return err
	}
	q.Net = q.Total
	if c.Tax == nil || r.Untaxed {
		return nil
	}
	rate := c.Tax.RateFor(where)
	split, err := tax.Apply(q.Total.Amount, rate, true)
	if err != nil {
		return err
	}
	if !c.Tax.PricesIncludeTax && len(q.Lines) == 1 && q.Discount == nil {
		q.Lines[0].Amount.Amount = split.Net
		q.Subtotal.Amount = split.Net
	}
	ip, _ := country.Normalize(r.IPCountry)
	if !country.Valid(ip) {
		ip = ""
	}
	q.Net = money.Money{Amount: split.Net, Currency: q.Currency}
	q.Tax = &Tax{Country: where, Rate: rate, Amount: split.Tax, Currency: q.Currency,
		Included: c.Tax.PricesIncludeTax || len(q.Lines) != 1 || q.Discount != nil, IPCountry: ip}
	return nil
}

// applyTax splits q's total at the rate of r's country when the catalog has a tax block (prices
// with tax: the total stays, its tax is taken out; without: the tax is added on top); without
// one, the net is the total and there is no tax.
func applyTax(c *catalog.Catalog, r Request, q *Quote) error {
	where, err := TaxCountry(c, r)
	if err != nil {
		return err
	}
	q.Net = q.Total
	if c.Tax == nil || r.Untaxed {
		return nil
	}
	rate := c.Tax.RateFor(where)
	split, err := tax.Apply(q.Total.Amount, rate, c.Tax.PricesIncludeTax)
	if err != nil {
		return err
	}
	ip, _ := country.Normalize(r.IPCountry)
	if !country.Valid(ip) {
		ip = ""
	}
	if q.Recurring != nil && !c.Tax.PricesIncludeTax {
		// What renews is told tax included, as the renewal will charge it (in the same country).
		next, err := tax.Apply(q.Recurring.Amount, rate, false)
		if err != nil {
			return err
		}
		q.Recurring.Amount = next.Gross
	}
	q.Net = money.Money{Amount: split.Net, Currency: q.Currency}
	q.Total = money.Money{Amount: split.Gross, Currency: q.Currency}
	q.Tax = &Tax{Country: where, Rate: rate, Amount: split.Tax, Currency: q.Currency, Included: c.Tax.PricesIncludeTax, IPCountry: ip}
	return nil
}

func optionPrice(c *catalog.Catalog, prod catalog.Product, id int, cycle catalog.Cycle, cur string) (int64, error) {
	o, ok := prod.Option(id)
	if !ok {
		return 0, fmt.Errorf("option %d not offered with pid %d: %w", id, prod.PID, ErrInvalidExtras)
	}
	p, ok := o.Pricing[cycle]
	if !ok {
		return 0, fmt.Errorf("option %d not offered with cycle %s: %w", id, cycle, ErrInvalidExtras)
	}
	return PriceIn(c, p, cur)
}

// discount is what promotion p takes off subtotal (minor units of cur):
// a percentage of the subtotal, or the fixed default-currency value
// converted to cur; never more than the subtotal, so totals stay ≥ 0.
func discount(c *catalog.Catalog, p catalog.Promotion, subtotal int64, cur catalog.Currency) int64 {
	var off int64
	switch p.Type {
	case catalog.PromoPercentage:
		pct, _ := new(big.Rat).SetString(p.Value)
		r := new(big.Rat).SetInt64(subtotal)
		r.Mul(r, pct)
		r.Quo(r, big.NewRat(100, 1))
		off = money.Round(r)
	case catalog.PromoFixed:
		// Parse validated the value in the default currency's decimals.
		v, _ := money.Parse(p.Value, c.DefaultCurrency)
		off = exchange(v, c.Default(), cur)
	}
	return min(max(off, 0), subtotal)
}
