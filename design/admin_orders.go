package design

import . "goa.design/goa/v3/dsl"

// OrderKinds are what an order sells, as the console names them: a free trial is a plan order
// whose line is a trial.
var OrderKinds = []any{"plan", "trial", "renewal", "upsell", "reseller"}

var AdminOrder = Type("AdminOrder", func() {
	Attribute("id", String)
	Attribute("kind", String, func() { Enum(OrderKinds...) })
	Attribute("product", String, "What was bought, in a few words: the plan's name; an upsell's line")
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
	Attribute("refunded", Money, "All refunded on the order so far")
	Attribute("net", Money, "What the order kept: its total when paid (0 when not), less what was refunded")
	Required("id", "kind", "product", "status", "email", "customerId", "total", "gateway", "invoiceId", "invoiceStatus", "promoCode", "createdAt", "paidAt",
		"refunded", "net")
})

var AdminOrderItem = Type("AdminOrderItem", func() {
	Description("One billed item of an order; an order's items sum to its total.")
	Attribute("kind", String, "plan: the plan's period; extra: extra connections; proxy: proxy protection; discount: a promotion (negative); tax", func() {
		Enum("plan", "extra", "proxy", "discount", "tax")
	})
	Attribute("description", String, "In English, as the quote said it")
	Attribute("args", ArrayOf(String), `The description's parts, so that a console words it in its operator's language: the wording, then its values: plan [plan name as the catalog writes it, billing cycle]; extra [count] or [count, line name]; proxy []; promotion [code]; tax [rate, country]; adjustment []; change [from plan, to plan, billing cycle, connections, until YYYY-MM-DD]; renewal [line name] or [line name, due YYYY-MM-DD]; empty when the description is none of these`)
	Attribute("quantity", Int, "How many (extra connections: their count; else 1)")
	Attribute("unitAmount", Money, "The price of one")
	Attribute("amount", Money, "quantity × unitAmount (negative for a discount)")
	Required("kind", "description", "args", "quantity", "unitAmount", "amount")
})

var AdminOrderTax = Type("AdminOrderTax", func() {
	Description("The tax in an order's total (a catalog with a tax block): the billing country taxed, its rate, the amount.")
	Attribute("country", String, "ISO 3166-1 alpha-2; empty when none was known")
	Attribute("rate", String, "A percentage, as the catalog writes it (\"19\")")
	Attribute("amount", Money, "The tax in the total")
	Attribute("pricesIncludeTax", Boolean, "The catalog's prices included it (else it was added on top)")
	Required("country", "rate", "amount", "pricesIncludeTax")
})

var AdminHoldRule = Type("AdminHoldRule", func() {
	Attribute("rule", String, "Which check fired", func() { Enum("banned-email-domain", "orders-per-ip") })
	Attribute("value", String, "What it saw: the email's domain, the orders from the address in the 24 h before")
	Attribute("limit", String, "What it allows: banned (a banned domain), the most orders an address may place in 24 h")
	Required("rule", "value", "limit")
})

var AdminHold = Type("AdminHold", func() {
	Description("Why the fraud check held the order, as it was when the order was placed.")
	Attribute("rules", ArrayOf(AdminHoldRule), "The checks that fired, with their values")
	Attribute("ip", String, "The address the order came from; empty when none (an order the shop placed)")
	Attribute("country", String, "The address's country (ISO 3166-1 alpha-2) from the offline database; empty when unknown")
	Attribute("ordersFromIp", Int, "Orders placed from that address in the 24 h before this one")
	Required("rules", "ip", "country", "ordersFromIp")
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
	Attribute("args", ArrayOf(String), `The summary's parts, so that a console words it in its operator's language (summary is English): created [kind, email]; invoice [invoiceId, amount in minor units, currency, gateway]; payment []; review [amount, currency, expected amount, expected currency, reason]; webhook [provider, eventId]; job [kind, id, attempts]; mail [id, subject]; audit [action, target, operator, empty for the customer]`)
	Required("at", "kind", "summary", "outcome", "detail", "args")
})

var _ = Service("adminOrders", func() {
	Description("The console's orders: a filtered, keyset-paged list and one order with its timeline.")
	HTTP(func() { Path("/admin/orders") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Orders, newest first. q matches an email (whole, or its beginning), an order id, an invoice id or a line's username; kind and gateway narrow them (gateway: one of the configured gateways, listed in gateways). Pass nextCursor back as cursor for the next page; it is empty on the last.")
		Payload(func() {
			operatorSession()
			Attribute("status", String, func() {
				Enum(OrderStatuses...)
			})
			Attribute("q", String, func() { MaxLength(254) })
			Attribute("gateway", String, "One of the configured gateways (gateways in the answer)", func() { MaxLength(32) })
			Attribute("kind", String, func() { Enum(OrderKinds...) })
			Attribute("from", String, "RFC 3339 or YYYY-MM-DD: created at or after", func() { MaxLength(40) })
			Attribute("to", String, "RFC 3339 or YYYY-MM-DD: created before", func() { MaxLength(40) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("orders", ArrayOf(AdminOrder))
			Attribute("nextCursor", String, "Empty on the last page")
			Attribute("gateways", ArrayOf(String), "The configured gateways (module names): the choices of the gateway filter")
			Required("orders", "nextCursor", "gateways")
		})
		Error("bad_request") // a bad date or cursor, a gateway not configured
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("status")
			Param("q")
			Param("gateway")
			Param("kind")
			Param("from")
			Param("to")
			Param("limit")
			Param("cursor")
		})
	})
	Method("get", func() {
		Description("One order: what it sells (kind) and its billed items (summing to its total), what was refunded and what it kept (net), why the fraud check held it (hold), its lines (credentials masked for a viewer) and its timeline, oldest first: created, invoice, payments under review, webhooks naming its invoice with their outcome, its jobs with attempts and last error, mail to its buyer since it was placed, and the audit log's actions on it and its lines.")
		Payload(func() {
			operatorSession()
			Attribute("id", String, func() { MaxLength(64) })
			Required("id")
		})
		Result(func() {
			Attribute("order", AdminOrder)
			Attribute("kind", String, "The order's kind (order.kind)", func() { Enum(OrderKinds...) })
			Attribute("items", ArrayOf(AdminOrderItem), "What the order billed; the amounts sum to order.total")
			Attribute("refunded", Money, "All refunded on the order so far")
			Attribute("net", Money, "What the order kept: its total when paid, less what was refunded")
			Attribute("tax", AdminOrderTax, "The tax in its total; absent for an order without tax")
			Attribute("beforeTax", Money, "Its total without the tax; absent for an order without tax")
			Attribute("hold", AdminHold, "Why the fraud check held it; absent when it was never held")
			Attribute("lines", ArrayOf(AdminLine))
			Attribute("timeline", ArrayOf(AdminTimelineEvent))
			Required("order", "kind", "items", "refunded", "net", "lines", "timeline")
		})
		Error("not_found")
		HTTP(func() {
			GET("/{id}")
			adminCookie(false)
		})
	})
})
