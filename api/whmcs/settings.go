package whmcs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Settings are the WHMCS back end's settings (STREAMCART_WHMCS_*; docs/whmcs.md).
type Settings struct {
	URL        string // STREAMCART_WHMCS_URL
	Identifier string // STREAMCART_WHMCS_IDENTIFIER
	Secret     string // STREAMCART_WHMCS_SECRET
	AccessKey  string // STREAMCART_WHMCS_ACCESS_KEY
	// PlansGroup and ResellerGroup are product group ids (STREAMCART_WHMCS_PLANS_GROUP,
	// STREAMCART_WHMCS_RESELLER_GROUP); no reseller group (0): no reseller plans.
	PlansGroup, ResellerGroup int
	// Gateways maps a Streamcart gateway to the WHMCS payment module its payments are recorded
	// under (STREAMCART_WHMCS_GATEWAYS, stripe=stripe,sandbox=banktransfer).
	Gateways map[string]string
	// ExtraOption and ProxyOption are the config option ids of extra connections and proxy
	// protection (STREAMCART_WHMCS_EXTRA_OPTION, STREAMCART_WHMCS_PROXY_OPTION; 2 and 4 as the
	// seed's); 0: none.
	ExtraOption, ProxyOption int
	// MACField is the name of the custom field holding a MAG device's MAC address
	// (STREAMCART_WHMCS_MAC_FIELD).
	MACField string
	// RestartFunction is the module's custom function restarting a line (ModuleCustom func_name,
	// STREAMCART_WHMCS_RESTART_FUNCTION): restart is no WHMCS core function, only a module's.
	RestartFunction string
	// CatalogRefresh is how often the catalog is read again from WHMCS
	// (STREAMCART_WHMCS_CATALOG_REFRESH).
	CatalogRefresh time.Duration
	// Timeout bounds each call; 0: DefaultTimeout.
	Timeout time.Duration
}

// Defaults of the settings that have one.
const (
	DefaultExtraOption     = 2
	DefaultProxyOption     = 4
	DefaultMACField        = "MAC Address"
	DefaultRestartFunction = "restart"
	DefaultCatalogRefresh  = time.Minute
)

// String hides the credentials from any %v of Settings.
func (s Settings) String() string {
	return fmt.Sprintf("whmcs.Settings{plans group %d, reseller group %d, credentials redacted}", s.PlansGroup, s.ResellerGroup)
}

// ParseGateways reads gateway=module pairs separated by commas
// ("stripe=stripe,sandbox=banktransfer"); each gateway once.
func ParseGateways(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(v, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		g, m, ok := strings.Cut(pair, "=")
		g, m = strings.TrimSpace(g), strings.TrimSpace(m)
		if !ok || !moduleName(g) || !moduleName(m) {
			return nil, fmt.Errorf("%q is not gateway=module", pair)
		}
		if _, dup := out[g]; dup {
			return nil, fmt.Errorf("gateway %s mapped twice", g)
		}
		out[g] = m
	}
	return out, nil
}

