package payment

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
)

// Config is every gateway's settings; Modules are the enabled ones, the first the default.
type Config struct {
	Modules []string
	// PublicURL is STREAMCART_PUBLIC_URL, the origin buyers and providers reach the shop on:
	// every live gateway's return and webhook URLs are built on it, so they require it.
	PublicURL string
	// ListenURL is the address the server listens on (http://127.0.0.1:8080): the sandbox's page
	// is linked there when PublicURL is unset (local use).
	ListenURL string
	// TestMode (STREAMCART_TEST_MODE) says the shop takes no real money: the sandbox may then be
	// offered next to live gateways.
	TestMode bool

	StripeSecretKey, StripeWebhookSecret, StripeAPIURL string

	// Coinbase Business: a CDP secret API key (id and secret), the webhook subscription's secret,
	// the network USDC is taken on (empty: base) and an API URL override (tests).
	CoinbaseKeyID, CoinbaseKeySecret, CoinbaseWebhookSecret, CoinbaseNetwork, CoinbaseAPIURL string
	// CoinbaseCommerceAPIKey is the retired STREAMCART_COINBASE_API_KEY, read only to refuse it.
	CoinbaseCommerceAPIKey string
	// Catalog gives Coinbase the rate it converts invoices to USDC at (the catalog's USD rate).
	Catalog func() *catalog.Catalog

	CryptomusMerchant, CryptomusAPIKey, CryptomusAPIURL string

	HTTPClient *http.Client // tests; nil: a client with a 30 s timeout
	Log        *slog.Logger // where a gateway reports what it could not tidy up; nil: discarded
}

// Modules are the gateways Build knows.
var Modules = []string{"sandbox", "stripe", "coinbase", "cryptomus"}

// ErrNotConfigured means an enabled gateway lacks a setting; the message names it.
var ErrNotConfigured = errors.New("payment gateway not configured")

// Build returns the enabled gateways. A gateway listed without its settings is an error
// naming the missing STREAMCART_* setting; an unknown module is an error too.
func Build(cfg Config, refs Refs) ([]order.Gateway, error) {
	var out []order.Gateway
	for _, m := range cfg.Modules {
		missing := func(pairs ...string) error {
			for i := 0; i < len(pairs); i += 2 {
				if pairs[i+1] == "" {
					return fmt.Errorf("%w: gateway %s is enabled (STREAMCART_GATEWAYS) but %s is not set", ErrNotConfigured, m, pairs[i])
				}
			}
			return nil
		}
		switch m {
		case "sandbox":
			base := cfg.PublicURL
			if base == "" {
				base = cfg.ListenURL
			}
			out = append(out, Sandbox{PublicURL: base})
		case "stripe":
			if err := missing("STREAMCART_STRIPE_SECRET_KEY", cfg.StripeSecretKey, "STREAMCART_STRIPE_WEBHOOK_SECRET", cfg.StripeWebhookSecret,
				"STREAMCART_PUBLIC_URL", cfg.PublicURL); err != nil {
				return nil, err
			}
			out = append(out, NewStripe(StripeConfig{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
				APIURL: cfg.StripeAPIURL, PublicURL: cfg.PublicURL, HTTPClient: cfg.HTTPClient, Log: cfg.Log}, refs))
		case "coinbase":
			if err := missing("STREAMCART_COINBASE_KEY_ID", cfg.CoinbaseKeyID, "STREAMCART_COINBASE_KEY_SECRET", cfg.CoinbaseKeySecret,
				"STREAMCART_COINBASE_WEBHOOK_SECRET", cfg.CoinbaseWebhookSecret, "STREAMCART_PUBLIC_URL", cfg.PublicURL); err != nil {
				return nil, err
			}
			st, ok := refs.(CoinbaseStore)
			if !ok {
				return nil, fmt.Errorf("gateway coinbase: the store keeps no payment quotes")
			}
			cb, err := NewCoinbase(CoinbaseConfig{KeyID: cfg.CoinbaseKeyID, KeySecret: cfg.CoinbaseKeySecret, WebhookSecret: cfg.CoinbaseWebhookSecret,
				Network: cfg.CoinbaseNetwork, APIURL: cfg.CoinbaseAPIURL, PublicURL: cfg.PublicURL, Catalog: cfg.Catalog, HTTPClient: cfg.HTTPClient}, st)
			if err != nil {
				return nil, fmt.Errorf("STREAMCART_COINBASE_KEY_SECRET: %w", err)
			}
			out = append(out, cb)
		case "cryptomus":
			if err := missing("STREAMCART_CRYPTOMUS_MERCHANT", cfg.CryptomusMerchant, "STREAMCART_CRYPTOMUS_API_KEY", cfg.CryptomusAPIKey,
				"STREAMCART_PUBLIC_URL", cfg.PublicURL); err != nil {
				return nil, err
			}
			out = append(out, NewCryptomus(CryptomusConfig{Merchant: cfg.CryptomusMerchant, APIKey: cfg.CryptomusAPIKey,
				APIURL: cfg.CryptomusAPIURL, PublicURL: cfg.PublicURL, HTTPClient: cfg.HTTPClient}))
		default:
			return nil, fmt.Errorf("%w: unknown gateway %q in STREAMCART_GATEWAYS (known: sandbox, stripe, coinbase, cryptomus)", ErrNotConfigured, m)
		}
	}
	return out, nil
}

