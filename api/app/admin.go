package app

import (
	"context"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/revenue"
	"github.com/streamcart/streamcart/api/web"
)

// OperatorPasswordCost is the bcrypt cost of operator passwords (tests lower it).
var OperatorPasswordCost = 10

// admin wires the seller's console API: operators, the console's reads, roles and the audit
// log, all on business time.
func (a *App) admin(az *authz.Authorizer, now func() time.Time, d console.Deps, orders *order.Orders, figures *revenue.Revenue) *httpapi.Admin {
	ops := operator.New(a.store, operator.Config{Issuer: storeName(a.cfg.StoreName), PasswordCost: OperatorPasswordCost, SecretKey: a.key,
		// Security time: the sign-in guard reads the base clock, never the test clock's offset.
		Guard: operator.Guard{Now: a.clock.Base, Sleep: a.cfg.Sleep, Mailer: d.Mailer, ConsoleURL: strings.TrimRight(a.base, "/") + web.ConsolePath}},
		// Security time: TOTP, setup links and operator sessions read real time, never the test
		// clock (an authenticator app knows nothing of `streamcart clock advance`).
		a.log, a.clock.Base)
	c := console.New(a.store, now, a.locate, d.NextDue)
	log := audit.New(a.store, a.log, now)
	d.Store, d.Now = a.store, now
	// Security time: support's extension cap counts real days, never the test clock's.
	d.RealNow, d.SupportMaxExtendDays = a.clock.Base, a.cfg.SupportMaxExtendDays
	cat := console.NewCatalogs(console.CatalogDeps{Store: a.store, InForce: a.Catalog, Check: a.checkSaved, Now: now,
		Source: func(ctx context.Context) ([]byte, error) { return catalogSource(ctx, a.store) },
		Legal:  a.consoleLegal,
		Reload: func(ctx context.Context) error { _, err := a.RefreshCatalog(ctx); return err }})
	adm := &httpapi.Admin{Operators: ops, Console: c, Actions: console.NewActions(d), Authz: az, Audit: log, PublicURL: a.base,
		Catalog: cat}
	if figures != nil {
		adm.Revenue = figures
	}
	if a.balance != nil {
		adm.Panel = panelAdmin{Balance: a.balance, drift: a.store}
	}
	if orders != nil {
		adm.Payments = payments{Orders: orders, list: a.store}
	}
	return adm
}

// payments are the payments to review: refunded and accepted by the orders, listed by the store.
type payments struct {
	*order.Orders
	list interface {
		ReviewsIn(ctx context.Context, state string, limit int) ([]order.Review, error)
	}
}

func (p payments) ReviewsIn(ctx context.Context, state string, limit int) ([]order.Review, error) {
	return p.list.ReviewsIn(ctx, state, limit)
}

// checkSaved refuses a catalog saved in the console that this shop could not serve, as
// RefreshCatalog would: STREAMCART_GATEWAYS, when set, wins over the catalog's gateways.
func (a *App) checkSaved(c *catalog.Catalog) error {
	if len(a.cfg.Payment.Modules) > 0 {
		return nil
	}
	if err := a.gatewaysBuilt(c); err != nil {
		return err
	}
	return CheckCatalog(a.cfg, c)
}

// Operators is the shop's console operators (tests and the CLI add them).
func (a *App) Operators() *operator.Operators {
	return a.admin(nil, a.clock.Now, console.Deps{}, nil, nil).Operators
}
