package catalog

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Storefront is a place the checkout is embedded: the seller's own site (the default storefront,
// same origin) or a partner's domain, identified by a publishable key the widget sends in the
// Streamcart-Store header. The key is public; what protects a storefront is its origin list.
type Storefront struct {
	Key             string            // publishable key, "pk_…"
	Name            string            // display name
	Default         bool              // serves requests that carry no key (same origin only)
	AllowedOrigins  []string          // scheme://host[:port] allowed to call the API with this key
	Logo            string            // URL of the logo
	Theme           map[string]string // colour name → CSS value, applied as --sc-<name>
	DefaultLocale   string
	DefaultCurrency string
	Plans           []int  // pids the storefront sells; empty: every plan
	AffiliateID     string // credited on the storefront's orders that name no affiliate
}

// AllowsOrigin reports whether origin (as a browser sends it) may call the API with this key.
func (s Storefront) AllowsOrigin(origin string) bool {
	return slices.ContainsFunc(s.AllowedOrigins, func(o string) bool { return strings.EqualFold(o, origin) })
}

// Sells reports whether the storefront sells plan pid; one without a plan list sells every plan.
// This is the one spelling of the rule: a plan a storefront does not sell is as unknown there as
// a missing one, in its lists, its product page, its quotes and its orders.
func (s Storefront) Sells(pid int) bool { return s.SellsEveryPlan() || slices.Contains(s.Plans, pid) }

// SellsEveryPlan reports whether the storefront sells the shop's whole range (no plan list), so
// its product lists are the shop's own.
func (s Storefront) SellsEveryPlan() bool { return len(s.Plans) == 0 }

// Storefront finds a storefront by key. The storefront is the catalog's own (a catalog is never
// changed once loaded): read it, never write it.
func (c *Catalog) Storefront(key string) (*Storefront, bool) {
	for i := range c.Storefronts {
		if s := &c.Storefronts[i]; s.Key == key {
			return s, true
		}
	}
	return nil, false
}

// DefaultStorefront is the storefront marked default, if any (the catalog's own, as Storefront's).
func (c *Catalog) DefaultStorefront() (*Storefront, bool) {
	for i := range c.Storefronts {
		if s := &c.Storefronts[i]; s.Default {
			return s, true
		}
	}
	return nil, false
}

// AnyStorefrontAllows reports whether some storefront allows origin; preflight requests carry no
// key, so they are answered for the union of the storefronts' origins.
func (c *Catalog) AnyStorefrontAllows(origin string) bool {
	return slices.ContainsFunc(c.Storefronts, func(s Storefront) bool { return s.AllowsOrigin(origin) })
}

var (
	storeKeyRe   = regexp.MustCompile(`^pk_[A-Za-z0-9_]{1,100}$`)
	themeColorRe = regexp.MustCompile(`^[a-z][a-z0-9-]{0,40}$`)
)

func (p *parser) storefront(_ int, n *yaml.Node, path string) {
	var s Storefront
	nodes := map[string]*yaml.Node{}
	keep := func(key string, fn func(*yaml.Node, string)) func(*yaml.Node, string) {
		return func(n *yaml.Node, path string) { nodes[key] = n; fn(n, path) }
	}
	p.object(n, path, []field{
		{"key", true, keep("key", p.str(&s.Key))},
		{"name", true, p.str(&s.Name)},
		{"default", false, p.boolean(&s.Default)},
		{"allowedOrigins", false, keep("allowedOrigins", p.strings(&s.AllowedOrigins))},
		{"logo", false, keep("logo", p.str(&s.Logo))},
		{"theme", false, func(n *yaml.Node, path string) {
			s.Theme = map[string]string{}
			p.pairs(n, path, func(k, v *yaml.Node, path string) {
				if !themeColorRe.MatchString(k.Value) {
					p.bad(k, path, "theme colour %q must be lower-case letters, digits or - (it becomes --sc-%s)", k.Value, k.Value)
					return
				}
				var c string
				p.str(&c)(v, path)
				if strings.ContainsAny(c, ";{}<>") {
					p.bad(v, path, "theme colour %q must be a CSS colour", c)
					return
				}
				s.Theme[k.Value] = c
			})
		}},
		{"defaultLocale", false, keep("defaultLocale", p.str(&s.DefaultLocale))},
		{"defaultCurrency", false, keep("defaultCurrency", p.str(&s.DefaultCurrency))},
		{"plans", false, keep("plans", p.ints(&s.Plans))},
		{"affiliateId", false, p.str(&s.AffiliateID)},
	})
	if k := nodes["key"]; k != nil {
		if !storeKeyRe.MatchString(s.Key) {
			p.bad(k, join(path, "key"), "key %q must be pk_ followed by letters, digits or _", s.Key)
		} else if _, dup := p.cat.Storefront(s.Key); dup {
			p.bad(k, join(path, "key"), "storefront key %q repeated", s.Key)
		}
	}
	if s.Default {
		if _, dup := p.cat.DefaultStorefront(); dup {
			p.bad(n, join(path, "default"), "only one storefront may be the default")
		}
	}
	for i, o := range s.AllowedOrigins {
		if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			p.bad(nodes["allowedOrigins"], index(join(path, "allowedOrigins"), i), "origin %q must be scheme://host[:port] with no path", o)
		}
	}
	if s.Logo != "" && !validURL(s.Logo) {
		p.bad(nodes["logo"], join(path, "logo"), "logo %q must start with https://, http:// or /", s.Logo)
	}
	if s.DefaultLocale != "" && !slices.Contains(Locales, strings.ToLower(s.DefaultLocale)) {
		p.bad(nodes["defaultLocale"], join(path, "defaultLocale"), "locale %q is not one of %s", s.DefaultLocale, strings.Join(Locales, ", "))
	}
	if s.DefaultCurrency != "" {
		if _, ok := p.cat.Currency(s.DefaultCurrency); !ok {
			p.bad(nodes["defaultCurrency"], join(path, "defaultCurrency"), "currency %q is not in currencies", s.DefaultCurrency)
		}
	}
	for i, pid := range s.Plans {
		if pr, ok := p.cat.Product(pid); !ok || pr.Group != GroupPlan && pr.Group != GroupReseller {
			p.bad(nodes["plans"], index(join(path, "plans"), i), "pid %d is not a product of the catalog", pid)
		}
	}
	p.cat.Storefronts = append(p.cat.Storefronts, s)
}
