// Package app assembles a Streamcart shop from its configuration: store, catalog, accounts,
// orders, payments, panel, job worker and HTTP handlers. cmd/streamcart only parses flags.
package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/config"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/credits"
	"github.com/streamcart/streamcart/api/disposable"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/metrics"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/orderwatch"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/paylink"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/revenue"
	"github.com/streamcart/streamcart/api/sessioncache"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/storefront"
	"github.com/streamcart/streamcart/api/testclock"
	"github.com/streamcart/streamcart/api/web"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
	plainhtml "github.com/streamcart/streamcart/examples/plain-html"
	strictcsp "github.com/streamcart/streamcart/examples/strict-csp"
)

// Config is every setting of a shop. Each has a STREAMCART_* environment variable (see cmd).
type Config struct {
	// Settings lists every setting in force with its source, masked (config.Set.InForce): the
	// console's Settings screen. nil: none listed.
	Settings       func() []config.InForce
	Addr           string
	DB             string
	CatalogFile    string // imported at start when set
	GeoDB          string // MMDB country database; empty: country lookups answer XX
	PublicURL      string // the origin every link is built on; empty (local use): Addr's (see linkBase)
	SecretKey      string // base64 HMAC key for session tokens; empty: generated and stored once
	ServerHostname string // the built-in panel's streaming host
	UsernamePrefix string
	DashboardURL   string
	SupportURL     string
	StoreName      string
	TrustedProxies []netip.Prefix // whose X-Forwarded-For names the client; none: the peer is the client
	FraudMaxPerIP  int
	FraudBanned    []string
	JobLease       time.Duration
	JobPoll        time.Duration
	// JobAttempts is how many times a provisioning, webhook, mail or refund job is tried before
	// it is dead; 0: job.DefaultMaxAttempts.
	JobAttempts     int
	ShutdownTimeout time.Duration
	// CatalogPoll is how often a running shop checks the database for a catalog imported through
	// another process (replica or CLI); zero means DefaultCatalogPoll.
	CatalogPoll time.Duration
	// Payments: Payment.Modules (STREAMCART_GATEWAYS) overrides the catalog's gateway list.
	Payment payment.Config
	// Panel: "builtin" (default), "xui" or "xtream" at PanelURL with PanelAPIKey.
	Panel, PanelURL, PanelAPIKey string
	// SMTPURL (smtp://user:pass@host:587?from=shop@example.com) delivers mail; empty keeps it in
	// the database outbox (streamcart mail list).
	SMTPURL string
	// NewResellerPID is the product a new reseller buys with the first plan; 0: none.
	NewResellerPID int
	// TrialsPerClient and TrialsPerIP limit free-trial orders per client, and per address per 30
	// days (STREAMCART_TRIALS_PER_CLIENT, STREAMCART_TRIALS_PER_IP); 0: the default
	// (order.DefaultTrialsPerClient, order.DefaultTrialsPerIP), negative: no limit.
	TrialsPerClient, TrialsPerIP int
	// TrialAllowDisposable gives free trials to throwaway addresses too (the built-in list of
	// package disposable is not checked: STREAMCART_TRIAL_BLOCK_DISPOSABLE=false).
	// TrialBlockedDomains (STREAMCART_TRIAL_BLOCKED_DOMAINS) are the seller's own domains given
	// no free trial, subdomains included, whether the list is checked or not.
	TrialAllowDisposable bool
	TrialBlockedDomains  []string
	// RenewalLeadDays (STREAMCART_RENEWAL_LEAD_DAYS) is how many days before its due date a
	// service's renewal is invoiced; 0: 7 for monthly lines, 14 for longer cycles.
	RenewalLeadDays int
	// RenewalGraceDays (STREAMCART_RENEWAL_GRACE_DAYS) is how long an unpaid line stays Overdue
	// before it is suspended; 0: 3. TerminateAfterDays (STREAMCART_TERMINATE_AFTER_DAYS) is how
	// long after its due date an unpaid line is deleted; 0: never.
	RenewalGraceDays, TerminateAfterDays int
	// Now is the base of the shop's business time (payment deadlines, promotion uses, trial
	// windows, session and sign-in link expiry, job schedules), to which the test clock's offset
	// (streamcart clock advance) is added; nil: time.Now. Tests move it instead of waiting.
	Now func() time.Time
	// Sleep waits out a real-time delay (the console sign-in's growing delay) unless ctx ends
	// first; nil: a timer. Tests move their clock instead of waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// SupportMaxExtendDays (STREAMCART_SUPPORT_MAX_EXTEND_DAYS) caps the days the support role may
	// extend one line by within 30 days; 0: console.DefaultSupportMaxExtendDays.
	SupportMaxExtendDays int
	// RateLimits are the per-address limits (STREAMCART_RATE_LIMITS, STREAMCART_RATE_LIMIT_*,
	// STREAMCART_REDIS_URL); the zero value is the defaults, in memory.
	RateLimits httpapi.RateLimits
	// OrderStreams bound the order status streams (STREAMCART_ORDER_STREAMS,
	// STREAMCART_ORDER_STREAMS_PER_SESSION, STREAMCART_ORDER_STREAM_IDLE); a zero field is its
	// default. OrderSafetyTick is how often every watched order's version is read besides the
	// change notifications; 0: orderwatch.DefaultSafetyTick.
	OrderStreams    httpapi.StreamSettings
	OrderSafetyTick time.Duration
	// Examples (STREAMCART_EXAMPLES) serves the embedding examples under /examples/: demo pages
	// with their own storefront keys, not for a shop taking real orders.
	Examples bool
	// Retention is how long the daily prune keeps short-lived rows (STREAMCART_RETAIN_*); a zero
	// field takes store.DefaultRetention's. Attempts is always the sign-in throttle's window.
	Retention store.Retention
	// MetricsAddr (STREAMCART_METRICS_ADDR) serves /metrics on a listener of its own; empty: on
	// the main one, to bearers of MetricsToken (STREAMCART_METRICS_TOKEN), or without a token
	// to loopback callers only (see docs/operations.md).
	MetricsAddr, MetricsToken string
	// OTLPEndpoint (OTEL_EXPORTER_OTLP_ENDPOINT) exports traces over OTLP/HTTP; empty: no tracing.
	OTLPEndpoint string
	// LogLevel and LogFormat (STREAMCART_LOG_LEVEL, STREAMCART_LOG_FORMAT) shape the process
	// logger, which cmd builds from them.
	LogLevel, LogFormat string
	// ReconcileEvery (STREAMCART_RECONCILE_EVERY) is how often the panel is reconciled with what
	// was paid (package linedrift); 0: never (streamcart lines reconcile still runs it).
	ReconcileEvery time.Duration
	// PanelCreditsAlert (STREAMCART_PANEL_CREDITS_ALERT) is the low-water mark of the panel's
	// credit balance: at or under it the owners are mailed once and the console shows a banner;
	// negative: no alert.
	PanelCreditsAlert float64
	// LogJSON is the writer under the process logger when that is slog's JSON handler as cmd
	// builds it: the access lines are written there directly (httpapi.Observe.JSON); nil:
	// through the logger.
	LogJSON io.Writer
	// Backend (STREAMCART_BACKEND) is BackendBuiltin (the default: Streamcart is the billing
	// system) or BackendWHMCS (a seller's WHMCS owns the catalog, clients, orders and
	// invoices; docs/whmcs.md), reached with WHMCS.
	Backend string
	WHMCS   whmcs.Settings
}

