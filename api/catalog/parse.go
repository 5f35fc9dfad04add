package catalog

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/numbering"
)

// ErrInvalid is matched (errors.Is) by every *ValidationError.
var ErrInvalid = errors.New("catalog: invalid catalog")

// Problem is one validation failure. Line is 1-based (0 when unknown); Path
// names the value like "products[1].cycles.monthly.EUR" with 0-based indexes.
type Problem struct {
	Line int
	Path string
	Msg  string
}

// ValidationError lists every problem found in a catalog file.
type ValidationError struct {
	Name     string
	Problems []Problem
}

// Error renders one "file:line: path: message" line per problem.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		loc := e.Name
		if p.Line > 0 {
			loc = fmt.Sprintf("%s:%d", e.Name, p.Line)
		}
		if p.Path != "" {
			loc += ": " + p.Path
		}
		lines[i] = loc + ": " + p.Msg
	}
	return strings.Join(lines, "\n")
}

// Is makes errors.Is(err, ErrInvalid) hold.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

var (
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	rateRe     = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	disabledRe = regexp.MustCompile(`^-1(\.0+)?$`)
	dateRe     = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	moduleRe   = regexp.MustCompile(`^[a-z0-9_]+$`)
	yamlLineRe = regexp.MustCompile(`^yaml: line ([0-9]+): (.*)$`)
)

var fieldTypes = []string{"text", "password", "textarea", "dropdown", "tickbox", "link"}

// Parse decodes and validates a catalog. name labels problems (usually the
// file path). On failure the error is a *ValidationError listing every
// problem found.
func Parse(name string, data []byte) (*Catalog, error) {
	c, p := parse(name, data)
	if len(p.problems) > 0 {
		return nil, p.err()
	}
	return c, nil
}

// parse decodes data as far as it can: the catalog (nil when the YAML itself is broken) and the
// parser holding every problem found.
func parse(name string, data []byte) (*Catalog, *parser) {
	p := &parser{name: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.syntax(err)
		return nil, p
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.add(0, "", "catalog is empty")
		return nil, p
	}
	return p.catalog(doc.Content[0]), p
}

type parser struct {
	name     string
	problems []Problem
	cat      *Catalog
	options  map[int]ConfigOption
	fields   map[int]CustomField
	// later holds checks that need the whole file read (translations).
	later []func()
}

func (p *parser) err() error {
	// Report in file order; problems without a line stay first.
	slices.SortStableFunc(p.problems, func(a, b Problem) int { return a.Line - b.Line })
	return &ValidationError{Name: p.name, Problems: p.problems}
}

func (p *parser) add(line int, path, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) bad(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.add(line, path, format, args...)
}

func (p *parser) syntax(err error) {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		for _, e := range te.Errors {
			p.syntaxLine(e)
		}
		return
	}
	p.syntaxLine(err.Error())
}

func (p *parser) syntaxLine(s string) {
	if m := yamlLineRe.FindStringSubmatch(s); m != nil {
		line, _ := strconv.Atoi(m[1])
		p.add(line, "", "%s", m[2])
		return
	}
	p.add(0, "", "%s", strings.TrimPrefix(s, "yaml: "))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

type field struct {
	key      string
	required bool
	fn       func(n *yaml.Node, path string)
}

// object walks a mapping, dispatching known keys and reporting unknown,
// repeated and missing ones.
func (p *parser) object(n *yaml.Node, path string, fields []field) bool {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		p.bad(n, path, "must be a mapping")
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		j := slices.IndexFunc(fields, func(f field) bool { return f.key == k.Value })
		switch {
		case j < 0:
			p.bad(k, path, "unknown field %q", k.Value)
		case seen[k.Value]:
			p.bad(k, path, "field %q repeated", k.Value)
		default:
			seen[k.Value] = true
			fields[j].fn(v, join(path, k.Value))
		}
	}
	for _, f := range fields {
		if f.required && !seen[f.key] {
			p.bad(n, path, "missing required field %q", f.key)
		}
	}
	return true
}

// pairs walks a mapping with free-form keys.
func (p *parser) pairs(n *yaml.Node, path string, fn func(k, v *yaml.Node, path string)) {
	n = deref(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.bad(n, path, "must be a mapping")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := strings.ToUpper(k.Value)
		if seen[key] {
			p.bad(k, path, "key %q repeated", k.Value)
			continue
		}
		seen[key] = true
		fn(k, v, join(path, k.Value))
	}
}

func (p *parser) list(n *yaml.Node, path string, fn func(i int, n *yaml.Node, path string)) {
	n = deref(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.bad(n, path, "must be a list")
		return
	}
	for i, item := range n.Content {
		fn(i, item, index(path, i))
	}
}

func (p *parser) str(dst *string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		if isNull(n) {
			return
		}
		if n.Kind != yaml.ScalarNode {
			p.bad(n, path, "must be a string")
			return
		}
		*dst = n.Value
	}
}