// Live are the gateways that take real money.
var Live = []string{"stripe", "coinbase", "cryptomus"}

// ErrSandboxBesideLive means the sandbox gateway is enabled next to a live gateway: any buyer
// could choose the sandbox and "pay" there for free.
var ErrSandboxBesideLive = errors.New("sandbox gateway enabled next to a live gateway")

// CheckSandbox refuses modules that enable the sandbox next to a live gateway using live
// credentials, unless cfg.TestMode. Only Stripe has test credentials (sk_test_… and rk_test_…
// keys); Coinbase and Cryptomus have none, so beside them the sandbox needs STREAMCART_TEST_MODE.
func CheckSandbox(cfg Config, modules []string) error {
	if cfg.TestMode || !slices.Contains(modules, "sandbox") {
		return nil
	}
	for _, m := range modules {
		if !slices.Contains(Live, m) || cfg.testCredentials(m) {
			continue
		}
		why := "it has no test credentials"
		if m == "stripe" {
			why = "STREAMCART_STRIPE_SECRET_KEY is not a test key, sk_test_…"
		}
		return fmt.Errorf("%w: the sandbox cannot be enabled next to %s, which takes real money (%s): remove sandbox from the gateway list (STREAMCART_GATEWAYS or the catalog's gateways), or set STREAMCART_TEST_MODE=true for a shop that takes no real money",
			ErrSandboxBesideLive, m, why)
	}
	return nil
}

// ErrCommerceClosed means the retired Coinbase Commerce key is still set.
var ErrCommerceClosed = errors.New("Coinbase Commerce is closed")

// CheckCoinbaseCommerce refuses the start while STREAMCART_COINBASE_API_KEY is set: Coinbase
// Commerce (and its API keys) closed on 31 March 2026, and a shop that still believes it takes
// crypto through it would take none.
func CheckCoinbaseCommerce(cfg Config) error {
	if cfg.CoinbaseCommerceAPIKey == "" {
		return nil
	}
	return fmt.Errorf("%w: STREAMCART_COINBASE_API_KEY is a Coinbase Commerce key, and Coinbase Commerce shut down on 31 March 2026. "+
		"The coinbase gateway now makes Coinbase Business checkouts: remove STREAMCART_COINBASE_API_KEY and set "+
		"STREAMCART_COINBASE_KEY_ID and STREAMCART_COINBASE_KEY_SECRET (a CDP secret API key) and STREAMCART_COINBASE_WEBHOOK_SECRET "+
		"(the secret of the checkout webhook subscription); see docs/gateways.md", ErrCommerceClosed)
}

// CheckPublicURL refuses a live gateway set up (its key given, whether or not a gateway list
// enables it yet) without PublicURL: its return and webhook URLs would have no origin to be built
// on but the request's, which the caller chooses.
func CheckPublicURL(cfg Config) error {
	if cfg.PublicURL != "" {
		return nil
	}
	for _, g := range []struct{ module, key string }{
		{"stripe", cfg.StripeSecretKey}, {"coinbase", cfg.CoinbaseKeyID}, {"cryptomus", cfg.CryptomusAPIKey},
	} {
		if g.key != "" || slices.Contains(cfg.Modules, g.module) {
			return fmt.Errorf("%w: gateway %s is set up but STREAMCART_PUBLIC_URL is not set: its return and webhook URLs are built on it (e.g. STREAMCART_PUBLIC_URL=https://shop.example)",
				ErrNotConfigured, g.module)
		}
	}
	return nil
}

// ErrTestClockLive means the test clock was asked for beside a gateway that takes real money:
// moving business time would expire, renew and charge real buyers' orders early.
var ErrTestClockLive = errors.New("test clock refused: a live gateway is configured")

// CheckTestClock allows the test clock (streamcart clock advance) only where no real money moves:
// STREAMCART_TEST_MODE, or every live gateway set up (settings present or listed in
// STREAMCART_GATEWAYS) with test credentials, the rule CheckSandbox applies beside the sandbox.
func CheckTestClock(cfg Config) error {
	if cfg.TestMode {
		return nil
	}
	for _, g := range []struct{ module, key string }{
		{"stripe", cfg.StripeSecretKey}, {"coinbase", cfg.CoinbaseKeyID + cfg.CoinbaseKeySecret}, {"cryptomus", cfg.CryptomusMerchant + cfg.CryptomusAPIKey},
	} {
		if (g.key == "" && !slices.Contains(cfg.Modules, g.module)) || cfg.testCredentials(g.module) {
			continue
		}
		why := "it has no test credentials"
		if g.module == "stripe" {
			why = "STREAMCART_STRIPE_SECRET_KEY is not a test key, sk_test_… or rk_test_…"
		}
		return fmt.Errorf("%w: %s takes real money (%s); the test clock runs only on a shop that takes none: set STREAMCART_TEST_MODE=true, or use test credentials",
			ErrTestClockLive, g.module, why)
	}
	return nil
}