// The back ends (STREAMCART_BACKEND).
const (
	BackendBuiltin = "builtin"
	BackendWHMCS   = "whmcs"
)

// App is an assembled shop.
type App struct {
	cfg     Config
	log     *slog.Logger
	store   store.Backend
	catalog atomic.Pointer[catalog.Catalog]
	geo     *geo.Lookup
	// sessions answers token checks from memory; Run keeps it in step with sign-outs made
	// through other replicas.
	sessions *sessioncache.Cache
	worker   *job.Worker
	prune    job.Daily
	renewals job.Daily
	// reconcile is the periodic reconciliation of the panel (nil Period: off); reconciler runs it.
	reconcile  job.Every
	reconciler *linedrift.Reconciler
	// balance is the panel's reseller credit balance, cached.
	balance *credits.Balance
	handler http.Handler
	limiter *httpapi.Limiter
	// watch tells the order streams of changes (one listener per process); streams are them.
	watch   *orderwatch.Hub
	streams *httpapi.OrderStreams
	metrics *metrics.Metrics
	tracing *sdktrace.TracerProvider // nil without OTLPEndpoint

	// catalogMu guards catalogRaw, the stored bytes the catalog in force was parsed from, and
	// catalogRefused, stored bytes RefreshCatalog turned down (reported once, not every poll).
	catalogMu      sync.Mutex
	catalogRaw     []byte
	catalogRefused []byte
	legalRaw       []byte // the stored legal files catalogRaw's pages were read from
	// gateways are the modules built at start, which a catalog read later may enable; nil
	// until then (the catalog read by Open chooses them).
	gateways map[string]bool

	// whmcs keeps what a WHMCS back end sells (nil: the built-in back end); whmcsVersion is the
	// version merged into the catalog in force, whmcsBusy is true while a read runs and
	// whmcsNotes the last notes logged.
	whmcs       *whmcs.CatalogSync
	whmcsClient *whmcs.Client
	// whmcsPromos keeps WHMCS's answer for a promo code a few seconds (whmcs.ReadFor): quotes
	// carrying one code at once are one GetPromotions. whmcsServices keeps a client's WHMCS
	// services for the services view the same way (one GetClientsProducts per client).
	whmcsPromos   *whmcs.Memo[string, []whmcs.Promotion]
	whmcsServices *whmcsorder.ServiceCache
	upgrades      *whmcsorder.Upgrades // WHMCS mode: extra connections priced and placed as WHMCS upgrades
	whmcsVersion  int
	whmcsBusy     atomic.Bool
	whmcsNotes    string

	// base is the origin links are built on: the public URL, else the listen address.
	base string
	// sweepRenewals invoices the renewals due now (the daily renewal job's work).
	sweepRenewals func(ctx context.Context) (int, error)
	lapseServices func(ctx context.Context) error
	// remindRenewals sends the renewal reminders due now (the daily job's work too).
	remindRenewals func(ctx context.Context) (int, error)
	// chargeRenewals charges the saved cards of the renewals at an attempt point (the daily
	// job's work too; nothing without Stripe).
	chargeRenewals func(ctx context.Context) (int, error)

	// clock is business time: cfg.Now plus the test clock's offset, which testClock follows
	// (RefreshClock).
	clock     *clock.Offset
	testClock *testclock.Follower

	// payLinks signs the tokens of renewal pay links (/checkout/renew?invoice=…&t=…), with a key
	// derived from the session signing key.
	payLinks *paylink.Signer
	key      []byte // the shop's secret key: signs session tokens, seals operators' TOTP secrets
	// renewalMail writes the renewal mails, whose pay links PayLink answers.
	renewalMail renewal.Mail
}

// DefaultCatalogPoll bounds how long a replica serves the previous catalog after an import made
// elsewhere: one poll interval plus one database read.
const DefaultCatalogPoll = 2 * time.Second

// settingKey names the settings row of the session signing key.
const settingKey = "session_hmac_key"

