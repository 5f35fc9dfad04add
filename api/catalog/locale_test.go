package catalog_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

func TestLocaleChain(t *testing.T) {
	tests := []struct {
		locale string
		want   []string
	}{
		{"", nil},
		{"en", []string{"en"}},
		{"en-us", []string{"en-us", "en"}},
		{"en-GB", []string{"en-gb", "en"}},
		{"de_DE", []string{"de-de"}},
		{"pt-pt", []string{"pt-pt"}},
		{"en-au", []string{"en"}},
		{"fr-fr", nil},
		{"de", nil},
	}
	for _, tt := range tests {
		if got := catalog.LocaleChain(tt.locale); !slices.Equal(got, tt.want) {
			t.Errorf("LocaleChain(%q) = %q, want %q", tt.locale, got, tt.want)
		}
	}
}

// translated is a catalog with every kind of translation and the fallbacks
// between them.
const translated = head + `configOptions:
  - id: 4
    name: Proxy protection
    type: yesno
    pricing: {monthly: {EUR: 1}}
    i18n: {de-de: {name: Proxy-Schutz}}
customFields:
  - id: 1
    name: MAC address
    description: Only for MAG boxes.
    i18n: {de-de: {name: MAC-Adresse}}
products:
  - pid: 1
    group: plan
    name: Basic
    description: One screen.
    features: [Live TV, Catch-up, EPG]
    saveBadge: Save 10%
    guarantee: Money back
    cycles: {monthly: {EUR: 5}}
    configOptions: [4]
    customFields: [1]
    i18n:
      en: {guarantee: Money back guarantee}
      en-us: {description: One screen at a time.}
      de-de:
        name: Basis
        features: [Live-TV, Sendungen nachträglich ansehen]
        saveBadge: 10 % sparen
gateways: sandbox-stripe
gatewayNames: {sandbox: Card (sandbox), stripe: Card (Stripe)}
gatewayNamesI18n:
  de-de: {sandbox: Karte (Sandbox)}
apps:
  - name: Kodi
    platform: Android, desktop
    url: https://kodi.tv/
    i18n: {de-de: {platform: "Android, Computer"}}
cards:
  - title: Setup guide
    text: Enter your details.
    i18n: {de-de: {title: Einrichtungsanleitung}, en-gb: {text: Enter your particulars.}}
`

