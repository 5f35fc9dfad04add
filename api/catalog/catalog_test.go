package catalog_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

func pids(ps []catalog.Product) []int {
	out := []int{}
	for _, p := range ps {
		out = append(out, p.PID)
	}
	return out
}

func TestDemoShape(t *testing.T) {
	c := catalog.Demo()

	if c.DefaultCurrency != "EUR" {
		t.Errorf("default currency = %q, want EUR", c.DefaultCurrency)
	}
	wantCur := []catalog.Currency{
		{Code: "EUR", Rate: "1", Prefix: "€"},
		{Code: "USD", Rate: "1.08", Prefix: "$"},
		{Code: "GBP", Rate: "0.86", Prefix: "£"},
	}
	if !reflect.DeepEqual(c.Currencies, wantCur) {
		t.Errorf("currencies = %+v, want %+v", c.Currencies, wantCur)
	}

	if got := pids(c.Plans()); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("Plans() = %v, want [1 2 3] (first-three rule)", got)
	}
	if p, ok := c.Product(4); !ok || p.Group != catalog.GroupPlan || p.Hidden {
		t.Errorf("pid 4 must exist as a visible plan beyond the first three, got %+v %v", p, ok)
	}
	if got := pids(c.Resellers()); !slices.Equal(got, []int{10, 11}) {
		t.Errorf("Resellers() = %v, want [10 11]", got)
	}
	for _, r := range c.Resellers() {
		if r.ResellerCredits <= 0 {
			t.Errorf("reseller %d has no credits", r.PID)
		}
		if _, ok := r.Cycles[catalog.Monthly]; !ok {
			t.Errorf("reseller %d has no monthly price", r.PID)
		}
	}

	trial, _ := c.Product(1)
	if !trial.Trial || trial.Name != "Free Trial" || len(trial.ConfigOptions) != 0 {
		t.Errorf("pid 1 = %+v, want a free trial without options", trial)
	}
	if got := trial.EnabledCycles(); !slices.Equal(got, []catalog.Cycle{catalog.OneTime}) {
		t.Errorf("trial cycles = %v, want [onetime]", got)
	}
	if trial.Cycles[catalog.OneTime]["EUR"] != 0 {
		t.Errorf("trial price = %v, want 0", trial.Cycles[catalog.OneTime])
	}

	usdConverted := false
	for _, pid := range []int{2, 3} {
		p, _ := c.Product(pid)
		want := []catalog.Cycle{catalog.Monthly, catalog.Quarterly, catalog.Semiannually, catalog.Annually}
		if got := p.EnabledCycles(); !slices.Equal(got, want) {
			t.Errorf("pid %d cycles = %v, want %v", pid, got, want)
		}
		for cy, price := range p.Cycles {
			if price["EUR"] <= 0 || price["GBP"] <= 0 {
				t.Errorf("pid %d %s: EUR and GBP must be explicit, got %v", pid, cy, price)
			}
			if _, ok := price["USD"]; !ok {
				usdConverted = true
			}
		}
		if p.SaveBadge == "" || p.Guarantee == "" {
			t.Errorf("pid %d lacks save badge or guarantee", pid)
		}
		ex, ok := p.Option(catalog.ExtraConnectionsOption)
		if !ok || ex.Type != catalog.OptionQuantity || ex.MaxQty != 4 || ex.Name != "Extra connections" {
			t.Errorf("pid %d extra connections option = %+v", pid, ex)
		}
		px, ok := p.Option(catalog.ProxyProtectionOption)
		if !ok || px.Type != catalog.OptionYesNo || px.Name != "Proxy protection" {
			t.Errorf("pid %d proxy option = %+v", pid, px)
		}
		if len(p.CustomFields) == 0 {
			t.Errorf("pid %d has no custom fields", pid)
		}
	}
	if !usdConverted {
		t.Error("at least one paid plan must leave USD to conversion")
	}
	if p, _ := c.Product(3); p.SoldBadge == "" {
		t.Error("pid 3 has no sold badge")
	}

	welcome, ok := c.Promotion("WELCOME10")
	if !ok || welcome.Type != catalog.PromoPercentage || welcome.Value != "10" ||
		!slices.Equal(welcome.AppliesTo, []int{2, 3, 4}) || welcome.ExpirationDate != catalog.NoDate || welcome.MaxUses != 0 {
		t.Errorf("WELCOME10 = %+v", welcome)
	}
	save, ok := c.Promotion("SAVE5")
	if !ok || save.Type != catalog.PromoFixed || save.Value != "5.00" || !slices.Equal(save.AppliesTo, []int{3}) ||
		save.StartDate != catalog.NoDate || save.ExpirationDate != catalog.NoDate {
		t.Errorf("SAVE5 = %+v", save)
	}
	summer, ok := c.Promotion("SUMMER2020")
	if !ok || summer.ExpirationDate != "2020-08-31" {
		t.Errorf("SUMMER2020 = %+v", summer)
	}

	if want := []catalog.Gateway{{Module: "sandbox", DisplayName: "Card (sandbox)"}}; !reflect.DeepEqual(c.Gateways, want) {
		t.Errorf("gateways = %+v, want %+v", c.Gateways, want)
	}
	if c.DefaultGateway().Module != "sandbox" {
		t.Errorf("default gateway = %+v", c.DefaultGateway())
	}
	names := []string{}
	for _, a := range c.Apps {
		names = append(names, a.Name)
		if !strings.HasPrefix(a.URL, "https://") || a.Platform == "" {
			t.Errorf("app %+v needs an https URL and a platform", a)
		}
	}
	for _, want := range []string{"IPTV Smarters Pro", "TiviMate", "VLC media player"} {
		if !slices.Contains(names, want) {
			t.Errorf("apps %v lack %q", names, want)
		}
	}
	if len(c.Cards) < 3 {
		t.Errorf("cards = %d, want at least 3", len(c.Cards))
	}
}

