package catalog_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

// head is the valid start of every case: lines 1-4.
const head = `defaultCurrency: EUR
currencies:
  - {code: EUR, rate: "1"}
  - {code: GBP, rate: "0.86"}
`

// plan is a valid products section at lines 5-10 (after head).
const plan = `products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {EUR: "9.99"}
`

func TestParseValid(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, c *catalog.Catalog)
	}{
		{"minimal", head + plan + "gateways: sandbox\n", func(t *testing.T, c *catalog.Catalog) {
			if len(c.Products) != 1 || len(c.Gateways) != 1 || c.Gateways[0].DisplayName != "sandbox" {
				t.Errorf("catalog = %+v", c)
			}
		}},
		{"apps and devices", head + plan + `gateways: sandbox
apps:
  - {name: Smarters, url: "https://x"}
  - {name: VLC, url: "https://y", setup: m3u}
devices:
  - {family: mag, name: MAG, portal: "http://{server}/c/"}
  - {family: enigma2, name: E2, command: "wget -O /tmp/i.sh 'http://{server}/get.php?username={username}&password={password}'"}
`, func(t *testing.T, c *catalog.Catalog) {
			if c.Apps[0].Setup != catalog.SetupXtream || c.Apps[1].Setup != catalog.SetupM3U {
				t.Errorf("apps = %+v, want setup xtream (the default) and m3u", c.Apps)
			}
			want := []catalog.Device{
				{Family: catalog.FamilyMAG, Name: "MAG", Portal: "http://{server}/c/"},
				{Family: catalog.FamilyEnigma2, Name: "E2", Command: "wget -O /tmp/i.sh 'http://{server}/get.php?username={username}&password={password}'"},
			}
			if !reflect.DeepEqual(c.Devices, want) {
				t.Errorf("devices = %+v, want %+v", c.Devices, want)
			}
			got := catalog.Expand(c.Devices[1].Command, "line.example:8000", "u1", "p1")
			if got != "wget -O /tmp/i.sh 'http://line.example:8000/get.php?username=u1&password=p1'" {
				t.Errorf("Expand = %q", got)
			}
		}},
		{"disabled cycles and converted currencies", head + `products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {EUR: 9.9, GBP: -1}
      quarterly: -1
      semiannually: ~
      annually: {EUR: "-1.00", GBP: "80"}
      onetime: {eur: 10}
gateways: sandbox-stripe
`, func(t *testing.T, c *catalog.Catalog) {
			want := map[catalog.Cycle]catalog.Price{catalog.Monthly: {"EUR": 990}, catalog.OneTime: {"EUR": 1000}}
			if !reflect.DeepEqual(c.Products[0].Cycles, want) {
				t.Errorf("cycles = %v, want %v", c.Products[0].Cycles, want)
			}
		}},
		{"amounts in each currency's own minor units (ISO 4217)", `defaultCurrency: JPY
currencies:
  - {code: JPY, rate: "1"}
  - {code: KWD, rate: "0.0021"}
  - {code: USD, rate: "0.0067"}
products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {JPY: 2078, KWD: "4.345", USD: 13.9}
promotions:
  - {code: YEN500, type: Fixed Amount, value: "500", appliesTo: [1]}
gateways: sandbox
`, func(t *testing.T, c *catalog.Catalog) {
			want := catalog.Price{"JPY": 2078, "KWD": 4345, "USD": 1390}
			if got := c.Products[0].Cycles[catalog.Monthly]; !reflect.DeepEqual(got, want) {
				t.Errorf("monthly = %v, want %v", got, want)
			}
		}},
		{"unquoted dates keep their text", head + plan + `promotions:
  - {code: D, type: Percentage, value: 5, appliesTo: [1], startDate: 2025-01-01, expirationDate: 0000-00-00}
gateways: sandbox
`, func(t *testing.T, c *catalog.Catalog) {
			p := c.Promotions[0]
			if p.StartDate != "2025-01-01" || p.ExpirationDate != catalog.NoDate || p.Value != "5" {
				t.Errorf("promotion = %+v", p)
			}
		}},
		{"promotion defaults", head + plan + `promotions:
  - {code: X1, type: Fixed Amount, value: 2.5, appliesTo: [1]}
gateways: [sandbox]
`, func(t *testing.T, c *catalog.Catalog) {
			p := c.Promotions[0]
			if p.StartDate != catalog.NoDate || p.ExpirationDate != catalog.NoDate || p.MaxUses != 0 || p.Value != "2.5" {
				t.Errorf("promotion = %+v", p)
			}
		}},
		{"yesno option gets 0..1, anchors resolve", head + `configOptions:
  - id: 4
    name: Proxy
    type: yesno
    pricing: {monthly: &p {EUR: 1}}
  - id: 9
    name: Other
    type: quantity
    maxQty: 2
    pricing: {monthly: *p}
products:
  - pid: 1
    group: plan
    name: Basic
    cycles: {monthly: {EUR: 5}}
    configOptions: [4, 9]
gateways: sandbox
`, func(t *testing.T, c *catalog.Catalog) {
			o, _ := c.Products[0].Option(4)
			if o.MinQty != 0 || o.MaxQty != 1 {
				t.Errorf("yesno option = %+v", o)
			}
			o9, _ := c.Products[0].Option(9)
			if o9.Pricing[catalog.Monthly]["EUR"] != 100 {
				t.Errorf("aliased pricing = %+v", o9)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := catalog.Parse("catalog.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty", "", []string{"catalog.yaml: catalog is empty"}},
		{"syntax error", "defaultCurrency: EUR\ncurrencies: [\n", []string{
			"catalog.yaml:2: did not find expected node content"}},
		{"not a mapping", "- 1\n", []string{"catalog.yaml:1: must be a mapping"}},
		{"missing sections and unknown field", "color: red\n", []string{
			`catalog.yaml:1: unknown field "color"`,
			`catalog.yaml:1: missing required field "defaultCurrency"`,
			`catalog.yaml:1: missing required field "currencies"`,
			`catalog.yaml:1: missing required field "products"`,
			`catalog.yaml:1: missing required field "gateways"`,
		}},
		{"currency not in ISO 4217, amounts finer than the currency", `defaultCurrency: JPY
currencies:
  - {code: JPY, rate: "1"}
  - {code: KWD, rate: "0.0021"}
  - {code: XYZ, rate: "2"}
products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {JPY: "2078.40", KWD: "4.3451"}
      annually: {JPY: "20000"}
promotions:
  - {code: YEN, type: Fixed Amount, value: "5.50", appliesTo: [1]}
gateways: sandbox
`, []string{
			`catalog.yaml:5: currencies[2].code: currency code "XYZ" is not an ISO 4217 currency`,
			`catalog.yaml:11: products[0].cycles.monthly.JPY: price "2078.40" has too many decimals: JPY has 0`,
			`catalog.yaml:11: products[0].cycles.monthly.KWD: price "4.3451" has too many decimals: KWD has 3`,
			`catalog.yaml:14: promotions[0].value: value "5.50" is not a decimal with at most 0 decimals (JPY)`,
		}},
		{"bad price, with line and path", head + `products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      monthly: {EUR: "9.99"}
  - pid: 2
    group: plan
    name: Plus
    cycles:
      monthly: {EUR: "9.9x"}
      annually: {EUR: 99.999}
gateways: sandbox
`, []string{
			`catalog.yaml:15: products[1].cycles.monthly.EUR: price "9.9x" is not a decimal amount`,
			`catalog.yaml:16: products[1].cycles.annually.EUR: price "99.999" has too many decimals: EUR has 2`,
		}},
		{"currency problems", `defaultCurrency: USD
currencies:
  - {code: EUR, rate: "1"}
  - {code: gbp, rate: "-2"}
  - {code: EUR, rate: "abc"}
  - {code: USD, rate: "1.08", symbol: "$"}
  - {rate: "0"}
` + plan + "gateways: sandbox\n", []string{
			`catalog.yaml:1: defaultCurrency: default currency USD must have rate 1, not "1.08"`,
			`catalog.yaml:4: currencies[1].code: currency code "gbp" must be 3 upper-case letters`,
			`catalog.yaml:4: currencies[1].rate: rate "-2" is not a positive decimal`,
			`catalog.yaml:5: currencies[2].code: currency "EUR" defined twice`,
			`catalog.yaml:5: currencies[2].rate: rate "abc" is not a positive decimal`,
			`catalog.yaml:6: currencies[3]: unknown field "symbol"`,
			`catalog.yaml:7: currencies[4]: missing required field "code"`,
			`catalog.yaml:7: currencies[4].rate: rate "0" is not a positive decimal`,
			`catalog.yaml:13: products[0].cycles.monthly: missing price in default currency USD`,
		}},
		{"default currency unknown", "defaultCurrency: CHF\n" + head[len("defaultCurrency: EUR\n"):] + plan + "gateways: sandbox\n", []string{
			`catalog.yaml:1: defaultCurrency: currency "CHF" is not among currencies`,
		}},
		{"no currencies", "defaultCurrency: EUR\ncurrencies: []\n" + plan + "gateways: sandbox\n", []string{
			`catalog.yaml:1: defaultCurrency: currency "EUR" is not among currencies`,
			`catalog.yaml:2: currencies: at least one currency is required`,
		}},
		{"cycle problems", head + `products:
  - pid: 1
    group: plan
    name: Basic
    cycles:
      weekly: {EUR: 1}
      monthly: {GBP: 1}
      quarterly: {EUR: 1, JPY: 2}
      annually: 5
      biennially: [1]
  - pid: 2
    group: plan
    name: Off
    cycles: {monthly: -1}
gateways: sandbox
`, []string{
			`catalog.yaml:10: products[0].cycles.weekly: unknown billing cycle "weekly" (want one of monthly, quarterly, semiannually, annually, biennially, triennially, onetime)`,
			`catalog.yaml:11: products[0].cycles.monthly: missing price in default currency EUR`,
			`catalog.yaml:12: products[0].cycles.quarterly.JPY: unknown currency "JPY"`,
			`catalog.yaml:13: products[0].cycles.annually: must be a mapping of currency to price, or -1 to disable the cycle`,
			`catalog.yaml:14: products[0].cycles.biennially: must be a mapping`,
			`catalog.yaml:18: products[1].cycles: at least one billing cycle must be enabled`,
		}},
		{"product problems", head + `products:
  - pid: 1
    group: plan
    name: Basic
    cycles: {monthly: {EUR: 1}}
    credits: 5
    hidden: maybe
  - pid: 1
    group: vip
    name: Dup
    cycles: {monthly: {EUR: 1}}
    configOptions: [7]
    customFields: [3]
    bouquets: [0, x]
  - pid: -3
    group: reseller
    name: Res
    cycles: {annually: {EUR: 1}}
  - pid: 5
    group: plan
    name: Trial
    trial: true
    cycles: {onetime: {EUR: 1, GBP: 0}}
  - group: plan
    cycles: {monthly: {EUR: 1}}
gateways: sandbox
`, []string{
			`catalog.yaml:10: products[0].credits: a plan's credits are its panel cost per billing cycle ({monthly: 1, quarterly: 3}); a number of credits only applies to reseller plans`,
			`catalog.yaml:11: products[0].hidden: "maybe" is not true or false`,
			`catalog.yaml:12: products[1].pid: pid 1 defined twice`,
			`catalog.yaml:13: products[1].group: group "vip" must be plan or reseller`,
			`catalog.yaml:16: products[1].configOptions[0]: unknown config option 7`,
			`catalog.yaml:17: products[1].customFields[0]: unknown custom field 3`,
			`catalog.yaml:18: products[1].bouquets[1]: "x" is not an integer`,
			`catalog.yaml:18: products[1].bouquets[0]: bouquet id must be positive`,
			`catalog.yaml:19: products[2].pid: pid must be positive`,
			`catalog.yaml:19: products[2]: a reseller plan needs positive credits`,
			`catalog.yaml:22: products[2].cycles: a reseller plan needs a monthly price (spec §9)`,
			`catalog.yaml:27: products[3].cycles.onetime.EUR: a trial product must be free`,
			`catalog.yaml:28: products[4]: missing required field "pid"`,
			`catalog.yaml:28: products[4]: missing required field "name"`,
		}},
		{"option and field problems", head + `configOptions:
  - {id: 2, name: Extra, type: yesno, pricing: {monthly: {EUR: 1}}}
  - {id: 4, name: Proxy, type: quantity, maxQty: 1, pricing: {monthly: {EUR: 1}}}
  - {id: 4, name: Again, type: slider, pricing: {monthly: {EUR: 1}}}
  - {id: 5, name: Q, type: quantity, minQty: 3, maxQty: 2, pricing: {monthly: -1}}
  - {id: 6, name: Y, type: yesno, maxQty: 2, pricing: {monthly: {EUR: 1}}}
customFields:
  - {id: 1, name: MAC}
  - {id: 1, name: Again, type: color, required: "yes please"}
products:
  - pid: 1
    group: plan
    name: Basic
    trial: true
    cycles: {onetime: {EUR: 0}}
    configOptions: [5, 5]
    customFields: [1, 1]
gateways: sandbox
`, []string{
			`catalog.yaml:6: configOptions[0].type: option 2 (extra connections) must be of type quantity`,
			`catalog.yaml:7: configOptions[1].type: option 4 (proxy protection) must be of type yesno`,
			`catalog.yaml:8: configOptions[2].id: option id 4 defined twice`,
			`catalog.yaml:8: configOptions[2].type: option type "slider" must be quantity or yesno`,
			`catalog.yaml:9: configOptions[3]: a quantity option needs 0 <= minQty <= maxQty and maxQty >= 1`,
			`catalog.yaml:9: configOptions[3].pricing: at least one cycle must be priced`,
			`catalog.yaml:10: configOptions[4]: a yesno option takes no minQty or maxQty`,
			`catalog.yaml:13: customFields[1].required: "yes please" is not true or false`,
			`catalog.yaml:13: customFields[1].id: custom field id 1 defined twice`,
			`catalog.yaml:13: customFields[1].type: custom field type "color" must be one of text, password, textarea, dropdown, tickbox, link`,
			`catalog.yaml:20: products[0].configOptions: a trial product takes no config options`,
			`catalog.yaml:20: products[0].configOptions[1]: config option 5 listed twice`,
			`catalog.yaml:21: products[0].customFields[1]: custom field 1 listed twice`,
		}},
		{"promotion problems", head + plan + `promotions:
  - {code: OK, type: Percentage, value: "10", appliesTo: [1]}
  - {code: OK, type: Discount, value: "ten", appliesTo: [2]}
  - {code: "BAD CODE", type: Percentage, value: "150", appliesTo: []}
  - {code: DATES, type: Fixed Amount, value: "0", appliesTo: [1], startDate: "2025-02-30", expirationDate: "31/12/2025", maxUses: -1}
  - {code: ORDER, type: Fixed Amount, value: "1.005", appliesTo: [1], startDate: "2025-03-01", expirationDate: "2025-02-28"}
  - {code: NOCODE}
  - {code: kickoff, type: Percentage, value: "10", appliesTo: [1]}
  - {code: "\u212AICKOFF", type: Percentage, value: "10", appliesTo: [1]}
  - {code: "ＫＩＣＫＯＦＦ", type: Percentage, value: "10", appliesTo: [1]}
  - {code: ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456, type: Percentage, value: "10", appliesTo: [1]}
  - {code: "", type: Percentage, value: "10", appliesTo: [1]}
  - {code: KICK.OFF, type: Percentage, value: "10", appliesTo: [1]}
gateways: sandbox
`, []string{
			`catalog.yaml:13: promotions[1].code: promotion code "OK" defined twice`,
			`catalog.yaml:13: promotions[1].type: promotion type "Discount" must be "Percentage" or "Fixed Amount"`,
			`catalog.yaml:13: promotions[1].value: value "ten" is not a decimal with at most 2 decimals`,
			`catalog.yaml:13: promotions[1].appliesTo[0]: unknown pid 2`,
			`catalog.yaml:14: promotions[2].code: promotion code "BAD CODE" must be 1 to 32 of A-Z, 0-9, - or _`,
			`catalog.yaml:14: promotions[2].value: a percentage cannot exceed 100`,
			`catalog.yaml:14: promotions[2].appliesTo: list at least one pid`,
			`catalog.yaml:15: promotions[3].value: value must be positive`,
			`catalog.yaml:15: promotions[3].startDate: date "2025-02-30" must be YYYY-MM-DD or 0000-00-00`,
			`catalog.yaml:15: promotions[3].expirationDate: date "31/12/2025" must be YYYY-MM-DD or 0000-00-00`,
			`catalog.yaml:15: promotions[3].maxUses: maxUses must be 0 (unlimited) or more`,
			`catalog.yaml:16: promotions[4].value: value "1.005" is not a decimal with at most 2 decimals (EUR)`,
			`catalog.yaml:16: promotions[4].expirationDate: expires (2025-02-28) before it starts (2025-03-01)`,
			`catalog.yaml:17: promotions[5]: missing required field "type"`,
			`catalog.yaml:17: promotions[5]: missing required field "value"`,
			`catalog.yaml:17: promotions[5]: missing required field "appliesTo"`,
			`catalog.yaml:18: promotions[6].code: promotion code "kickoff" must be 1 to 32 of A-Z, 0-9, - or _ (write it "KICKOFF")`,
			`catalog.yaml:19: promotions[7].code: promotion code "\u212aICKOFF" must be 1 to 32 of A-Z, 0-9, - or _ (write it "KICKOFF")`,
			`catalog.yaml:20: promotions[8].code: promotion code "\uff2b\uff29\uff23\uff2b\uff2f\uff26\uff26" must be 1 to 32 of A-Z, 0-9, - or _ (write it "KICKOFF")`,
			`catalog.yaml:21: promotions[9].code: promotion code "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456" must be 1 to 32 of A-Z, 0-9, - or _`,
			`catalog.yaml:22: promotions[10].code: promotion code "" must be 1 to 32 of A-Z, 0-9, - or _`,
			`catalog.yaml:23: promotions[11].code: promotion code "KICK.OFF" must be 1 to 32 of A-Z, 0-9, - or _`,
		}},
		{"no gateway", head + plan + "gateways: \"-\"\n", []string{
			`catalog.yaml:11: gateways: at least one gateway is required`,
		}},
		{"gateway problems", head + plan + `gateways: sandbox-Stripe-sandbox
gatewayNames:
  sandbox: Card
  Bad-Name: X
apps:
  - {name: VLC, url: "ftp://x"}
  - {platform: iOS}
cards:
  - {title: Help, url: "javascript:alert(1)"}
  - {text: no title}
`, []string{
			`catalog.yaml:11: gateways[1]: gateway module "Stripe" must be lower-case letters, digits or _`,
			`catalog.yaml:14: gatewayNames.Bad-Name: gateway module "Bad-Name" must be lower-case letters, digits or _`,
			`catalog.yaml:16: apps[0].url: url "ftp://x" must start with https://, http://, mailto: or /`,
			`catalog.yaml:17: apps[1]: missing required field "name"`,
			`catalog.yaml:17: apps[1]: missing required field "url"`,
			`catalog.yaml:19: cards[0].url: url "javascript:alert(1)" must start with https://, http://, mailto: or /`,
			`catalog.yaml:20: cards[1]: missing required field "title"`,
		}},
		{"device problems", head + plan + `gateways: sandbox
apps:
  - {name: VLC, url: "https://x", setup: hls}
devices:
  - {family: roku, name: Roku}
  - {family: mag, name: MAG}
  - {family: mag, name: MAG, portal: "ftp://{server}/c/", command: x}
  - {family: enigma2, name: E2, command: "wget 'http://{host}/{username}'"}
  - {family: enigma2, name: E2, portal: "http://{server}/c/"}
  - {name: nameless}
  - {family: enigma2, name: E2, command: "echo '{server}' {username}"}
  - {family: enigma2, name: E2, command: "wget http://{server}/x"}
`, []string{
			`catalog.yaml:13: apps[0].setup: setup "hls" must be xtream or m3u`,
			`catalog.yaml:15: devices[0].family: family "roku" must be mag or enigma2`,
			`catalog.yaml:16: devices[1]: missing required field "portal"`,
			`catalog.yaml:17: devices[2].portal: portal "ftp://{server}/c/" must start with http:// or https://`,
			`catalog.yaml:17: devices[2].command: mag devices take a portal, not a command`,
			`catalog.yaml:18: devices[3].command: unknown placeholder {host} (use {server}, {username}, {password})`,
			`catalog.yaml:19: devices[4]: missing required field "command"`,
			`catalog.yaml:19: devices[4].portal: enigma2 devices take a command, not a portal`,
			`catalog.yaml:20: devices[5]: missing required field "family"`,
			`catalog.yaml:21: devices[6].command: put {server}, {username}, {password} inside quotes ('http://{server}/get.php?username={username}&…'): outside them the command splits at the URL's & on the receiver`,
			`catalog.yaml:22: devices[7].command: put {server}, {username}, {password} inside quotes ('http://{server}/get.php?username={username}&…'): outside them the command splits at the URL's & on the receiver`,
		}},
		{"repeated keys", head + plan + "gateways: sandbox\ngateways: stripe\n", []string{
			`catalog.yaml:12: field "gateways" repeated`,
		}},
		{"wrong shapes", `defaultCurrency: [EUR]
currencies: {EUR: 1}
products: plan
gateways: {a: b}
apps: 3
`, []string{
			`catalog.yaml:1: defaultCurrency: must be a string`,
			`catalog.yaml:1: defaultCurrency: currency "" is not among currencies`,
			`catalog.yaml:2: currencies: must be a list`,
			`catalog.yaml:2: currencies: at least one currency is required`,
			`catalog.yaml:3: products: must be a list`,
			`catalog.yaml:3: products: at least one product is required`,
			`catalog.yaml:4: gateways: must be a hyphen-separated string or a list`,
			`catalog.yaml:5: apps: must be a list`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := catalog.Parse("catalog.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", c)
			}
			if !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("error %v is not ErrInvalid", err)
			}
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) != len(tt.want) {
				t.Errorf("got %d problems, want %d", len(ve.Problems), len(tt.want))
			}
			got := strings.Split(err.Error(), "\n")
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A plan's credits are its panel cost per billing cycle: a cycle not listed costs 0, a cycle
// that does not exist or a negative cost is refused.
func TestPlanCredits(t *testing.T) {
	p, ok := catalog.Demo().Product(2)
	if !ok || p.CreditCost(catalog.Monthly) != 1 || p.CreditCost(catalog.Annually) != 12 || p.CreditCost(catalog.Biennially) != 0 || p.MaxCreditCost() != 12 {
		t.Fatalf("demo plan 2 credits %v", p.Credits)
	}
	if trial, _ := catalog.Demo().Product(1); trial.MaxCreditCost() != 0 {
		t.Fatalf("the demo trial costs %v credits, want none", trial.Credits)
	}
	for _, tc := range []struct{ credits, problem string }{
		{"{weekly: 1}", `unknown billing cycle "weekly"`},
		{"{monthly: -1}", "credits must be 0 or more"},
		{"{monthly: x}", "is not an integer"},
	} {
		_, err := catalog.Parse("catalog.yaml", []byte(`currencies: [{code: EUR, default: true}]
products:
  - pid: 2
    group: plan
    name: P
    cycles: {monthly: {EUR: 1}}
    credits: `+tc.credits+`
gateways: sandbox
`))
		if err == nil || !strings.Contains(err.Error(), tc.problem) {
			t.Errorf("credits %s: %v, want %q", tc.credits, err, tc.problem)
		}
	}
}
