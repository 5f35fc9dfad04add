package catalog

import (
	"slices"
	"strings"
)

// Locales are the storefront's languages, and so the keys a catalog may
// translate its texts into. The base texts of the file are shown for any
// locale without a translation.
var Locales = []string{"en", "en-us", "en-gb", "de-de", "es-es", "nl-nl", "pt-pt"}

// ProductText is a product's translatable texts in one locale. An empty
// field (a nil Features) falls back; Features replaces the whole list, so a
// language may phrase the same points in more or fewer bullets.
type ProductText struct {
	Name        string
	Description string
	Features    []string
	SaveBadge   string
	SoldBadge   string
	Guarantee   string
}

// OptionText is a config option's translatable text in one locale.
type OptionText struct {
	Name string
}

// FieldText is a custom field's translatable texts in one locale.
type FieldText struct {
	Name        string
	Description string
}

// AppText is an app button's translatable texts in one locale (app names
// are usually brands, the platform line often is not: "desktop").
type AppText struct {
	Name     string
	Platform string
}

// CardText is a utility card's translatable texts in one locale.
type CardText struct {
	Title string
	Text  string
}

// LocaleChain returns the translation keys to try for locale, most specific
// first: the locale itself, then its bare language when that is a catalog
// locale too (en-us and en-gb → en). The base text comes after the chain.
// The locale is matched case-insensitively, "_" standing for "-"; an
// unknown locale gives an empty chain, i.e. the base texts.
func LocaleChain(locale string) []string {
	l := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(locale)), "_", "-")
	var chain []string
	if slices.Contains(Locales, l) {
		chain = append(chain, l)
	}
	if lang, _, ok := strings.Cut(l, "-"); ok && slices.Contains(Locales, lang) {
		chain = append(chain, lang)
	}
	return chain
}

// pick returns the first non-empty text along chain, else base.
func pick[T any](m map[string]T, chain []string, get func(T) string, base string) string {
	for _, l := range chain {
		if t, ok := m[l]; ok {
			if s := get(t); s != "" {
				return s
			}
		}
	}
	return base
}

// Localized returns the product with its texts, config options and custom
// fields in locale, each text falling back along LocaleChain to the base.
func (p Product) Localized(locale string) Product {
	chain := LocaleChain(locale)
	if len(chain) == 0 {
		return p
	}
	p.Name = pick(p.I18n, chain, func(t ProductText) string { return t.Name }, p.Name)
	p.Description = pick(p.I18n, chain, func(t ProductText) string { return t.Description }, p.Description)
	p.SaveBadge = pick(p.I18n, chain, func(t ProductText) string { return t.SaveBadge }, p.SaveBadge)
	p.SoldBadge = pick(p.I18n, chain, func(t ProductText) string { return t.SoldBadge }, p.SoldBadge)
	p.Guarantee = pick(p.I18n, chain, func(t ProductText) string { return t.Guarantee }, p.Guarantee)
	for _, l := range chain {
		if t, ok := p.I18n[l]; ok && t.Features != nil {
			p.Features = t.Features
			break
		}
	}
	if p.ConfigOptions != nil {
		opts := make([]ConfigOption, len(p.ConfigOptions))
		for i, o := range p.ConfigOptions {
			opts[i] = o.Localized(locale)
		}
		p.ConfigOptions = opts
	}
	if p.CustomFields != nil {
		fields := make([]CustomField, len(p.CustomFields))
		for i, f := range p.CustomFields {
			fields[i] = f.Localized(locale)
		}
		p.CustomFields = fields
	}
	return p
}

// Localized returns the option with its name in locale.
func (o ConfigOption) Localized(locale string) ConfigOption {
	o.Name = pick(o.I18n, LocaleChain(locale), func(t OptionText) string { return t.Name }, o.Name)
	return o
}

// Localized returns the custom field with its texts in locale.
func (f CustomField) Localized(locale string) CustomField {
	chain := LocaleChain(locale)
	f.Name = pick(f.I18n, chain, func(t FieldText) string { return t.Name }, f.Name)
	f.Description = pick(f.I18n, chain, func(t FieldText) string { return t.Description }, f.Description)
	return f
}

// Localized returns the app button with its texts in locale.
func (a App) Localized(locale string) App {
	chain := LocaleChain(locale)
	a.Name = pick(a.I18n, chain, func(t AppText) string { return t.Name }, a.Name)
	a.Platform = pick(a.I18n, chain, func(t AppText) string { return t.Platform }, a.Platform)
	return a
}

// Localized returns the card with its texts in locale.
func (c Card) Localized(locale string) Card {
	chain := LocaleChain(locale)
	c.Title = pick(c.I18n, chain, func(t CardText) string { return t.Title }, c.Title)
	c.Text = pick(c.I18n, chain, func(t CardText) string { return t.Text }, c.Text)
	return c
}

// GatewayName is the display name of a gateway module in locale: its
// translation, else its base name in GatewayNames, else the module name.
func (c *Catalog) GatewayName(module, locale string) string {
	for _, l := range LocaleChain(locale) {
		if s := c.GatewayNamesI18n[l][module]; s != "" {
			return s
		}
	}
	if s := c.GatewayNames[module]; s != "" {
		return s
	}
	return module
}

// Localized returns a copy of the catalog whose products, gateways, apps
// and cards carry their texts in locale. The copy shares the read-only
// parts (currencies, promotions, prices, translations) with c.
func (c *Catalog) Localized(locale string) *Catalog {
	if len(LocaleChain(locale)) == 0 {
		return c
	}
	out := *c
	out.Products = localizeAll(c.Products, locale, Product.Localized)
	out.Apps = localizeAll(c.Apps, locale, App.Localized)
	out.Cards = localizeAll(c.Cards, locale, Card.Localized)
	out.Gateways = make([]Gateway, len(c.Gateways))
	for i, g := range c.Gateways {
		out.Gateways[i] = Gateway{Module: g.Module, DisplayName: c.GatewayName(g.Module, locale)}
	}
	out.GatewayNames = make(map[string]string, len(c.GatewayNames))
	for m := range c.GatewayNames {
		out.GatewayNames[m] = c.GatewayName(m, locale)
	}
	return &out
}

func localizeAll[T any](items []T, locale string, fn func(T, string) T) []T {
	if items == nil {
		return nil
	}
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = fn(it, locale)
	}
	return out
}
