package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmezard/go-difflib/difflib"
	"gopkg.in/yaml.v3"

	"github.com/streamcart/streamcart/api/catalog"
)

// Prices is cycle → currency → price as written in the catalog ("12.99"). A disabled cycle, and
// a currency left to conversion, are absent.
type Prices map[string]map[string]string

// FormPlan is a product as the console's catalog form edits it.
type FormPlan struct {
	PID           int
	Group, Name   string
	Trial         bool
	Extras, Proxy bool // offers config option 2 (extra connections), 4 (proxy protection)
	Prices        Prices
}

// FormOption is config option 2 (extra connections) or 4 (proxy protection).
type FormOption struct {
	ID     int
	Name   string
	MaxQty int
	Prices Prices
}

// FormPromotion is a promotion as the form edits it; Products and Status are read only.
type FormPromotion struct {
	Code, Type, Value         string
	AppliesTo                 []int
	Products                  []string
	StartDate, ExpirationDate string // "" for none
	MaxUses                   int
	Recurring, Disabled       bool
	Status                    string
}

// FormStorefront is a storefront as the form edits it (Key names it; Default is read only).
type FormStorefront struct {
	Key, Name                      string
	Default                        bool
	DefaultCurrency, DefaultLocale string
	AllowedOrigins                 []string
}

// Form is the part of a catalog file the console's form edits; everything else is kept.
type Form struct {
	DefaultCurrency string
	Currencies      []string
	Cycles          []string
	Plans           []FormPlan
	Extras, Proxy   *FormOption
	Promotions      []FormPromotion
	Storefronts     []FormStorefront
}

// ErrForm means a form does not fit the catalog file it is written into (a source that is not a
// YAML mapping, a form naming a plan, promotion or storefront the file does not have).
var ErrForm = errors.New("console: the form does not fit the catalog")

// Promotion statuses, on the shop's clock.
const (
	PromoActive    = "active"
	PromoScheduled = "scheduled"
	PromoExpired   = "expired"
	PromoDisabled  = "disabled"
)

// PromoStatus is p's state at now: disabled, scheduled (before its start day), expired (after its
// expiration day, both whole UTC days, inclusive) or active. Used-up codes are still active here;
// their uses say so.
func PromoStatus(p catalog.Promotion, now time.Time) string {
	day := now.UTC().Format(time.DateOnly)
	switch {
	case p.Disabled:
		return PromoDisabled
	case p.StartDate != "" && p.StartDate != catalog.NoDate && day < p.StartDate:
		return PromoScheduled
	case p.ExpirationDate != "" && p.ExpirationDate != catalog.NoDate && day > p.ExpirationDate:
		return PromoExpired
	}
	return PromoActive
}

// ProductNames names the pids in cat, "#pid" for one it does not have.
func ProductNames(cat *catalog.Catalog, pids []int) []string {
	out := make([]string, 0, len(pids))
	for _, pid := range pids {
		if p, ok := cat.Product(pid); ok {
			out = append(out, p.Name)
		} else {
			out = append(out, "#"+strconv.Itoa(pid))
		}
	}
	return out
}

func parseDoc(source []byte) (*yaml.Node, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(source, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%w: the source is not a YAML mapping", ErrForm)
	}
	return &doc, doc.Content[0], nil
}

func seqOf(m *yaml.Node, key string) []*yaml.Node {
	if n := field(m, key); n != nil && n.Kind == yaml.SequenceNode {
		return n.Content
	}
	return nil
}

func scalar(m *yaml.Node, key string) string {
	if n := field(m, key); n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return n.Value
	}
	return ""
}

func intOf(m *yaml.Node, key string) int {
	n, _ := strconv.Atoi(scalar(m, key))
	return n
}

func boolOf(m *yaml.Node, key string) bool { return scalar(m, key) == "true" }

func ints(n *yaml.Node) []int {
	out := []int{}
	if n == nil || n.Kind != yaml.SequenceNode {
		return out
	}
	for _, x := range n.Content {
		if v, err := strconv.Atoi(x.Value); err == nil {
			out = append(out, v)
		}
	}
	return out
}

func strs(n *yaml.Node) []string {
	out := []string{}
	if n == nil || n.Kind != yaml.SequenceNode {
		return out
	}
	for _, x := range n.Content {
		out = append(out, x.Value)
	}
	return out
}