// Open builds the shop: it migrates the database, loads (or seeds) the catalog and the signing key.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (_ *App, err error) {
	base, err := linkBase(&cfg)
	if err != nil {
		return nil, err
	}
	cfg.Payment.PublicURL, cfg.Payment.ListenURL = cfg.PublicURL, base
	if err := payment.CheckPublicURL(cfg.Payment); err != nil {
		return nil, err
	}
	if err := payment.CheckCoinbaseCommerce(cfg.Payment); err != nil {
		return nil, err
	}
	st, err := store.OpenURL(ctx, cfg.DB)
	if err != nil {
		return nil, err
	}
	a := &App{cfg: cfg, base: base, log: log, store: st, clock: clock.NewOffset(cfg.Now)}
	a.testClock = testclock.NewFollower(a.clock, st, cfg.Payment, log)
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	a.metrics = a.newMetrics()
	if err := a.loadCatalog(ctx); err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case "", BackendBuiltin:
	case BackendWHMCS:
		if err := a.startWHMCS(ctx); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("STREAMCART_BACKEND=%q: want builtin or whmcs", cfg.Backend)
	}
	if moved, err := a.RefreshClock(ctx); err != nil {
		return nil, err
	} else if moved {
		log.Warn("test clock: business time runs ahead of real time (streamcart clock show, clock reset)", "offset", a.clock.Offset(), "now", a.clock.Now())
	}
	now := a.clock.Now
	a.cfg.Payment.Catalog = a.Catalog // Coinbase converts invoices at the catalog in force
	key, err := a.signingKey(ctx)
	if err != nil {
		return nil, err
	}
	a.key = key
	// TOTP secrets kept in the clear by an earlier version are sealed under the key once.
	if n, err := a.Operators().SealClear(ctx); err != nil {
		return nil, err
	} else if n > 0 {
		log.Info("operator TOTP secrets sealed", "count", n)
	}
	signer, err := authz.NewSigner(key)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	a.payLinks = paylink.New(key, now)
	authorizer, err := authz.NewAuthorizer()
	if err != nil {
		return nil, err
	}
	if cfg.GeoDB != "" {
		if a.geo, err = geo.Open(cfg.GeoDB); err != nil {
			log.Warn("country database unavailable: lookups answer XX", "path", cfg.GeoDB, "err", err)
		}
	}
	gateways, err := a.buildGateways()
	if err != nil {
		return nil, err
	}
	if err := CheckCatalog(cfg, a.Catalog()); err != nil {
		return nil, err
	}
	cat := a.Catalog
	// WHMCS mode: plan orders are placed in WHMCS before they are paid (nil: the built-in back end).
	var upstream order.Upstream
	stock := a.stock
	// The worker is built last, from every service's handler; what enqueues a job rings its
	// bell, made first.
	bell := job.NewBell()
	if a.whmcsClient != nil {
		stock = nil // WHMCS's module makes the lines: the built-in panel's credits say nothing
		// Extra connections are WHMCS upgrades: priced and placed by WHMCS (UpgradeProduct).
		a.upgrades = whmcsorder.NewUpgrades(a.whmcsClient, st, cfg.WHMCS.Gateways, cfg.WHMCS.ExtraOption)
		upstream = whmcsorder.NewPlacer(a.whmcsClient, st, cat, whmcsorder.Config{Gateways: cfg.WHMCS.Gateways,
			ExtraOption: cfg.WHMCS.ExtraOption, ProxyOption: cfg.WHMCS.ProxyOption, Country: a.geo.Locate, Wake: bell.Ring,
			Upgrades: a.upgrades}, log, now)
	}
	a.sessions = sessioncache.New(st, log, sessioncache.WithClock(now))
	accounts := account.New(a.sessions, signer, now)
	builtin := panel.NewBuiltin(st, cfg.ServerHostname, now)
	var lines panel.Panel = builtin
	switch cfg.Panel {
	case "", "builtin":
	case panel.FlavorXUI, panel.FlavorXtream:
		x, err := panel.NewXtream(panel.XtreamConfig{Flavor: cfg.Panel, URL: cfg.PanelURL, APIKey: cfg.PanelAPIKey, Hostname: cfg.ServerHostname}, st)
		if err != nil {
			return nil, err
		}
		lines = x
	default:
		return nil, fmt.Errorf("STREAMCART_PANEL=%q: want builtin, xui or xtream", cfg.Panel)
	}
	creditMail := &laterMailer{}
	a.balance = a.newBalance(lines, builtin, creditMail)
	orders := order.New(st, cat, gateways, authorizer, order.Config{
		Fraud:         fraud.Rules{MaxOrdersPerIP: cfg.FraudMaxPerIP, BannedDomains: cfg.FraudBanned},
		ReturnOrigins: append([]string{base}, loopbackAliases(base)...),
		OnPaid:        bell.Ring,
		Observe:       a.observeOrder,
		// Free trials: to the order service 0 is no limit.
		TrialsPerClient: limitOr(cfg.TrialsPerClient, order.DefaultTrialsPerClient),
		TrialsPerIP:     limitOr(cfg.TrialsPerIP, order.DefaultTrialsPerIP),
		TrialBlocked:    disposable.New(!cfg.TrialAllowDisposable, cfg.TrialBlockedDomains).Blocked,
		Stock:           stock,
		Upstream:        upstream,
		Promotions:      a.livePromotions(),
	}, log, now)
	webhooks := payment.NewWebhooks(st, orders, payment.Providers(gateways), bell.Ring, log)
	webhooks.Observe(a.metrics)
	webhooks.KeepCards(st)
	progress := payment.NewProgress(st)
	webhooks.TrackProgress(progress)
	var cards renewal.Cards // renewals are charged to saved cards through Stripe only
	for _, g := range gateways {
		if sg, ok := g.(*payment.Stripe); ok {
			cards = renewal.Cards{Charger: payment.NewCardCharger(sg, webhooks), Store: st}
		}
	}
	after, err := a.afterSale(cfg, accounts, orders, lines, authorizer, cards, bell.Ring, now)
	if err != nil {
		return nil, err
	}
	creditMail.outbox = after.outbox
	a.reconciler = a.newReconciler(lines, after.notices, now)
	a.metrics.Panel(st.DriftCounts, linedrift.Kinds, a.balance.Get, log)
	prov := provision.New(st, lines, cat, cfg.UsernamePrefix, provisionNotices{after.notices, after.reminders}, log, now)
	a.renewals = after.renewals.Job(st.Enqueue)
	a.sweepRenewals, a.lapseServices, a.remindRenewals = after.renewals.Sweep, after.renewals.Lapse, after.reminders.Run
	a.chargeRenewals = after.renewals.Charge
	a.renewalMail = after.renewalMail
	a.metrics.Known(nil, gatewayModules(gateways), webhooks.Modules())
	homes := after.homes(provision.NewPlans(prov, lines.(panel.Manager)))
	expire := func(ctx context.Context, j job.Job) error { return orders.Expire(ctx, j.Ref) }
	var whmcsJobs map[string]job.Handler
	var upstreamRenew httpapi.UpstreamRenewer // nil: the shop's own renewals
	if a.whmcsClient != nil {
		// WHMCS mode: WHMCS's module makes the plans' and trials' lines, once the payment is
		// recorded there; an order cancelled or expired here is cancelled there
		// (order.JobUpstreamCancel), a refunded one's services ended there.
		home := whmcsorder.NewHome(a.whmcsClient, st, orders, after.resellers, cfg.WHMCS.Gateways, cfg.WHMCS.ExtraOption, a.whmcsServices,
			bell.Ring, log, now)
		// A renewal is WHMCS's renewal invoice paid here (its cron made it; its module renews); a
		// reseller plan is a product of WHMCS's reseller group, its credits granted in our ledger.
		homes[order.KindPlan], homes[order.KindTrial], homes[order.KindUpsell], homes[order.KindRenewal] = home, home, home, home
		homes[order.KindReseller] = home
		whmcsJobs = home.Jobs()
		upstreamRenew = whmcsorder.NewRenewals(a.whmcsClient, st, orders, log, now)
	}
	refunds := refund.New(st, gateways, orders, homes, bell.Ring, now)
	refunds.NumberCreditNotes(func() string { return cat().CreditNoteNumber })
	refunds.NotifyBuyers(refund.Mail{Outbox: after.outbox, Shop: storeName(cfg.StoreName), Link: a.creditNoteLink}, log)
	reconciler := payment.NewReconciler(st, gateways, webhooks, log, now)
	a.prune = a.pruneJob(now)
	// Every job kind and its handler, one a line; the worker is the last thing built.
	jobs := map[string]job.Handler{
		order.JobProvision:     homes.Fulfilment(st),
		order.JobLineSync:      homes.LineSync(st),
		order.JobExpire:        expire,
		order.JobRefund:        func(ctx context.Context, j job.Job) error { return orders.Refund(ctx, j.Ref) },
		mail.JobSend:           after.outbox.Handle,
		payment.JobWebhook:     webhooks.Handle,
		payment.JobReconcile:   reconciler.Handle,
		JobPrune:               a.prune.Handle,
		renewal.JobSweep:       a.renewals.Handle,
		renewal.JobTrialEnding: after.reminders.TrialEnding,
	}
	for kind, h := range whmcsJobs {
		jobs[kind] = h
	}
	if cfg.ReconcileEvery > 0 && a.whmcsClient != nil {
		log.Info("line reconciliation off in WHMCS mode: WHMCS's module keeps the lines")
	} else if cfg.ReconcileEvery > 0 {
		a.reconcile = a.reconciler.Job(st.Enqueue, cfg.ReconcileEvery)
		jobs[linedrift.JobReconcile] = a.reconcile.Handle
	}
	{
		// The first read before serving: a shop without credits opens with its plans unavailable.
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if _, err := a.balance.Refresh(rctx); err != nil {
			log.Warn("panel credits unreadable at start: every plan is for sale until the balance is read", "err", err)
		}
		cancel()
	}
	a.worker = job.NewWorker(st, a.countJobs(jobs), job.Options{
		Lease: cfg.JobLease, Poll: cfg.JobPoll, Logger: log, MaxAttempts: jobAttempts, Attempts: cfg.JobAttempts, Now: now, LeaseNow: a.clock.Base, Bell: bell,
	})
	if reconciler.Enabled() {
		if err := reconciler.Start(ctx); err != nil {
			return nil, err
		}
	}

	if a.limiter, err = httpapi.NewLimiter(cfg.RateLimits, cfg.TrustedProxies, log); err != nil {
		return nil, err
	}
	a.watch = orderwatch.New(st, cfg.OrderSafetyTick, log)
	a.streams = httpapi.NewOrderStreams(a.watch, st, cfg.OrderStreams, log)
	consoleLines, billedIn, nextDue := a.consoleLines(cfg, lines.(panel.Manager))
	api := httpapi.New(httpapi.Deps{
		UpstreamRenew: upstreamRenew,
		Catalog:       cat, Accounts: accounts, Orders: orders, Panel: lines, Geo: a.geo, Webhooks: webhooks, TrustedProxies: cfg.TrustedProxies, Logger: log,
		PublicURL:  base,
		Storefront: httpapi.Storefront{Name: cfg.StoreName, DashboardURL: cfg.DashboardURL, SupportURL: cfg.SupportURL},
		Signin:     after.signin, Manage: after.manage, Upsells: after.upsells, Resellers: after.resellers, Affiliates: after.affiliates,
		Renewals: after.renewals, PayLinks: a.payLinks, Changes: after.changes,
		Limiter:      a.limiter,
		OrderStreams: a.streams,
		PayQuotes:    st,
		PayProgress:  progress,
		CreditNotes:  st,
		Now:          now,
		Stock:        a.balance,
		Admin: a.withSubscriptions(a.admin(authorizer, now, console.Deps{Refunds: refunds, Lines: consoleLines, BilledIn: billedIn, NextDue: nextDue, Sessions: a.sessions,
			Signin: after.signin, Mailer: after.outbox, Payments: orders, Notices: after.notices, Wake: bell.Ring}, orders, revenue.New(st, a.Catalog, after.renewals, now)), after, now),
	})
	mux := http.NewServeMux()
	// Every API request belongs to a storefront (by its Streamcart-Store key), which decides CORS.
	shopAPI := storefront.Middleware(a.Catalog, api)
	mux.Handle("/checkout/api/", shopAPI)
	// The hottest read by its exact pattern too: matching a prefix pattern costs ServeMux a second
	// match (for a redirect to the path with a slash) and five allocations per request.
	mux.Handle(productsPattern, shopAPI)
	mux.Handle(web.ConsolePath, web.NewConsole())
	host := web.NewHost(web.HostConfig{DashboardURL: cfg.DashboardURL, SupportURL: cfg.SupportURL, Logger: log, Catalog: a.Catalog, Now: now})
	mux.Handle("/checkout/", host)
	// Any path nothing else matches: the storefront's branded 404, not Go's bare one.
	mux.Handle("/", host)
	mux.Handle("/widget/", web.BrandedNotFound(web.NewWidget(), host))
	if cfg.Examples {
		mux.Handle("GET /examples/plain-html/", web.BrandedNotFound(http.StripPrefix("/examples/plain-html/", http.FileServerFS(plainhtml.Files)), host))
		mux.Handle("GET /examples/strict-csp/", web.BrandedNotFound(http.StripPrefix("/examples/strict-csp/", strictcsp.Handler()), host))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := st.Ping(r.Context()); err != nil {
			http.Error(w, "database unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /{$}", http.RedirectHandler("/checkout/", http.StatusFound))
	a.metricsRoute(mux)
	// One control-character guard in front of every route (issue 24: a route mounted beside the
	// API's own guard answered 200 to ?x=%00).
	site := secureHeaders(httpapi.RefuseControl(httpapi.ExactFirst(productsPattern, shopAPI, mux)), strings.HasPrefix(cfg.PublicURL, "https://"))
	if a.handler, err = a.observed(ctx, site); err != nil {
		return nil, err
	}
	return a, nil
}

// productsPattern is the product list's route: the storefront's first read, the hottest.
const productsPattern = "GET /checkout/api/products"

// limitOr is a configured limit for the order service: the default for 0, none (0) for a
// negative value.
func limitOr(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// hstsMaxAge is a year, the value browsers' preload lists expect.
const hstsMaxAge = "max-age=31536000"

// The secure headers' values, shared by every answer (Header.Add appends to a copy: cap = len).
var (
	nosniff   = []string{"nosniff"}
	hstsValue = []string{hstsMaxAge}
)

// secureHeaders sets what every answer carries: nosniff (a JSON answer or an uploaded-looking
// text is never run as script or style), and HSTS when the shop is public over https, so a
// browser never again reaches it in clear text.
func secureHeaders(next http.Handler, hsts bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Content-Type-Options"] = nosniff // shared, read-only: no allocation per request
		if hsts {
			h["Strict-Transport-Security"] = hstsValue
		}
		next.ServeHTTP(w, r)
	})
}