// TestCredentials reports whether module m is set up with its provider's test credentials
// (Stripe's sk_test_… or rk_test_… keys; Coinbase and Cryptomus have none): such a gateway takes
// no real money.
func (cfg Config) TestCredentials(m string) bool { return cfg.testCredentials(m) }

// testCredentials reports whether module m is set up with its provider's test credentials.
func (cfg Config) testCredentials(m string) bool {
	switch m {
	case "stripe":
		return strings.HasPrefix(cfg.StripeSecretKey, "sk_test_") || strings.HasPrefix(cfg.StripeSecretKey, "rk_test_")
	}
	return false
}

// Providers are the gateways that receive webhooks.
func Providers(gws []order.Gateway) []Provider {
	var out []Provider
	for _, g := range gws {
		if p, ok := g.(Provider); ok {
			out = append(out, p)
		}
	}
	return out
}

// JobReconcile sweeps invoices near their deadline; each run queues the next.
const JobReconcile = "reconcile"

// ReconcileEvery is how often the sweep runs; ReconcileLead is how close to its deadline an
// unpaid invoice must be to be asked about.
const (
	ReconcileEvery = 5 * time.Minute
	ReconcileLead  = 30 * time.Minute
)

// ReconcileStore is what reconciliation reads and queues.
type ReconcileStore interface {
	PendingInvoices(ctx context.Context, before time.Time, gateways []string, limit int) ([]string, error)
	InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error)
	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
}

// Reconciler asks providers about unpaid invoices near their deadline, so a lost webhook
// never loses a sale: a paid answer settles exactly as the webhook would have.
type Reconciler struct {
	store     ReconcileStore
	inquirers map[string]Inquirer
	apply     *Webhooks
	log       *slog.Logger
	now       func() time.Time
}

// NewReconciler returns the reconciler of the gateways that can be asked; now is the business
// clock, nil: real time.
func NewReconciler(st ReconcileStore, gws []order.Gateway, apply *Webhooks, log *slog.Logger, now func() time.Time) *Reconciler {
	m := map[string]Inquirer{}
	for _, g := range gws {
		if q, ok := g.(Inquirer); ok {
			m[q.Module()] = q
		}
	}
	return &Reconciler{store: st, inquirers: m, apply: apply, log: log, now: clock.OrReal(now)}
}

// Enabled reports whether any gateway can be asked.
func (r *Reconciler) Enabled() bool { return len(r.inquirers) > 0 }

// Start queues the sweep of the current period (once per period, whatever the replicas).
func (r *Reconciler) Start(ctx context.Context) error {
	return r.queue(ctx, r.now())
}

func (r *Reconciler) queue(ctx context.Context, at time.Time) error {
	slot := at.UTC().Truncate(ReconcileEvery)
	return r.store.Enqueue(ctx, JobReconcile, "", JobReconcile+":"+slot.Format(time.RFC3339), at)
}

// Handle is the JobReconcile handler: it queues the next sweep, then asks about every pending
// invoice due within ReconcileLead. A provider that cannot answer fails the job, so it is retried
// with backoff a bounded number of times; the next sweep is queued first so that a sweep that
// fails for good never stops reconciliation.
func (r *Reconciler) Handle(ctx context.Context, _ job.Job) error {
	if err := r.queue(ctx, r.now().Add(ReconcileEvery)); err != nil {
		return err
	}
	return r.Sweep(ctx)
}

// Sweep asks once about each pending invoice due within ReconcileLead.
func (r *Reconciler) Sweep(ctx context.Context) error {
	modules := make([]string, 0, len(r.inquirers))
	for m := range r.inquirers {
		modules = append(modules, m)
	}
	ids, err := r.store.PendingInvoices(ctx, r.now().Add(ReconcileLead), modules, 500)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if err := r.Check(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Check asks the invoice's provider where it stands and applies a final answer.
func (r *Reconciler) Check(ctx context.Context, invoiceID string) error {
	o, err := r.store.InvoiceOrder(ctx, invoiceID)
	if err != nil {
		return fmt.Errorf("reconcile %s: %w", invoiceID, err)
	}
	q := r.inquirers[o.Invoice.Gateway]
	if q == nil || o.Status != order.StatusPending {
		return nil
	}
	ev, err := q.Inquire(ctx, o)
	if errors.Is(err, ErrNotFound) {
		return nil // no payment link was ever made: nothing to ask about
	}
	if err != nil {
		return fmt.Errorf("reconcile %s: %w", invoiceID, err)
	}
	if ev.InvoiceID == "" {
		ev.InvoiceID = invoiceID
	}
	if ev.InvoiceID != invoiceID {
		return fmt.Errorf("reconcile %s: provider answered for invoice %s", invoiceID, ev.InvoiceID)
	}
	outcome, err := r.apply.Apply(ctx, ev)
	if err != nil {
		return fmt.Errorf("reconcile %s: %w", invoiceID, err)
	}
	if ev.Kind != KindPending {
		r.log.Info("reconciled", "provider", ev.Provider, "invoice", invoiceID, "status", ev.Type, "outcome", outcome)
	}
	return nil
}
