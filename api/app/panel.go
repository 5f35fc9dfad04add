package app

import (
	"context"
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/credits"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/web"
)

// laterMailer is the outbox the credit alert mails through, known once the after-sale services
// are built (the balance is needed earlier, by the order service's stock check).
type laterMailer struct{ outbox *mail.Outbox }

func (m *laterMailer) Send(ctx context.Context, msg mail.Message) error {
	if m.outbox == nil {
		return errors.New("credit alert: no outbox")
	}
	return m.outbox.Send(ctx, msg)
}

// newBalance is the panel's cached credit balance: the built-in panel's is a row of the shop's
// database, read every couple of seconds and again for an order after this process changed it
// (a line's spend, a top-up through the store); a remote panel's is read every minute.
func (a *App) newBalance(lines panel.Panel, builtin *panel.Builtin, mailer credits.Mailer) *credits.Balance {
	c := credits.Config{Alert: a.cfg.PanelCreditsAlert, Store: a.store, Mail: mailer, Shop: storeName(a.cfg.StoreName),
		Console: a.base + web.ConsolePath, Log: a.log, Every: credits.RemoteEvery}
	if r, ok := lines.(panel.CreditReader); ok {
		c.Panel = r
	}
	if lines == panel.Panel(builtin) {
		c.Every, c.Fresh = credits.LocalEvery, true
	}
	return credits.New(c)
}

// stock refuses an order of a plan and cycle whose panel cost the balance cannot cover.
func (a *App) stock(ctx context.Context, pid int, cycle catalog.Cycle) error {
	p, ok := a.Catalog().Product(pid)
	if !ok {
		return nil // unknown: the pricing answers 404
	}
	if err := a.balance.Check(ctx, p.CreditCost(cycle)); errors.Is(err, credits.ErrNotEnough) {
		return order.ErrOutOfStock
	}
	return nil
}

// newCredentials mails a buyer whose deleted line was made again under new credentials: the
// line-ready mail, whose link opens the page that shows them.
type newCredentials struct{ provision.Mail }

func (n newCredentials) NewCredentials(ctx context.Context, o order.Order) error {
	return n.Mail.LinesReady(ctx, o)
}

// newReconciler is the panel's reconciliation with what was paid.
func (a *App) newReconciler(lines panel.Panel, notices provision.Mail, now func() time.Time) *linedrift.Reconciler {
	return linedrift.New(linedrift.Config{Store: a.store, Lines: lines.(linedrift.Lines), Catalog: a.Catalog, Prefix: a.cfg.UsernamePrefix,
		Notify: newCredentials{notices}, Audit: audit.New(a.store, a.log, now), Log: a.log, Now: now, LeaseNow: a.clock.Base})
}

// ReconcileLines runs the reconciliation once (streamcart lines reconcile): linedrift.ErrRunning
// when another run holds the lease.
func (a *App) ReconcileLines(ctx context.Context, dryRun bool) (linedrift.Report, error) {
	if a.whmcsClient != nil {
		return linedrift.Report{}, errors.New("STREAMCART_BACKEND=whmcs: WHMCS's module keeps the lines, not the panel Streamcart reconciles")
	}
	return a.reconciler.Run(ctx, dryRun)
}

// panelAdmin is the console's view of the panel: the drift records and the balance.
type panelAdmin struct {
	*credits.Balance
	drift interface {
		DriftPage(ctx context.Context, before int64, limit int) ([]linedrift.Drift, error)
	}
}

func (p panelAdmin) DriftPage(ctx context.Context, before int64, limit int) ([]linedrift.Drift, error) {
	return p.drift.DriftPage(ctx, before, limit)
}

// RefreshCredits reads the panel's credit balance now (what Run does every minute, every couple
// of seconds for the built-in panel) and reports whether it changed.
func (a *App) RefreshCredits(ctx context.Context) (bool, error) { return a.balance.Refresh(ctx) }