func TestProductLocalized(t *testing.T) {
	c, err := catalog.Parse("catalog.yaml", []byte(translated))
	if err != nil {
		t.Fatal(err)
	}
	base := c.Products[0]
	tests := []struct {
		locale                              string
		name, description, badge, guarantee string
		features                            []string
		option, field, fieldDesc            string
	}{
		{"", "Basic", "One screen.", "Save 10%", "Money back", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
		{"en", "Basic", "One screen.", "Save 10%", "Money back guarantee", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
		{"en-us", "Basic", "One screen at a time.", "Save 10%", "Money back guarantee", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
		{"en-gb", "Basic", "One screen.", "Save 10%", "Money back guarantee", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
		{"de-de", "Basis", "One screen.", "10 % sparen", "Money back", []string{"Live-TV", "Sendungen nachträglich ansehen"}, "Proxy-Schutz", "MAC-Adresse", "Only for MAG boxes."},
		{"es-es", "Basic", "One screen.", "Save 10%", "Money back", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
		{"xx", "Basic", "One screen.", "Save 10%", "Money back", []string{"Live TV", "Catch-up", "EPG"}, "Proxy protection", "MAC address", "Only for MAG boxes."},
	}
	for _, tt := range tests {
		t.Run(tt.locale, func(t *testing.T) {
			p := base.Localized(tt.locale)
			got := []string{p.Name, p.Description, p.SaveBadge, p.Guarantee, p.ConfigOptions[0].Name, p.CustomFields[0].Name, p.CustomFields[0].Description}
			want := []string{tt.name, tt.description, tt.badge, tt.guarantee, tt.option, tt.field, tt.fieldDesc}
			if !slices.Equal(got, want) || !slices.Equal(p.Features, tt.features) {
				t.Errorf("got %q %q, want %q %q", got, p.Features, want, tt.features)
			}
		})
	}
	// Localizing copies: the shared catalog keeps its base texts.
	if c.Products[0].Name != "Basic" || c.Products[0].ConfigOptions[0].Name != "Proxy protection" {
		t.Errorf("Localized changed the catalog: %+v", c.Products[0])
	}
}

func TestCatalogLocalized(t *testing.T) {
	c, err := catalog.Parse("catalog.yaml", []byte(translated))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		locale                    string
		gateways                  []catalog.Gateway
		platform, title, cardText string
	}{
		{"", []catalog.Gateway{{Module: "sandbox", DisplayName: "Card (sandbox)"}, {Module: "stripe", DisplayName: "Card (Stripe)"}}, "Android, desktop", "Setup guide", "Enter your details."},
		{"de-de", []catalog.Gateway{{Module: "sandbox", DisplayName: "Karte (Sandbox)"}, {Module: "stripe", DisplayName: "Card (Stripe)"}}, "Android, Computer", "Einrichtungsanleitung", "Enter your details."},
		{"en-gb", []catalog.Gateway{{Module: "sandbox", DisplayName: "Card (sandbox)"}, {Module: "stripe", DisplayName: "Card (Stripe)"}}, "Android, desktop", "Setup guide", "Enter your particulars."},
	}
	for _, tt := range tests {
		t.Run(tt.locale, func(t *testing.T) {
			l := c.Localized(tt.locale)
			if !reflect.DeepEqual(l.Gateways, tt.gateways) {
				t.Errorf("gateways = %+v, want %+v", l.Gateways, tt.gateways)
			}
			if l.Apps[0].Platform != tt.platform || l.Apps[0].Name != "Kodi" || l.Cards[0].Title != tt.title || l.Cards[0].Text != tt.cardText {
				t.Errorf("apps %+v cards %+v", l.Apps, l.Cards)
			}
			if l.Products[0].Name != c.Products[0].Localized(tt.locale).Name {
				t.Errorf("product name %q", l.Products[0].Name)
			}
		})
	}
	if c.Gateways[0].DisplayName != "Card (sandbox)" || c.Cards[0].Title != "Setup guide" {
		t.Error("Localized changed the catalog")
	}
	for _, tt := range []struct{ module, locale, want string }{
		{"sandbox", "de-de", "Karte (Sandbox)"},
		{"sandbox", "nl-nl", "Card (sandbox)"},
		{"stripe", "de-de", "Card (Stripe)"},
		{"paypal", "de-de", "paypal"},
	} {
		if got := c.GatewayName(tt.module, tt.locale); got != tt.want {
			t.Errorf("GatewayName(%q, %q) = %q, want %q", tt.module, tt.locale, got, tt.want)
		}
	}
}

func TestParseTranslationProblems(t *testing.T) {
	src := head + `products:
  - pid: 1
    group: plan
    name: Basic
    cycles: {monthly: {EUR: 1}}
    i18n:
      fr-fr: {name: Base}
      de-de:
        name: Basis
        soldBadge: Bestseller
        features: [Live-TV]
        pid: 2
      es-es: Básico
gateways: sandbox
gatewayNames: {sandbox: Card}
gatewayNamesI18n:
  de-de: {sandbox: Karte, stripe: Karte (Stripe)}
  DE: {sandbox: Karte}
cards:
  - title: Guide
    i18n: {nl-nl: {title: Gids, text: Tekst}}
`
	want := []string{
		`catalog.yaml:11: products[0].i18n.fr-fr: unknown locale "fr-fr" (want one of en, en-us, en-gb, de-de, es-es, nl-nl, pt-pt)`,
		`catalog.yaml:14: products[0].i18n.de-de.soldBadge: translates soldBadge, which the base text leaves empty`,
		`catalog.yaml:15: products[0].i18n.de-de.features: translates features, which the base text leaves empty`,
		`catalog.yaml:16: products[0].i18n.de-de: unknown field "pid"`,
		`catalog.yaml:17: products[0].i18n.es-es: must be a mapping`,
		`catalog.yaml:21: gatewayNamesI18n.de-de.stripe: gateway module "stripe" has no base name in gatewayNames`,
		`catalog.yaml:22: gatewayNamesI18n.DE: unknown locale "DE" (want one of en, en-us, en-gb, de-de, es-es, nl-nl, pt-pt)`,
		`catalog.yaml:25: cards[0].i18n.nl-nl.text: translates text, which the base text leaves empty`,
	}
	_, err := catalog.Parse("catalog.yaml", []byte(src))
	if err == nil {
		t.Fatal("Parse accepted it")
	}
	if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Every text of the demo catalog is translated into the four other
// languages: a German page shows no English catalog text.
func TestDemoFullyTranslated(t *testing.T) {
	c := catalog.Demo()
	for _, locale := range []string{"de-de", "es-es", "nl-nl", "pt-pt"} {
		l := c.Localized(locale)
		var missing []string
		same := func(what, base, got string) {
			// Brand-like names may read the same in every language.
			if base != "" && base == got && !alike(locale, base) {
				missing = append(missing, what+": "+base)
			}
		}
		for i, p := range l.Products {
			b := c.Products[i]
			same("name", b.Name, p.Name)
			same("description", b.Description, p.Description)
			same("saveBadge", b.SaveBadge, p.SaveBadge)
			same("soldBadge", b.SoldBadge, p.SoldBadge)
			same("guarantee", b.Guarantee, p.Guarantee)
			for _, f := range p.Features {
				if slices.Contains(b.Features, f) && !alike(locale, f) {
					missing = append(missing, "feature: "+f)
				}
			}
			for j, o := range p.ConfigOptions {
				same("option", b.ConfigOptions[j].Name, o.Name)
			}
			for j, f := range p.CustomFields {
				same("field", b.CustomFields[j].Name, f.Name)
				same("field description", b.CustomFields[j].Description, f.Description)
			}
		}
		for i, a := range l.Apps {
			same("app platform", c.Apps[i].Platform, a.Platform)
		}
		for i, card := range l.Cards {
			same("card title", c.Cards[i].Title, card.Title)
			same("card text", c.Cards[i].Text, card.Text)
		}
		for m, name := range l.GatewayNames {
			same("gateway "+m, c.GatewayNames[m], name)
		}
		if len(missing) > 0 {
			t.Errorf("%s: untranslated:\n%s", locale, strings.Join(missing, "\n"))
		}
	}
}

// alike reports whether a demo text rightly reads the same in locale:
// brand-like names, platform lines naming only products, and words the
// language has borrowed (Dutch "credits", as the widget says too).
func alike(locale, s string) bool {
	everywhere := []string{"Standard", "Premium", "Ultimate 4K", "Reseller Pro", "Android", "iOS", "Android TV", "Windows, macOS, Linux"}
	borrowed := map[string][]string{"nl-nl": {"100 credits", "500 credits"}}
	return slices.Contains(everywhere, s) || slices.Contains(borrowed[locale], s)
}