func moduleName(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// FormatGateways writes a mapping back as ParseGateways reads it, gateways sorted.
func FormatGateways(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return strings.Join(keys, ",")
}

// Check refuses settings that cannot work, naming the setting. gateways are the Streamcart
// gateways the shop has enabled: each needs its WHMCS module.
func (s Settings) Check(gateways []string) error {
	switch {
	case s.URL == "":
		return errors.New("STREAMCART_WHMCS_URL is required with STREAMCART_BACKEND=whmcs: the address of your WHMCS API, https://<your WHMCS>/includes/api.php")
	case CheckURL(s.URL) != nil:
		return fmt.Errorf("STREAMCART_WHMCS_URL is invalid (value not shown): %v", strings.TrimPrefix(CheckURL(s.URL).Error(), ErrURL.Error()+": "))
	case s.Identifier == "":
		return errors.New("STREAMCART_WHMCS_IDENTIFIER (or STREAMCART_WHMCS_IDENTIFIER_FILE) is required with STREAMCART_BACKEND=whmcs: the identifier of an API credential (WHMCS: Configuration → System Settings → Manage API Credentials)")
	case s.Secret == "":
		return errors.New("STREAMCART_WHMCS_SECRET (or STREAMCART_WHMCS_SECRET_FILE) is required with STREAMCART_BACKEND=whmcs: the secret shown once when the API credential was made")
	case s.PlansGroup <= 0:
		return errors.New("STREAMCART_WHMCS_PLANS_GROUP is required with STREAMCART_BACKEND=whmcs: the id of the WHMCS product group holding the plans (a positive whole number)")
	case s.ResellerGroup < 0:
		return errors.New("STREAMCART_WHMCS_RESELLER_GROUP: want a product group id, or 0 for no reseller plans")
	case s.ResellerGroup == s.PlansGroup:
		return errors.New("STREAMCART_WHMCS_RESELLER_GROUP: the reseller plans need a product group of their own, not the plans group")
	case s.ExtraOption < 0:
		return errors.New("STREAMCART_WHMCS_EXTRA_OPTION: want a config option id, or 0 for no extra connections")
	case s.ProxyOption < 0:
		return errors.New("STREAMCART_WHMCS_PROXY_OPTION: want a config option id, or 0 for no proxy protection")
	case s.ExtraOption > 0 && s.ExtraOption == s.ProxyOption:
		return errors.New("STREAMCART_WHMCS_EXTRA_OPTION and STREAMCART_WHMCS_PROXY_OPTION name the same config option")
	case strings.TrimSpace(s.MACField) == "":
		return errors.New("STREAMCART_WHMCS_MAC_FIELD: want the name of the custom field holding a device's MAC address")
	}
	for _, g := range gateways {
		if s.Gateways[g] == "" {
			return fmt.Errorf("STREAMCART_WHMCS_GATEWAYS has no WHMCS payment module for gateway %s: add %s=<module>, e.g. %s", g, g, example(gateways))
		}
	}
	return nil
}

func example(gateways []string) string {
	var pairs []string
	for _, g := range gateways {
		m := g
		if g == "sandbox" {
			m = "banktransfer"
		}
		pairs = append(pairs, g+"="+m)
	}
	return strings.Join(pairs, ",")
}

// Advice is what an operator does about err, a failed call at start: a sentence naming the
// setting or the WHMCS screen to change.
func Advice(err error) string {
	var we *Error
	errors.As(err, &we)
	said := ""
	if we != nil {
		said = we.Message
	}
	switch {
	case errors.Is(err, ErrInvalidIP):
		ip := "this shop's address"
		if we != nil && we.IP != "" {
			ip = "this shop's address (" + we.IP + ")"
		}
		return fmt.Sprintf("WHMCS answered %q: add %s to WHMCS's API IP allow-list (Configuration → System Settings → General Settings → Security → API IP Access Restriction), or set STREAMCART_WHMCS_ACCESS_KEY to configuration.php's $api_access_key", said, ip)
	case errors.Is(err, ErrAuth):
		return fmt.Sprintf("WHMCS answered %q: check STREAMCART_WHMCS_IDENTIFIER and STREAMCART_WHMCS_SECRET (an API credential: Configuration → System Settings → Manage API Credentials) and STREAMCART_WHMCS_ACCESS_KEY if set", said)
	case errors.Is(err, ErrPermission):
		return fmt.Sprintf("WHMCS answered %q: give the API credential's role the actions docs/whmcs.md lists", said)
	case errors.Is(err, ErrUnavailable):
		return fmt.Sprintf("WHMCS at STREAMCART_WHMCS_URL did not answer as its API does (%s): check the address (…/includes/api.php), that WHMCS is up and not in maintenance mode", said)
	}
	return fmt.Sprintf("WHMCS answered %q", said)
}

// Started is a WHMCS back end checked at start: its client, and its catalog kept fresh.
type Started struct {
	Client  *Client
	Catalog *CatalogSync
	Notes   []string // what the start found worth a warning (not a refusal)
}

// Start checks the settings against WHMCS before the shop serves: the credentials with one
// harmless call (GetCurrencies), the payment modules gateways map to (GetPaymentMethods), and
// the first catalog read (the groups hold products, the option ids exist with the right type).
// A refusal says what WHMCS answered and which setting to change. failed, when set, hears of
// every failed call of the client (Config.Failed).
func Start(ctx context.Context, s Settings, gateways []string, failed func(action string, err error)) (*Started, error) {
	if err := s.Check(gateways); err != nil {
		return nil, err
	}
	c, err := New(Config{URL: s.URL, Identifier: s.Identifier, Secret: s.Secret, AccessKey: s.AccessKey, Timeout: s.Timeout, Failed: failed})
	if err != nil {
		return nil, err
	}
	if _, err := c.GetCurrencies(ctx); err != nil {
		return nil, fmt.Errorf("WHMCS refused the start check: %s", Advice(err))
	}
	methods, err := c.GetPaymentMethods(ctx)
	if err != nil {
		return nil, fmt.Errorf("WHMCS refused GetPaymentMethods: %s", Advice(err))
	}
	var active []string
	for _, m := range methods {
		active = append(active, m.Module)
	}
	for _, g := range gateways {
		if m := s.Gateways[g]; !slices.Contains(active, m) {
			return nil, fmt.Errorf("STREAMCART_WHMCS_GATEWAYS maps gateway %s to %s, which is not an active payment module in WHMCS (active: %s; Configuration → System Settings → Payment Gateways)",
				g, m, strings.Join(active, ", "))
		}
	}
	sync := NewCatalogSync(c, s)
	if _, err := sync.Refresh(ctx); err != nil {
		return nil, err
	}
	return &Started{Client: c, Catalog: sync, Notes: sync.Notes()}, nil
}

// CatalogSync reads the catalog from WHMCS and keeps the last good one: the storefront reads
// Sold, which never waits on WHMCS.
type CatalogSync struct {
	client *Client
	s      Settings

	mu      sync.Mutex
	sold    *Sold
	version int
	notes   []string
	last    time.Time
}

// NewCatalogSync reads s's groups and options through c.
func NewCatalogSync(c *Client, s Settings) *CatalogSync { return &CatalogSync{client: c, s: s} }

// Sold is the last catalog read and its version (which changes with it); nil before the first.
func (cs *CatalogSync) Sold() (*Sold, int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.sold, cs.version
}

// Notes are the last read's notes (what was left out, and why).
func (cs *CatalogSync) Notes() []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return slices.Clone(cs.notes)
}

