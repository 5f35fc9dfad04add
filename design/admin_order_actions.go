package design

import . "goa.design/goa/v3/dsl"

var AdminRefund = Type("AdminRefund", func() {
	Attribute("orderId", String)
	Attribute("amount", Money, "What this refund gave back")
	Attribute("method", String, "How the money went back: the gateway's refund API, or manual (crypto: the operator pays it out)", func() {
		Enum("stripe", "sandbox", "manual")
	})
	Attribute("reference", String, "The gateway's refund id; empty for a manual refund")
	Attribute("reason", String)
	Attribute("note", String, "For a manual refund: what the operator still has to do")
	Attribute("operator", String, "Who refunded")
	Attribute("createdAt", String, "RFC 3339")
	Attribute("tax", Money, "The tax it gave back: its credit note's, in proportion to the order's (listed refunds of a taxed order only)")
	Required("orderId", "amount", "method", "reference", "reason", "note", "operator", "createdAt")
})

// orderAction is the payload of an action on one order.
func orderAction() {
	operatorSession()
	csrfAttr()
	Attribute("id", String, func() { MaxLength(64) })
	Required("id")
}

var _ = Service("adminOrderActions", func() {
	Description("The console's actions on one order: approving or rejecting an order held by the fraud check, and refunds (owner).")
	HTTP(func() { Path("/admin/orders") })
	Error("unauthorized")
	Error("forbidden")
	Error("invalid_csrf_token")
	Error("not_found")

	Method("approve", func() {
		Description("An order held by the fraud check (status fraud) released. mode request-payment (the default; support or owner): the order is pending again with a fresh payment deadline (24 h) and payment link, and the buyer is mailed the pay link in their locale. mode provision (owner only): its lines are provisioned now without payment, audited as \"provisioned unpaid\". Concurrent approvals apply once: the others answer conflict.")
		Payload(func() {
			orderAction()
			Attribute("mode", String, "request-payment: ask the buyer to pay; provision: set the lines up unpaid (owner)", func() {
				Enum("request-payment", "provision")
				Default("request-payment")
			})
		})
		Result(AdminOrder)
		Error("conflict")    // not held
		Error("unavailable") // the gateway could not make a payment link
		HTTP(func() {
			POST("/{id}/approve")
			adminCookie(true)
		})
	})
	Method("reject", func() {
		Description("An order held by the fraud check cancelled; what was paid is refunded in full (through the gateway, or recorded as manual for crypto).")
		Payload(func() {
			orderAction()
			Attribute("reason", String, func() { MaxLength(500) })
		})
		Result(func() {
			Attribute("order", AdminOrder)
			Attribute("refund", AdminRefund, "Absent when nothing was paid")
			Required("order")
		})
		Error("conflict") // not held
		Error("unavailable")
		HTTP(func() {
			POST("/{id}/reject")
			adminCookie(true)
		})
	})
	Method("refund", func() {
		Description("Refunds a paid order, in full (no amount) or in part: Stripe and the sandbox through their refund API at once, crypto recorded as a manual refund with a note. The buyer is mailed the refund in their locale. An Idempotency-Key makes the refund once: the same key on the order again answers the refund it made (replayed), whatever the number of concurrent calls; with another amount or reason it is idempotency_mismatch. The order becomes partially_refunded or refunded. A full refund takes back what the order gave unless keepLine: a plan order's lines are disabled and cancelled; a renewal's period comes off the line it renewed (due and expiring when it was before, suspended at once when that is past, an invoice already sent for the next period cancelled); an upsell's connections come off its line; a reseller plan's credits come off the account (those not spent) and its service is cancelled.")
		Payload(func() {
			orderAction()
			Attribute("amount", Int64, "Minor units of the order's currency; absent: all that is left", func() { Minimum(1) })
			Attribute("reason", String, func() { MinLength(1); MaxLength(500) })
			Attribute("keepLine", Boolean, "On a full refund, leave the lines running (a renewal's period, an upsell's connections) as they are", func() { Default(false) })
			Attribute("idempotencyKey", String, "One per confirmation dialog: a second submission with it refunds nothing more", func() { MinLength(1); MaxLength(255) })
			Required("reason")
		})
		Result(func() {
			Attribute("order", AdminOrder)
			Attribute("refund", AdminRefund)
			Attribute("refunded", Money, "All refunded on this order so far")
			Attribute("replayed", Boolean, "True when the Idempotency-Key had made this refund already: nothing more was refunded")
			Required("order", "refund", "refunded", "replayed")
		})
		Error("bad_request") // more than is left
		Error("conflict")    // not paid, or all refunded already
		Error("unavailable") // the gateway refused or is down
		Error("idempotency_mismatch", ErrorResult, "The Idempotency-Key made a refund of another amount or reason on this order.")
		HTTP(func() {
			POST("/{id}/refund")
			adminCookie(true)
			Header("idempotencyKey:Idempotency-Key")
			Response("idempotency_mismatch", StatusUnprocessableEntity)
		})
	})
	Method("refunds", func() {
		Description("The refunds of an order, oldest first.")
		Payload(func() {
			operatorSession()
			Attribute("id", String, func() { MaxLength(64) })
			Required("id")
		})
		Result(func() {
			Attribute("refunds", ArrayOf(AdminRefund))
			Attribute("refunded", Money)
			Required("refunds", "refunded")
		})
		HTTP(func() {
			GET("/{id}/refunds")
			adminCookie(false)
		})
	})
})
