package design

import . "goa.design/goa/v3/dsl"

// QuoteRequest is what a buyer chose; the server prices it.
var QuoteRequest = Type("QuoteRequest", func() {
	Attribute("pid", Int, "Product id", func() { Example(2) })
	Attribute("billingCycle", String, func() { Enum(Cycles...); Example("monthly") })
	Attribute("currency", String, "Defaults to the catalog's default currency", func() { Pattern("^[A-Za-z]{3}$") })
	Attribute("extraConnections", Int, "Number of extra connections beyond the included one (0 = none)", func() {
		Minimum(0)
		Maximum(100)
		Default(0)
	})
	Attribute("proxyProtection", Boolean, func() { Default(false) })
	Attribute("promoCode", String, func() { MaxLength(64) })
	Required("pid", "billingCycle")
})

var QuoteLine = Type("QuoteLine", func() {
	Attribute("key", String, "plan, extraConnections or proxyProtection")
	Attribute("label", String)
	Attribute("amount", Money)
	Required("key", "label", "amount")
})

var DiscountResult = Type("DiscountResult", func() {
	Attribute("code", String)
	Attribute("type", String)
	Attribute("value", String)
	Attribute("amount", Money, "Amount taken off the subtotal")
	Required("code", "type", "value", "amount")
})

// RecurringResult is what renews after the period paid now: the price of each next period.
var RecurringResult = Type("RecurringResult", func() {
	Attribute("amount", Int64, "Minor units of currency (cents): each next period's price at today's catalog prices, the promotion included only when it is recurring", func() { Example(6099) })
	Attribute("currency", String, func() { Example("EUR") })
	Attribute("billingCycle", String, "How often it renews", func() { Enum(Cycles...); Example("quarterly") })
	Required("amount", "currency", "billingCycle")
})

var QuoteResult = Type("QuoteResult", func() {
	Attribute("pid", Int)
	Attribute("billingCycle", String)
	Attribute("currency", String)
	Attribute("extraConnections", Int)
	Attribute("proxyProtection", Boolean)
	Attribute("lines", ArrayOf(QuoteLine))
	Attribute("subtotal", Money)
	Attribute("discount", DiscountResult, "null when no promo code applies", func() {
		Meta("struct:tag:json", "discount") // always present, null when absent
	})
	Attribute("total", Money)
	Attribute("recurring", RecurringResult, "What renews, and for how much, until the buyer cancels; null for a one-time plan, a free trial and a reseller credit plan", func() {
		Meta("struct:tag:json", "recurring") // always present, null when nothing renews
	})
	Required("pid", "billingCycle", "currency", "extraConnections", "proxyProtection", "lines", "subtotal", "total")
})

var _ = Service("pricing", func() {
	Description("Server-side prices: the only place a total is computed.")
	Error("not_found")
	Error("bad_request")
	Error("not_applicable", ErrorResult, "The promo code does not apply to this product.")
	HTTP(func() {
		Response("not_applicable", StatusUnprocessableEntity)
	})

	Method("quote", func() {
		Payload(QuoteRequest)
		Result(QuoteResult)
		HTTP(func() {
			POST("/quote")
			Response(StatusOK)
		})
	})
})