// linkBase checks and normalises cfg.PublicURL and returns the origin links are built on: the
// public URL, or when it is unset (local use) the address the server listens on, ":8080" being
// http://localhost:8080. Never a request's Host, X-Forwarded-Host or Origin: those are the
// caller's to choose, and a sign-in link or a return URL on them hands the token or the buyer to
// whoever sent the request.
func linkBase(cfg *Config) (string, error) {
	if raw := cfg.PublicURL; raw != "" {
		u, err := url.Parse(strings.TrimRight(raw, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
			return "", fmt.Errorf("STREAMCART_PUBLIC_URL=%q: want the shop's origin, scheme and host only, e.g. https://shop.example", raw)
		}
		cfg.PublicURL = u.Scheme + "://" + strings.ToLower(u.Host)
		return cfg.PublicURL, nil
	}
	addr := cfg.Addr
	if addr == "" {
		addr = ":80" // net/http's default
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", cfg.Addr, err)
	}
	// Loopback too: the README's address is http://localhost:8080, and a buyer who starts there
	// must come back there (a session lives on one origin).
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && (ip.IsUnspecified() || ip == netip.IPv6Loopback() || ip == netip.AddrFrom4([4]byte{127, 0, 0, 1}))) {
		host = "localhost"
	}
	if port == "80" {
		return "http://" + host, nil
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// loopbackAliases are the other names of a local shop's origin (http://localhost:8080 is also
// http://127.0.0.1:8080 and http://[::1]:8080): a buyer who opened the shop on one of them is sent
// back to it after paying, not to another origin where the session is unknown. None for any other
// base: a public origin has one name.
func loopbackAliases(base string) []string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" || u.Hostname() != "localhost" {
		return nil
	}
	if port := u.Port(); port != "" {
		return []string{"http://" + net.JoinHostPort("127.0.0.1", port), "http://" + net.JoinHostPort("::1", port)}
	}
	return []string{"http://127.0.0.1", "http://[::1]"}
}

