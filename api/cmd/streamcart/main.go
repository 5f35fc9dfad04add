// Command streamcart runs the Streamcart shop: `serve`, `migrate` and `catalog import FILE`.
// Every flag has a STREAMCART_* environment variable; a flag given on the command line wins.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/web"
)

const usage = `Usage:
  streamcart serve [flags]            start the shop (http://127.0.0.1:8080/checkout/)
  streamcart migrate [--db PATH]      apply database migrations
  streamcart catalog import FILE      validate a catalog file and make it the shop's catalog
  streamcart catalog check FILE       validate a catalog file only
  streamcart storefront list [--catalog FILE]  storefront keys, names and allowed origins
  streamcart version                  print the embedded widget's version and SRI hash
  streamcart mail list                list outgoing mail (the outbox), newest first
  streamcart mail show ID             print one message (sign-in links are in there)
  streamcart audit list [--service ID] list service actions (who, what, when, result)
  streamcart affiliates report [--since YYYY-MM-DD]  clicks, orders and paid revenue per affiliate
  streamcart payments review [--limit N]  payments for orders that could not deliver them: refunded or to refund by hand

Run "streamcart serve -h" for the flags.
`

func main() {
	log, err := newLogger(os.Stderr, os.Getenv("STREAMCART_LOG_LEVEL"), os.Getenv("STREAMCART_LOG_FORMAT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "streamcart:", err)
		os.Exit(1)
	}
	if err := run(os.Args[1:], log); err != nil {
		fmt.Fprintln(os.Stderr, "streamcart:", err)
		os.Exit(1)
	}
}

func run(args []string, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return errors.New("no command")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "serve":
		cfg, err := parseConfig("serve", args[1:])
		if err != nil {
			return err
		}
		// The live heap of a shop is small (catalog, caches) and its garbage is per request:
		// collecting at 4× the live heap instead of 2× halves the collector's share of each
		// order's CPU for a few MB more. GOGC in the environment still decides.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
		a, err := app.Open(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Run(ctx)
	case "migrate":
		cfg, err := parseConfig("migrate", args[1:])
		if err != nil {
			return err
		}
		st, err := store.OpenURL(ctx, cfg.DB)
		if err != nil {
			return err
		}
		fmt.Println("migrations applied to", cfg.DB)
		return st.Close()
	case "catalog":
		if len(args) < 2 {
			return errors.New("catalog: want import FILE or check FILE")
		}
		cfg, err := parseConfig("catalog "+args[1], args[2:])
		if err != nil {
			return err
		}
		return catalogCommand(ctx, args[1], cfg)
	case "mail", "audit", "affiliates":
		return afterSaleCommand(ctx, args)
	case "storefront":
		return storefrontCommand(ctx, args)
	case "payments":
		return paymentsCommand(ctx, args)
	case "version":
		fmt.Println("widget", web.WidgetVersion())
		fmt.Println("integrity", web.WidgetIntegrity())
		return nil
	case "-h", "--help", "help":
		fmt.Print(usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

func catalogCommand(ctx context.Context, sub string, cfg app.Config) error {
	if cfg.CatalogFile == "" {
		return fmt.Errorf("catalog %s: missing FILE", sub)
	}
	switch sub {
	case "check":
		c, err := catalog.Load(cfg.CatalogFile)
		if err != nil {
			return err
		}
		if err := app.CheckCatalog(cfg, c); err != nil {
			return fmt.Errorf("%s: %w", cfg.CatalogFile, err)
		}
		fmt.Printf("%s: valid (%d products, %d currencies, %d promotions)\n", cfg.CatalogFile, len(c.Products), len(c.Currencies), len(c.Promotions))
		return nil
	case "import":
		// The running shops would refuse it (app.RefreshCatalog); refusing it here says so at once.
		c, err := catalog.Load(cfg.CatalogFile)
		if err != nil {
			return err
		}
		if err := app.CheckCatalog(cfg, c); err != nil {
			return fmt.Errorf("%s: %w", cfg.CatalogFile, err)
		}
		st, err := store.OpenURL(ctx, cfg.DB)
		if err != nil {
			return err
		}
		defer st.Close()
		c, err = app.ImportCatalog(ctx, st, cfg.CatalogFile)
		if err != nil {
			return err
		}
		fmt.Printf("%s imported into %s (%d products); running shops pick it up within their catalog poll interval (STREAMCART_CATALOG_POLL, default %s)\n", cfg.CatalogFile, cfg.DB, len(c.Products), app.DefaultCatalogPoll)
		return nil
	}
	return fmt.Errorf("catalog: unknown subcommand %q", sub)
}

// parseConfig reads flags over STREAMCART_* environment variables over defaults. A trailing
// positional argument is the catalog file (catalog import FILE).
func parseConfig(name string, args []string) (app.Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	env := func(key, def string) string {
		if v, ok := os.LookupEnv("STREAMCART_" + key); ok {
			return v
		}
		return def
	}
	envInt := func(key string, def int) int {
		n, err := strconv.Atoi(env(key, strconv.Itoa(def)))
		if err != nil {
			return def
		}
		return n
	}
	envDur := func(key string, def time.Duration) time.Duration {
		d, err := time.ParseDuration(env(key, def.String()))
		if err != nil {
			return def
		}
		return d
	}
	var cfg app.Config
	var banned string
	fs.StringVar(&cfg.Addr, "addr", env("ADDR", "127.0.0.1:8080"), "listen address (STREAMCART_ADDR)")
	fs.StringVar(&cfg.DB, "db", env("DB", "./data/streamcart.db"), "SQLite database file, or a postgres:// URL (STREAMCART_DB)")
	fs.StringVar(&cfg.CatalogFile, "catalog", env("CATALOG", ""), "catalog file to import at start (STREAMCART_CATALOG)")
	fs.StringVar(&cfg.GeoDB, "geo-db", env("GEO_DB", defaultGeoDB()), "MMDB country database (STREAMCART_GEO_DB)")
	fs.StringVar(&cfg.PublicURL, "public-url", env("PUBLIC_URL", ""), "public base URL of the shop, e.g. https://shop.example (STREAMCART_PUBLIC_URL)")
	fs.StringVar(&cfg.ServerHostname, "server-hostname", env("SERVER_HOSTNAME", "line.streamcart.local:8000"), "streaming host of the built-in panel (STREAMCART_SERVER_HOSTNAME)")
	fs.StringVar(&cfg.UsernamePrefix, "username-prefix", env("USERNAME_PREFIX", "sc"), "prefix of generated line usernames (STREAMCART_USERNAME_PREFIX)")
	fs.StringVar(&cfg.DashboardURL, "dashboard-url", env("DASHBOARD_URL", "/checkout/"), "external account dashboard behind \"Login\" (STREAMCART_DASHBOARD_URL)")
	fs.StringVar(&cfg.SupportURL, "support-url", env("SUPPORT_URL", ""), "support site linked from the footer (STREAMCART_SUPPORT_URL)")
	fs.StringVar(&cfg.StoreName, "store-name", env("STORE_NAME", "Streamcart"), "shop name (STREAMCART_STORE_NAME)")
	fs.BoolVar(&cfg.Examples, "examples", env("EXAMPLES", "") == "true", "serve the embedding examples under /examples/ (STREAMCART_EXAMPLES)")
	fs.BoolVar(&cfg.Payment.TestMode, "test-mode", env("TEST_MODE", "") == "true", "the shop takes no real money: the sandbox gateway may run next to live ones (STREAMCART_TEST_MODE)")
	fs.BoolVar(&cfg.TrustProxy, "trust-proxy", env("TRUST_PROXY", "") == "true", "take client IPs from X-Forwarded-For (STREAMCART_TRUST_PROXY)")
	fs.IntVar(&cfg.FraudMaxPerIP, "fraud-max-orders-per-ip", envInt("FRAUD_MAX_ORDERS_PER_IP", fraud.DefaultMaxOrdersPerIP), "orders per IP per 24 h before orders are held (STREAMCART_FRAUD_MAX_ORDERS_PER_IP)")
	fs.StringVar(&banned, "fraud-banned-email-domains", env("FRAUD_BANNED_EMAIL_DOMAINS", ""), "comma list of email domains whose orders are held (STREAMCART_FRAUD_BANNED_EMAIL_DOMAINS)")
	fs.DurationVar(&cfg.CatalogPoll, "catalog-poll", envDur("CATALOG_POLL", app.DefaultCatalogPoll), "how often a running shop checks for a catalog imported elsewhere (STREAMCART_CATALOG_POLL)")
	fs.DurationVar(&cfg.JobLease, "job-lease", envDur("JOB_LEASE", 30*time.Second), "how long a job claim lasts before another worker may take it over (STREAMCART_JOB_LEASE)")
	fs.DurationVar(&cfg.JobPoll, "job-poll", envDur("JOB_POLL", 500*time.Millisecond), "job queue poll interval (STREAMCART_JOB_POLL)")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", env("METRICS_ADDR", ""), "serve /metrics on this address of its own, e.g. 127.0.0.1:9090; empty: on the main listener, to bearers of STREAMCART_METRICS_TOKEN or, without one, to this host only (STREAMCART_METRICS_ADDR)")
	cfg.OTLPEndpoint = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", envDur("SHUTDOWN_TIMEOUT", 15*time.Second), "graceful shutdown limit (STREAMCART_SHUTDOWN_TIMEOUT)")
	cfg.SecretKey = env("SECRET_KEY", "")
	var gateways string
	fs.StringVar(&gateways, "gateways", env("GATEWAYS", ""), "enabled payment gateways, hyphen list, first is the default, e.g. stripe-coinbase-cryptomus; empty: the catalog's (STREAMCART_GATEWAYS)")
	fs.StringVar(&cfg.Payment.StripeAPIURL, "stripe-api-url", env("STRIPE_API_URL", ""), "Stripe API base URL override, e.g. a stripe-mock (STREAMCART_STRIPE_API_URL)")
	fs.StringVar(&cfg.Payment.CoinbaseAPIURL, "coinbase-api-url", env("COINBASE_API_URL", ""), "Coinbase Commerce API base URL override (STREAMCART_COINBASE_API_URL)")
	fs.BoolVar(&cfg.Payment.CoinbaseSettleOnPending, "coinbase-settle-on-pending", env("COINBASE_SETTLE_ON_PENDING", "") == "true", "settle Coinbase charges on charge:pending instead of charge:confirmed (STREAMCART_COINBASE_SETTLE_ON_PENDING)")
	fs.StringVar(&cfg.Payment.CryptomusAPIURL, "cryptomus-api-url", env("CRYPTOMUS_API_URL", ""), "Cryptomus API base URL override (STREAMCART_CRYPTOMUS_API_URL)")
	fs.StringVar(&cfg.Panel, "panel", env("PANEL", "builtin"), "IPTV panel: builtin, xui or xtream (STREAMCART_PANEL)")
	fs.StringVar(&cfg.SMTPURL, "smtp-url", env("SMTP_URL", ""), "SMTP server for outgoing mail, smtp://user:password@host:587?from=shop@example.com; empty keeps mail in the database (STREAMCART_SMTP_URL)")
	fs.IntVar(&cfg.TrialsPerClient, "trials-per-client", envInt("TRIALS_PER_CLIENT", order.DefaultTrialsPerClient), "free trials per client; -1: no limit (STREAMCART_TRIALS_PER_CLIENT)")
	fs.IntVar(&cfg.TrialsPerIP, "trials-per-ip", envInt("TRIALS_PER_IP", order.DefaultTrialsPerIP), "free trials per client address per 30 days; -1: no limit (STREAMCART_TRIALS_PER_IP)")
	fs.IntVar(&cfg.NewResellerPID, "new-reseller-pid", envInt("NEW_RESELLER_PID", 0), "product a new reseller buys with the first reseller plan; 0: none (STREAMCART_NEW_RESELLER_PID)")
	if err := rateLimitFlags(fs, env, &cfg.RateLimits); err != nil {
		return cfg, err
	}
	fs.StringVar(&cfg.PanelURL, "panel-url", env("PANEL_URL", ""), "panel API base URL; for xui including the access code (STREAMCART_PANEL_URL)")
	// Secrets come only from the environment or a file (STREAMCART_X_FILE): never flags, which
	// other users can read in the process list.
	secrets := []struct {
		key string
		dst *string
	}{
		{"STRIPE_SECRET_KEY", &cfg.Payment.StripeSecretKey}, {"STRIPE_WEBHOOK_SECRET", &cfg.Payment.StripeWebhookSecret},
		{"COINBASE_API_KEY", &cfg.Payment.CoinbaseAPIKey}, {"COINBASE_WEBHOOK_SECRET", &cfg.Payment.CoinbaseWebhookSecret},
		{"CRYPTOMUS_MERCHANT", &cfg.Payment.CryptomusMerchant}, {"CRYPTOMUS_API_KEY", &cfg.Payment.CryptomusAPIKey},
		{"PANEL_API_KEY", &cfg.PanelAPIKey}, {"METRICS_TOKEN", &cfg.MetricsToken},
	}
	for _, sec := range secrets {
		v, err := secret(sec.key)
		if err != nil {
			return cfg, err
		}
		*sec.dst = v
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.Payment.Modules = catalog.ParseGatewayList(gateways)
	if rest := fs.Args(); len(rest) > 0 {
		cfg.CatalogFile = rest[0]
	}
	cfg.FraudBanned = fraud.ParseDomains(banned)
	cfg.DB = strings.TrimPrefix(cfg.DB, "sqlite://")
	return cfg, nil
}

// rateLimitFlags declares the per-address rate limit settings; a malformed limit stops the start.
func rateLimitFlags(fs *flag.FlagSet, env func(key, def string) string, rl *httpapi.RateLimits) error {
	onOff := func(v string) error {
		switch v {
		case "on":
			rl.Off = false
		case "off":
			rl.Off = true
		default:
			return fmt.Errorf("rate limits %q: want on or off", v)
		}
		return nil
	}
	if err := onOff(env("RATE_LIMITS", "on")); err != nil {
		return fmt.Errorf("STREAMCART_RATE_LIMITS: %w", err)
	}
	fs.Func("rate-limits", "on, or off for a shop behind its own rate-limiting proxy or a load test; the wrong-password throttle stays on (STREAMCART_RATE_LIMITS, default on)", onOff)
	limits := []struct {
		key, name string
		dst       *httpapi.Limit
		def       httpapi.Limit
		what      string
	}{
		{"SESSIONS", "sessions", &rl.Sessions, httpapi.DefaultSessions, "new email sessions and sign-in links"},
		{"PROMOTIONS", "promotions", &rl.Promotions, httpapi.DefaultPromotions, "promo code lookups"},
		{"QUOTES", "quotes", &rl.Quotes, httpapi.DefaultQuotes, "quotes"},
		{"CLICKS", "clicks", &rl.Clicks, httpapi.DefaultClicks, "affiliate clicks"},
		{"ORDERS", "orders", &rl.Orders, httpapi.DefaultOrders, "order creation"},
	}
	for _, l := range limits {
		key := "RATE_LIMIT_" + l.key
		v, err := httpapi.ParseLimit(env(key, l.def.String()))
		if err != nil {
			return fmt.Errorf("STREAMCART_%s: %w", key, err)
		}
		*l.dst = v
		fs.Func("rate-limit-"+l.name, fmt.Sprintf("%s per client address, REQUESTS/WINDOW (STREAMCART_%s, default %s)", l.what, key, l.def), func(s string) error {
			v, err := httpapi.ParseLimit(s)
			*l.dst = v
			return err
		})
	}
	fs.StringVar(&rl.RedisURL, "redis-url", env("REDIS_URL", ""), "Redis shared by replicas for the rate limits, redis://host:6379/0; empty: counted in memory (STREAMCART_REDIS_URL)")
	fs.StringVar(&rl.RedisPrefix, "redis-prefix", env("REDIS_PREFIX", httpapi.DefaultRedisPrefix), "prefix of this shop's Redis keys (STREAMCART_REDIS_PREFIX)")
	return nil
}

// secret reads STREAMCART_<key>, or the file named by STREAMCART_<key>_FILE (trailing newline
// dropped). The error names the setting, never its value.
func secret(key string) (string, error) {
	if v := os.Getenv("STREAMCART_" + key); v != "" {
		return v, nil
	}
	path := os.Getenv("STREAMCART_" + key + "_FILE")
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("STREAMCART_%s_FILE: %w", key, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// defaultGeoDB finds the country database installed by `make` (npm package), if any.
func defaultGeoDB() string {
	for _, p := range []string{
		"./data/geo-whois-asn-country.mmdb",
		"./node_modules/@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb",
	} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
