package app

import (
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/renewal"
)

// withSubscriptions gives the console its Subscriptions list, whose auto-renew actions go
// through the buyer's own renewals and whose renewal link is the renewal invoice mail, on
// business time.
func (a *App) withSubscriptions(adm *httpapi.Admin, after *afterSale, now func() time.Time) *httpapi.Admin {
	links := renewal.PayLinkMail{Renewals: after.renewals, Mail: after.renewalMail,
		Config: renewal.Config{LeadDays: a.cfg.RenewalLeadDays, GraceDays: a.cfg.RenewalGraceDays, TerminateAfterDays: a.cfg.TerminateAfterDays,
			Locate: a.locate}}
	adm.Subscriptions = console.NewSubscriptions(a.store, after.renewals, links, a.consoleDueDates(), now)
	adm.Changes = after.changes
	adm.Settings = a.cfg.Settings
	return adm
}