// jobAttempts bounds the kinds of job that need not last long: a sweep or a prune that fails is
// replaced by the next one anyway. Every other kind (provisioning, webhooks, mail, refunds,
// expiries) gets Config.JobAttempts (job.DefaultMaxAttempts, about three days of backoff), then is
// dead for an operator (streamcart jobs list --state dead, the console's Jobs).
var jobAttempts = map[string]int{
	payment.JobReconcile: 5,
	JobPrune:             5,
	renewal.JobSweep:     5,
	// Each period has its own run; a failed one is the next period's to repeat.
	linedrift.JobReconcile: 2,
}

// JobPrune is the daily retention prune's job kind (one a day, unique key prune:YYYY-MM-DD).
const JobPrune = "prune"

// pruneJob is the daily prune of what the configured retention no longer keeps: every replica
// queues the day's job when it starts serving (Run), and the queue's unique key runs it once a
// day whatever their number.
func (a *App) pruneJob(now func() time.Time) job.Daily {
	keep := a.cfg.Retention
	def := store.DefaultRetention
	for _, f := range []struct{ v, d *time.Duration }{
		{&keep.Idempotency, &def.Idempotency}, {&keep.Expired, &def.Expired}, {&keep.Clicks, &def.Clicks},
		{&keep.SentMail, &def.SentMail}, {&keep.FinishedJobs, &def.FinishedJobs},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	keep.Attempts = max(signin.Window, operator.AttemptsKept)
	return job.Daily{Kind: JobPrune, Enqueue: a.store.Enqueue, Now: now, Run: func(ctx context.Context, now time.Time) error {
		k := keep
		// Console sign-in attempts are stamped on real time (security time): their cutoff is
		// measured from it, or a test clock moved ahead would forget failures still in the window.
		k.Attempts += a.clock.Offset()
		p, err := a.store.Prune(ctx, now, k)
		a.log.Info("prune", "idempotency_keys", p.IdempotencyKeys, "sessions", p.Sessions, "signin_links", p.SigninLinks,
			"clicks", p.Clicks, "sent_mail", p.SentMail, "jobs", p.Jobs, "signin_attempts", p.Attempts)
		return err
	}}
}

// SweepRenewals invoices every renewal due at the business time and answers how many orders it
// placed: the daily job's work, which tests and the operator run at a moment of their choosing.
func (a *App) SweepRenewals(ctx context.Context) (int, error) { return a.sweepRenewals(ctx) }

// RemindRenewals sends the renewal and trial mails due at the business time and answers how many
// it queued: the daily job's work after the sweep, each mail once however often it runs.
func (a *App) RemindRenewals(ctx context.Context) (int, error) { return a.remindRenewals(ctx) }

// ChargeRenewals charges off-session the saved cards of the unpaid renewals at an attempt point
// (the due day, then 1, 3 and 5 days after) and answers how many charges succeeded: the daily
// job's work between invoicing and the lapse.
func (a *App) ChargeRenewals(ctx context.Context) (int, error) { return a.chargeRenewals(ctx) }

// LapseServices moves the services whose time ran out (Overdue, Suspended, Terminated, Expired):
// the daily job's other work.
func (a *App) LapseServices(ctx context.Context) error { return a.lapseServices(ctx) }

// PayLink is the pay link of a renewal invoice, the page the renewal mails open
// (renewal.ErrNotRenewal for another kind's invoice).
func (a *App) PayLink(ctx context.Context, invoiceID string) (string, error) {
	return a.renewalMail.PayLink(ctx, invoiceID)
}

// ReceiptLinkLife is how long the token of a mailed invoice PDF link opens it.
const ReceiptLinkLife = 365 * 24 * time.Hour

// ReceiptLink is the PDF of an invoice with a pay-link token for it (good for ReceiptLinkLife):
// what a mail links, opened without signing in. The token opens that invoice's documents only.
func (a *App) ReceiptLink(invoiceID string) (string, error) {
	t, err := a.payLinks.Sign(invoiceID, a.clock.Now().Add(ReceiptLinkLife))
	if err != nil {
		return "", err
	}
	return httpapi.InvoicePDFURL(a.base, invoiceID) + "?t=" + t, nil
}

// creditNoteLink is a credit note's PDF with a pay-link token for its invoice (good for
// ReceiptLinkLife): what the refund mail links, opened without signing in.
func (a *App) creditNoteLink(note refund.CreditNote) (string, error) {
	t, err := a.payLinks.Sign(note.InvoiceID, a.clock.Now().Add(ReceiptLinkLife))
	if err != nil {
		return "", err
	}
	return httpapi.CreditNotePDFURL(a.base, note.ID) + "?t=" + t, nil
}

// Catalog is the catalog in force.
func (a *App) Catalog() *catalog.Catalog { return a.catalog.Load() }

// Handler serves the whole site.
func (a *App) Handler() http.Handler { return a.handler }

// Banner is what `streamcart serve` prints before anything else: where the shop and its console
// are (on the link base, the address every link is built on), whether it takes real money, and
// addOperator, the command that adds the first operator.
func (a *App) Banner(addOperator string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Shop:     %s%s\n", a.base, web.Base)
	fmt.Fprintf(&b, "Console:  %s%s\n", a.base, web.ConsolePath)
	var live []string
	testKeys := true // every live gateway on its provider's test credentials (Stripe sk_test_…)
	for _, g := range a.Catalog().Gateways {
		if g.Module != "sandbox" {
			live = append(live, g.Module)
			testKeys = testKeys && a.cfg.Payment.TestCredentials(g.Module)
		}
	}
	switch {
	case len(live) == 0:
		b.WriteString("Payments: sandbox: no real money\n")
	case a.cfg.Payment.TestMode:
		fmt.Fprintf(&b, "Payments: %s, test mode: no real money\n", strings.Join(live, ", "))
	case testKeys:
		fmt.Fprintf(&b, "Payments: %s (test keys): no real money\n", strings.Join(live, ", "))
	default:
		fmt.Fprintf(&b, "Payments: %s: real money\n", strings.Join(live, ", "))
	}
	if a.whmcs != nil {
		b.WriteString("Billing:  WHMCS (STREAMCART_BACKEND=whmcs): plans from WHMCS, orders placed in WHMCS, paid here\n")
	}
	fmt.Fprintf(&b, "Operator: %s\n", addOperator)
	return b.String()
}

// Worker is the job worker (tests drive it).
func (a *App) Worker() *job.Worker { return a.worker }

// Store is the database (tests inspect it).
func (a *App) Store() store.Backend { return a.store }

// Close releases the database and the country database.
func (a *App) Close() error {
	var traces error
	if a.tracing != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		traces = a.tracing.Shutdown(ctx) // sends the spans still buffered
		cancel()
	}
	if a.streams != nil {
		a.streams.Close()
		a.watch.Close() // its listener holds a connection of its own
	}
	return errors.Join(a.store.Close(), a.geo.Close(), a.limiter.Close(), traces)
}

