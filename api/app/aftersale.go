package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/planchange"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/upsell"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
)

// afterSale holds what the shop does after the first sale: sign-in links and passwords, service
// management, the upsell, reseller plans, affiliates, and the mail they send.
type afterSale struct {
	outbox     *mail.Outbox
	signin     *signin.Service
	manage     *manage.Services
	upsells    *upsell.Upsells
	resellers  *reseller.Resellers
	renewals   *renewal.Renewals
	changes    *planchange.Changes
	reminders  *renewal.Reminders
	affiliates *affiliate.Affiliates
	// notices mails the buyer when an order is received and when its lines are ready.
	notices provision.Mail
	// renewalMail writes the renewal and trial mails and their pay links.
	renewalMail renewal.Mail
}

func (a *App) afterSale(cfg Config, accounts *account.Service, orders *order.Orders, lines panel.Panel, az *authz.Authorizer, cards renewal.Cards, wake func(), now func() time.Time) (*afterSale, error) {
	var smtp *mail.SMTP
	if cfg.SMTPURL != "" {
		s, err := mail.ParseSMTPURL(cfg.SMTPURL)
		if err != nil {
			return nil, err
		}
		smtp = &s
	}
	mgr, ok := lines.(panel.Manager)
	if !ok {
		return nil, fmt.Errorf("panel %q cannot manage lines", cfg.Panel)
	}
	auditLog := audit.New(a.store, a.log, now)
	outbox := mail.NewOutbox(countedMail{a.store, a.metrics}, smtp, wake)
	renewals := renewal.Config{LeadDays: cfg.RenewalLeadDays, GraceDays: cfg.RenewalGraceDays, TerminateAfterDays: cfg.TerminateAfterDays,
		Stock: a.stock, Locate: a.locate}
	renewalMail := renewal.Mail{Outbox: outbox, Store: countedReminders{a.store, a.metrics}, Attempts: a.store.Charges, Links: a.payLinks, Shop: storeName(cfg.StoreName), Base: a.base,
		Receipt: a.ReceiptLink}
	reminders := renewal.NewReminders(a.store, renewalMail, a.store.Enqueue, renewals, a.log, now)
	renewer := renewal.New(a.store, a.Catalog, orders, mgr, reminders, cards, renewals, a.log, now)
	changes := planchange.New(planchange.Deps{Store: a.store, Catalog: a.Catalog, Orders: orders, Prices: renewer, Renewals: renewer,
		Mail:  planchange.Mail{Outbox: outbox, Links: a.payLinks, Shop: storeName(cfg.StoreName), Base: a.base},
		Lines: mgr, Audit: auditLog, Log: a.log, Wake: wake, Now: now, Locate: a.locate})
	notices := provision.Mail{Outbox: outbox, Shop: storeName(cfg.StoreName), Base: a.base, Receipt: a.ReceiptLink}
	return &afterSale{
		changes:     changes,
		outbox:      outbox,
		signin:      signin.New(a.store, accounts, outbox, signin.Config{StoreName: cfg.StoreName, PublicURL: a.base, Passwords: a.passwords()}, a.log, now),
		manage:      a.manageServices(cfg, mgr, az, auditLog),
		upsells:     upsell.New(a.store, a.Catalog, orders, mgr, az, auditLog, notices, a.log, now, a.upsellUpstream()),
		resellers:   reseller.New(a.store, a.Catalog, orders, reseller.NewLedger(a.store), az, auditLog, reseller.Config{NewResellerPID: a.newResellerPID(cfg)}, a.log, now),
		renewals:    renewer,
		reminders:   reminders,
		affiliates:  affiliate.New(a.store, now),
		notices:     notices,
		renewalMail: renewalMail,
	}, nil
}

// newResellerPID is the new-reseller product a first reseller plan adds (STREAMCART_NEW_RESELLER_PID):
// none in WHMCS mode, where a reseller order is one WHMCS order of the plan's product alone
// (docs/whmcs.md, Reseller plans); a set one is logged as not applied.
func (a *App) newResellerPID(cfg Config) int {
	if a.whmcsClient != nil && cfg.NewResellerPID > 0 {
		a.log.Warn("the new-reseller product is not added in WHMCS mode: a reseller order is the plan's WHMCS product alone",
			"pid", cfg.NewResellerPID)
		return 0
	}
	return cfg.NewResellerPID
}

// storeName is the shop's name in mail: Streamcart when none is set.
func storeName(name string) string {
	if name == "" {
		return "Streamcart"
	}
	return name
}

