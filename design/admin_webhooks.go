package design

import . "goa.design/goa/v3/dsl"

var AdminWebhook = Type("AdminWebhook", func() {
	Attribute("id", Int64)
	Attribute("provider", String, "stripe, coinbase, btcpay, …")
	Attribute("eventId", String)
	Attribute("receivedAt", String, "RFC 3339")
	Attribute("processedAt", String, "RFC 3339; empty while pending")
	Attribute("outcome", String, "pending, or what processing gave (ok, ignored, failed, …)")
	Attribute("detail", String, "What the outcome said beyond its word")
	Attribute("body", String, "The event as the provider sent it")
	Required("id", "provider", "eventId", "receivedAt", "processedAt", "outcome", "detail", "body")
})

var _ = Service("adminWebhooks", func() {
	Description("The console's stored provider events.")
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Stored events, newest first, paged. outcome matches the outcome's first word (pending: not processed yet).")
		Payload(func() {
			operatorSession()
			Attribute("provider", String, func() { MaxLength(32) })
			Attribute("outcome", String, func() { MaxLength(32) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("webhooks", ArrayOf(AdminWebhook))
			Attribute("nextCursor", String, "Empty on the last page")
			Required("webhooks", "nextCursor")
		})
		Error("bad_request")
		HTTP(func() {
			GET("/admin/webhooks")
			adminCookie(false)
			Param("provider")
			Param("outcome")
			Param("limit")
			Param("cursor")
		})
	})
})