func (p *parser) integer(dst *int) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		v, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			p.bad(n, path, "%q is not an integer", n.Value)
			return
		}
		*dst = v
	}
}

func (p *parser) boolean(dst *bool) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			p.bad(n, path, "%q is not true or false", n.Value)
			return
		}
		*dst = n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	}
}

func (p *parser) strings(dst *[]string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		p.list(n, path, func(_ int, item *yaml.Node, path string) {
			var s string
			p.str(&s)(item, path)
			*dst = append(*dst, s)
		})
	}
}

func (p *parser) ints(dst *[]int) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		p.list(n, path, func(_ int, item *yaml.Node, path string) {
			v, before := 0, len(p.problems)
			p.integer(&v)(item, path)
			if len(p.problems) == before {
				*dst = append(*dst, v)
			}
		})
	}
}

func (p *parser) catalog(root *yaml.Node) *Catalog {
	c := &Catalog{}
	p.cat = c
	p.options = map[int]ConfigOption{}
	p.fields = map[int]CustomField{}
	// Sections are decoded in dependency order, whatever their order in the
	// file, so references (currencies, options, pids) can be checked.
	nodes := map[string]*yaml.Node{}
	keep := func(key string) func(*yaml.Node, string) {
		return func(n *yaml.Node, _ string) { nodes[key] = n }
	}
	keys := []string{"defaultCurrency", "currencies", "configOptions", "customFields", "products",
		"promotions", "gateways", "gatewayNames", "gatewayNamesI18n", "apps", "devices", "cards", "storefronts",
		"seller", "legal", "consent", "invoiceNumber", "creditNoteNumber", "tax"}
	var fields []field
	for _, k := range keys {
		req := k == "defaultCurrency" || k == "currencies" || k == "products" || k == "gateways"
		fields = append(fields, field{k, req, keep(k)})
	}
	if !p.object(root, "", fields) {
		return c
	}
	if n := nodes["currencies"]; n != nil {
		p.currencies(n)
	}
	if n := nodes["defaultCurrency"]; n != nil {
		p.defaultCurrency(n)
	}
	if n := nodes["configOptions"]; n != nil {
		p.list(n, "configOptions", p.configOption)
	}
	if n := nodes["customFields"]; n != nil {
		p.list(n, "customFields", p.customField)
	}
	if n := nodes["products"]; n != nil {
		p.list(n, "products", p.product)
		if len(c.Products) == 0 {
			p.bad(n, "products", "at least one product is required")
		}
	}
	if n := nodes["promotions"]; n != nil {
		p.list(n, "promotions", p.promotion)
	}
	if n := nodes["gatewayNames"]; n != nil {
		p.gatewayNames(n)
	}
	if n := nodes["gatewayNamesI18n"]; n != nil {
		p.gatewayNamesI18n(n)
	}
	if n := nodes["gateways"]; n != nil {
		p.gateways(n)
	}
	if n := nodes["apps"]; n != nil {
		p.list(n, "apps", p.app)
	}
	if n := nodes["devices"]; n != nil {
		p.list(n, "devices", p.device)
	}
	if n := nodes["cards"]; n != nil {
		p.list(n, "cards", p.card)
	}
	if n := nodes["storefronts"]; n != nil {
		p.list(n, "storefronts", p.storefront)
	}
	if n := nodes["seller"]; n != nil && !isNull(n) {
		p.seller(n)
	}
	if n := nodes["legal"]; n != nil {
		p.legal(n)
	}
	if n := nodes["consent"]; n != nil && !isNull(n) {
		p.consent(n)
	}
	if n := nodes["tax"]; n != nil && !isNull(n) {
		p.tax(n)
	}
	c.InvoiceNumber, c.CreditNoteNumber = numbering.DefaultInvoice, numbering.DefaultCreditNote
	p.numberPattern(nodes["invoiceNumber"], "invoiceNumber", &c.InvoiceNumber)
	p.numberPattern(nodes["creditNoteNumber"], "creditNoteNumber", &c.CreditNoteNumber)
	for _, check := range p.later {
		check()
	}
	return c
}

func (p *parser) currencies(n *yaml.Node) {
	p.list(n, "currencies", func(i int, item *yaml.Node, path string) {
		var cur Currency
		var codeNode, rateNode *yaml.Node
		p.object(item, path, []field{
			{"code", true, func(n *yaml.Node, path string) { codeNode = n; p.str(&cur.Code)(n, path) }},
			{"rate", true, func(n *yaml.Node, path string) { rateNode = n; p.str(&cur.Rate)(n, path) }},
			{"prefix", false, p.str(&cur.Prefix)},
			{"suffix", false, p.str(&cur.Suffix)},
		})
		if codeNode != nil {
			if !currencyRe.MatchString(cur.Code) {
				p.bad(codeNode, join(path, "code"), "currency code %q must be 3 upper-case letters", cur.Code)
			} else if !money.Known(cur.Code) {
				p.bad(codeNode, join(path, "code"), "currency code %q is not an ISO 4217 currency", cur.Code)
			} else if _, dup := p.cat.Currency(cur.Code); dup {
				p.bad(codeNode, join(path, "code"), "currency %q defined twice", cur.Code)
			}
		}
		if rateNode != nil {
			r, ok := new(big.Rat).SetString(cur.Rate)
			if !rateRe.MatchString(cur.Rate) || !ok || r.Sign() <= 0 {
				p.bad(rateNode, join(path, "rate"), "rate %q is not a positive decimal", cur.Rate)
			}
		}
		p.cat.Currencies = append(p.cat.Currencies, cur)
	})
	if len(p.cat.Currencies) == 0 {
		p.bad(n, "currencies", "at least one currency is required")
	}
}

