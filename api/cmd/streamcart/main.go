// Command streamcart runs the Streamcart shop: `serve`, `migrate`, `catalog import FILE` and the
// operator's read-only listings. Every setting is a flag and a STREAMCART_* environment variable
// (a flag given on the command line wins), checked strictly: see shopSettings.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/credits"
	"github.com/streamcart/streamcart/api/disposable"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/logbuf"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/web"
	"github.com/streamcart/streamcart/api/whmcs"
)

const usage = `Usage:
  streamcart serve [flags]            start the shop (http://localhost:8080/checkout/)
  streamcart migrate [--db PATH]      apply database migrations
  streamcart catalog import FILE      validate a catalog file and make it the shop's catalog
  streamcart catalog check FILE       validate a catalog file only
  streamcart storefront list [--catalog FILE]  storefront keys, names and allowed origins
  streamcart version, --version       print the build's version, the embedded widget's and its SRI hash
  streamcart settings [--markdown]    every setting: variable, flag, default, meaning
  streamcart mail list                list outgoing mail (the outbox), newest first
  streamcart mail show ID             print one message (sign-in links are in there)
  streamcart mail preview KIND [--locale de-de]  print a message rendered from sample data (text and HTML)
  streamcart audit list [--service ID] list service actions (who, what, when, result)
  streamcart affiliates report [--since YYYY-MM-DD]  clicks, orders and paid revenue per affiliate
  streamcart payments review [--state review|refunded|accepted|all] [--limit N]  payments to review: money that could not settle its order
  streamcart tax report --from YYYY-MM-DD --to YYYY-MM-DD [--csv]  net, tax and gross per country and rate, credit notes subtracted (OSS)
  streamcart jobs list [--state dead] [--kind K] [--limit N]  background jobs, newest first, with their last error
  streamcart jobs retry ID            a dead, failed or cancelled job queued again, attempts reset, run now
  streamcart jobs cancel ID           a queued or dead job cancelled (a running one is refused)
  streamcart clock advance DURATION   move the test clock of every shop on the database forward (26d, 36h); refused beside a live gateway
  streamcart clock show               the test clock's offset, shop time and real time
  streamcart clock reset              put the shops back on real time
  streamcart renewals list [--due-within 14d]  services that renew: client, due date, status, open renewal invoice
  streamcart operator add EMAIL --role owner|support|viewer  a console operator and its one-time setup link (24 h)
  streamcart operator list            console operators: email, role, status
  streamcart operator disable EMAIL   an operator can no longer sign in; its sessions end
  streamcart operator reset EMAIL     a new setup link for an operator (lost authenticator): sessions end
  streamcart lines reconcile [--dry-run]  compare every line with the panel, repair drift toward what was paid, list unexplained panel lines
  streamcart panel list|delete|disable|enable|set-expiry|set-connections|credits  the built-in panel's lines and credits by hand (streamcart panel -h)

Run "streamcart COMMAND -h" for a command's flags. The listings (mail, audit, affiliates,
storefront, payments, renewals, tax) only read: they refuse a database that does not exist.
`

// heldWriter keeps what is written to it while held, and writes it to w on release; then it
// writes through.
type heldWriter struct {
	mu   sync.Mutex
	w    io.Writer
	held bool
	buf  bytes.Buffer
}

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		return h.buf.Write(p)
	}
	return h.w.Write(p)
}

func (h *heldWriter) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		h.held = false
		_, _ = h.w.Write(h.buf.Bytes())
		h.buf.Reset()
	}
}

// operatorAddCommand is the command that adds a console operator to the database db, as the
// banner of serve prints it: with this binary's path, and the database when it is not the
// default one (a postgres:// URL by its variable: it may hold a password).
func operatorAddCommand(db string) string {
	cmd := os.Args[0] + " operator add you@example.com --role owner"
	switch {
	case db == defaultDB:
	case strings.Contains(db, "://"):
		cmd = "STREAMCART_DB=… " + cmd
	default:
		cmd += " --db " + db
	}
	return cmd
}

