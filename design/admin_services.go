package design

import . "goa.design/goa/v3/dsl"

// serviceAction is the payload of an action on one line.
func serviceAction() {
	operatorSession()
	csrfAttr()
	Attribute("id", String, "The service id", func() { MaxLength(64) })
	Required("id")
}

// AdminSubscription is a line as the console's Subscriptions list shows it.
var AdminSubscription = Type("AdminSubscription", func() {
	Attribute("serviceId", String)
	Attribute("customer", func() {
		Attribute("id", String, "The client's public id (usr_…)")
		Attribute("email", String)
		Required("id", "email")
	})
	Attribute("pid", Int)
	Attribute("plan", String, "The plan's name as bought")
	Attribute("billingCycle", String)
	Attribute("maxConnections", Int)
	Attribute("status", String, func() { Enum("Pending", "Active", "Overdue", "Suspended", "Cancelled", "Terminated", "Expired") })
	Attribute("nextDueDate", String, "YYYY-MM-DD; empty when nothing more is due")
	Attribute("overdueDays", Int, "Whole days (business time) since the due date of a line still running (Active, Overdue, Suspended) whose due date has passed; 0 otherwise")
	Attribute("autoRenew", Boolean, "As the buyer's GET /services shows it")
	Attribute("renewsWithCard", Boolean, "As the buyer's GET /services shows it")
	Attribute("renewalInvoiceId", String, "The open (unpaid) renewal invoice; null when none", func() {
		Meta("struct:tag:json", "renewalInvoiceId") // always present, null when none
	})
	Attribute("renewalCardCharge", String, "As the buyer's GET /services shows it: why the saved card did not pay the open renewal invoice, the outcome of its latest off-session charge (declined, authentication_required, refused); null when no charge of it failed", func() {
		Enum("declined", "authentication_required", "refused")
		Meta("struct:tag:json", "renewalCardCharge") // always present, null when none
	})
	Attribute("recurringAmount", Money, "What the next period costs; null for trials and one-time lines", func() {
		Meta("struct:tag:json", "recurringAmount") // always present, null when none
	})
	Attribute("username", String, "Masked (\"••••\") for a viewer")
	Attribute("macAddress", String)
	Required("serviceId", "customer", "pid", "plan", "billingCycle", "maxConnections", "status", "nextDueDate", "overdueDays",
		"autoRenew", "renewsWithCard", "username", "macAddress")
})

// AdminLineTerms are what a line is sold as: the terms a change moves.
var AdminLineTerms = Type("AdminLineTerms", func() {
	Attribute("pid", Int)
	Attribute("plan", String, "The plan's name")
	Attribute("billingCycle", String)
	Attribute("maxConnections", Int)
	Attribute("nextDueDate", String, "YYYY-MM-DD")
	Required("pid", "plan", "billingCycle", "maxConnections", "nextDueDate")
})

// AdminLineChange is a change of a line's terms, made or previewed.
var AdminLineChange = Type("AdminLineChange", func() {
	Attribute("changeId", String, "Empty for a preview")
	Attribute("serviceId", String)
	Attribute("charge", String, func() { Enum("now", "next-renewal", "free") })
	Attribute("preview", Boolean, "Nothing was changed: this is what the change would do")
	Attribute("applied", Boolean, "The line has the new terms (next-renewal, free; now once paid)")
	Attribute("from", AdminLineTerms, "The line's terms before")
	Attribute("to", AdminLineTerms, "The line's terms after")
	Attribute("amount", Money, "What the buyer pays now: with charge now, the difference over the rest of the period, prorated by days; 0 otherwise")
	Attribute("daysLeft", Int, "Days left in the current period (business time), which amount covers")
	Attribute("periodDays", Int, "Days of the current period")
	Attribute("recurringAmount", Money, "What a period costs now")
	Attribute("newRecurringAmount", Money, "What a period costs from the next one")
	Attribute("effect", String, "The effect, in one English sentence")
	Attribute("orderId", String, "charge now: the order the buyer pays; empty otherwise")
	Attribute("invoiceId", String, "charge now: its invoice; empty otherwise")
	Attribute("sentTo", String, "charge now: whom the pay link was mailed to; empty otherwise (and for a preview)")
	Required("changeId", "serviceId", "charge", "preview", "applied", "from", "to", "amount", "daysLeft", "periodDays",
		"recurringAmount", "newRecurringAmount", "effect", "orderId", "invoiceId", "sentTo")
})