func (p *parser) defaultCurrency(n *yaml.Node) {
	var code string
	p.str(&code)(n, "defaultCurrency")
	cur, ok := p.cat.Currency(code)
	if !ok {
		p.bad(n, "defaultCurrency", "currency %q is not among currencies", code)
		return
	}
	p.cat.DefaultCurrency = cur.Code
	if r, ok := new(big.Rat).SetString(cur.Rate); ok && r.Cmp(big.NewRat(1, 1)) != 0 {
		p.bad(n, "defaultCurrency", "default currency %s must have rate 1, not %q", cur.Code, cur.Rate)
	}
}

// amount parses a price value in currency code, with at most that
// currency's decimals (none for JPY, 3 for KWD); the second result is false
// for "-1" (disabled / not given).
func (p *parser) amount(n *yaml.Node, path, code string) (int64, bool, bool) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || isNull(n) {
		p.bad(n, path, "price must be a decimal amount")
		return 0, false, false
	}
	v := strings.TrimSpace(n.Value)
	if disabledRe.MatchString(v) {
		return 0, false, true
	}
	a, err := money.Parse(v, code)
	switch {
	case errors.Is(err, money.ErrPrecision):
		d, _ := money.Digits(code)
		p.bad(n, path, "price %q has too many decimals: %s has %d", n.Value, code, d)
		return 0, false, false
	case err != nil:
		p.bad(n, path, "price %q is not a decimal amount", n.Value)
		return 0, false, false
	}
	return a, true, true
}

// cycleCredits decodes a plan's panel cost, "cycle: credits" (a whole number, 0 or more).
func (p *parser) cycleCredits(n *yaml.Node, path string) map[Cycle]int {
	out := map[Cycle]int{}
	p.pairs(n, path, func(k, v *yaml.Node, path string) {
		cycle := Cycle(k.Value)
		if !cycle.Valid() {
			p.bad(k, path, "unknown billing cycle %q (want one of %s)", k.Value, cycleNames())
			return
		}
		c, before := 0, len(p.problems)
		p.integer(&c)(v, path)
		if len(p.problems) != before {
			return
		}
		if c < 0 {
			p.bad(v, path, "credits must be 0 or more")
			return
		}
		out[cycle] = c
	})
	return out
}

// cyclePrices decodes "cycle: {CUR: amount}". A cycle that is absent, null or
// -1, or whose default-currency price is -1, is disabled; another currency
// at -1 or absent is converted from the default.
func (p *parser) cyclePrices(n *yaml.Node, path string) map[Cycle]Price {
	out := map[Cycle]Price{}
	p.pairs(n, path, func(k, v *yaml.Node, path string) {
		cycle := Cycle(k.Value)
		if !cycle.Valid() {
			p.bad(k, path, "unknown billing cycle %q (want one of %s)", k.Value, cycleNames())
			return
		}
		if isNull(v) {
			return
		}
		switch deref(v).Kind {
		case yaml.MappingNode:
		case yaml.ScalarNode:
			if !disabledRe.MatchString(strings.TrimSpace(deref(v).Value)) {
				p.bad(v, path, "must be a mapping of currency to price, or -1 to disable the cycle")
			}
			return
		default:
			p.bad(v, path, "must be a mapping")
			return
		}
		price := Price{}
		disabled, ok := false, true
		p.pairs(v, path, func(ck, cv *yaml.Node, path string) {
			cur, known := p.cat.Currency(ck.Value)
			if !known && len(p.cat.Currencies) == 0 {
				ok = false // already reported: no currencies at all
				return
			}
			if !known {
				p.bad(ck, path, "unknown currency %q", ck.Value)
				ok = false
				return
			}
			a, given, valid := p.amount(cv, path, cur.Code)
			switch {
			case !valid:
				ok = false
			case given:
				price[cur.Code] = a
			case cur.Code == p.cat.DefaultCurrency:
				disabled = true
			}
		})
		if disabled || !ok {
			return
		}
		if _, has := price[p.cat.DefaultCurrency]; !has && p.cat.DefaultCurrency != "" {
			p.bad(v, path, "missing price in default currency %s", p.cat.DefaultCurrency)
			return
		}
		out[cycle] = price
	})
	return out
}

