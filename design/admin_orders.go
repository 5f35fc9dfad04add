package design

import . "goa.design/goa/v3/dsl"

var AdminOrder = Type("AdminOrder", func() {
	Attribute("id", String)
	Attribute("kind", String, func() { Enum("plan", "upsell", "reseller", "renewal") })
	Attribute("status", String, "pending, paid, provisioning, active, fraud (held), cancelled, failed, needs_review, partially_refunded, refunded")
	Attribute("email", String)
	Attribute("customerId", String, "The client's public id (usr_…)")
	Attribute("total", Money)
	Attribute("gateway", String)
	Attribute("invoiceId", String)
	Attribute("invoiceStatus", String, func() { Enum("unpaid", "paid", "failed", "cancelled") })
	Attribute("promoCode", String)
	Attribute("createdAt", String, "RFC 3339")
	Attribute("paidAt", String, "RFC 3339; empty until paid")
	Required("id", "kind", "status", "email", "customerId", "total", "gateway", "invoiceId", "invoiceStatus", "promoCode", "createdAt", "paidAt")
})

var AdminLine = Type("AdminLine", func() {
	Attribute("serviceId", String)
	Attribute("orderId", String)
	Attribute("pid", Int)
	Attribute("name", String)
	Attribute("status", String)
	Attribute("username", String, "Masked (\"••••\") for a viewer")
	Attribute("password", String, "Masked (\"••••\") for a viewer")
	Attribute("expiresAt", String, "RFC 3339; empty when it never expires or is not provisioned")
	Attribute("nextDueDate", String, "YYYY-MM-DD; empty when nothing more is due")
	Required("serviceId", "orderId", "pid", "name", "status", "username", "password", "expiresAt", "nextDueDate")
})

var AdminTimelineEvent = Type("AdminTimelineEvent", func() {
	Attribute("at", String, "RFC 3339")
	Attribute("kind", String, func() {
		Enum("created", "invoice", "payment", "review", "webhook", "job", "mail", "audit")
	})
	Attribute("summary", String, "One line: what happened")
	Attribute("outcome", String, "ok, failed, dead, queued, …; empty when the event has none")
	Attribute("detail", String, "The last error, the operator, the reason; empty when none")
	Required("at", "kind", "summary", "outcome", "detail")
})

var _ = Service("adminOrders", func() {
	Description("The console's orders: a filtered, keyset-paged list and one order with its timeline.")
	HTTP(func() { Path("/admin/orders") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Orders, newest first. q matches an email (whole, or its beginning), an order id, an invoice id or a line's username. Pass nextCursor back as cursor for the next page; it is empty on the last.")
		Payload(func() {
			operatorSession()
			Attribute("status", String, func() {
				Enum(OrderStatuses...)
			})
			Attribute("q", String, func() { MaxLength(254) })
			Attribute("gateway", String, func() { MaxLength(32) })
			Attribute("from", String, "RFC 3339 or YYYY-MM-DD: created at or after", func() { MaxLength(40) })
			Attribute("to", String, "RFC 3339 or YYYY-MM-DD: created before", func() { MaxLength(40) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("orders", ArrayOf(AdminOrder))
			Attribute("nextCursor", String, "Empty on the last page")
			Required("orders", "nextCursor")
		})
		Error("bad_request") // a bad date or cursor
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("status")
			Param("q")
			Param("gateway")
			Param("from")
			Param("to")
			Param("limit")
			Param("cursor")
		})
	})
	Method("get", func() {
		Description("One order, its lines (credentials masked for a viewer) and its timeline, oldest first: created, invoice, payments under review, webhooks naming its invoice with their outcome, its jobs with attempts and last error, mail to its buyer since it was placed, and the audit log's actions on it and its lines.")
		Payload(func() {
			operatorSession()
			Attribute("id", String, func() { MaxLength(64) })
			Required("id")
		})
		Result(func() {
			Attribute("order", AdminOrder)
			Attribute("lines", ArrayOf(AdminLine))
			Attribute("timeline", ArrayOf(AdminTimelineEvent))
			Required("order", "lines", "timeline")
		})
		Error("not_found")
		HTTP(func() {
			GET("/{id}")
			adminCookie(false)
		})
	})
})
