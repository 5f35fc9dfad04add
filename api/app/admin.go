package app

import (
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/operator"
)

// OperatorPasswordCost is the bcrypt cost of operator passwords (tests lower it).
var OperatorPasswordCost = 10

// admin wires the seller's console API: operators, the console's reads, roles and the audit
// log, all on business time.
func (a *App) admin(az *authz.Authorizer, now func() time.Time) *httpapi.Admin {
	ops := operator.New(a.store, storeName(a.cfg.StoreName), a.log)
	ops.SetClock(now)
	ops.SetPasswordCost(OperatorPasswordCost)
	c := console.New(a.store)
	c.SetClock(now)
	log := audit.New(a.store, a.log)
	log.SetClock(now)
	return &httpapi.Admin{Operators: ops, Console: c, Authz: az, Audit: log}
}

// Operators is the shop's console operators (tests and the CLI add them).
func (a *App) Operators() *operator.Operators {
	return a.admin(nil, a.clock.Now).Operators
}
