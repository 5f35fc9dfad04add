package design

import . "goa.design/goa/v3/dsl"

var AdminMail = Type("AdminMail", func() {
	Attribute("id", Int64)
	Attribute("to", String)
	Attribute("subject", String)
	Attribute("status", String, "queued, sent, failed, …")
	Attribute("attempts", Int)
	Attribute("lastError", String)
	Attribute("createdAt", String, "RFC 3339")
	Attribute("sentAt", String, "RFC 3339; empty until sent")
	Required("id", "to", "subject", "status", "attempts", "lastError", "createdAt", "sentAt")
})

var _ = Service("adminMail", func() {
	Description("The console's outbox: the messages, and sending one again.")
	HTTP(func() { Path("/admin/mail") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Messages, newest first, paged: pass nextCursor back as cursor; it is empty on the last page.")
		Payload(func() {
			operatorSession()
			Attribute("status", String, func() { MaxLength(32) })
			Attribute("q", String, "The recipient, whole or its beginning", func() { MaxLength(254) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("mails", ArrayOf(AdminMail))
			Attribute("nextCursor", String, "Empty on the last page")
			Required("mails", "nextCursor")
		})
		Error("bad_request") // a bad cursor
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("status")
			Param("q")
			Param("limit")
			Param("cursor")
		})
	})
	Method("resend", func() {
		Description("Queues a stored message to be sent again now (support, owner).")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("id", Int64)
			Required("id")
		})
		Result(AdminMail)
		Error("not_found")
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/resend")
			adminCookie(true)
		})
	})
})
