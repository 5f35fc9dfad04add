// Package catalog reads, validates and queries the seller's catalog file:
// currencies, products with per-cycle prices, config options, custom fields,
// promotions, payment gateways and the success page's apps and cards.
//
// The file is YAML (JSON is accepted too, being a subset). Parse checks the
// whole file and reports every problem with its line number, so a seller
// fixes a catalog in one pass instead of one error at a time.
package catalog

import (
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// Cycle is a WHMCS billing cycle.
type Cycle string

// The billing cycles, in display order.
const (
	Monthly      Cycle = "monthly"
	Quarterly    Cycle = "quarterly"
	Semiannually Cycle = "semiannually"
	Annually     Cycle = "annually"
	Biennially   Cycle = "biennially"
	Triennially  Cycle = "triennially"
	OneTime      Cycle = "onetime"
)

// Cycles lists every billing cycle in display order.
var Cycles = []Cycle{Monthly, Quarterly, Semiannually, Annually, Biennially, Triennially, OneTime}

// Valid reports whether c is one of Cycles.
func (c Cycle) Valid() bool { return slices.Contains(Cycles, c) }

// Label is the English display name of the cycle ("Semi-Annually", "One Time").
func (c Cycle) Label() string {
	switch c {
	case Monthly:
		return "Monthly"
	case Quarterly:
		return "Quarterly"
	case Semiannually:
		return "Semi-Annually"
	case Annually:
		return "Annually"
	case Biennially:
		return "Biennially"
	case Triennially:
		return "Triennially"
	case OneTime:
		return "One Time"
	}
	return string(c)
}

// Months is the length of the cycle in months; 0 for onetime.
func (c Cycle) Months() int {
	switch c {
	case Monthly:
		return 1
	case Quarterly:
		return 3
	case Semiannually:
		return 6
	case Annually:
		return 12
	case Biennially:
		return 24
	case Triennially:
		return 36
	}
	return 0
}

// Currency is a selling currency. Rate is a decimal relative to the default
// currency, whose rate is "1".
type Currency struct {
	Code   string `json:"code"`
	Rate   string `json:"rate"`
	Prefix string `json:"prefix"`
	Suffix string `json:"suffix"`
}

// RateValue returns Rate as an exact rational (validated by Parse).
func (c Currency) RateValue() *big.Rat {
	r, ok := new(big.Rat).SetString(c.Rate)
	if !ok {
		return new(big.Rat)
	}
	return r
}

// Price maps a currency code to an amount in minor units. Only explicit
// prices appear; a missing currency is converted from the default one, whose
// price is always present.
type Price map[string]int64

// Config option ids the storefront relies on (spec §9).
const (
	ExtraConnectionsOption = 2
	ProxyProtectionOption  = 4
)

// Option types.
const (
	OptionQuantity = "quantity"
	OptionYesNo    = "yesno"
)

// ConfigOption is an add-on sold with a product. Pricing is per unit and per
// cycle; a cycle without pricing means the option is not offered with it.
type ConfigOption struct {
	ID      int
	Name    string
	Type    string // "quantity" | "yesno"
	MinQty  int
	MaxQty  int
	Pricing map[Cycle]Price
	I18n    map[string]OptionText // by locale; see Localized
}

// CustomField is a per-product form field (WHMCS custom field).
type CustomField struct {
	ID          int
	Name        string
	Type        string // text | password | textarea | dropdown | tickbox | link
	Description string
	Required    bool
	I18n        map[string]FieldText // by locale; see Localized
}

// Product groups.
const (
	GroupPlan     = "plan"
	GroupReseller = "reseller"
)

// Product is a plan or a reseller credit plan.
type Product struct {
	PID           int
	Group         string // "plan" | "reseller"
	Name          string
	Description   string
	Features      []string
	Trial         bool
	Cycles        map[Cycle]Price // enabled cycles only
	SaveBadge     string
	SoldBadge     string
	Guarantee     string
	ConfigOptions []ConfigOption
	CustomFields  []CustomField
	Bouquets      []int
	Hidden        bool
	// ResellerCredits is the number of credits a reseller plan grants.
	ResellerCredits int
	// Credits is what a line of the plan costs on the panel in reseller credits, per billing
	// cycle (catalog `credits: {monthly: 1, quarterly: 3}` on a plan); a cycle not listed costs 0.
	Credits map[Cycle]int
	I18n    map[string]ProductText // by locale; see Localized
}

// EnabledCycles returns the product's cycles in Cycles order.
func (p Product) EnabledCycles() []Cycle {
	var out []Cycle
	for _, c := range Cycles {
		if _, ok := p.Cycles[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// CreditCost is what a line of the product bought for cycle costs on the panel in credits.
func (p Product) CreditCost(cycle Cycle) int { return p.Credits[cycle] }

// MaxCreditCost is the dearest of the product's cycles in credits: a balance below it cannot
// sell every cycle of the plan.
func (p Product) MaxCreditCost() int {
	m := 0
	for _, c := range p.Credits {
		m = max(m, c)
	}
	return m
}

// Option returns the config option with the given id, if the product has it.
func (p Product) Option(id int) (ConfigOption, bool) {
	for _, o := range p.ConfigOptions {
		if o.ID == id {
			return o, true
		}
	}
	return ConfigOption{}, false
}

// Promotion types.
const (
	PromoPercentage = "Percentage"
	PromoFixed      = "Fixed Amount"
)

// NoDate is the WHMCS "no limit" date.
const NoDate = "0000-00-00"

// Promotion is a promo code. Value is a decimal: a percent for Percentage, an
// amount in the default currency for Fixed Amount.
type Promotion struct {
	Code           string
	Type           string // "Percentage" | "Fixed Amount"
	Value          string
	AppliesTo      []int
	StartDate      string // YYYY-MM-DD, "0000-00-00" = none
	ExpirationDate string // YYYY-MM-DD, "0000-00-00" = none
	MaxUses        int    // 0 = unlimited
	// Recurring keeps the discount on every renewal of a service bought with the code, as judged
	// on the day of that purchase; false: the first period only.
	Recurring bool
	// Disabled switches the code off (an operator's choice in the console) without losing it.
	Disabled bool
}

// Gateway is an enabled payment gateway.
type Gateway struct {
	Module      string `json:"module"`
	DisplayName string `json:"displayName"`
}

// App is an app-download button on the success page.
type App struct {
	Name     string `json:"name"`
	Platform string `json:"platform"`
	URL      string `json:"url"`
	Icon     string `json:"icon"`
	// Setup is how the app takes a line (the widget's steps for it): SetupXtream (the default) or
	// SetupM3U.
	Setup string `json:"setup"`
	// I18n holds the translations by locale; see Localized.
	I18n map[string]AppText `json:"-"`
}

// How an app takes a line: the Xtream codes (server, username, password; a QR code of them) or
// the m3u playlist URL.
const (
	SetupXtream = "xtream"
	SetupM3U    = "m3u"
)

// Device families of the catalog's devices entries.
const (
	FamilyMAG     = "mag"     // MAG and Stalker middleware boxes: a portal URL and the line's MAC
	FamilyEnigma2 = "enigma2" // Enigma2 receivers: a one-line install command
)

// Device is a set-top box family and what the success page gives it. Portal and Command are
// templates: {server} (host:port of the line), {username} and {password} are the line's.
type Device struct {
	Family  string `json:"family"`
	Name    string `json:"name"`
	Portal  string `json:"portal"`  // FamilyMAG: the portal URL the box is given
	Command string `json:"command"` // FamilyEnigma2: the shell line run on the receiver
}

// Placeholders are the names a device template may use.
var Placeholders = []string{"{server}", "{username}", "{password}"}

// Expand fills a device template with a line's server (host:port), username and password.
func Expand(template, server, username, password string) string {
	return strings.NewReplacer("{server}", server, "{username}", username, "{password}", password).Replace(template)
}

// ExpandCommand fills an Enigma2 command template, whose placeholders stand inside a single-quoted
// or double-quoted URL (the catalog check, Quoted, refuses a bare one): each value is encoded for a URL's
// query (a password with & or # stays one value) and then for the single quotes, ' as '\” — so a
// username or password with ", $, `, \ or ' is data on the receiver's shell, never code. The
// widget's fillCommand does the same.
func ExpandCommand(template, server, username, password string) string {
	// A space as %20, not +: the widget's encodeURIComponent writes the same bytes.
	q := func(v string) string { return shellSingle(strings.ReplaceAll(url.QueryEscape(v), "+", "%20")) }
	return strings.NewReplacer("{server}", shellSingle(server), "{username}", q(username), "{password}", q(password)).Replace(template)
}

// shellSingle escapes v for the inside of a single-quoted shell word: a ' closes the quotes,
// adds an escaped quote and opens them again.
func shellSingle(v string) string { return strings.ReplaceAll(v, "'", `'\''`) }

// Quoted reports whether every placeholder of a shell command template stands inside quotes. In
// single quotes nothing expands; in double quotes $, `, \ and " would, but ExpandCommand writes
// the username and password URL-encoded (letters, digits, -_.~ and %), so none of them reaches
// the shell. A bare placeholder is refused: the seller's own template would split there.
// Double quotes stay allowed because catalogs saved before this check (the old demo's) use them.
func Quoted(template string) bool {
	const bare, single, double = 0, 1, 2
	state, esc := bare, false
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c == '{' && state == bare {
			for _, p := range Placeholders {
				if strings.HasPrefix(template[i:], p) {
					return false
				}
			}
		}
		switch {
		case esc:
			esc = false
		case state == single:
			if c == '\'' {
				state = bare
			}
		case c == '\\':
			esc = true
		case state == double:
			if c == '"' {
				state = bare
			}
		case c == '\'':
			state = single
		case c == '"':
			state = double
		}
	}
	return state == bare
}

// Card is a utility card on the success page.
type Card struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	URL   string `json:"url"`
	Icon  string `json:"icon"`
	// I18n holds the translations by locale; see Localized.
	I18n map[string]CardText `json:"-"`
}

// Catalog is a parsed, validated catalog. Treat it as read-only.
type Catalog struct {
	DefaultCurrency string
	Currencies      []Currency
	Products        []Product
	Promotions      []Promotion
	Gateways        []Gateway // enabled order; the first is the default
	// GatewayNames maps any module, enabled or not, to its display name, so
	// a deployment that picks its gateways by configuration keeps the names.
	GatewayNames map[string]string
	// GatewayNamesI18n translates GatewayNames: locale → module → name.
	GatewayNamesI18n map[string]map[string]string
	Apps             []App
	// Devices are the set-top box families the success page explains, in file order.
	Devices []Device
	Cards   []Card
	// Storefronts are the sites the checkout is embedded in, by publishable key.
	Storefronts []Storefront
	// Seller is the legal entity selling; zero when the catalog names none.
	Seller Seller
	// Legal are the legal and help pages, in file order.
	Legal   []LegalPage
	Consent Consent
	// InvoiceNumber and CreditNoteNumber are the patterns of the numbers given to a paid invoice
	// and a refund's credit note (package numbering); the defaults when the catalog sets none.
	InvoiceNumber, CreditNoteNumber string
	// Tax is the tax block: prices with or without tax, rates by buyer country; nil: no tax is
	// charged or shown.
	Tax *Tax
}

// Load reads and parses the catalog file at path, and the legal files it names (relative to
// its folder): a missing one is a problem of the *ValidationError like any other.
func Load(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("catalog: load: %w", err)
	}
	// The legal files are read even when the file has other problems, so one run lists them all.
	c, p := parse(path, data)
	if c != nil {
		var ve *ValidationError
		if err := c.ReadLegal(path, DirReader(filepath.Dir(path))); errors.As(err, &ve) {
			p.problems = append(p.problems, ve.Problems...)
		}
	}
	if len(p.problems) > 0 {
		return nil, p.err()
	}
	return c, nil
}

//go:embed demo.yaml
var demoYAML []byte

var demo = sync.OnceValue(func() *Catalog {
	c, err := Parse("demo.yaml", demoYAML)
	if err == nil {
		err = c.ReadLegal("demo.yaml", DemoLegal())
	}
	if err != nil {
		// The demo file is part of the binary and covered by tests.
		panic(err)
	}
	return c
})

//go:embed catalog.schema.json
var schemaJSON []byte

// SchemaJSON returns a copy of the catalog's JSON schema (documentation and
// editor support; Parse itself enforces the same rules and more).
func SchemaJSON() []byte { return slices.Clone(schemaJSON) }

// Demo returns the embedded demo catalog, parsed once and shared: callers
// must not modify it.
func Demo() *Catalog { return demo() }

// DemoYAML returns a copy of the embedded demo catalog file.
func DemoYAML() []byte { return slices.Clone(demoYAML) }

// Product returns the product with the given pid, hidden or not.
func (c *Catalog) Product(pid int) (Product, bool) {
	for _, p := range c.Products {
		if p.PID == pid {
			return p, true
		}
	}
	return Product{}, false
}

// PlanListLimit is how many plans the storefront lists (spec §9).
const PlanListLimit = 3

// Plans returns the plans for sale: group plan, not hidden, in file order,
// only the first three (spec §9).
func (c *Catalog) Plans() []Product {
	var out []Product
	for _, p := range c.Products {
		if p.Group == GroupPlan && !p.Hidden {
			out = append(out, p)
			if len(out) == PlanListLimit {
				break
			}
		}
	}
	return out
}

// Resellers returns the reseller plans that are not hidden, in file order.
func (c *Catalog) Resellers() []Product {
	var out []Product
	for _, p := range c.Products {
		if p.Group == GroupReseller && !p.Hidden {
			out = append(out, p)
		}
	}
	return out
}

// Currency finds a currency by code, ignoring case.
func (c *Catalog) Currency(code string) (Currency, bool) {
	for _, cur := range c.Currencies {
		if strings.EqualFold(cur.Code, code) {
			return cur, true
		}
	}
	return Currency{}, false
}

// Default returns the default currency.
func (c *Catalog) Default() Currency {
	cur, _ := c.Currency(c.DefaultCurrency)
	return cur
}

// promoCodeRe is the alphabet of a canonical promo code.
var promoCodeRe = regexp.MustCompile(`^[A-Z0-9_-]{1,32}$`)

// CanonicalPromoCode is the one form a promo code is matched, locked and counted in: trimmed,
// NFKC-normalised, upper-cased. Every spelling of a code a buyer may type ("kickoff",
// " KICKOFF ", fullwidth "ＫＩＣＫＯＦＦ", a Kelvin sign for the K) is one code, so a use limit
// counts them together. ok is false when that form is outside [A-Z0-9_-]{1,32}: no catalog has
// such a code (Parse refuses it), so it is simply unknown.
func CanonicalPromoCode(code string) (canonical string, ok bool) {
	canonical = strings.ToUpper(norm.NFKC.String(strings.TrimSpace(code)))
	return canonical, promoCodeRe.MatchString(canonical)
}

// Promotion finds a promotion by code, in any spelling whose canonical form is the
// promotion's code (see CanonicalPromoCode). The returned Code is canonical: use it, never the
// buyer's spelling, to count or lock the promotion.
func (c *Catalog) Promotion(code string) (Promotion, bool) {
	key, ok := CanonicalPromoCode(code)
	if !ok {
		return Promotion{}, false
	}
	for _, p := range c.Promotions {
		if p.Code == key {
			return p, true
		}
	}
	return Promotion{}, false
}

// Gateway finds an enabled gateway by module name.
func (c *Catalog) Gateway(module string) (Gateway, bool) {
	for _, g := range c.Gateways {
		if g.Module == module {
			return g, true
		}
	}
	return Gateway{}, false
}

// GatewaysFor builds the gateway list for the given modules, in order,
// naming each from GatewayNames (the module name when it has none).
func (c *Catalog) GatewaysFor(modules []string) []Gateway {
	out := make([]Gateway, 0, len(modules))
	for _, m := range modules {
		name := c.GatewayNames[m]
		if name == "" {
			name = m
		}
		out = append(out, Gateway{Module: m, DisplayName: name})
	}
	return out
}

// DefaultGateway returns the first enabled gateway.
func (c *Catalog) DefaultGateway() Gateway {
	if len(c.Gateways) == 0 {
		return Gateway{}
	}
	return c.Gateways[0]
}

// ParseGatewayList splits the spec's hyphen-separated gateway setting
// ("sandbox-stripe") into module names, trimming blanks and dropping empty
// and repeated entries; order is kept, so the first is the default.
func ParseGatewayList(s string) []string {
	var out []string
	for _, m := range strings.Split(s, "-") {
		m = strings.TrimSpace(m)
		if m != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}