// OrderStreams are the open order status streams (tests look at their count).
func (a *App) OrderStreams() *httpapi.OrderStreams { return a.streams }

func (a *App) loadCatalog(ctx context.Context) error {
	if a.cfg.CatalogFile != "" {
		// Checked before it is stored: a refused file must not become the catalog of the
		// replicas already running on this database.
		c, err := catalog.Load(a.cfg.CatalogFile)
		if err != nil {
			return err
		}
		if err := CheckCatalog(a.cfg, c); err != nil {
			return err
		}
		if _, err := ImportCatalog(ctx, a.store, a.cfg.CatalogFile); err != nil {
			return err
		}
	}
	_, err := a.RefreshCatalog(ctx)
	return err
}

// RefreshCatalog loads the catalog stored in the database when it differs from the one in
// force, and reports whether it changed. Replicas call it every CatalogPoll, so an import made
// through one process reaches the others' in-memory catalog (and their cached product lists,
// keyed by the catalog) without a restart.
func (a *App) RefreshCatalog(ctx context.Context) (bool, error) {
	raw, err := a.store.Setting(ctx, console.CatalogSetting)
	if errors.Is(err, store.ErrNotFound) {
		// First start: the demo catalog makes the shop work with zero configuration.
		// Its legal files first, as an import stores them: a console edit of the demo keeps them.
		if _, err = a.store.SettingOnce(ctx, LegalSetting, demoLegalBundle()); err == nil {
			raw, err = a.store.SettingOnce(ctx, console.CatalogSetting, catalog.DemoYAML())
		}
		a.log.Info("demo catalog loaded")
	}
	if err != nil {
		return false, fmt.Errorf("load catalog: %w", err)
	}
	legal, err := storedLegal(ctx, a.store)
	if err != nil {
		return false, fmt.Errorf("load catalog: %w", err)
	}
	var sold *whmcs.Sold
	version := 0
	if a.whmcs != nil {
		sold, version = a.whmcs.Sold()
	}
	a.catalogMu.Lock()
	defer a.catalogMu.Unlock()
	if a.catalogRaw != nil && bytes.Equal(raw, a.catalogRaw) && bytes.Equal(legal, a.legalRaw) && version == a.whmcsVersion {
		return false, nil
	}
	c, err := catalog.Parse("catalog (database)", raw)
	if err != nil {
		return false, fmt.Errorf("load catalog: %w", err)
	}
	read, err := legalReader(raw, legal)
	if err != nil {
		return false, fmt.Errorf("load catalog: %w", err)
	}
	if err := c.ReadLegal("catalog (database)", read); err != nil {
		// Only a catalog written around `catalog import` lacks its files: its other pages and
		// everything else still serve; the missing pages answer 404 and leave the footer.
		a.log.Warn("legal pages without their files in the database: left out", "err", err)
	}
	if sold != nil {
		// WHMCS mode: WHMCS sells; the file keeps the storefront's own settings and dress. Its
		// tax block is not applied: WHMCS's invoice carries the tax.
		if c.Tax != nil {
			a.log.Warn("WHMCS mode: the catalog's tax block is not applied; WHMCS's invoices carry the tax (set its prices to include tax: docs/whmcs.md, Tax)")
		}
		c = whmcs.Merge(c, *sold)
	}
	if mods := a.cfg.Payment.Modules; len(mods) > 0 {
		c.Gateways = c.GatewaysFor(mods) // STREAMCART_GATEWAYS wins over the catalog's list
	} else if err = a.gatewaysBuilt(c); err == nil && a.gateways != nil {
		err = CheckCatalog(a.cfg, c) // a running shop; Open checks its first catalog itself
	}
	if err != nil {
		if bytes.Equal(raw, a.catalogRefused) {
			return false, nil
		}
		a.catalogRefused = raw
		return false, fmt.Errorf("load catalog: %w", err)
	}
	a.catalog.Store(c)
	a.catalogRaw, a.catalogRefused, a.legalRaw, a.whmcsVersion = raw, nil, legal, version
	return true, nil
}