func TestDemoIsSharedAndYAMLIsACopy(t *testing.T) {
	if first, again := catalog.Demo(), catalog.Demo(); first != again {
		t.Error("Demo() must parse once")
	}
	y := catalog.DemoYAML()
	c, err := catalog.Parse("demo.yaml", y)
	if err != nil {
		t.Fatal(err)
	}
	// Demo() has its legal pages read too (Parse names the files, ReadLegal reads them).
	if err := c.ReadLegal("demo.yaml", catalog.DemoLegal()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, catalog.Demo()) {
		t.Error("parsing DemoYAML() differs from Demo()")
	}
	y[0] = '!'
	if catalog.DemoYAML()[0] == '!' {
		t.Error("DemoYAML() must return a copy")
	}
}

func TestLookups(t *testing.T) {
	c := catalog.Demo()
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"currency lower case", has(c.Currency("gbp")), true},
		{"currency unknown", has(c.Currency("JPY")), false},
		{"promotion lower case", has(c.Promotion("welcome10")), true},
		{"promotion padded", has(c.Promotion(" WELCOME10\t")), true},
		{"promotion fullwidth", has(c.Promotion("ＷＥＬＣＯＭＥ１０")), true},
		{"promotion inner space", has(c.Promotion("WELCOME 10")), false},
		{"promotion dotted i", has(c.Promotion("WELCOME10\u0307")), false},
		{"promotion unknown", has(c.Promotion("NOPE")), false},
		{"gateway", has(c.Gateway("sandbox")), true},
		{"gateway not enabled", has(c.Gateway("stripe")), false},
		{"product", has(c.Product(11)), true},
		{"product unknown", has(c.Product(99)), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: found = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if cur, _ := c.Currency("usd"); cur.Code != "USD" {
		t.Errorf("Currency(usd).Code = %q", cur.Code)
	}
	if c.Default().Code != "EUR" {
		t.Errorf("Default() = %+v", c.Default())
	}
	got := c.GatewaysFor([]string{"stripe", "custom"})
	want := []catalog.Gateway{{Module: "stripe", DisplayName: "Card (Stripe)"}, {Module: "custom", DisplayName: "custom"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GatewaysFor = %+v, want %+v", got, want)
	}
}

func has[T any](_ T, ok bool) bool { return ok }

func TestParseGatewayList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"sandbox", []string{"sandbox"}},
		{"sandbox-stripe", []string{"sandbox", "stripe"}},
		{" offshore - coinbase -cryptomus ", []string{"offshore", "coinbase", "cryptomus"}},
		{"stripe--stripe-", []string{"stripe"}},
		{"", nil},
		{"-", nil},
	}
	for _, tt := range tests {
		if got := catalog.ParseGatewayList(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("ParseGatewayList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCycles(t *testing.T) {
	tests := []struct {
		c      catalog.Cycle
		label  string
		months int
	}{
		{catalog.Monthly, "Monthly", 1},
		{catalog.Quarterly, "Quarterly", 3},
		{catalog.Semiannually, "Semi-Annually", 6},
		{catalog.Annually, "Annually", 12},
		{catalog.Biennially, "Biennially", 24},
		{catalog.Triennially, "Triennially", 36},
		{catalog.OneTime, "One Time", 0},
	}
	if len(tests) != len(catalog.Cycles) {
		t.Fatalf("Cycles has %d entries, want %d", len(catalog.Cycles), len(tests))
	}
	for i, tt := range tests {
		if catalog.Cycles[i] != tt.c || !tt.c.Valid() || tt.c.Label() != tt.label || tt.c.Months() != tt.months {
			t.Errorf("cycle %d: %q label %q months %d", i, catalog.Cycles[i], tt.c.Label(), tt.c.Months())
		}
	}
	if catalog.Cycle("weekly").Valid() {
		t.Error("weekly must not be valid")
	}
	p := catalog.Product{Cycles: map[catalog.Cycle]catalog.Price{
		catalog.OneTime: {}, catalog.Annually: {}, catalog.Monthly: {},
	}}
	if got := p.EnabledCycles(); !slices.Equal(got, []catalog.Cycle{catalog.Monthly, catalog.Annually, catalog.OneTime}) {
		t.Errorf("EnabledCycles = %v", got)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(path, catalog.DemoYAML(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Load(path)
	if err != nil || len(c.Products) != len(catalog.Demo().Products) {
		t.Fatalf("Load = %v, %v", c, err)
	}
	if _, err := catalog.Load(filepath.Join(dir, "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) error = %v, want ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("defaultCurrency: EUR\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = catalog.Load(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+":1: ") {
		t.Errorf("Load(bad) error = %v, want it to start with %q", err, bad+":1: ")
	}
}

func TestParseJSON(t *testing.T) {
	src := `{
  "defaultCurrency": "EUR",
  "currencies": [{"code": "EUR", "rate": "1", "prefix": "€"}],
  "products": [{"pid": 7, "group": "plan", "name": "Basic",
                "cycles": {"monthly": {"EUR": 9.99}, "annually": {"EUR": "-1"}}}],
  "gateways": ["sandbox", "stripe"]
}`
	c, err := catalog.Parse("catalog.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Product(7)
	if !reflect.DeepEqual(p.Cycles, map[catalog.Cycle]catalog.Price{catalog.Monthly: {"EUR": 999}}) {
		t.Errorf("cycles = %v", p.Cycles)
	}
	if len(c.Gateways) != 2 || c.Gateways[1].Module != "stripe" {
		t.Errorf("gateways = %+v", c.Gateways)
	}
}

// TestCanonicalPromoCode: every spelling of a code is one code (trimmed, NFKC, upper case), and
// a canonical form outside [A-Z0-9_-]{1,32} is no code at all.
func TestCanonicalPromoCode(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"KICKOFF", "KICKOFF", true},
		{"kickoff", "KICKOFF", true},
		{" KICKOFF \n", "KICKOFF", true},
		{"ＫＩＣＫＯＦＦ", "KICKOFF", true},             // fullwidth
		{"\u212AICKOFF", "KICKOFF", true},        // Kelvin sign
		{"\u212Aickoff", "KICKOFF", true},        // Kelvin sign, lower case
		{"\u3000KICKOFF\u3000", "KICKOFF", true}, // ideographic spaces
		{"kick-off_2", "KICK-OFF_2", true},
		{"KICK OFF", "KICK OFF", false},
		{"KICKÖFF", "KICKÖFF", false},
		{"", "", false},
		{"   ", "", false},
		{strings.Repeat("A", 32), strings.Repeat("A", 32), true},
		{strings.Repeat("A", 33), strings.Repeat("A", 33), false},
	}
	for _, tc := range tests {
		got, ok := catalog.CanonicalPromoCode(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CanonicalPromoCode(%+q) = %+q, %v; want %+q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestParseConsent: consent is optional (no box asked for), {checkbox: true} asks for one, and
// anything else is refused like any other malformed entry.
func TestParseConsent(t *testing.T) {
	base := `defaultCurrency: EUR
currencies: [{code: EUR, rate: "1"}]
products: [{pid: 1, group: plan, name: A, cycles: {monthly: {EUR: "1.00"}}}]
gateways: sandbox
`
	for _, tc := range []struct {
		extra string
		want  bool
		err   string
	}{
		{"", false, ""},
		{"consent: {checkbox: false}\n", false, ""},
		{"consent: {checkbox: true}\n", true, ""},
		{"consent: {checkbox: yes please}\n", false, "consent.checkbox"},
		{"consent: {box: true}\n", false, "consent"},
	} {
		c, err := catalog.Parse("catalog.yaml", []byte(base+tc.extra))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one naming %s", tc.extra, err, tc.err)
			}
			continue
		}
		if err != nil || c.Consent.Checkbox != tc.want {
			t.Errorf("%q: checkbox %v, err %v; want %v", tc.extra, c != nil && c.Consent.Checkbox, err, tc.want)
		}
	}
}