// isNoPrice is -1 (and its decimal spellings), the catalog's "no price".
func isNoPrice(v string) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return err == nil && f == -1
}

// cyclePrices reads one cycle's node: currency → price, "-1" and nulls left out; nil when the
// cycle is disabled (absent, null, -1, or -1 in the default currency).
func cyclePrices(n *yaml.Node, def string) map[string]string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || isNoPrice(v.Value) {
			continue
		}
		out[strings.ToUpper(n.Content[i].Value)] = v.Value
	}
	if _, ok := out[strings.ToUpper(def)]; !ok {
		return nil
	}
	return out
}

func readPrices(n *yaml.Node, def string) Prices {
	out := Prices{}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if c := cyclePrices(n.Content[i+1], def); c != nil {
			out[n.Content[i].Value] = c
		}
	}
	return out
}

// ReadForm reads the form's fields from a catalog source (YAML or JSON); cat, the same source
// parsed, names the promotions' products, and now dates their status.
func ReadForm(source []byte, cat *catalog.Catalog, now time.Time) (Form, error) {
	_, root, err := parseDoc(source)
	if err != nil {
		return Form{}, err
	}
	f := Form{DefaultCurrency: scalar(root, "defaultCurrency"), Currencies: []string{}, Cycles: []string{},
		Plans: []FormPlan{}, Promotions: []FormPromotion{}, Storefronts: []FormStorefront{}}
	for _, c := range catalog.Cycles {
		f.Cycles = append(f.Cycles, string(c))
	}
	for _, c := range seqOf(root, "currencies") {
		f.Currencies = append(f.Currencies, strings.ToUpper(scalar(c, "code")))
	}
	for _, p := range seqOf(root, "products") {
		opts := ints(field(p, "configOptions"))
		f.Plans = append(f.Plans, FormPlan{PID: intOf(p, "pid"), Group: scalar(p, "group"), Name: scalar(p, "name"),
			Trial: boolOf(p, "trial"), Extras: slices.Contains(opts, 2), Proxy: slices.Contains(opts, 4),
			Prices: readPrices(field(p, "cycles"), f.DefaultCurrency)})
	}
	for _, o := range seqOf(root, "configOptions") {
		opt := &FormOption{ID: intOf(o, "id"), Name: scalar(o, "name"), MaxQty: intOf(o, "maxQty"),
			Prices: readPrices(field(o, "pricing"), f.DefaultCurrency)}
		switch opt.ID {
		case 2:
			f.Extras = opt
		case 4:
			f.Proxy = opt
		}
	}
	for _, p := range seqOf(root, "promotions") {
		fp := FormPromotion{Code: scalar(p, "code"), Type: scalar(p, "type"), Value: scalar(p, "value"),
			AppliesTo: ints(field(p, "appliesTo")), StartDate: noDate(scalar(p, "startDate")),
			ExpirationDate: noDate(scalar(p, "expirationDate")), MaxUses: intOf(p, "maxUses"),
			Recurring: boolOf(p, "recurring"), Disabled: boolOf(p, "disabled")}
		fp.Status = PromoStatus(catalog.Promotion{StartDate: fp.StartDate, ExpirationDate: fp.ExpirationDate, Disabled: fp.Disabled}, now)
		if cat != nil {
			fp.Products = ProductNames(cat, fp.AppliesTo)
		}
		f.Promotions = append(f.Promotions, fp)
	}
	for _, s := range seqOf(root, "storefronts") {
		f.Storefronts = append(f.Storefronts, FormStorefront{Key: scalar(s, "key"), Name: scalar(s, "name"),
			Default: boolOf(s, "default"), DefaultCurrency: scalar(s, "defaultCurrency"), DefaultLocale: scalar(s, "defaultLocale"),
			AllowedOrigins: strs(field(s, "allowedOrigins"))})
	}
	return f, nil
}

func noDate(d string) string {
	if d == catalog.NoDate {
		return ""
	}
	return d
}

func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