// Due reports whether the catalog is older than the refresh interval at now.
func (cs *CatalogSync) Due(now time.Time) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	every := cs.s.CatalogRefresh
	if every <= 0 {
		every = DefaultCatalogRefresh
	}
	return cs.last.IsZero() || now.Sub(cs.last) >= every
}

// Refresh reads the catalog from WHMCS (GetCurrencies, GetProducts of each group,
// GetPromotions) and reports whether it changed; on an error the last good one stays. A group
// without a product, or an option id no plan has with its type, is refused naming its setting.
func (cs *CatalogSync) Refresh(ctx context.Context) (bool, error) {
	cs.mu.Lock()
	cs.last = time.Now()
	cs.mu.Unlock()
	var a Answers
	var err error
	if a.Currencies, err = cs.client.GetCurrencies(ctx); err != nil {
		return false, fmt.Errorf("WHMCS catalog: %s", Advice(err))
	}
	if a.Plans, err = cs.client.GetProducts(ctx, ProductQuery{GID: cs.s.PlansGroup}); err != nil {
		return false, fmt.Errorf("WHMCS catalog: %s", Advice(err))
	}
	if len(a.Plans) == 0 {
		return false, fmt.Errorf("STREAMCART_WHMCS_PLANS_GROUP=%d: WHMCS has no product in that group (Configuration → System Settings → Products/Services: the group's id is in its edit link, gid=…)", cs.s.PlansGroup)
	}
	if cs.s.ResellerGroup > 0 {
		if a.Resellers, err = cs.client.GetProducts(ctx, ProductQuery{GID: cs.s.ResellerGroup}); err != nil {
			return false, fmt.Errorf("WHMCS catalog: %s", Advice(err))
		}
		if len(a.Resellers) == 0 {
			return false, fmt.Errorf("STREAMCART_WHMCS_RESELLER_GROUP=%d: WHMCS has no product in that group; set 0 for no reseller plans", cs.s.ResellerGroup)
		}
	}
	if a.Promotions, err = cs.client.GetPromotions(ctx, ""); err != nil {
		return false, fmt.Errorf("WHMCS catalog: %s", Advice(err))
	}
	for _, o := range []struct {
		id      int
		typ     int
		setting string
		what    string
	}{{cs.s.ExtraOption, OptionQuantity, "STREAMCART_WHMCS_EXTRA_OPTION", "a quantity (type 4) option for extra connections"},
		{cs.s.ProxyOption, OptionYesNo, "STREAMCART_WHMCS_PROXY_OPTION", "a yes/no (type 3) option for proxy protection"}} {
		if o.id == 0 {
			continue
		}
		found, typ := false, 0
		for _, p := range a.Plans {
			for _, co := range p.ConfigOptions {
				if int(co.ID) == o.id {
					found, typ = true, int(co.Type)
				}
			}
		}
		switch {
		case !found:
			return false, fmt.Errorf("%s=%d: no product of the plans group has config option %d; want the id of %s, or 0 for none", o.setting, o.id, o.id, o.what)
		case typ != o.typ:
			return false, fmt.Errorf("%s=%d: config option %d is of type %d; want %s", o.setting, o.id, o.id, typ, o.what)
		}
	}
	sold, notes, err := Convert(a, Options{ExtraOption: cs.s.ExtraOption, ProxyOption: cs.s.ProxyOption})
	if err != nil {
		return false, err
	}
	if !macFieldFound(a.Plans, cs.s.MACField) {
		notes = append(notes, fmt.Sprintf("STREAMCART_WHMCS_MAC_FIELD=%q: no plan has a custom field of that name: MAC changes will not be offered", cs.s.MACField))
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	changed := cs.sold == nil || !sameSold(*cs.sold, sold)
	if changed {
		cs.sold = &sold
		cs.version++
	}
	cs.notes = notes
	return changed, nil
}

func macFieldFound(plans []Product, name string) bool {
	for _, p := range plans {
		for _, f := range p.CustomFields {
			if strings.EqualFold(f.Name, name) {
				return true
			}
		}
	}
	return false
}