// CheckCatalog refuses a catalog whose gateway list (or STREAMCART_GATEWAYS, which wins over it)
// cfg cannot serve safely: the sandbox next to a live gateway (payment.CheckSandbox). Start-up,
// each catalog refresh of a running shop and `streamcart catalog import|check` apply it.
func CheckCatalog(cfg Config, c *catalog.Catalog) error {
	modules := cfg.Payment.Modules
	if len(modules) == 0 {
		for _, g := range c.Gateways {
			modules = append(modules, g.Module)
		}
	}
	return payment.CheckSandbox(cfg.Payment, modules)
}

// buildGateways builds the payment gateways. STREAMCART_GATEWAYS fixes the list. Without it the
// catalog's list is used, and an import may change that list while the shop runs, so every
// gateway whose settings are present is built too (with its webhook route): the catalog in
// force decides which of them orders may use. A gateway the catalog enables without its
// settings stops the start, naming the missing setting.
func (a *App) buildGateways() ([]order.Gateway, error) {
	cfg := a.cfg.Payment
	cfg.Log = a.log
	if len(cfg.Modules) > 0 {
		return payment.Build(cfg, a.store)
	}
	for _, g := range a.Catalog().Gateways {
		cfg.Modules = append(cfg.Modules, g.Module)
	}
	gateways, err := payment.Build(cfg, a.store)
	if err != nil {
		return nil, err
	}
	for _, m := range payment.Modules {
		if slices.Contains(cfg.Modules, m) {
			continue
		}
		one := cfg
		one.Modules = []string{m}
		g, err := payment.Build(one, a.store)
		if errors.Is(err, payment.ErrNotConfigured) {
			continue // not set up in this process: a catalog enabling it is refused
		}
		if err != nil {
			return nil, err
		}
		gateways = append(gateways, g...)
	}
	a.gateways = map[string]bool{}
	for _, g := range gateways {
		a.gateways[g.Module()] = true
	}
	return gateways, nil
}

// gatewaysBuilt reports a gateway c enables that this process has not built (its settings were
// missing at start): c cannot be served here until a restart with them.
func (a *App) gatewaysBuilt(c *catalog.Catalog) error {
	if a.gateways == nil {
		return nil // Open's own read: buildGateways checks the catalog's list next
	}
	for _, g := range c.Gateways {
		if !a.gateways[g.Module] {
			return fmt.Errorf("%w: the catalog enables gateway %s, whose settings this process did not have at start (see docs/gateways.md); restart with them set",
				payment.ErrNotConfigured, g.Module)
		}
	}
	return nil
}

// Now is the shop's business time: its clock (Config.Now, else real time) plus the test clock.
func (a *App) Now() time.Time { return a.clock.Now() }

// RefreshClock reads the test clock's offset and reports whether it changed. Run calls it with
// every catalog poll, so an advance made through any process reaches every replica within one
// poll interval.
func (a *App) RefreshClock(ctx context.Context) (bool, error) { return a.testClock.Refresh(ctx) }

// SyncSessions drops from memory the sessions signed out through other replicas (Run does it
// every sessioncache.Poll).
func (a *App) SyncSessions(ctx context.Context) error { return a.sessions.Sync(ctx) }

// watchCatalog refreshes the catalog and the test clock every CatalogPoll until ctx ends. A
// failed check keeps the catalog in force (the import validated it; a database blip must not
// empty the shop) and the clock where it was.
func (a *App) watchCatalog(ctx context.Context) {
	every := a.cfg.CatalogPoll
	if every <= 0 {
		every = DefaultCatalogPoll
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		a.refreshWHMCS(ctx)
		changed, err := a.RefreshCatalog(ctx)
		if err != nil && ctx.Err() == nil {
			a.log.Warn("catalog check failed; keeping the catalog in force", "err", err)
		}
		if changed {
			a.log.Info("catalog changed in the database: reloaded")
		}
		if moved, err := a.RefreshClock(ctx); err != nil && ctx.Err() == nil {
			a.log.Warn("test clock check failed; keeping the clock where it was", "err", err)
		} else if moved {
			a.log.Info("test clock moved", "offset", a.clock.Offset(), "now", a.clock.Now())
		}
	}
}

// startWHMCS checks the WHMCS settings against WHMCS (whmcs.Start: the credentials, the payment
// modules the enabled gateways map to, the groups and options) and makes the catalog in force
// the catalog file dressed with what WHMCS sells. A refusal stops the start, naming the setting.
func (a *App) startWHMCS(ctx context.Context) error {
	gateways := a.cfg.Payment.Modules
	if len(gateways) == 0 {
		for _, g := range a.Catalog().Gateways {
			gateways = append(gateways, g.Module)
		}
	}
	started, err := whmcs.Start(ctx, a.cfg.WHMCS, gateways, func(action string, err error) {
		a.metrics.WHMCSFailed(action, whmcs.Reason(err))
	})
	if err != nil {
		return err
	}
	a.whmcs, a.whmcsClient = started.Catalog, started.Client
	a.whmcsPromos = whmcs.NewMemo[string, []whmcs.Promotion](whmcs.ReadFor, a.clock.Now)
	a.whmcsServices = whmcsorder.NewServiceCache(a.whmcsClient, a.clock.Now)
	a.logWHMCSNotes()
	if _, err := a.RefreshCatalog(ctx); err != nil {
		return err
	}
	a.log.Info("WHMCS back end: the catalog comes from WHMCS", "plans_group", a.cfg.WHMCS.PlansGroup,
		"reseller_group", a.cfg.WHMCS.ResellerGroup, "products", len(a.Catalog().Products))
	return nil
}

// livePromotions reads a promo code from WHMCS when it is applied (nil: the built-in back end,
// whose catalog is the truth), kept a few seconds by code (whmcs.ReadFor) with one call in
// flight shared by the quotes asking meanwhile. WHMCS unreachable: the catalog read last decides, and WHMCS's
// invoice checks the order anyway (price_changed).
func (a *App) livePromotions() func(ctx context.Context, cat *catalog.Catalog, code string) *catalog.Catalog {
	if a.whmcsClient == nil {
		return nil
	}
	return func(ctx context.Context, cat *catalog.Catalog, code string) *catalog.Catalog {
		canon, ok := catalog.CanonicalPromoCode(code)
		if !ok {
			return cat // no such code can exist: pricing says not found
		}
		live, err := a.whmcsPromos.Do(ctx, canon, func(ctx context.Context) ([]whmcs.Promotion, error) {
			return a.whmcsClient.GetPromotions(ctx, canon)
		})
		if err != nil {
			a.log.Warn("WHMCS promotion unread: the catalog's is used", "action", "GetPromotions", "err", err)
			return cat
		}
		return whmcs.WithPromotion(cat, code, live)
	}
}

// locate is the country of a stored address (geo.Lookup.Locate), as tax evidence and in the
// console: "" when it cannot be placed or is no address.
func (a *App) locate(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	return a.geo.Locate(addr)
}

