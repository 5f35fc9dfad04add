package design

import . "goa.design/goa/v3/dsl"

var AdminPayment = Type("AdminPayment", func() {
	Description("Money that arrived but could not settle its order: the owner refunds or accepts it.")
	Attribute("id", String)
	Attribute("orderId", String)
	Attribute("provider", String, "The gateway that took it: stripe, sandbox, coinbase, cryptomus")
	Attribute("transactionId", String, "The provider's payment, as the shop records it (provider:id)")
	Attribute("amount", Int64, "What arrived, in minor units of currency")
	Attribute("currency", String, "The currency it arrived in (USDC for Coinbase)")
	Attribute("expected", Money, "What the order (or the provider's payment page) asked")
	Attribute("reason", String, "Why it could not settle", func() {
		Enum("short", "over", "currency", "cancelled", "expired", "held", "failed", "already_paid", "in_review", "line_gone")
	})
	Attribute("state", String, "review: to decide; refunded: given back; accepted: taken as payment of the order", func() {
		Enum("review", "refunded", "accepted")
	})
	Attribute("refundable", Boolean, "The provider refunds through its API; false: crypto, refunded by hand with a reference")
	Attribute("refundId", String, "The provider's refund; empty until refunded through it")
	Attribute("reference", String, "The transaction of a refund made by hand")
	Attribute("refundError", String, "Why the last refund through the provider failed")
	Attribute("decidedBy", String, "The operator who refunded or accepted it; empty for an automatic refund")
	Attribute("createdAt", String, "RFC 3339")
	Required("id", "orderId", "provider", "transactionId", "amount", "currency", "expected", "reason", "state", "refundable",
		"refundId", "reference", "refundError", "decidedBy", "createdAt")
})

// paymentAction is the payload of an action on one payment to review.
func paymentAction() {
	operatorSession()
	csrfAttr()
	Attribute("id", String, func() { MaxLength(64) })
	Required("id")
}

var _ = Service("adminPayments", func() {
	Description("Payments to review: money that arrived short, over, in another currency or for an order that could not take it. The owner refunds or accepts each, once.")
	HTTP(func() { Path("/admin/payments") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Payments in a state (review by default), newest first.")
		Payload(func() {
			operatorSession()
			Attribute("state", String, func() { Enum("review", "refunded", "accepted"); Default("review") })
			Attribute("limit", Int, func() { Minimum(1); Maximum(500); Default(100) })
		})
		Result(func() {
			Attribute("payments", ArrayOf(AdminPayment))
			Required("payments")
		})
		Error("bad_request")
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("state")
			Param("limit")
		})
	})
	Method("refund", func() {
		Description("Gives the payment back in full, once: through the provider's refund API where it has one (Stripe, the sandbox), else (Coinbase, Cryptomus) marked refunded by hand, which needs the transaction reference of that refund. Another refund or accept of the same payment, before or at the same time, is 409 conflict.")
		Payload(func() {
			paymentAction()
			Attribute("reference", String, "The transaction of the refund made by hand (required for crypto)", func() { MaxLength(200) })
		})
		Result(AdminPayment)
		Error("not_found")
		Error("conflict")
		Error("reference_required", ErrorResult, "A payment its provider cannot refund is marked refunded only with the reference of the refund made by hand.")
		Error("unavailable") // the provider refused or is down: still to review
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/refund")
			adminCookie(true)
			Response("reference_required", StatusBadRequest)
		})
	})
	Method("accept", func() {
		Description("Takes the payment as payment of its order, once: the invoice is paid by it (keeping its own amount and currency: the seller takes what arrived as full payment), the order paid and provisioned as usual. 409 conflict when decided already, being refunded, or the order is paid already.")
		Payload(paymentAction)
		Result(func() {
			Attribute("payment", AdminPayment)
			Attribute("order", AdminOrder)
			Required("payment", "order")
		})
		Error("not_found")
		Error("conflict")
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/accept")
			adminCookie(true)
		})
	})
})
