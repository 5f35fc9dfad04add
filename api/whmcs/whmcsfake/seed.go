package whmcsfake

import (
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Seed is what a fake WHMCS starts with: its API credentials and the catalog a seller would have
// set up in WHMCS's admin area (currencies, products with their config options and custom
// fields, promotions, payment gateways), plus any clients already there. It is read from a small
// YAML file (LoadSeed); demo.yaml is the demo catalog's equivalent.
type Seed struct {
	Credentials Credentials `yaml:"credentials"`
	// ServerHostname is the streaming host the fake module writes on the lines it makes.
	ServerHostname string          `yaml:"serverhostname"`
	Currencies     []Currency      `yaml:"currencies"`
	Groups         []Group         `yaml:"groups"`
	ConfigOptions  []ConfigOption  `yaml:"configoptions"`
	Products       []Product       `yaml:"products"`
	Promotions     []Promotion     `yaml:"promotions"`
	PaymentMethods []PaymentMethod `yaml:"paymentmethods"`
	Clients        []SeedClient    `yaml:"clients"`
}

// Credentials are the API credential pair (an admin's API identifier and secret) and the
// optional access key of configuration.php ($api_access_key).
type Credentials struct {
	Identifier string `yaml:"identifier"`
	Secret     string `yaml:"secret"`
	AccessKey  string `yaml:"accesskey"`
}

// Currency is a WHMCS currency; the one with Default is the system's default (rate 1).
type Currency struct {
	ID      int    `yaml:"id"`
	Code    string `yaml:"code"`
	Prefix  string `yaml:"prefix"`
	Suffix  string `yaml:"suffix"`
	Format  int    `yaml:"format"`
	Rate    string `yaml:"rate"`
	Default bool   `yaml:"default"`
}

// Group is a product group.
type Group struct {
	ID   int    `yaml:"id"`
	Name string `yaml:"name"`
}

// Prices are one currency's price fields as WHMCS names them: monthly … triennially and the
// setup fees msetupfee … tsetupfee, decimals as strings. A cycle left out is "-1.00" (not sold)
// for a product and "0.00" for a config option, as WHMCS stores them.
type Prices map[string]string

// Pricing is Prices by currency code; a product or option must price every currency.
type Pricing map[string]Prices

// Config option types, as GetProducts numbers them.
const (
	OptionDropdown = 1
	OptionRadio    = 2
	OptionYesNo    = 3
	OptionQuantity = 4
)

// ConfigOption is a configurable option: a quantity (price per unit) or a yes/no (the price of
// its one sub-option), or a dropdown/radio of sub-options.
type ConfigOption struct {
	ID      int         `yaml:"id"`
	Name    string      `yaml:"name"`
	Type    int         `yaml:"type"`
	MinQty  int         `yaml:"minqty"`
	MaxQty  int         `yaml:"maxqty"`
	Options []SubOption `yaml:"options"`
}

// SubOption is one choice of a config option with its pricing.
type SubOption struct {
	ID      int     `yaml:"id"`
	Name    string  `yaml:"name"`
	Pricing Pricing `yaml:"pricing"`
}

// CustomField is a product custom field. AdminOnly fields are not returned by GetProducts (only
// fields shown on the order form are).
type CustomField struct {
	ID          int    `yaml:"id"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
	AdminOnly   bool   `yaml:"adminonly"`
}

// Autosetup values: when the product's module makes the line (Module Settings tab).
const (
	SetupOnOrder   = "order"   // as soon as an order is placed (AddOrder ignores it, as documented)
	SetupOnPayment = "payment" // as soon as the first payment is received
	SetupOnAccept  = "accept"  // when an admin (or AcceptOrder) accepts the pending order
	SetupManual    = ""        // never automatically
)

// Product is a WHMCS product. PayType is free, onetime or recurring.
type Product struct {
	PID           int           `yaml:"pid"`
	GID           int           `yaml:"gid"`
	Type          string        `yaml:"type"`
	Name          string        `yaml:"name"`
	Description   string        `yaml:"description"`
	Module        string        `yaml:"module"`
	PayType       string        `yaml:"paytype"`
	Autosetup     string        `yaml:"autosetup"`
	Pricing       Pricing       `yaml:"pricing"`
	ConfigOptions []int         `yaml:"configoptions"`
	CustomFields  []CustomField `yaml:"customfields"`
}

// Promotion is a promotion code with WHMCS's rules.
type Promotion struct {
	ID             int    `yaml:"id"`
	Code           string `yaml:"code"`
	Type           string `yaml:"type"` // Percentage | Fixed Amount | Price Override | Free Setup
	Value          string `yaml:"value"`
	Recurring      bool   `yaml:"recurring"`
	RecurFor       int    `yaml:"recurfor"`
	Cycles         string `yaml:"cycles"`    // comma list of cycles it applies to; "" all
	AppliesTo      string `yaml:"appliesto"` // comma list of pids
	Requires       string `yaml:"requires"`
	StartDate      string `yaml:"startdate"`      // YYYY-MM-DD; "" or 0000-00-00 none
	ExpirationDate string `yaml:"expirationdate"` // YYYY-MM-DD; "" or 0000-00-00 none
	MaxUses        int    `yaml:"maxuses"`
	Uses           int    `yaml:"uses"`
	OncePerClient  bool   `yaml:"onceperclient"`
	NewSignups     bool   `yaml:"newsignups"`
	ExistingClient bool   `yaml:"existingclient"`
	ApplyOnce      bool   `yaml:"applyonce"`
	LifetimePromo  bool   `yaml:"lifetimepromo"`
	Notes          string `yaml:"notes"`
}

// PaymentMethod is an active payment gateway module.
type PaymentMethod struct {
	Module      string `yaml:"module"`
	DisplayName string `yaml:"displayname"`
}

// SeedClient is a client already in WHMCS (its owner user's password in the clear: a fake).
type SeedClient struct {
	FirstName string `yaml:"firstname"`
	LastName  string `yaml:"lastname"`
	Email     string `yaml:"email"`
	Password  string `yaml:"password"`
	Country   string `yaml:"country"`
	Currency  string `yaml:"currency"` // code; "" the default
}

//go:embed demo.yaml
var demoYAML []byte

// Demo is the seed equivalent to Streamcart's demo catalog (api/catalog/demo.yaml): the same
// plans, prices, extras, proxy option, custom fields and promotion codes, as a seller would have
// them in WHMCS.
func Demo() Seed {
	s, err := ParseSeed(demoYAML)
	if err != nil {
		panic(err) // part of the binary, covered by tests
	}
	return s
}

// LoadSeed reads a seed file.
func LoadSeed(path string) (Seed, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Seed{}, fmt.Errorf("whmcsfake: seed: %w", err)
	}
	return ParseSeed(b)
}

// ParseSeed decodes and checks a seed: unknown keys, references and missing prices are errors.
func ParseSeed(b []byte) (Seed, error) {
	var s Seed
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return Seed{}, fmt.Errorf("whmcsfake: seed: %w", err)
	}
	return s, s.check()
}

func (s Seed) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("whmcsfake: seed: "+format, a...)) }
	if s.Credentials.Identifier == "" || s.Credentials.Secret == "" {
		bad("credentials need an identifier and a secret")
	}
	defaults := 0
	for _, c := range s.Currencies {
		if c.Default {
			defaults++
		}
		if r, ok := new(big.Rat).SetString(c.Rate); !ok || r.Sign() <= 0 {
			bad("currency %s: rate %q", c.Code, c.Rate)
		}
	}
	if len(s.Currencies) == 0 || defaults != 1 {
		bad("want currencies, exactly one of them default")
	}
	prices := func(what string, p Pricing) {
		for _, c := range s.Currencies {
			if _, ok := p[c.Code]; !ok {
				bad("%s: no %s prices (WHMCS prices every currency)", what, c.Code)
			}
		}
		for code, ps := range p {
			for k, v := range ps {
				if !slices.Contains(priceFields, k) {
					bad("%s: %s: unknown price field %q", what, code, k)
				}
				if _, err := parseAmount(v); err != nil {
					bad("%s: %s.%s: %q is not a decimal", what, code, k, v)
				}
			}
		}
	}
	options := map[int]bool{}
	for _, o := range s.ConfigOptions {
		options[o.ID] = true
		if o.Type < OptionDropdown || o.Type > OptionQuantity || len(o.Options) == 0 {
			bad("config option %d: want a type 1 to 4 and at least one sub-option", o.ID)
		}
		for _, so := range o.Options {
			prices(fmt.Sprintf("config option %d sub-option %d", o.ID, so.ID), so.Pricing)
		}
	}
	pids := map[int]bool{}
	for _, p := range s.Products {
		if pids[p.PID] || p.PID <= 0 {
			bad("product %d: pid missing or twice", p.PID)
		}
		pids[p.PID] = true
		if !slices.Contains([]string{"free", "onetime", "recurring"}, p.PayType) {
			bad("product %d: paytype %q: want free, onetime or recurring", p.PID, p.PayType)
		}
		if !slices.Contains([]string{SetupOnOrder, SetupOnPayment, SetupOnAccept, SetupManual}, p.Autosetup) {
			bad("product %d: autosetup %q: want order, payment, accept or empty", p.PID, p.Autosetup)
		}
		if p.PayType != "free" {
			prices(fmt.Sprintf("product %d", p.PID), p.Pricing)
		}
		for _, id := range p.ConfigOptions {
			if !options[id] {
				bad("product %d: unknown config option %d", p.PID, id)
			}
		}
	}
	for _, pr := range s.Promotions {
		if pr.Code == "" || !slices.Contains([]string{"Percentage", "Fixed Amount", "Price Override", "Free Setup"}, pr.Type) {
			bad("promotion %q: want a code and a type Percentage, Fixed Amount, Price Override or Free Setup", pr.Code)
		}
		if _, err := parseAmount(pr.Value); err != nil {
			bad("promotion %s: value %q", pr.Code, pr.Value)
		}
	}
	if len(s.PaymentMethods) == 0 {
		bad("want at least one payment method")
	}
	return errors.Join(errs...)
}

// priceFields are a price's fields, cycles then setup fees, in WHMCS's order.
var priceFields = []string{"msetupfee", "qsetupfee", "ssetupfee", "asetupfee", "bsetupfee", "tsetupfee",
	"monthly", "quarterly", "semiannually", "annually", "biennially", "triennially"}

// cycles are the recurring cycles with their setup-fee field and length in months.
var cycles = []struct {
	name, setup, display string
	months               int
}{
	{"monthly", "msetupfee", "Monthly", 1},
	{"quarterly", "qsetupfee", "Quarterly", 3},
	{"semiannually", "ssetupfee", "Semi-Annually", 6},
	{"annually", "asetupfee", "Annually", 12},
	{"biennially", "bsetupfee", "Biennially", 24},
	{"triennially", "tsetupfee", "Triennially", 36},
}