func intNode(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func deleteField(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// setScalar sets key to v when its value reads differently, so a field left alone keeps its
// spelling and its comments.
func setScalar(m *yaml.Node, key, v string, mk func(string) *yaml.Node) {
	if scalar(m, key) == v && field(m, key) != nil {
		return
	}
	if n := field(m, key); n != nil && n.Kind == yaml.ScalarNode {
		repl := mk(v)
		repl.HeadComment, repl.LineComment, repl.FootComment = n.HeadComment, n.LineComment, n.FootComment
		setField(m, key, repl)
		return
	}
	setField(m, key, mk(v))
}

// setOptional sets key to v, or removes it when v is its zero ("", false, 0).
func setOptional(m *yaml.Node, key string, zero bool, set func()) {
	if zero {
		if field(m, key) != nil {
			deleteField(m, key)
		}
		return
	}
	set()
}

// writePrices makes the cycles mapping n (created under key in m when absent) carry want: a cycle
// whose prices read the same is left as written; a cycle want has not is removed (disabled).
func writePrices(m *yaml.Node, key string, want Prices, def string) {
	n := field(m, key)
	if n == nil || n.Kind != yaml.MappingNode {
		n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		setField(m, key, n)
	}
	for _, c := range catalog.Cycles {
		cycle := string(c)
		w := map[string]string{}
		for cur, v := range want[cycle] {
			if v = strings.TrimSpace(v); v != "" {
				w[strings.ToUpper(cur)] = v
			}
		}
		if len(w) == 0 {
			w = nil
		}
		had := cyclePrices(field(n, cycle), def)
		if maps.Equal(had, w) {
			continue
		}
		if w == nil {
			deleteField(n, cycle)
			continue
		}
		cn := field(n, cycle)
		if cn == nil || cn.Kind != yaml.MappingNode {
			cn = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
			setField(n, cycle, cn)
		}
		// Currencies in the file, matched without case, then new ones in the form's order.
		for i := 0; i+1 < len(cn.Content); i += 2 {
			cur := strings.ToUpper(cn.Content[i].Value)
			v, ok := w[cur]
			switch {
			case !ok:
				old := cn.Content[i+1]
				if !(old.Kind == yaml.ScalarNode && (old.Tag == "!!null" || isNoPrice(old.Value))) {
					cn.Content = append(cn.Content[:i], cn.Content[i+2:]...)
					i -= 2
				}
			case cn.Content[i+1].Value != v || isNoPrice(cn.Content[i+1].Value):
				cn.Content[i+1] = quoted(v)
			}
			delete(w, cur)
		}
		for _, cur := range slices.Sorted(maps.Keys(w)) {
			cn.Content = append(cn.Content, str(cur), quoted(w[cur]))
		}
	}
}

func setIDs(m *yaml.Node, key string, id int, on bool) {
	n := field(m, key)
	has := slices.Contains(ints(n), id)
	if has == on {
		return
	}
	if n == nil || n.Kind != yaml.SequenceNode {
		n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		setField(m, key, n)
	}
	if on {
		n.Content = append(n.Content, intNode(id))
		return
	}
	n.Content = slices.DeleteFunc(n.Content, func(x *yaml.Node) bool { return x.Value == strconv.Itoa(id) })
	if len(n.Content) == 0 {
		deleteField(m, key)
	}
}

func setInts(m *yaml.Node, key string, want []int) {
	if slices.Equal(ints(field(m, key)), want) {
		return
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, v := range want {
		seq.Content = append(seq.Content, intNode(v))
	}
	setField(m, key, seq)
}

func setStrs(m *yaml.Node, key string, want []string) {
	if slices.Equal(strs(field(m, key)), want) {
		return
	}
	if len(want) == 0 {
		deleteField(m, key)
		return
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, v := range want {
		seq.Content = append(seq.Content, str(v))
	}
	setField(m, key, seq)
}

func byKey(list []*yaml.Node, key, want string) *yaml.Node {
	for _, n := range list {
		if n.Kind == yaml.MappingNode && scalar(n, key) == want {
			return n
		}
	}
	return nil
}

// WriteForm writes f into the catalog source: each plan (by pid), add-on (by id), promotion (by
// code) and storefront (by key) gets the form's values in the YAML node tree, and every other
// field, entry and comment stays. A value that reads as before is left as written. The result is
// not checked: PUT and the check do that.
func WriteForm(source []byte, f Form) ([]byte, error) {
	doc, root, err := parseDoc(source)
	if err != nil {
		return nil, err
	}
	def := scalar(root, "defaultCurrency")
	products := seqOf(root, "products")
	for _, p := range f.Plans {
		n := byKey(products, "pid", strconv.Itoa(p.PID))
		if n == nil {
			return nil, fmt.Errorf("%w: no product with pid %d", ErrForm, p.PID)
		}
		setScalar(n, "name", p.Name, str)
		setOptional(n, "trial", !p.Trial, func() { setScalar(n, "trial", "true", func(string) *yaml.Node { return boolNode(true) }) })
		setIDs(n, "configOptions", 2, p.Extras)
		setIDs(n, "configOptions", 4, p.Proxy)
		writePrices(n, "cycles", p.Prices, def)
	}
	options := seqOf(root, "configOptions")
	for _, o := range []*FormOption{f.Extras, f.Proxy} {
		if o == nil {
			continue
		}
		n := byKey(options, "id", strconv.Itoa(o.ID))
		if n == nil {
			return nil, fmt.Errorf("%w: no config option %d", ErrForm, o.ID)
		}
		setScalar(n, "name", o.Name, str)
		if o.ID == 2 {
			setScalar(n, "maxQty", strconv.Itoa(o.MaxQty), func(v string) *yaml.Node { return intNode(o.MaxQty) })
		}
		writePrices(n, "pricing", o.Prices, def)
	}
	promos := seqOf(root, "promotions")
	for _, p := range f.Promotions {
		n := byKey(promos, "code", p.Code)
		if n == nil {
			return nil, fmt.Errorf("%w: no promotion %s", ErrForm, p.Code)
		}
		setScalar(n, "type", p.Type, str)
		setScalar(n, "value", p.Value, quoted)
		setInts(n, "appliesTo", p.AppliesTo)
		for key, v := range map[string]string{"startDate": p.StartDate, "expirationDate": p.ExpirationDate} {
			if noDate(scalar(n, key)) != v {
				setOptional(n, key, v == "", func() { setScalar(n, key, v, quoted) })
			}
		}
		if intOf(n, "maxUses") != p.MaxUses {
			setOptional(n, "maxUses", p.MaxUses == 0, func() { setField(n, "maxUses", intNode(p.MaxUses)) })
		}
		if boolOf(n, "recurring") != p.Recurring {
			setOptional(n, "recurring", !p.Recurring, func() { setField(n, "recurring", boolNode(true)) })
		}
		if boolOf(n, "disabled") != p.Disabled {
			setOptional(n, "disabled", !p.Disabled, func() { setField(n, "disabled", boolNode(true)) })
		}
	}
	fronts := seqOf(root, "storefronts")
	for _, s := range f.Storefronts {
		n := byKey(fronts, "key", s.Key)
		if n == nil {
			return nil, fmt.Errorf("%w: no storefront %s", ErrForm, s.Key)
		}
		setScalar(n, "name", s.Name, str)
		for key, v := range map[string]string{"defaultCurrency": s.DefaultCurrency, "defaultLocale": s.DefaultLocale} {
			if scalar(n, key) != v {
				setOptional(n, key, v == "", func() { setScalar(n, key, v, str) })
			}
		}
		setStrs(n, "allowedOrigins", s.AllowedOrigins)
	}
	// Values changed in place are written into the source's text, so the file keeps its layout
	// and the diff shows only them; a change of shape (a key added or removed, a cycle turned
	// on) re-encodes the document, keeping comments but not alignment or blank lines.
	if orig, _, err := parseDoc(source); err == nil {
		var edits []scalarEdit
		if sameShape(orig, doc, &edits) {
			if out, ok := splice(source, edits); ok {
				return out, nil
			}
		}
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("write form: %w", err)
	}
	return out.Bytes(), nil
}

// scalarEdit is a scalar of the source (at, with its position) whose value becomes to's.
type scalarEdit struct {
	at, to *yaml.Node
	flow   bool // inside a flow collection
}

// sameShape reports whether b is a with only scalar values changed, listing them.
func sameShape(a, b *yaml.Node, edits *[]scalarEdit) bool {
	return walkShape(a, b, false, edits)
}

func walkShape(a, b *yaml.Node, flow bool, edits *[]scalarEdit) bool {
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		if a.Value != b.Value {
			*edits = append(*edits, scalarEdit{at: a, to: b, flow: flow})
		}
		return true
	case yaml.AliasNode:
		return a.Value == b.Value
	case yaml.MappingNode:
		for i := 0; i+1 < len(a.Content); i += 2 {
			if a.Content[i].Value != b.Content[i].Value {
				return false
			}
		}
	}
	inner := flow || a.Style&yaml.FlowStyle != 0
	for i := range a.Content {
		if !walkShape(a.Content[i], b.Content[i], inner, edits) {
			return false
		}
	}
	return true
}

// splice writes the edits into source's text; false when a scalar's text cannot be found
// exactly (a multi-line or escaped scalar), for the caller to re-encode instead.
func splice(source []byte, edits []scalarEdit) ([]byte, bool) {
	lines := strings.SplitAfter(string(source), "\n")
	type cut struct {
		line, from, to int // rune offsets in the line
		text           string
	}
	cuts := make([]cut, 0, len(edits))
	for _, e := range edits {
		if e.at.Line < 1 || e.at.Line > len(lines) || e.at.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return nil, false
		}
		rs := []rune(strings.TrimRight(lines[e.at.Line-1], "\r\n"))
		from := e.at.Column - 1
		if from < 0 || from >= len(rs) {
			return nil, false
		}
		to, ok := scalarEnd(rs, from, e.at.Style, e.flow)
		if !ok || !sameText(string(rs[from:to]), e.at) {
			return nil, false
		}
		cuts = append(cuts, cut{e.at.Line - 1, from, to, scalarText(e.to)})
	}
	slices.SortFunc(cuts, func(a, b cut) int {
		if a.line != b.line {
			return b.line - a.line
		}
		return b.from - a.from
	})
	for _, c := range cuts {
		l := lines[c.line]
		end := strings.TrimRight(l, "\r\n")
		rs := []rune(end)
		lines[c.line] = string(rs[:c.from]) + c.text + string(rs[c.to:]) + l[len(end):]
	}
	return []byte(strings.Join(lines, "")), true
}

// scalarEnd is the rune offset just past the scalar starting at from.
func scalarEnd(rs []rune, from int, style yaml.Style, flow bool) (int, bool) {
	switch {
	case style&yaml.DoubleQuotedStyle != 0:
		for i := from + 1; i < len(rs); i++ {
			if rs[i] == '\\' {
				return 0, false
			}
			if rs[i] == '"' {
				return i + 1, true
			}
		}
		return 0, false
	case style&yaml.SingleQuotedStyle != 0:
		for i := from + 1; i < len(rs); i++ {
			if rs[i] == '\'' {
				if i+1 < len(rs) && rs[i+1] == '\'' {
					return 0, false
				}
				return i + 1, true
			}
		}
		return 0, false
	}
	end := len(rs)
	for i := from; i < len(rs); i++ {
		if (flow && (rs[i] == ',' || rs[i] == '}' || rs[i] == ']')) || (rs[i] == '#' && i > from && rs[i-1] == ' ') {
			end = i
			break
		}
	}
	for end > from && rs[end-1] == ' ' {
		end--
	}
	return end, end > from
}

func sameText(text string, n *yaml.Node) bool {
	switch {
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		return len(text) >= 2 && text[1:len(text)-1] == n.Value
	default:
		return text == n.Value
	}
}

// scalarText spells a new scalar: numbers and booleans plain, text plain when YAML reads it back
// as the same string, else double-quoted (a JSON string is a YAML double-quoted scalar).
func scalarText(n *yaml.Node) string {
	if n.Style&yaml.DoubleQuotedStyle == 0 && (n.Tag == "!!int" || n.Tag == "!!bool") {
		return n.Value
	}
	if n.Style&yaml.DoubleQuotedStyle == 0 {
		var back string
		if yaml.Unmarshal([]byte("v: "+n.Value), &struct {
			V *string `yaml:"v"`
		}{&back}) == nil && back == n.Value && plainSafe(n.Value) {
			return n.Value
		}
	}
	b, _ := json.Marshal(n.Value)
	return string(b)
}

// plainSafe is text a plain scalar keeps as the same string in block and flow context.
func plainSafe(s string) bool {
	if s == "" || strings.ContainsAny(s, ",[]{}#:\"'&*!|>%@`") || strings.TrimSpace(s) != s {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err != nil
}

// Diff is a unified diff of from → to (3 lines of context); empty when they are equal.
func Diff(fromName, toName string, from, to []byte) string {
	if bytes.Equal(from, to) {
		return ""
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: difflib.SplitLines(string(from)), B: difflib.SplitLines(string(to)),
		FromFile: fromName, ToFile: toName, Context: 3})
	if err != nil {
		return ""
	}
	return d
}