// refreshWHMCS reads the catalog from WHMCS again when it is due (STREAMCART_WHMCS_CATALOG_REFRESH),
// in the background: the catalog poll merges it once read, and nothing waits on WHMCS.
func (a *App) refreshWHMCS(ctx context.Context) {
	if a.whmcs == nil || !a.whmcs.Due(time.Now()) || !a.whmcsBusy.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer a.whmcsBusy.Store(false)
		changed, err := a.whmcs.Refresh(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			a.log.Warn("WHMCS catalog read failed; keeping the last one read", "err", err)
		case changed:
			a.log.Info("WHMCS catalog changed: reloaded")
			if _, err := a.RefreshCatalog(ctx); err != nil && ctx.Err() == nil {
				a.log.Warn("catalog check failed; keeping the catalog in force", "err", err)
			}
		}
		a.logWHMCSNotes()
	}()
}

// logWHMCSNotes logs what the last WHMCS read left out, when that changed.
func (a *App) logWHMCSNotes() {
	notes := a.whmcs.Notes()
	joined := strings.Join(notes, "\n")
	a.catalogMu.Lock()
	same := joined == a.whmcsNotes
	a.whmcsNotes = joined
	a.catalogMu.Unlock()
	if same {
		return
	}
	for _, n := range notes {
		a.log.Warn("WHMCS catalog: " + n)
	}
}

// RefreshWHMCS reads the catalog from WHMCS now and merges it into the catalog in force (tests;
// a running shop does it on its catalog poll).
func (a *App) RefreshWHMCS(ctx context.Context) (bool, error) {
	if a.whmcs == nil {
		return false, nil
	}
	if _, err := a.whmcs.Refresh(ctx); err != nil {
		return false, err
	}
	return a.RefreshCatalog(ctx)
}

// ImportCatalog validates a catalog file and makes it the shop's catalog.
func ImportCatalog(ctx context.Context, st store.Backend, path string) (*catalog.Catalog, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("import catalog: %w", err)
	}
	c, err := catalog.Parse(path, raw)
	if err != nil {
		return nil, err
	}
	if err := c.ReadLegal(path, catalog.DirReader(filepath.Dir(path))); err != nil {
		return nil, err
	}
	if err := storeLegal(ctx, st, c); err != nil {
		return nil, fmt.Errorf("import catalog: %w", err)
	}
	// Kept as a version like a catalog saved in the console (the import's wall-clock time).
	sum := sha256.Sum256(raw)
	if _, err := st.SaveCatalog(ctx, console.CatalogSetting, raw, console.CatalogVersion{Comment: "imported from " + filepath.Base(path),
		SHA256: hex.EncodeToString(sum[:]), CreatedAt: time.Now().UTC()}); err != nil {
		return nil, fmt.Errorf("import catalog: %w", err)
	}
	return c, nil
}

// catalogSource is the source of the catalog a shop on st serves: the one imported or saved,
// else the demo catalog.
func catalogSource(ctx context.Context, st store.Backend) ([]byte, error) {
	raw, err := st.Setting(ctx, console.CatalogSetting)
	if errors.Is(err, store.ErrNotFound) {
		return catalog.DemoYAML(), nil
	}
	return raw, err
}

// StoredCatalog is the catalog a shop on st serves: the one imported, else the demo catalog.
func StoredCatalog(ctx context.Context, st store.Backend) (*catalog.Catalog, error) {
	raw, err := st.Setting(ctx, console.CatalogSetting)
	if errors.Is(err, store.ErrNotFound) {
		return catalog.Parse("demo.yaml", catalog.DemoYAML())
	}
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	return catalog.Parse("catalog (database)", raw)
}

func (a *App) signingKey(ctx context.Context) ([]byte, error) {
	if a.cfg.SecretKey != "" {
		key, err := base64.StdEncoding.DecodeString(a.cfg.SecretKey)
		if err != nil || len(key) < authz.KeySize {
			return nil, fmt.Errorf("STREAMCART_SECRET_KEY must be base64 of at least %d bytes", authz.KeySize)
		}
		return key, nil
	}
	fresh, err := authz.NewKey()
	if err != nil {
		return nil, err
	}
	return a.store.SettingOnce(ctx, settingKey, fresh)
}

// Run serves HTTP and runs the job worker until ctx is cancelled, then shuts both down gracefully.
func (a *App) Run(ctx context.Context) error {
	srv := &http.Server{
		Addr: a.cfg.Addr, Handler: a.handler,
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second,
	}
	if err := a.prune.Start(ctx); err != nil {
		return fmt.Errorf("queue today's prune: %w", err)
	}
	if err := a.renewals.Start(ctx); err != nil {
		return fmt.Errorf("queue today's renewal sweep: %w", err)
	}
	if a.reconcile.Period > 0 {
		if err := a.reconcile.Start(ctx); err != nil {
			return fmt.Errorf("queue the line reconciliation: %w", err)
		}
	}
	workerCtx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan error, 1)
	go func() { workerDone <- a.worker.Run(workerCtx) }()
	go a.watchCatalog(workerCtx)
	go a.sessions.Run(workerCtx)
	go a.balance.Run(workerCtx)
	serveErr := make(chan error, 2)
	go func() {
		addr := srv.Addr
		if addr == "" {
			addr = ":http" // as ListenAndServe
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			serveErr <- err
			return
		}
		// The four timeouts above are per-request deadlines: noted, not timed (CoarseDeadlines).
		serveErr <- srv.Serve(httpapi.CoarseDeadlines(ln, httpapi.DeadlineTick))
	}()
	a.log.Info("streamcart listening", "addr", a.cfg.Addr, "shop", a.base+"/checkout/")
	msrv := a.metricsServer()
	if msrv != nil {
		go func() { serveErr <- fmt.Errorf("metrics listener: %w", msrv.ListenAndServe()) }()
		a.log.Info("metrics listening", "addr", a.cfg.MetricsAddr, "path", "/metrics")
	}

	var err error
	select {
	case err = <-serveErr:
	case <-ctx.Done():
		a.log.Info("shutting down")
		// Order streams never end on their own soon: they end now, and their pages reconnect
		// to another replica with Last-Event-ID, instead of holding the shutdown to its limit.
		a.streams.Close()
		sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
		err = srv.Shutdown(sctx)
		cancel()
	}
	if msrv != nil {
		msrv.Close() // scrapes are short: nothing to drain
	}
	stopWorker()
	if werr := <-workerDone; werr != nil && !errors.Is(werr, context.Canceled) {
		err = errors.Join(err, werr)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
