package app

import (
	"context"
	"fmt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
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
	affiliates *affiliate.Affiliates
	// notices mails the buyer when an order is received and when its lines are ready.
	notices orderMail
}

func (a *App) afterSale(cfg Config, accounts *account.Service, orders *order.Orders, lines panel.Panel, az *authz.Authorizer, wake func()) (*afterSale, error) {
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
	// Neither Xtream flavour has a reseller API we drive: reseller credit accounts live in the
	// built-in panel's tables whatever panel serves the lines.
	resellerAccounts, ok := lines.(panel.Resellers)
	if !ok {
		resellerAccounts = panel.NewBuiltin(a.store, cfg.ServerHostname)
	}
	auditLog := audit.New(a.store, a.log)
	outbox := mail.NewOutbox(countedMail{a.store, a.metrics}, smtp, wake)
	return &afterSale{
		outbox:     outbox,
		signin:     signin.New(a.store, accounts, outbox, signin.Config{StoreName: cfg.StoreName, PublicURL: a.base}, a.log),
		manage:     manage.New(a.store, mgr, a.Catalog, az, auditLog),
		upsells:    upsell.New(a.store, a.Catalog, orders, mgr, az, auditLog, a.log),
		resellers:  reseller.New(a.store, a.Catalog, orders, resellerAccounts, az, auditLog, reseller.Config{NewResellerPID: cfg.NewResellerPID}, a.log),
		affiliates: affiliate.New(a.store),
		notices:    orderMail{outbox: outbox, store: storeName(cfg.StoreName), base: a.base},
	}, nil
}

// storeName is the shop's name in mail: Streamcart when none is set.
func storeName(name string) string {
	if name == "" {
		return "Streamcart"
	}
	return name
}

// provision is the handler of paid orders: an upsell raises a line's connections, a reseller plan
// credits a reseller account, anything else is provisioned by next (new lines).
func (s *afterSale) provision(next job.Handler) job.Handler {
	return func(ctx context.Context, j job.Job) error {
		if handled, err := s.upsells.Handle(ctx, j); handled {
			return err
		}
		if handled, err := s.resellers.Handle(ctx, j); handled {
			return err
		}
		return next(ctx, j)
	}
}
