package design

import . "goa.design/goa/v3/dsl"

var ResellerOrderResult = Type("ResellerOrderResult", func() {
	Attribute("orderId", String)
	Attribute("invoiceId", String)
	Attribute("serviceId", String, "The reseller plan's service: GET /resellers/services/{serviceId}")
	Attribute("serviceIds", ArrayOf(String))
	Attribute("status", String, func() { Enum(OrderStatuses...) })
	Attribute("fraud", Boolean)
	Attribute("total", Money)
	Attribute("paymentUrl", String, "Where the buyer pays; empty when nothing is due")
	Attribute("paymentDeadline", String, "RFC 3339; empty when nothing is due")
	Attribute("session", SessionResult, "The caller's own session, unchanged (same token and scope): the order's password proves nothing about the email")
	Required("orderId", "invoiceId", "serviceId", "serviceIds", "status", "fraud", "total", "paymentUrl", "paymentDeadline", "session")
})

var ResellerServiceResult = Type("ResellerServiceResult", func() {
	Attribute("serviceId", String)
	Attribute("orderId", String)
	Attribute("pid", Int)
	Attribute("name", String)
	Attribute("status", String, func() { Enum("Pending", "Active", "Overdue", "Suspended", "Cancelled", "Terminated", "Expired") })
	Attribute("credits", Int, "Credits this plan grants")
	Attribute("balance", Int, "The reseller account's credits now; 0 until paid")
	Attribute("account", String, "The reseller account on the panel; empty until paid")
	Required("serviceId", "orderId", "pid", "name", "status", "credits", "balance", "account")
})

var _ = Service("resellers", func() {
	Description("Reseller credit plans: buy one, and the panel's reseller account is created or credited once paid.")
	Security(SessionAuth)
	// Every method checks the token; the other errors are each method's (api/httpapi/reseller.go).
	Error("unauthorized")

	Method("me", func() {
		Payload(func() { tokenAttr() })
		Result(func() {
			Attribute("isReseller", Boolean)
			Attribute("balance", Int, "Credits of the reseller account; 0 when none")
			Required("isReseller", "balance")
		})
		HTTP(func() {
			GET("/resellers/me")
			bearer()
		})
	})
	Method("order", func() {
		Description("Orders a reseller plan at its monthly price. A new reseller also buys the new-reseller product unless existingReseller is true. The password (and its confirmation) is the reseller panel account's password, set when this order creates the account; it is never the shop sign-in password. Everything is checked before anything is stored.")
		Payload(func() {
			tokenAttr()
			Attribute("pid", Int, "A reseller plan")
			Attribute("idempotencyKey", String, "The same key and body give back the same order", func() { MinLength(1); MaxLength(255) })
			Attribute("gateway", String, "Payment gateway module; the default when absent")
			Attribute("existingReseller", Boolean, func() { Default(false) })
			Attribute("password", String, "The reseller panel account's password: 8 characters to 72 bytes", func() { MaxLength(256) })
			Attribute("confirmPassword", String, "The same password again", func() { MaxLength(256) })
			Attribute("currency", String, func() { MaxLength(3) })
			Attribute("returnUrl", String, "Where the payment page sends the buyer back; /checkout/resellers/waiting?order={orderId} when absent", func() { MaxLength(2048) })
			Required("pid", "password", "confirmPassword")
		})
		Result(ResellerOrderResult)
		Error("not_found")
		Error("bad_request")
		Error("unavailable")
		Error("password_mismatch", ErrorResult, "The password and its confirmation differ.")
		Error("weak_password", ErrorResult, "The password is too short.")
		Error("idempotency_mismatch", ErrorResult, "The Idempotency-Key was already used with another request body.")
		Error("price_changed", PriceChanged, "WHMCS mode: the seller's WHMCS invoices the plan at another total than the quote (its order was cancelled there); the body holds the fresh quote at WHMCS's total; nothing was stored or charged.")
		HTTP(func() {
			POST("/resellers/orders")
			bearer()
			Header("idempotencyKey:Idempotency-Key")
			Response(StatusCreated)
			Response("idempotency_mismatch", StatusUnprocessableEntity)
			Response("password_mismatch", StatusUnprocessableEntity)
			Response("weak_password", StatusBadRequest)
			Response("price_changed", StatusConflict)
		})
	})
	Method("getService", func() {
		Description("A reseller plan's service, with the reseller account's credits.")
		Payload(serviceIDPayload)
		Result(ResellerServiceResult)
		Error("not_found")
		HTTP(func() {
			GET("/resellers/services/{serviceId}")
			Param("locale")
			bearer()
		})
	})
})
