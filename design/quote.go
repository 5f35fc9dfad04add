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
	// Checked by the service, not by a pattern: a bad code answers invalid_country, a name
	// clients translate, instead of Goa's invalid_pattern.
	Attribute("billingCountry", String, "The country of the buyer's billing address: an ISO 3166-1 alpha-2 code (DE), any case; default: the country of the caller's IP address. It picks the catalog's tax rate; another code answers 400 invalid_country", func() {
		Example("DE")
	})
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

// TaxResult is the tax in a total, at the rate of the buyer's billing country.
var TaxResult = Type("TaxResult", func() {
	Attribute("country", String, "The billing country taxed (ISO 3166-1 alpha-2): the buyer's, else the IP's, else the seller's; empty when none is known", func() { Example("DE") })
	Attribute("rate", String, "Percent, as the catalog's tax block writes it; \"0\" for a country it names no rate for", func() { Example("19") })
	Attribute("amount", Int64, "Minor units of currency: the tax in total", func() { Example(958) })
	Attribute("currency", String, func() { Example("EUR") })
	Attribute("pricesIncludeTax", Boolean, "true: the catalog's prices include the tax (the total is the prices'); false: it is added on top")
	Attribute("ipCountry", String, "The country of the buyer's IP address, the default billing country; empty when it is not known. When the billing country differs, POST /orders asks for confirmCountry", func() { Example("DE") })
	Required("country", "rate", "amount", "currency", "pricesIncludeTax", "ipCountry")
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
	Attribute("total", Money, "What the buyer pays: after the discount, tax included")
	Attribute("recurring", RecurringResult, "What renews, and for how much, until the buyer cancels; null for a one-time plan, a free trial and a reseller credit plan", func() {
		Meta("struct:tag:json", "recurring") // always present, null when nothing renews
	})
	Attribute("net", Money, "The total without tax; the total itself when the catalog has no tax block")
	Attribute("tax", TaxResult, "The tax in the total; null when the catalog has no tax block", func() {
		Meta("struct:tag:json", "tax") // always present, null without a tax block
	})
	Required("pid", "billingCycle", "currency", "extraConnections", "proxyProtection", "lines", "subtotal", "total", "net")
})

var _ = Service("pricing", func() {
	Description("Server-side prices: the only place a total is computed.")
	Error("not_found")
	Error("bad_request")
	Error("not_applicable", ErrorResult, "The promo code does not apply to this product.")
	Error("invalid_country", ErrorResult, "billingCountry is not an ISO 3166-1 alpha-2 country code.")
	HTTP(func() {
		Response("not_applicable", StatusUnprocessableEntity)
		Response("invalid_country", StatusBadRequest)
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