// homes is the table of the order kinds' homes, the one place a kind is registered: each
// fulfils its paid orders (plan and trial: new lines; upsell: more connections; reseller plan:
// credits; renewal: the due date one cycle on; change: an operator's change of a line's terms), takes back what a fully refunded one gave, and
// keeps its panel lines in step.
func (s *afterSale) homes(plans provision.Plans) order.Homes {
	return order.Homes{
		order.KindPlan:     plans,
		order.KindTrial:    provision.Trials{Plans: plans},
		order.KindUpsell:   s.upsells,
		order.KindReseller: s.resellers,
		order.KindRenewal:  s.renewals,
		order.KindChange:   s.changes,
	}
}

// provisionNotices tells buyers how their orders go (the order mail) and, once a trial's lines
// are ready, schedules its trial-ending mail.
type provisionNotices struct {
	provision.Mail
	trials *renewal.Reminders
}

func (n provisionNotices) LinesReady(ctx context.Context, o order.Order) error {
	return errors.Join(n.Mail.LinesReady(ctx, o), n.trials.TrialStarted(ctx, o))
}

// passwords is who checks buyers' passwords: the seller's WHMCS in WHMCS mode (ValidateLogin), nil
// (the shop's own hashes) otherwise.
func (a *App) passwords() signin.PasswordChecker {
	if a.whmcsClient == nil {
		return nil
	}
	return whmcsPasswords{a.whmcsClient}
}

// whmcsPasswords checks buyers' passwords with WHMCS's ValidateLogin (signin.PasswordChecker). A
// user with two-factor sign-in is not proven by a password alone: the emailed link proves them.
type whmcsPasswords struct{ c *whmcs.Client }

func (p whmcsPasswords) CheckPassword(ctx context.Context, email, password string) error {
	_, twoFactor, err := p.c.ValidateLogin(ctx, email, password)
	switch {
	case errors.Is(err, whmcs.ErrRefused), errors.Is(err, whmcs.ErrNotFound), err == nil && twoFactor:
		return signin.ErrInvalidCredentials
	case err != nil:
		return fmt.Errorf("whmcs: %s: %w", "ValidateLogin", err)
	}
	return nil
}

// manageServices is the buyers' service management: through the panel, or in WHMCS mode through
// WHMCS (its module acts on the panel) with the services shown as WHMCS has them.
func (a *App) manageServices(cfg Config, mgr panel.Manager, az *authz.Authorizer, auditLog *audit.Log) *manage.Services {
	if a.whmcsClient == nil {
		return manage.New(a.store, mgr, a.Catalog, az, auditLog, nil)
	}
	lines := whmcsorder.NewLines(a.whmcsClient, a.store, cfg.WHMCS.MACField, cfg.WHMCS.RestartFunction, cfg.WHMCS.ExtraOption, a.whmcsServices, a.log)
	return manage.New(a.store, lines, a.Catalog, az, auditLog, lines.View)
}

// upsellUpstream prices extra connections in WHMCS mode (nil: the catalog's prices).
func (a *App) upsellUpstream() upsell.Upstream {
	if a.upgrades == nil {
		return nil
	}
	return a.upgrades
}

// consoleDueDates reads the next due dates of a page of the console's list of lines where WHMCS
// owns them (WHMCS mode: its nextduedate, once per distinct client through the services cache);
// nil in the built-in back end (the stored dates).
func (a *App) consoleDueDates() console.DueDates {
	if a.whmcsClient == nil {
		return nil
	}
	cfg := a.cfg
	lines := whmcsorder.NewLines(a.whmcsClient, a.store, cfg.WHMCS.MACField, cfg.WHMCS.RestartFunction,
		cfg.WHMCS.ExtraOption, a.whmcsServices, a.log)
	return lines.NextDueDates
}

// consoleLines is who the seller console's line actions act through, the billing system that
// owns the lines' due dates ("": the shop) and where their next due dates are read (nil: as
// stored): in WHMCS mode WHMCS's module commands (the lines are WHMCS's; the built-in panel has
// none of them), WHMCS, and WHMCS's nextduedate (GetClientsProducts through the services
// cache), else the panel.
func (a *App) consoleLines(cfg Config, mgr panel.Manager) (console.Lines, string, console.NextDue) {
	if a.whmcsClient == nil {
		return mgr, "", nil
	}
	lines := whmcsorder.NewLines(a.whmcsClient, a.store, cfg.WHMCS.MACField, cfg.WHMCS.RestartFunction,
		cfg.WHMCS.ExtraOption, a.whmcsServices, a.log)
	return whmcsorder.SellerLines{Lines: lines}, "WHMCS", func(ctx context.Context, s order.Service) time.Time {
		return lines.View(ctx, s).NextDueDate
	}
}