// version is the release, set at link time (-ldflags "-X main.version=v1.2.3"); empty: the
// module version Go recorded, "(devel)" for a build from a work tree.
var version string

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "streamcart:", err)
		os.Exit(1)
	}
}

// run runs the command args name; -h on any command prints its flags and is no error.
func run(args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return errors.New("no command")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := command(ctx, args)
	if errors.Is(err, config.ErrHelp) {
		return nil
	}
	return err
}

func command(ctx context.Context, args []string) error {
	switch args[0] {
	case "serve":
		s := config.New("serve")
		cfg, err := shopConfig(s, args[1:])
		if err != nil {
			return err
		}
		// The collector at twice Go's default heap growth unless GOGC says otherwise: the shop's
		// live heap is small and its requests allocate little, so this halves the collector's
		// share of a request's CPU (issue 24, docs/benchmarks.md) for a few MB of memory.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(200)
		}
		// The banner (the shop's address first) comes before any log line: those written while
		// the shop opens wait for it.
		held := &heldWriter{w: os.Stderr, held: true}
		out := logbuf.New(held)
		defer out.Close() // after the shop's own Close: its last lines are written too
		log, logJSON, err := newLogger(out, cfg.LogLevel, cfg.LogFormat)
		if err != nil {
			return err
		}
		cfg.LogJSON = logJSON
		if s.Setting("trust-proxy").Given() {
			log.Warn("STREAMCART_TRUST_PROXY is deprecated: list the proxies in STREAMCART_TRUSTED_PROXIES (true trusts loopback and the private ranges)")
		}
		// The live heap of a shop is small (catalog, caches) and its garbage is per request:
		// collecting at 4× the live heap instead of 2× halves the collector's share of each
		// order's CPU for a few MB more. GOGC in the environment still decides.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
		a, err := app.Open(ctx, cfg, log)
		if err != nil {
			held.release()
			return err
		}
		defer a.Close()
		fmt.Print(a.Banner(operatorAddCommand(cfg.DB)))
		held.release()
		return a.Run(ctx)
	case "migrate":
		var cfg app.Config
		s := config.New("migrate")
		dbSetting(s, &cfg)
		if err := s.Parse(args[1:], os.Stdout); err != nil {
			return err
		}
		st, err := store.OpenURL(ctx, cfg.DB)
		if err != nil {
			return err
		}
		fmt.Println("migrations applied to", cfg.DB)
		return st.Close()
	case "catalog":
		if len(args) < 2 || (args[1] != "import" && args[1] != "check") {
			return errors.New("catalog: want import FILE or check FILE")
		}
		// Only what a catalog is checked against: the database and the payment settings.
		var cfg app.Config
		s := config.New("catalog " + args[1])
		dbSetting(s, &cfg)
		paymentSettings(s, &cfg)
		if err := s.Parse(args[2:], os.Stdout); err != nil {
			return err
		}
		if rest := s.Args(); len(rest) > 0 {
			cfg.CatalogFile = rest[0]
		}
		return catalogCommand(ctx, args[1], cfg)
	case "mail", "audit", "affiliates":
		if args[0] == "mail" && len(args) > 1 && args[1] == "preview" {
			return mailPreview(args[2:], os.Stdout)
		}
		return afterSaleCommand(ctx, args)
	case "storefront":
		return storefrontCommand(ctx, args)
	case "payments":
		return paymentsCommand(ctx, args)
	case "tax":
		return taxCommand(ctx, args, os.Stdout)
	case "jobs":
		return jobsCommand(ctx, args, os.Stdout)
	case "clock":
		return clockCommand(ctx, args, os.Stdout)
	case "renewals":
		return renewalsCommand(ctx, args, os.Stdout)
	case "operator":
		return operatorCommand(ctx, args, os.Stdout)
	case "panel":
		return panelCommand(ctx, args, os.Stdout)
	case "lines":
		return linesCommand(ctx, args, os.Stdout)
	case "settings":
		return settingsCommand(os.Stdout, args[1:])
	case "version", "--version", "-version":
		fmt.Println("streamcart", buildVersion())
		fmt.Println("widget", web.WidgetVersion())
		fmt.Println("integrity", web.WidgetIntegrity())
		return nil
	case "-h", "--help", "-help", "help":
		fmt.Print(usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// settingsCommand prints every setting of the shop: variable, flag and default, or with
// --markdown the table of docs/operations.md (which a test keeps in step).
func settingsCommand(out io.Writer, args []string) error {
	s := config.New("settings")
	md := s.Flags().Bool("markdown", false, "print the Markdown table of docs/operations.md")
	if err := s.Parse(args, out); err != nil {
		return err
	}
	shop := config.New("serve")
	shopSettings(shop, new(app.Config))
	if *md {
		config.Markdown(out, shop.Settings())
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "VARIABLE\tFLAG\tDEFAULT")
	for _, st := range shop.Settings() {
		fl, env := "--"+st.Name, st.Env
		if st.EnvOnly {
			fl = "-"
		}
		if st.Secret {
			env += " (or _FILE)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", env, fl, or(st.Default, "-"))
	}
	return w.Flush()
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

// shopConfig reads the shop's settings (shopSettings) from args over the environment. A
// trailing positional argument is the catalog file.
func shopConfig(s *config.Set, args []string) (app.Config, error) {
	var cfg app.Config
	shopSettings(s, &cfg)
	if err := s.Parse(args, os.Stdout); err != nil {
		return cfg, err
	}
	if rest := s.Args(); len(rest) > 0 {
		cfg.CatalogFile = rest[0]
	}
	cfg.Settings = s.InForce
	// OpenTelemetry's own variable, as every OTLP exporter reads it (docs/operations.md#traces).
	cfg.OTLPEndpoint = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	if s.Setting("trust-proxy").Given() && s.Setting("trusted-proxies").Given() {
		return cfg, errors.New("STREAMCART_TRUST_PROXY is the deprecated form of STREAMCART_TRUSTED_PROXIES: set only STREAMCART_TRUSTED_PROXIES")
	}
	return cfg, nil
}

// shopSettings declares every setting of the shop into cfg: serve reads them all, the settings
// table in docs/operations.md lists them. Adding a setting is one line here (the kinds are
// config.Set's methods; a secret is Secret, or any setting .MarkSecret() for a _FILE form).
func shopSettings(s *config.Set, cfg *app.Config) {
	s.Addr(&cfg.Addr, "addr", "127.0.0.1:8080", "listen address")
	dbSetting(s, cfg)
	s.String(&cfg.CatalogFile, "catalog", "", "catalog file imported at start (docs/catalog.md)")
	s.String(&cfg.GeoDB, "geo-db", defaultGeoDB(), "MMDB country database; empty: country lookups answer XX").
		Documented("the MMDB make installs (./data/geo-whois-asn-country.mmdb or under node_modules), when present")
	publicURLSetting(s, cfg)
	s.Secret(&cfg.SecretKey, "secret-key", "base64 HMAC key (at least 32 bytes) for session tokens, also sealing the console operators' TOTP secrets, the same on every replica; unset: generated on first start and stored")
	s.String(&cfg.ServerHostname, "server-hostname", "line.streamcart.local:8000", "streaming host of the built-in panel")
	s.String(&cfg.UsernamePrefix, "username-prefix", "sc", "prefix of generated line usernames")
	s.String(&cfg.DashboardURL, "dashboard-url", "/checkout/", "the seller's external account dashboard behind the header's \"Login\" when it points off the shop (another site, or a path outside /checkout/); otherwise Login opens the shop's sign-in form")
	s.URL(&cfg.SupportURL, "support-url", "", "support site linked from the footer", "http", "https")
	s.String(&cfg.StoreName, "store-name", "Streamcart", "shop name (/storefront)")
	s.Bool(&cfg.Examples, "examples", false, "serve the embedding examples under /examples/ (make run sets it); not for a shop taking real orders")
	s.Prefixes(&cfg.TrustedProxies, "trusted-proxies", "", "the proxies in front of the shop: only from these peers is X-Forwarded-For read, and the client is its right-most address that is not one of them (what a caller writes left of it is ignored); empty: the connection's address is the client. never used to build links")
	s.Func("trust-proxy", "false", "true or false", "deprecated, use STREAMCART_TRUSTED_PROXIES: true trusts proxies on loopback and the private ranges (127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, ::1/128, fc00::/7)", func(v string) error {
		on, err := strconv.ParseBool(v)
		if on {
			cfg.TrustedProxies = geo.LocalNetworks()
		}
		return err
	})
	s.Int(&cfg.FraudMaxPerIP, "fraud-max-orders-per-ip", fraud.DefaultMaxOrdersPerIP, "orders per client address per 24 h before further orders are held; 0 or less: no limit")
	s.Func("fraud-banned-email-domains", "", "", "comma list of email domains whose orders are held", func(v string) error {
		cfg.FraudBanned = fraud.ParseDomains(v)
		return nil
	})
	s.Int(&cfg.TrialsPerClient, "trials-per-client", order.DefaultTrialsPerClient, "free-trial orders per client (beyond: 409 trial_used); 0: the default; negative: no limit")
	s.Int(&cfg.TrialsPerIP, "trials-per-ip", order.DefaultTrialsPerIP, "free-trial orders per client address per 30 days; 0: the default; negative: no limit")
	s.Func("trial-block-disposable", "true", "true or false", "refuse free trials (409 trial_unavailable) to throwaway e-mail addresses, by the list of package api/disposable (a pinned mailchecker release); false: that list is not checked (STREAMCART_TRIAL_BLOCKED_DOMAINS still is)", func(v string) error {
		on, err := strconv.ParseBool(v)
		cfg.TrialAllowDisposable = !on
		return err
	})
	s.Func("trial-blocked-domains", "", "", "comma list of e-mail domains (subdomains included) refused free trials (409 trial_unavailable), besides the throwaway list", func(v string) error {
		cfg.TrialBlockedDomains = disposable.ParseDomains(v)
		return nil
	})
	s.Int(&cfg.RenewalLeadDays, "renewal-lead-days", 0, "days before its due date a service's renewal is invoiced; 0: 7 for monthly lines, 14 for longer cycles")
	s.Int(&cfg.RenewalGraceDays, "renewal-grace-days", renewal.DefaultGraceDays, "days an unpaid line stays Overdue after its due date before it is suspended (line disabled); 0: the default")
	s.Int(&cfg.TerminateAfterDays, "terminate-after-days", 0, "days after its due date an unpaid line is deleted and its service Terminated; 0: never")
	s.Int(&cfg.SupportMaxExtendDays, "support-max-extend-days", console.DefaultSupportMaxExtendDays, "days the console's support role may extend one line by within 30 days (real time); the owner is not capped; 0: the default")
	s.Int(&cfg.NewResellerPID, "new-reseller-pid", 0, "product a new reseller buys with the first reseller plan; 0: none")
	s.Duration(&cfg.CatalogPoll, "catalog-poll", app.DefaultCatalogPoll, "how often a running shop checks for a catalog imported elsewhere and for the test clock (streamcart clock)")
	s.Duration(&cfg.JobLease, "job-lease", 30*time.Second, "how long a job claim lasts before another worker may take it over")
	s.Int(&cfg.JobAttempts, "job-attempts", job.DefaultMaxAttempts, "how many times a provisioning, webhook, mail or refund job is tried (backoff 1 s doubling to 1 h) before it is dead and waits for an operator (streamcart jobs list --state dead, the console's Jobs); the default spans about three days")
	s.Duration(&cfg.JobPoll, "job-poll", 500*time.Millisecond, "job queue poll interval (a payment wakes the worker at once)")
	s.Duration(&cfg.ShutdownTimeout, "shutdown-timeout", 15*time.Second, "graceful shutdown limit")
	s.Choice(&cfg.Panel, "panel", "builtin", []string{"builtin", "xui", "xtream"}, "IPTV panel")
	s.URL(&cfg.PanelURL, "panel-url", "", "panel API base URL; for xui including the access code", "http", "https")
	cfg.ReconcileEvery = linedrift.DefaultEvery
	s.Func("reconcile-every", linedrift.DefaultEvery.String(), "a duration such as 15m, or 0 for never", "how often the panel is reconciled with what was paid (lines deleted, disabled, shortened … on the panel repaired; streamcart lines reconcile runs it once); 0: never", func(v string) error {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return errors.New("invalid")
		}
		cfg.ReconcileEvery = d
		return nil
	})
	cfg.PanelCreditsAlert = credits.DefaultAlert
	s.Func("panel-credits-alert", strconv.Itoa(credits.DefaultAlert), "a number of credits such as 10, or -1 for no alert", "low-water mark of the panel's reseller credit balance: at or under it the owners are mailed once and the console shows a banner (plans the balance cannot cover are shown temporarily unavailable whatever the mark)", func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return errors.New("invalid")
		}
		cfg.PanelCreditsAlert = f
		return nil
	})
	s.Secret(&cfg.PanelAPIKey, "panel-api-key", "the panel's API key")
	s.URL(&cfg.SMTPURL, "smtp-url", "", "SMTP server for outgoing mail, smtp://user:password@host:587?from=shop@example.com (STARTTLS required), smtps://… or port 465 for implicit TLS, ?tls=none for a local relay in plain text; empty: mail stays in the database (streamcart mail list)", "smtp", "smtps").MarkSecret()
	rateLimitSettings(s, &cfg.RateLimits)
	s.Int(&cfg.OrderStreams.PerReplica, "order-streams", httpapi.DefaultStreamsPerReplica, "open order status streams (GET /orders/{id}/events) a replica serves at once; beyond: 429 rate_limited, and the pages poll")
	s.Int(&cfg.OrderStreams.PerSession, "order-streams-per-session", httpapi.DefaultStreamsPerSession, "open order status streams one session may hold, all replicas together (a buyer's tabs); beyond: 429 rate_limited")
	s.Duration(&cfg.OrderStreams.Idle, "order-stream-idle", httpapi.DefaultStreamIdle, "an order status stream that sent no event for this long is closed (the page reconnects with Last-Event-ID)")
	s.Addr(&cfg.MetricsAddr, "metrics-addr", "", "serve /metrics on a listener of its own, e.g. 127.0.0.1:9090; empty: on the main listener, to bearers of STREAMCART_METRICS_TOKEN or, without one, to direct loopback callers only")
	s.Secret(&cfg.MetricsToken, "metrics-token", "Bearer token /metrics asks for on the main listener")
	s.Choice(&cfg.LogLevel, "log-level", "info", []string{"debug", "info", "warn", "error"}, "least important log lines written")
	s.Choice(&cfg.LogFormat, "log-format", "json", []string{"json", "text"}, "json: one object a line, for a log collector; text: for a terminal")
	retentionSettings(s, &cfg.Retention)
	paymentSettings(s, cfg)
	whmcsSettings(s, cfg)
}

