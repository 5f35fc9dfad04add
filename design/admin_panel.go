package design

import . "goa.design/goa/v3/dsl"

var AdminLineDrift = Type("AdminLineDrift", func() {
	Attribute("id", Int64)
	Attribute("at", String, "RFC 3339 (business time)")
	Attribute("runId", String, "The reconciliation run that found it")
	Attribute("serviceId", String, "The service whose line drifted; empty for an unexplained panel line")
	Attribute("username", String, "The line's username on the panel")
	Attribute("kind", String, func() {
		Description("What differed")
		Enum("missing", "disabled", "enabled", "expiry", "connections", "mac", "unexplained")
	})
	Attribute("want", String, "What the shop has (what was paid)")
	Attribute("found", String, "What the panel had")
	Attribute("action", String, func() {
		Description("What was done: the repair, listed (an unexplained line, kept), or failed (retried by the next run)")
		Enum("recreated", "new-credentials", "enabled", "disabled", "expiry-set", "connections-set", "mac-set", "listed", "failed")
	})
	Attribute("error", String, "Why the repair failed; empty otherwise")
	Required("id", "at", "runId", "serviceId", "username", "kind", "want", "found", "action", "error")
})

var _ = Service("adminPanel", func() {
	Description("The console's view of the panel: the line drift the reconciliation repaired, and the reseller credit balance.")
	Error("unauthorized")
	Error("forbidden")

	Method("drift", func() {
		Description("The \"Line drift\" view: each drift found between the panel and what was paid, and what was done, newest first, paged (pass nextCursor back as cursor; empty on the last page).")
		Payload(func() {
			operatorSession()
			Attribute("limit", Int, func() { Minimum(1); Maximum(500); Default(100) })
			Attribute("cursor", String, func() { MaxLength(40) })
		})
		Result(func() {
			Attribute("drifts", ArrayOf(AdminLineDrift))
			Attribute("nextCursor", String, "Empty on the last page")
			Required("drifts", "nextCursor")
		})
		Error("bad_request")
		HTTP(func() {
			GET("/admin/line-drift")
			adminCookie(false)
			Param("limit")
			Param("cursor")
		})
	})

	Method("credits", func() {
		Description("The panel's reseller credit balance as the shop last read it, the low-water mark, and the plans it cannot cover (shown as temporarily unavailable): the console's banner.")
		Payload(func() {
			operatorSession()
		})
		Result(func() {
			Attribute("known", Boolean, "false when the panel reports no balance (it spends none): nothing limits the sale")
			Attribute("balance", Float64, "The balance; 0 when unknown")
			Attribute("alert", Float64, "The low-water mark (STREAMCART_PANEL_CREDITS_ALERT); negative: no alert")
			Attribute("low", Boolean, "The balance is at or under the mark: the banner shows")
			Attribute("unavailable", ArrayOf(String), "The names of the plans shown as temporarily unavailable")
			Required("known", "balance", "alert", "low", "unavailable")
		})
		HTTP(func() {
			GET("/admin/panel/credits")
			adminCookie(false)
		})
	})
})
