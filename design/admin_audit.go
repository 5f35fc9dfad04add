package design

import . "goa.design/goa/v3/dsl"

var AdminAuditEntry = Type("AdminAuditEntry", func() {
	Attribute("id", Int64)
	Attribute("at", String, "RFC 3339")
	Attribute("operator", String, "The operator who acted; empty for a customer's own action")
	Attribute("customerId", String, "The customer who acted (usr_…); empty for an operator")
	Attribute("action", String)
	Attribute("target", String, "What it acted on: a service id, an order id, job:…, operator:…")
	Attribute("result", String, func() { Enum("ok", "failed") })
	Attribute("detail", String, "The new value, or why it failed (a refused sign-in: unknown_email, not_set_up, disabled, bad_password, bad_code, replayed_code, sealed_secret or throttled)")
	Attribute("ip", String, "The client address of a console sign-in, refused (console-signin-failed) or not (console-signin); empty otherwise")
	Attribute("args", ArrayOf(String), `The detail's parts when the server wrote it in English, so that a console words it in its operator's language (detail stays as written): the wording, then its values: payment-requested []; provisioned-unpaid []; refund [amount in minor units, currency, method, reason, "replayed" or ""]; version [catalog version, comment]; sessions [count]; signin-failed [reason]; empty for any other detail`)
	Required("id", "at", "operator", "customerId", "action", "target", "result", "detail", "ip", "args")
})

var _ = Service("adminAudit", func() {
	Description("The console's audit log: every customer and operator action.")
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Entries, newest first, paged: pass nextCursor back as cursor; it is empty on the last page.")
		Payload(func() {
			operatorSession()
			Attribute("operator", String, "Only this operator's actions", func() { MaxLength(254) })
			Attribute("action", String, func() { MaxLength(64) })
			Attribute("target", String, func() { MaxLength(128) })
			Attribute("ip", String, "Only entries from this client address (refused console sign-ins)", func() { MaxLength(64) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(500); Default(100) })
			Attribute("cursor", String, func() { MaxLength(200) })
		})
		Result(func() {
			Attribute("entries", ArrayOf(AdminAuditEntry))
			Attribute("nextCursor", String, "Empty on the last page")
			Required("entries", "nextCursor")
		})
		Error("bad_request")
		HTTP(func() {
			GET("/admin/audit")
			adminCookie(false)
			Param("operator")
			Param("action")
			Param("target")
			Param("ip")
			Param("limit")
			Param("cursor")
		})
	})
})