// whmcsSettings are the back end's: builtin, or a seller's WHMCS (docs/whmcs.md). app.Open
// checks them together (whmcs.Settings.Check) and against WHMCS when the back end is whmcs.
func whmcsSettings(s *config.Set, cfg *app.Config) {
	w := &cfg.WHMCS
	s.Choice(&cfg.Backend, "backend", app.BackendBuiltin, []string{app.BackendBuiltin, app.BackendWHMCS}, "who owns the catalog, clients, orders and invoices: builtin (Streamcart) or whmcs (a seller's WHMCS, reached with the STREAMCART_WHMCS_* settings; docs/whmcs.md)")
	s.URL(&w.URL, "whmcs-url", "", "the address of WHMCS's API, https://billing.example.com/includes/api.php (http only on this machine)", "http", "https").MarkSecret()
	s.Secret(&w.Identifier, "whmcs-identifier", "identifier of the WHMCS API credential (Configuration → System Settings → Manage API Credentials)")
	s.Secret(&w.Secret, "whmcs-secret", "secret of the WHMCS API credential")
	s.Secret(&w.AccessKey, "whmcs-access-key", "WHMCS's API access key ($api_access_key in configuration.php), when the shop's address cannot be on WHMCS's API IP allow-list; sent in the request body only")
	s.Int(&w.PlansGroup, "whmcs-plans-group", 0, "id of the WHMCS product group holding the plans (the storefront lists its first three)")
	s.Int(&w.ResellerGroup, "whmcs-reseller-group", 0, "id of the WHMCS product group holding the reseller plans; 0: none")
	s.Func("whmcs-gateways", "", "a comma list of gateway=module such as stripe=stripe,sandbox=banktransfer", "the WHMCS payment module each Streamcart gateway's payments are recorded under (each active in WHMCS)", func(v string) error {
		m, err := whmcs.ParseGateways(v)
		w.Gateways = m
		return err
	})
	s.Int(&w.ExtraOption, "whmcs-extra-option", whmcs.DefaultExtraOption, "id of the WHMCS config option (a quantity) sold as extra connections; 0: none")
	s.Int(&w.ProxyOption, "whmcs-proxy-option", whmcs.DefaultProxyOption, "id of the WHMCS config option (a yes/no) sold as proxy protection; 0: none")
	s.String(&w.MACField, "whmcs-mac-field", whmcs.DefaultMACField, "name of the WHMCS product custom field holding a MAG device's MAC address")
	s.String(&w.RestartFunction, "whmcs-restart-function", whmcs.DefaultRestartFunction, "the WHMCS module's custom function (ModuleCustom func_name) that restarts a line; the buyer's restart runs it")
	s.Duration(&w.CatalogRefresh, "whmcs-catalog-refresh", whmcs.DefaultCatalogRefresh, "how often the catalog is read again from WHMCS (in the background; the storefront serves the last one read)")
}

