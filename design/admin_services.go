package design

import . "goa.design/goa/v3/dsl"

// serviceAction is the payload of an action on one line.
func serviceAction() {
	operatorSession()
	csrfAttr()
	Attribute("id", String, "The service id", func() { MaxLength(64) })
	Required("id")
}

var _ = Service("adminServices", func() {
	Description("The console's actions on one line, through the panel: suspend, unsuspend and extend (support, owner), terminate (owner).")
	HTTP(func() { Path("/admin/services") })
	Error("unauthorized")
	Error("forbidden")
	Error("invalid_csrf_token")
	Error("not_found")
	Error("conflict")    // the line's status does not allow it
	Error("unavailable") // the panel is down

	Method("suspend", func() {
		Description("Disables an active line on the panel; the line shows Suspended.")
		Payload(serviceAction)
		Result(AdminLine)
		HTTP(func() {
			POST("/{id}/suspend")
			adminCookie(true)
		})
	})
	Method("unsuspend", func() {
		Description("Enables a suspended line again on the panel; the line shows Active.")
		Payload(serviceAction)
		Result(AdminLine)
		HTTP(func() {
			POST("/{id}/unsuspend")
			adminCookie(true)
		})
	})
	Method("extend", func() {
		Description("Gives a line days more: its expiry on the panel and its next due date move by days, free. Support may give one line at most STREAMCART_SUPPORT_MAX_EXTEND_DAYS days (default 31) within 30 days; the owner is not capped.")
		Payload(func() {
			serviceAction()
			Attribute("days", Int, func() { Minimum(1); Maximum(3660) })
			Required("days")
		})
		Result(AdminLine)
		Error("extend_limit", ErrorResult, "Support's extensions of this line would pass the cap; the message says how many days remain.")
		HTTP(func() {
			POST("/{id}/extend")
			adminCookie(true)
			Response("extend_limit", StatusForbidden)
		})
	})
	Method("terminate", func() {
		Description("Deletes the line from the panel for good; the line shows Terminated.")
		Payload(serviceAction)
		Result(AdminLine)
		HTTP(func() {
			POST("/{id}/terminate")
			adminCookie(true)
		})
	})
})