func cycleNames() string {
	s := make([]string, len(Cycles))
	for i, c := range Cycles {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

func (p *parser) configOption(_ int, n *yaml.Node, path string) {
	var o ConfigOption
	var idNode, typeNode, pricingNode *yaml.Node
	minSet, maxSet := false, false
	p.object(n, path, []field{
		{"id", true, func(n *yaml.Node, path string) { idNode = n; p.integer(&o.ID)(n, path) }},
		{"name", true, p.str(&o.Name)},
		{"type", true, func(n *yaml.Node, path string) { typeNode = n; p.str(&o.Type)(n, path) }},
		{"minQty", false, func(n *yaml.Node, path string) { minSet = true; p.integer(&o.MinQty)(n, path) }},
		{"maxQty", false, func(n *yaml.Node, path string) { maxSet = true; p.integer(&o.MaxQty)(n, path) }},
		{"pricing", true, func(n *yaml.Node, path string) { pricingNode = n; o.Pricing = p.cyclePrices(n, path) }},
		{"i18n", false, func(n *yaml.Node, path string) {
			o.I18n = translations(p, n, path, func(t *OptionText, tr *translator) []field {
				return []field{tr.text("name", &o.Name, &t.Name)}
			})
		}},
	})
	if idNode != nil {
		if o.ID <= 0 {
			p.bad(idNode, join(path, "id"), "option id must be positive")
		} else if _, dup := p.options[o.ID]; dup {
			p.bad(idNode, join(path, "id"), "option id %d defined twice", o.ID)
		}
	}
	if typeNode != nil {
		switch o.Type {
		case OptionQuantity:
			if o.MinQty < 0 || o.MaxQty < 1 || o.MaxQty < o.MinQty {
				p.bad(n, path, "a quantity option needs 0 <= minQty <= maxQty and maxQty >= 1")
			}
		case OptionYesNo:
			if minSet || maxSet {
				p.bad(n, path, "a yesno option takes no minQty or maxQty")
			}
			o.MinQty, o.MaxQty = 0, 1
		default:
			p.bad(typeNode, join(path, "type"), "option type %q must be quantity or yesno", o.Type)
		}
		if o.ID == ExtraConnectionsOption && o.Type == OptionYesNo {
			p.bad(typeNode, join(path, "type"), "option %d (extra connections) must be of type quantity", o.ID)
		}
		if o.ID == ProxyProtectionOption && o.Type == OptionQuantity {
			p.bad(typeNode, join(path, "type"), "option %d (proxy protection) must be of type yesno", o.ID)
		}
	}
	if pricingNode != nil && len(o.Pricing) == 0 && len(p.cat.Currencies) > 0 && !hasProblemUnder(p.problems, join(path, "pricing")) {
		p.bad(pricingNode, join(path, "pricing"), "at least one cycle must be priced")
	}
	if o.ID > 0 {
		if _, dup := p.options[o.ID]; !dup {
			p.options[o.ID] = o
		}
	}
}

func (p *parser) customField(_ int, n *yaml.Node, path string) {
	f := CustomField{Type: "text"}
	var idNode, typeNode *yaml.Node
	p.object(n, path, []field{
		{"id", true, func(n *yaml.Node, path string) { idNode = n; p.integer(&f.ID)(n, path) }},
		{"name", true, p.str(&f.Name)},
		{"type", false, func(n *yaml.Node, path string) { typeNode = n; p.str(&f.Type)(n, path) }},
		{"description", false, p.str(&f.Description)},
		{"required", false, p.boolean(&f.Required)},
		{"i18n", false, func(n *yaml.Node, path string) {
			f.I18n = translations(p, n, path, func(t *FieldText, tr *translator) []field {
				return []field{tr.text("name", &f.Name, &t.Name), tr.text("description", &f.Description, &t.Description)}
			})
		}},
	})
	if idNode != nil {
		if f.ID <= 0 {
			p.bad(idNode, join(path, "id"), "custom field id must be positive")
		} else if _, dup := p.fields[f.ID]; dup {
			p.bad(idNode, join(path, "id"), "custom field id %d defined twice", f.ID)
		} else {
			p.fields[f.ID] = f
		}
	}
	if typeNode != nil && !slices.Contains(fieldTypes, f.Type) {
		p.bad(typeNode, join(path, "type"), "custom field type %q must be one of %s", f.Type, strings.Join(fieldTypes, ", "))
	}
}

func (p *parser) product(_ int, n *yaml.Node, path string) {
	var pr Product
	var pidNode, groupNode, cyclesNode, creditsNode *yaml.Node
	var optionIDs, fieldIDs []int
	var optionsNode, fieldsNode, bouquetsNode *yaml.Node
	p.object(n, path, []field{
		{"pid", true, func(n *yaml.Node, path string) { pidNode = n; p.integer(&pr.PID)(n, path) }},
		{"group", true, func(n *yaml.Node, path string) { groupNode = n; p.str(&pr.Group)(n, path) }},
		{"name", true, p.str(&pr.Name)},
		{"description", false, p.str(&pr.Description)},
		{"features", false, p.strings(&pr.Features)},
		{"trial", false, p.boolean(&pr.Trial)},
		{"cycles", true, func(n *yaml.Node, path string) { cyclesNode = n; pr.Cycles = p.cyclePrices(n, path) }},
		{"saveBadge", false, p.str(&pr.SaveBadge)},
		{"soldBadge", false, p.str(&pr.SoldBadge)},
		{"guarantee", false, p.str(&pr.Guarantee)},
		{"configOptions", false, func(n *yaml.Node, path string) { optionsNode = n; p.ints(&optionIDs)(n, path) }},
		{"customFields", false, func(n *yaml.Node, path string) { fieldsNode = n; p.ints(&fieldIDs)(n, path) }},
		{"bouquets", false, func(n *yaml.Node, path string) { bouquetsNode = n; p.ints(&pr.Bouquets)(n, path) }},
		{"hidden", false, p.boolean(&pr.Hidden)},
		{"credits", false, func(n *yaml.Node, path string) {
			creditsNode = n
			if deref(n).Kind == yaml.MappingNode {
				pr.Credits = p.cycleCredits(n, path)
				return
			}
			p.integer(&pr.ResellerCredits)(n, path)
		}},
		{"i18n", false, func(n *yaml.Node, path string) {
			pr.I18n = translations(p, n, path, func(t *ProductText, tr *translator) []field {
				return []field{
					tr.text("name", &pr.Name, &t.Name),
					tr.text("description", &pr.Description, &t.Description),
					tr.list("features", &pr.Features, &t.Features),
					tr.text("saveBadge", &pr.SaveBadge, &t.SaveBadge),
					tr.text("soldBadge", &pr.SoldBadge, &t.SoldBadge),
					tr.text("guarantee", &pr.Guarantee, &t.Guarantee),
				}
			})
		}},
	})
	if pidNode != nil {
		if pr.PID <= 0 {
			p.bad(pidNode, join(path, "pid"), "pid must be positive")
		} else if _, dup := p.cat.Product(pr.PID); dup {
			p.bad(pidNode, join(path, "pid"), "pid %d defined twice", pr.PID)
		}
	}
	if groupNode != nil && pr.Group != GroupPlan && pr.Group != GroupReseller {
		p.bad(groupNode, join(path, "group"), "group %q must be plan or reseller", pr.Group)
	}
	if cyclesNode != nil && len(pr.Cycles) == 0 && len(p.cat.Currencies) > 0 && !hasProblemUnder(p.problems, join(path, "cycles")) {
		p.bad(cyclesNode, join(path, "cycles"), "at least one billing cycle must be enabled")
	}
	if pr.Trial {
		for c, price := range pr.Cycles {
			for cur, a := range price {
				if a != 0 {
					p.bad(cyclesNode, join(path, "cycles."+string(c)+"."+cur), "a trial product must be free")
				}
			}
		}
		if len(optionIDs) > 0 {
			p.bad(optionsNode, join(path, "configOptions"), "a trial product takes no config options")
		}
	}
	switch pr.Group {
	case GroupReseller:
		if pr.ResellerCredits <= 0 {
			p.bad(n, path, "a reseller plan needs positive credits")
		}
		if _, ok := pr.Cycles[Monthly]; cyclesNode != nil && !ok && len(pr.Cycles) > 0 {
			p.bad(cyclesNode, join(path, "cycles"), "a reseller plan needs a monthly price (spec §9)")
		}
		if pr.Trial {
			p.bad(n, path, "a reseller plan cannot be a trial")
		}
	case GroupPlan:
		if creditsNode != nil && deref(creditsNode).Kind != yaml.MappingNode {
			p.bad(creditsNode, join(path, "credits"), "a plan's credits are its panel cost per billing cycle ({monthly: 1, quarterly: 3}); a number of credits only applies to reseller plans")
		}
	}
	for i, id := range optionIDs {
		o, ok := p.options[id]
		switch {
		case !ok:
			p.bad(optionsNode, index(join(path, "configOptions"), i), "unknown config option %d", id)
		case slices.Index(optionIDs, id) != i:
			p.bad(optionsNode, index(join(path, "configOptions"), i), "config option %d listed twice", id)
		default:
			pr.ConfigOptions = append(pr.ConfigOptions, o)
		}
	}
	for i, id := range fieldIDs {
		f, ok := p.fields[id]
		switch {
		case !ok:
			p.bad(fieldsNode, index(join(path, "customFields"), i), "unknown custom field %d", id)
		case slices.Index(fieldIDs, id) != i:
			p.bad(fieldsNode, index(join(path, "customFields"), i), "custom field %d listed twice", id)
		default:
			pr.CustomFields = append(pr.CustomFields, f)
		}
	}
	for i, b := range pr.Bouquets {
		if b <= 0 {
			p.bad(bouquetsNode, index(join(path, "bouquets"), i), "bouquet id must be positive")
		}
	}
	p.cat.Products = append(p.cat.Products, pr)
}

func hasProblemUnder(problems []Problem, path string) bool {
	return slices.ContainsFunc(problems, func(pr Problem) bool { return strings.HasPrefix(pr.Path, path) })
}

// promoDate returns the parsed date, or the zero time for "0000-00-00".
func promoDate(s string) (time.Time, error) {
	if s == NoDate {
		return time.Time{}, nil
	}
	if !dateRe.MatchString(s) {
		return time.Time{}, errors.New("bad date")
	}
	return time.Parse(time.DateOnly, s)
}

// promoValue parses a promotion's value: a percentage in hundredths, or a
// fixed amount in minor units of the default currency, whose decimals it may
// not exceed. want describes the accepted form for the problem message.
func (p *parser) promoValue(pr Promotion) (a int64, want string, err error) {
	if d, ok := money.Digits(p.cat.DefaultCurrency); ok && pr.Type == PromoFixed {
		a, err := money.ParseDecimal(pr.Value, d)
		return a, fmt.Sprintf("at most %d decimals (%s)", d, p.cat.DefaultCurrency), err
	}
	a, err = money.ParseDecimal(pr.Value, 2)
	return a, "at most 2 decimals", err
}

func (p *parser) promotion(_ int, n *yaml.Node, path string) {
	pr := Promotion{StartDate: NoDate, ExpirationDate: NoDate}
	var codeNode, typeNode, valueNode, appliesNode, startNode, endNode, usesNode *yaml.Node
	p.object(n, path, []field{
		{"code", true, func(n *yaml.Node, path string) { codeNode = n; p.str(&pr.Code)(n, path) }},
		{"type", true, func(n *yaml.Node, path string) { typeNode = n; p.str(&pr.Type)(n, path) }},
		{"value", true, func(n *yaml.Node, path string) { valueNode = n; p.str(&pr.Value)(n, path) }},
		{"appliesTo", true, func(n *yaml.Node, path string) { appliesNode = n; p.ints(&pr.AppliesTo)(n, path) }},
		{"startDate", false, func(n *yaml.Node, path string) { startNode = n; p.str(&pr.StartDate)(n, path) }},
		{"expirationDate", false, func(n *yaml.Node, path string) { endNode = n; p.str(&pr.ExpirationDate)(n, path) }},
		{"maxUses", false, func(n *yaml.Node, path string) { usesNode = n; p.integer(&pr.MaxUses)(n, path) }},
		{"recurring", false, p.boolean(&pr.Recurring)},
		{"disabled", false, p.boolean(&pr.Disabled)},
	})
	if codeNode != nil {
		if canonical, ok := CanonicalPromoCode(pr.Code); !ok {
			p.bad(codeNode, join(path, "code"), "promotion code %+q must be 1 to 32 of A-Z, 0-9, - or _", pr.Code)
		} else if canonical != pr.Code {
			// Codes are matched in their canonical form only, so the catalog writes that form; %+q
			// shows a look-alike letter (a Kelvin sign for K) as the escape it is.
			p.bad(codeNode, join(path, "code"), "promotion code %+q must be 1 to 32 of A-Z, 0-9, - or _ (write it %q)", pr.Code, canonical)
		} else if _, dup := p.cat.Promotion(pr.Code); dup {
			p.bad(codeNode, join(path, "code"), "promotion code %q defined twice", pr.Code)
		}
	}
	if typeNode != nil && pr.Type != PromoPercentage && pr.Type != PromoFixed {
		p.bad(typeNode, join(path, "type"), "promotion type %q must be %q or %q", pr.Type, PromoPercentage, PromoFixed)
	}
	if valueNode != nil {
		a, want, err := p.promoValue(pr)
		switch {
		case err != nil:
			p.bad(valueNode, join(path, "value"), "value %q is not a decimal with %s", pr.Value, want)
		case a <= 0:
			p.bad(valueNode, join(path, "value"), "value must be positive")
		case pr.Type == PromoPercentage && a > 100_00:
			p.bad(valueNode, join(path, "value"), "a percentage cannot exceed 100")
		}
	}
	if appliesNode != nil {
		if len(pr.AppliesTo) == 0 && !hasProblemUnder(p.problems, join(path, "appliesTo")) {
			p.bad(appliesNode, join(path, "appliesTo"), "list at least one pid")
		}
		for i, pid := range pr.AppliesTo {
			if _, ok := p.cat.Product(pid); !ok {
				p.bad(appliesNode, index(join(path, "appliesTo"), i), "unknown pid %d", pid)
			}
		}
	}
	start, errStart := promoDate(pr.StartDate)
	if errStart != nil {
		p.bad(startNode, join(path, "startDate"), "date %q must be YYYY-MM-DD or 0000-00-00", pr.StartDate)
	}
	end, errEnd := promoDate(pr.ExpirationDate)
	if errEnd != nil {
		p.bad(endNode, join(path, "expirationDate"), "date %q must be YYYY-MM-DD or 0000-00-00", pr.ExpirationDate)
	}
	if errStart == nil && errEnd == nil && !start.IsZero() && !end.IsZero() && end.Before(start) {
		p.bad(endNode, join(path, "expirationDate"), "expires (%s) before it starts (%s)", pr.ExpirationDate, pr.StartDate)
	}
	if usesNode != nil && pr.MaxUses < 0 {
		p.bad(usesNode, join(path, "maxUses"), "maxUses must be 0 (unlimited) or more")
	}
	p.cat.Promotions = append(p.cat.Promotions, pr)
}

func (p *parser) gatewayNames(n *yaml.Node) {
	p.cat.GatewayNames = map[string]string{}
	p.pairs(n, "gatewayNames", func(k, v *yaml.Node, path string) {
		if !moduleRe.MatchString(k.Value) {
			p.bad(k, path, "gateway module %q must be lower-case letters, digits or _", k.Value)
			return
		}
		var name string
		p.str(&name)(v, path)
		p.cat.GatewayNames[k.Value] = name
	})
}

// gateways accepts the spec's hyphen list ("sandbox-stripe") or a YAML list.
func (p *parser) gateways(n *yaml.Node) {
	var modules []string
	switch d := deref(n); d.Kind {
	case yaml.ScalarNode:
		modules = ParseGatewayList(d.Value)
	case yaml.SequenceNode:
		p.strings(&modules)(d, "gateways")
	default:
		p.bad(n, "gateways", "must be a hyphen-separated string or a list")
		return
	}
	for i, m := range modules {
		switch {
		case !moduleRe.MatchString(m):
			p.bad(n, index("gateways", i), "gateway module %q must be lower-case letters, digits or _", m)
		case slices.Index(modules, m) != i:
			p.bad(n, index("gateways", i), "gateway %q listed twice", m)
		}
	}
	p.cat.Gateways = p.cat.GatewaysFor(modules)
	if len(modules) == 0 {
		p.bad(n, "gateways", "at least one gateway is required")
	}
}

func validURL(s string) bool {
	for _, prefix := range []string{"https://", "http://", "mailto:", "/"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func (p *parser) app(_ int, n *yaml.Node, path string) {
	var a App
	var urlNode *yaml.Node
	p.object(n, path, []field{
		{"name", true, p.str(&a.Name)},
		{"platform", false, p.str(&a.Platform)},
		{"url", true, func(n *yaml.Node, path string) { urlNode = n; p.str(&a.URL)(n, path) }},
		{"icon", false, p.str(&a.Icon)},
		{"setup", false, func(n *yaml.Node, path string) {
			p.str(&a.Setup)(n, path)
			if a.Setup != SetupXtream && a.Setup != SetupM3U {
				p.bad(n, path, "setup %q must be %s or %s", a.Setup, SetupXtream, SetupM3U)
			}
		}},
		{"i18n", false, func(n *yaml.Node, path string) {
			a.I18n = translations(p, n, path, func(t *AppText, tr *translator) []field {
				return []field{tr.text("name", &a.Name, &t.Name), tr.text("platform", &a.Platform, &t.Platform)}
			})
		}},
	})
	if urlNode != nil && !validURL(a.URL) {
		p.bad(urlNode, join(path, "url"), "url %q must start with https://, http://, mailto: or /", a.URL)
	}
	if a.Setup == "" {
		a.Setup = SetupXtream
	}
	p.cat.Apps = append(p.cat.Apps, a)
}

// placeholder is one {name} in a device template.
var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

func (p *parser) device(_ int, n *yaml.Node, path string) {
	var d Device
	var familyNode, portalNode, commandNode *yaml.Node
	if !p.object(n, path, []field{
		{"family", true, func(n *yaml.Node, path string) { familyNode = n; p.str(&d.Family)(n, path) }},
		{"name", true, p.str(&d.Name)},
		{"portal", false, func(n *yaml.Node, path string) { portalNode = n; p.str(&d.Portal)(n, path) }},
		{"command", false, func(n *yaml.Node, path string) { commandNode = n; p.str(&d.Command)(n, path) }},
	}) {
		return
	}
	for _, t := range []struct {
		node *yaml.Node
		key  string
		text string
	}{{portalNode, "portal", d.Portal}, {commandNode, "command", d.Command}} {
		if t.node == nil {
			continue
		}
		for _, name := range placeholder.FindAllString(t.text, -1) {
			if !slices.Contains(Placeholders, name) {
				p.bad(t.node, join(path, t.key), "unknown placeholder %s (use %s)", name, strings.Join(Placeholders, ", "))
			}
		}
	}
	switch d.Family {
	case FamilyMAG:
		if portalNode == nil {
			p.bad(n, path, "missing required field %q", "portal")
		} else if !strings.HasPrefix(d.Portal, "http://") && !strings.HasPrefix(d.Portal, "https://") {
			p.bad(portalNode, join(path, "portal"), "portal %q must start with http:// or https://", d.Portal)
		}
		if commandNode != nil {
			p.bad(commandNode, join(path, "command"), "%s devices take a portal, not a command", FamilyMAG)
		}
	case FamilyEnigma2:
		if commandNode == nil || d.Command == "" {
			p.bad(n, path, "missing required field %q", "command")
		} else if !Quoted(d.Command) {
			p.bad(commandNode, join(path, "command"), "put %s inside quotes ('http://{server}/get.php?username={username}&…'): "+
				"outside them the command splits at the URL's & on the receiver", strings.Join(Placeholders, ", "))
		}
		if portalNode != nil {
			p.bad(portalNode, join(path, "portal"), "%s devices take a command, not a portal", FamilyEnigma2)
		}
	default:
		if familyNode != nil {
			p.bad(familyNode, join(path, "family"), "family %q must be %s or %s", d.Family, FamilyMAG, FamilyEnigma2)
		}
	}
	p.cat.Devices = append(p.cat.Devices, d)
}

func (p *parser) card(_ int, n *yaml.Node, path string) {
	var c Card
	var urlNode *yaml.Node
	p.object(n, path, []field{
		{"title", true, p.str(&c.Title)},
		{"text", false, p.str(&c.Text)},
		{"url", false, func(n *yaml.Node, path string) { urlNode = n; p.str(&c.URL)(n, path) }},
		{"icon", false, p.str(&c.Icon)},
		{"i18n", false, func(n *yaml.Node, path string) {
			c.I18n = translations(p, n, path, func(t *CardText, tr *translator) []field {
				return []field{tr.text("title", &c.Title, &t.Title), tr.text("text", &c.Text, &t.Text)}
			})
		}},
	})
	if urlNode != nil && c.URL != "" && !validURL(c.URL) {
		p.bad(urlNode, join(path, "url"), "url %q must start with https://, http://, mailto: or /", c.URL)
	}
	p.cat.Cards = append(p.cat.Cards, c)
}

// translator builds the fields of one locale's translation block.
type translator struct{ p *parser }

// text decodes a translated string into dst. Translating a text the base
// leaves empty is refused: that badge or line would show in one language
// only. The check waits for the end of the file, as i18n may come before
// the base field.
func (tr *translator) text(key string, base, dst *string) field {
	return field{key, false, func(n *yaml.Node, path string) {
		tr.p.str(dst)(n, path)
		tr.p.later = append(tr.p.later, func() {
			if *base == "" && *dst != "" {
				tr.p.bad(n, path, "translates %s, which the base text leaves empty", key)
			}
		})
	}}
}

// list decodes a translated string list; its length may differ from the
// base list's.
func (tr *translator) list(key string, base, dst *[]string) field {
	return field{key, false, func(n *yaml.Node, path string) {
		tr.p.strings(dst)(n, path)
		tr.p.later = append(tr.p.later, func() {
			if len(*base) == 0 && len(*dst) > 0 {
				tr.p.bad(n, path, "translates %s, which the base text leaves empty", key)
			}
		})
	}}
}

// translations decodes "i18n: {locale: {field: text}}" into a map by
// locale; fields lists the translatable fields of one block.
func translations[T any](p *parser, n *yaml.Node, path string, fields func(t *T, tr *translator) []field) map[string]T {
	out := map[string]T{}
	p.pairs(n, path, func(k, v *yaml.Node, path string) {
		if !slices.Contains(Locales, k.Value) {
			p.bad(k, path, "unknown locale %q (want one of %s)", k.Value, strings.Join(Locales, ", "))
			return
		}
		t := new(T)
		if p.object(v, path, fields(t, &translator{p})) {
			out[k.Value] = *t
		}
	})
	return out
}

// gatewayNamesI18n decodes "locale: {module: name}"; a module needs a base
// name in gatewayNames first.
func (p *parser) gatewayNamesI18n(n *yaml.Node) {
	p.cat.GatewayNamesI18n = map[string]map[string]string{}
	p.pairs(n, "gatewayNamesI18n", func(k, v *yaml.Node, path string) {
		if !slices.Contains(Locales, k.Value) {
			p.bad(k, path, "unknown locale %q (want one of %s)", k.Value, strings.Join(Locales, ", "))
			return
		}
		names := map[string]string{}
		p.pairs(v, path, func(mk, mv *yaml.Node, path string) {
			if _, ok := p.cat.GatewayNames[mk.Value]; !ok {
				p.bad(mk, path, "gateway module %q has no base name in gatewayNames", mk.Value)
				return
			}
			var name string
			p.str(&name)(mv, path)
			names[mk.Value] = name
		})
		p.cat.GatewayNamesI18n[k.Value] = names
	})
}

// numberPattern reads an invoice or credit note number pattern (package numbering); absent or
// null keeps the default dst holds.
func (p *parser) numberPattern(n *yaml.Node, path string, dst *string) {
	if n == nil || isNull(deref(n)) {
		return
	}
	var v string
	p.str(&v)(n, path)
	if err := numbering.Validate(v); err != nil {
		p.bad(n, path, "%s", strings.TrimPrefix(err.Error(), "numbering: "))
		return
	}
	*dst = v
}