// publicURLSetting is the shop's origin: serve builds every link on it, operator add the setup link.
func publicURLSetting(s *config.Set, cfg *app.Config) {
	s.URL(&cfg.PublicURL, "public-url", "", "the shop's public origin (https://shop.example, scheme and host only): links, payment pages, return and webhook URLs are built on it, never on a request's Host; required by every live gateway; https:// turns on Strict-Transport-Security and Secure console cookies; empty: the listen address", "http", "https")
}

// dbSetting is the database, the one setting every command that opens it reads.
// defaultDB is the database of every command without --db.
const defaultDB = "./data/streamcart.db"

func dbSetting(s *config.Set, cfg *app.Config) {
	cfg.DB = defaultDB
	s.Func("db", cfg.DB, "", "SQLite database file (created with its directory by serve and migrate), or a postgres:// URL", func(v string) error {
		cfg.DB = strings.TrimPrefix(v, "sqlite://")
		return nil
	})
}

// paymentSettings are the gateways' settings, which a catalog is also checked against.
func paymentSettings(s *config.Set, cfg *app.Config) {
	p := &cfg.Payment
	s.Func("gateways", "", "", "enabled payment gateways, hyphen list, the first is the default, e.g. stripe-coinbase-cryptomus; empty: the catalog's", func(v string) error {
		p.Modules = catalog.ParseGatewayList(v)
		return nil
	})
	s.Bool(&p.TestMode, "test-mode", false, "the shop takes no real money: the sandbox gateway may run next to live ones; without it the start (and a catalog import or check) refuses the sandbox beside a live gateway unless each uses test credentials")
	s.URL(&p.StripeAPIURL, "stripe-api-url", "", "Stripe API base URL override, e.g. a stripe-mock", "http", "https")
	s.Secret(&p.StripeSecretKey, "stripe-secret-key", "Stripe secret key (sk_… or a restricted rk_…)")
	s.Secret(&p.StripeWebhookSecret, "stripe-webhook-secret", "Stripe webhook signing secret (whsec_…)")
	s.URL(&p.CoinbaseAPIURL, "coinbase-api-url", "", "Coinbase Business API base URL override; empty: https://business.coinbase.com", "http", "https")
	s.String(&p.CoinbaseKeyID, "coinbase-key-id", "", "id of the CDP secret API key Coinbase Business checkouts are made with")
	s.Secret(&p.CoinbaseKeySecret, "coinbase-key-secret", "CDP secret API key (Ed25519 or ECDSA P-256) that signs each request's JWT")
	s.Secret(&p.CoinbaseWebhookSecret, "coinbase-webhook-secret", "secret of the Coinbase Business webhook subscription (X-Hook0-Signature)")
	s.String(&p.CoinbaseNetwork, "coinbase-network", payment.CoinbaseNetwork, "network Coinbase Business checkouts take USDC on")
	s.Secret(&p.CoinbaseCommerceAPIKey, "coinbase-api-key", "retired: Coinbase Commerce closed on 31 March 2026; set, it stops the start and says what to set instead")
	s.URL(&p.CryptomusAPIURL, "cryptomus-api-url", "", "Cryptomus API base URL override", "http", "https")
	s.Secret(&p.CryptomusMerchant, "cryptomus-merchant", "Cryptomus merchant id")
	s.Secret(&p.CryptomusAPIKey, "cryptomus-api-key", "Cryptomus payment API key")
}

