package design

import . "goa.design/goa/v3/dsl"

var UpsellOffer = Type("UpsellOffer", func() {
	Description("An active service that can take more connections.")
	Attribute("serviceId", String)
	Attribute("name", String)
	Attribute("pid", Int)
	Attribute("billingCycle", String, "The service's billing cycle")
	Attribute("pricingCycle", String, "The cycle the extra connections are priced at: One Time maps to monthly")
	Attribute("maxConnections", Int, "Connections the service has now")
	Attribute("maxExtra", Int, "How many more connections it can take")
	Attribute("unitPrice", Money, "Price of one extra connection")
	Required("serviceId", "name", "pid", "billingCycle", "pricingCycle", "maxConnections", "maxExtra", "unitPrice")
})

var UpsellQuote = Type("UpsellQuote", func() {
	Attribute("serviceId", String)
	Attribute("extraQuantity", Int)
	Attribute("pricingCycle", String)
	Attribute("unitPrice", Money)
	Attribute("total", Money)
	Attribute("maxConnections", Int, "Connections the service will have once paid")
	Attribute("net", Money, "The total without tax (the total without a tax block)")
	Attribute("tax", TaxResult, "The tax in the total, in the country the line's first order was taxed in; absent without a tax block")
	Required("serviceId", "extraQuantity", "pricingCycle", "unitPrice", "total", "maxConnections")
})

var UpsellOrderResult = Type("UpsellOrderResult", func() {
	Attribute("orderId", String)
	Attribute("invoiceId", String)
	Attribute("serviceId", String)
	Attribute("extraQuantity", Int)
	Attribute("status", String, func() { Enum(OrderStatuses...) })
	Attribute("fraud", Boolean)
	Attribute("total", Money)
	Attribute("net", Money, "The total without tax (the total without a tax block)")
	Attribute("tax", TaxResult, "The tax in the total, in the country the line's first order was taxed in; absent without a tax block")
	Attribute("paymentUrl", String, "Where the buyer pays; empty when nothing is due")
	Attribute("paymentDeadline", String, "RFC 3339; empty when nothing is due")
	Required("orderId", "invoiceId", "serviceId", "extraQuantity", "status", "fraud", "total", "paymentUrl", "paymentDeadline")
})

// upsellRequest is the body of a quote or an order for extra connections.
func upsellRequest() {
	tokenAttr()
	Attribute("serviceId", String, func() { MaxLength(64) })
	Attribute("extraQuantity", Int, "Connections to add", func() { Minimum(1); Default(1) })
	Attribute("currency", String, "ISO code; the currency the service was bought in when absent", func() { MaxLength(3) })
	Required("serviceId", "extraQuantity")
}

// upsellErrors are the errors of pricing extra connections for one service, its quote's and its
// order's; each method's HTTP block answers service_not_active with 409.
func upsellErrors() {
	Error("not_found")
	Error("conflict") // no more connections possible
	Error("service_not_active", ErrorResult, "The line is not active (pending, suspended, cancelled or terminated): it cannot take more connections.")
}

var _ = Service("upsell", func() {
	Description("Extra connections for an active service, priced by the server for the service's billing cycle; proven sessions only.")
	Security(SessionAuth)
	// Every method checks the token and may name an unknown currency; the other errors are the
	// quote's and the order's (api/httpapi/upsell.go).
	Error("unauthorized")
	Error("bad_request")

	Method("offers", func() {
		Payload(func() {
			tokenAttr()
			Attribute("currency", String, func() { MaxLength(3) })
			localeParam()
		})
		Result(func() {
			Attribute("offers", ArrayOf(UpsellOffer))
			Required("offers")
		})
		HTTP(func() {
			GET("/upsell/offers")
			bearer()
			Param("currency")
			Param("locale")
		})
	})
	Method("quote", func() {
		Payload(upsellRequest)
		Result(UpsellQuote)
		upsellErrors()
		HTTP(func() {
			POST("/upsell/quote")
			bearer()
			Response("service_not_active", StatusConflict)
		})
	})
	Method("order", func() {
		Description("An order for extra connections with its own invoice; once paid, a job raises the line's max connections exactly once.")
		Payload(func() {
			upsellRequest()
			Attribute("idempotencyKey", String, "The same key and body give back the same order", func() { MinLength(1); MaxLength(255) })
			Attribute("gateway", String, "Payment gateway module; the default when absent")
			Attribute("returnUrl", String, "Where the payment page sends the buyer back: a path or a same-origin URL", func() { MaxLength(2048) })
		})
		Result(UpsellOrderResult)
		upsellErrors()
		Error("unavailable")
		Error("idempotency_mismatch", ErrorResult, "The Idempotency-Key was already used with another request body.")
		HTTP(func() {
			POST("/upsell/orders")
			bearer()
			Header("idempotencyKey:Idempotency-Key")
			Response(StatusCreated)
			Response("idempotency_mismatch", StatusUnprocessableEntity)
			Response("service_not_active", StatusConflict)
		})
	})
})
