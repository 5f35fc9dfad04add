package app

import (
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
)

// OperatorPasswordCost is the bcrypt cost of operator passwords (tests lower it).
var OperatorPasswordCost = 10

// admin wires the seller's console API: operators, the console's reads, roles and the audit
// log, all on business time.
func (a *App) admin(az *authz.Authorizer, now func() time.Time, d console.Deps) *httpapi.Admin {
	ops := operator.New(a.store, storeName(a.cfg.StoreName), a.log)
	ops.SetClock(now)
	ops.SetPasswordCost(OperatorPasswordCost)
	c := console.New(a.store)
	c.SetClock(now)
	log := audit.New(a.store, a.log)
	log.SetClock(now)
	d.Store, d.Now = a.store, now
	return &httpapi.Admin{Operators: ops, Console: c, Actions: console.NewActions(d), Authz: az, Audit: log, PublicURL: a.base,
		Catalog: adminCatalog{a: a, now: now}}
}

// refunders are the gateways that refund at once, by module.
func refunders(gateways []order.Gateway) map[string]console.AmountRefunder {
	out := map[string]console.AmountRefunder{}
	for _, g := range gateways {
		if r, ok := g.(console.AmountRefunder); ok {
			out[g.Module()] = r
		}
	}
	return out
}

// Operators is the shop's console operators (tests and the CLI add them).
func (a *App) Operators() *operator.Operators {
	return a.admin(nil, a.clock.Now, console.Deps{}).Operators
}