// rateLimitSettings are the per-address rate limits.
func rateLimitSettings(s *config.Set, rl *httpapi.RateLimits) {
	s.Func("rate-limits", "on", "on or off", "off lifts every per-address limit below (a shop behind its own rate-limiting proxy; load tests); the wrong-password throttle stays on", func(v string) error {
		switch v {
		case "on", "off":
			rl.Off = v == "off"
			return nil
		}
		return errors.New("invalid")
	})
	limits := []struct {
		name string
		dst  *httpapi.Limit
		def  httpapi.Limit
		what string
	}{
		{"sessions", &rl.Sessions, httpapi.DefaultSessions, "sessions (POST /session, with a password or without) and sign-in links (POST /session/link)"},
		{"promotions", &rl.Promotions, httpapi.DefaultPromotions, "promo code lookups (GET /promotions/{code})"},
		{"quotes", &rl.Quotes, httpapi.DefaultQuotes, "quotes (POST /quote, POST /upsell/quote)"},
		{"clicks", &rl.Clicks, httpapi.DefaultClicks, "affiliate clicks (POST /affiliates/clicks)"},
		{"orders", &rl.Orders, httpapi.DefaultOrders, "order creation (POST /orders, /upsell/orders, /resellers/orders)"},
	}
	for _, l := range limits {
		*l.dst = l.def
		s.Func("rate-limit-"+l.name, l.def.String(), "REQUESTS/WINDOW such as 10/1m", l.what+" per client address", func(v string) error {
			lim, err := httpapi.ParseLimit(v)
			if err != nil {
				return err
			}
			*l.dst = lim
			return nil
		})
	}
	s.URL(&rl.RedisURL, "redis-url", "", "Redis shared by replicas for the rate limit counts, redis://host:6379/0; if it stops answering each replica counts in memory until it is back (logged); empty: counted in memory, per replica", "redis", "rediss", "unix").MarkSecret()
	s.String(&rl.RedisPrefix, "redis-prefix", httpapi.DefaultRedisPrefix, "prefix of the shop's Redis keys (shops sharing one Redis)")
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
