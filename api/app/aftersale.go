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
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/upsell"
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
	renewals := renewal.Config{LeadDays: cfg.RenewalLeadDays, GraceDays: cfg.RenewalGraceDays, TerminateAfterDays: cfg.TerminateAfterDays}
	renewalMail := renewal.Mail{Outbox: outbox, Store: countedReminders{a.store, a.metrics}, Links: a.payLinks, Shop: storeName(cfg.StoreName), Base: a.base,
		Receipt: a.ReceiptLink}
	reminders := renewal.NewReminders(a.store, renewalMail, a.store.Enqueue, renewals, a.log, now)
	renewer := renewal.New(a.store, a.Catalog, orders, mgr, reminders, cards, renewals, a.log, now)
	return &afterSale{
		outbox:      outbox,
		signin:      signin.New(a.store, accounts, outbox, signin.Config{StoreName: cfg.StoreName, PublicURL: a.base}, a.log, now),
		manage:      manage.New(a.store, mgr, a.Catalog, az, auditLog),
		upsells:     upsell.New(a.store, a.Catalog, orders, mgr, az, auditLog, a.log, now),
		resellers:   reseller.New(a.store, a.Catalog, orders, reseller.NewLedger(a.store), az, auditLog, reseller.Config{NewResellerPID: cfg.NewResellerPID}, a.log, now),
		renewals:    renewer,
		reminders:   reminders,
		affiliates:  affiliate.New(a.store, now),
		notices:     provision.Mail{Outbox: outbox, Shop: storeName(cfg.StoreName), Base: a.base, Receipt: a.ReceiptLink},
		renewalMail: renewalMail,
	}, nil
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
// credits; renewal: the due date one cycle on), takes back what a fully refunded one gave, and
// keeps its panel lines in step.
func (s *afterSale) homes(plans provision.Plans) order.Homes {
	return order.Homes{
		order.KindPlan:     plans,
		order.KindTrial:    provision.Trials{Plans: plans},
		order.KindUpsell:   s.upsells,
		order.KindReseller: s.resellers,
		order.KindRenewal:  s.renewals,
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