// subscriptionFilter is the filter of the Subscriptions list and of its CSV export.
func subscriptionFilter() {
	operatorSession()
	Attribute("status", String, "A status of the buyer's GET /services, in any case (active, OVERDUE, …)", func() { MaxLength(32) })
	Attribute("q", String, "An email (whole or its beginning), a line's username, a MAC address (':' or '-', any case) or a service id", func() { MaxLength(254) })
	Attribute("dueWithin", String, "Running lines (Active, Overdue, Suspended) due within this long of now (business time), overdue ones included: a number and d (days) or h (hours), e.g. 14d, 12h; 0d: due by now", func() { MaxLength(16) })
	Attribute("autoRenew", Boolean, "true: lines that renew; false: the others")
	Attribute("pid", Int, "The plan's product id")
}

// subscriptionParams maps subscriptionFilter's query parameters.
func subscriptionParams() {
	Param("status")
	Param("q")
	Param("dueWithin")
	Param("autoRenew")
	Param("pid")
}

var _ = Service("adminServices", func() {
	Description("The console's lines: the Subscriptions list (viewer and up) and its CSV export; auto-renew off and on and the renewal link (support, owner); a change of plan, cycle, connections or due date (owner; support with charge next-renewal); actions through the panel: suspend, unsuspend and extend (support, owner), terminate (owner).")
	HTTP(func() { Path("/admin/services") })
	Error("unauthorized")
	Error("forbidden")
	Error("invalid_csrf_token")
	Error("not_found")
	Error("conflict")    // the line's status does not allow it
	Error("unavailable") // the panel is down

	Method("list", func() {
		Description("Lines, soonest due first (lines with no due date last), then by service id. Pass nextCursor back as cursor for the next page; it is empty on the last. The username is masked for a viewer.")
		Payload(func() {
			subscriptionFilter()
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("services", ArrayOf(AdminSubscription))
			Attribute("nextCursor", String, "Empty on the last page")
			Attribute("dueDatesUnavailable", Boolean, "WHMCS mode: true when WHMCS did not answer, so some WHMCS lines of this page show no next due date (and no overdue days); the page is otherwise complete. Absent otherwise (always in the built-in back end)")
			Required("services", "nextCursor")
		})
		Error("invalid_status", ErrorResult, "status is none of the buyer's service statuses.")
		Error("invalid_due_within", ErrorResult, "dueWithin is not a number followed by d or h (e.g. 14d, 12h), or is more than 3660 days.")
		Error("bad_request") // a cursor not ours
		HTTP(func() {
			GET("")
			adminCookie(false)
			subscriptionParams()
			Param("limit")
			Param("cursor")
			Response("invalid_status", StatusBadRequest)
			Response("invalid_due_within", StatusBadRequest)
		})
	})
	Method("export", func() {
		Description("The whole filtered list as CSV (RFC 4180, UTF-8), in the list's order and columns; a cell a spreadsheet would run as a formula (=, +, -, @ first) gets a leading '. The username is masked for a viewer.")
		Payload(subscriptionFilter)
		Result(func() {
			Attribute("contentType", String)
			Attribute("contentDisposition", String)
			Required("contentType", "contentDisposition")
		})
		Error("invalid_status", ErrorResult, "status is none of the buyer's service statuses.")
		Error("invalid_due_within", ErrorResult, "dueWithin is not a number followed by d or h (e.g. 14d, 12h), or is more than 3660 days.")
		HTTP(func() {
			// "//" leaves the service's base path: the export sits beside the list, at /admin/services.csv.
			GET("//checkout/api/admin/services.csv")
			adminCookie(false)
			subscriptionParams()
			SkipResponseBodyEncodeDecode()
			Response(StatusOK, func() {
				ContentType("text/csv")
				Header("contentType:Content-Type")
				Header("contentDisposition:Content-Disposition")
			})
			Response("invalid_status", StatusBadRequest)
			Response("invalid_due_within", StatusBadRequest)
		})
	})
	Method("cancel", func() {
		Description("Cancels the buyer's auto-renew, as the buyer's own POST /services/{serviceId}/cancel does: no more renewal invoices, the open one cancelled, the line Cancelled at its due date. 409 conflict when it is cancelled already or the line does not renew.")
		Payload(serviceAction)
		Result(AdminSubscription)
		HTTP(func() {
			POST("/{id}/cancel")
			adminCookie(true)
		})
	})
	Method("resume", func() {
		Description("Resumes the buyer's auto-renew, as the buyer's own POST /services/{serviceId}/resume does. 409 conflict when it was not cancelled or the line has ended.")
		Payload(serviceAction)
		Result(AdminSubscription)
		HTTP(func() {
			POST("/{id}/resume")
			adminCookie(true)
		})
	})
	Method("renewalLink", func() {
		Description("Mails the buyer, in their locale, the pay link of the line's open renewal invoice (the renewal invoice mail, again).")
		Payload(serviceAction)
		Result(func() {
			Attribute("sentTo", String, "The buyer's email")
			Attribute("invoiceId", String, "The open renewal invoice the link pays")
			Required("sentTo", "invoiceId")
		})
		Error("no_open_renewal", ErrorResult, "The line has no open renewal invoice to pay.")
		HTTP(func() {
			POST("/{id}/renewal-link")
			adminCookie(true)
			Response("no_open_renewal", StatusConflict)
		})
	})
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
	Method("change", func() {
		Description("Changes a running line's plan (pid), billing cycle, connections or next due date. charge now (owner): an order of kind change for the difference over the rest of the period (prorated by days, business time) is placed for the buyer and its pay link mailed; the line changes once it is paid. next-renewal (support, owner): the line changes at once and its recurring amount is the new one from the next period (an open renewal invoice is placed again at the new amount). free (owner): the line changes at once, audited as free. The panel line follows through the line-sync job. preview: true answers the same without changing anything (the console shows it before confirming). An Idempotency-Key header makes the change once per operator and key: a retry answers the first change. Of concurrent changes of a line one applies; the others answer 409.")
		Payload(func() {
			serviceAction()
			Attribute("idempotencyKey", String, "Idempotency-Key header: the same key and operator give back the first change", func() { MaxLength(200) })
			Attribute("pid", Int, "The new plan (a product of the catalog, not a trial)")
			Attribute("billingCycle", String, "The new billing cycle, one the plan offers in the line's currency", func() { MaxLength(32) })
			Attribute("maxConnections", Int, "The new number of connections, 1 up to 1 + the plan's extra connections")
			Attribute("nextDueDate", String, "YYYY-MM-DD: the new due date, after today (business time); the line's expiry moves with it", func() { MaxLength(32) })
			Attribute("charge", String, "now: the buyer pays the prorated difference before the line changes; next-renewal: from the next period; free: no charge", func() {
				Enum("now", "next-renewal", "free")
			})
			Attribute("reason", String, "Why; written to the audit log", func() { MaxLength(500) })
			Attribute("preview", Boolean, "true: change nothing, answer what would happen", func() { Default(false) })
			Required("charge", "reason")
		})
		Result(AdminLineChange)
		Error("invalid_change", ErrorResult, "A field is not acceptable: an unknown plan, a trial, a cycle the plan does not offer, connections out of the plan's range, a due date not after today or not YYYY-MM-DD, an empty reason; the message names the field.")
		Error("nothing_to_charge", ErrorResult, "charge now on a change that costs nothing more over the rest of the period: use next-renewal or free.")
		Error("nothing_to_change", ErrorResult, "The line has these terms already (a concurrent change applied them).")
		Error("change_pending", ErrorResult, "The line has a change waiting for the buyer's payment.")
		HTTP(func() {
			POST("/{id}/change")
			adminCookie(true)
			Header("idempotencyKey:Idempotency-Key")
			Response("invalid_change", StatusBadRequest)
			Response("nothing_to_charge", StatusBadRequest)
			Response("nothing_to_change", StatusConflict)
			Response("change_pending", StatusConflict)
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
