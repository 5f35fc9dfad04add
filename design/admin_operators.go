package design

import . "goa.design/goa/v3/dsl"

var AdminOperator = Type("AdminOperator", func() {
	Attribute("email", String)
	Attribute("role", String, func() { Enum("owner", "support", "viewer") })
	Attribute("status", String, "pending until set up, then active; disabled", func() { Enum("pending", "active", "disabled") })
	Attribute("createdAt", String, "RFC 3339")
	Attribute("disabledAt", String, "RFC 3339; empty unless disabled")
	Required("email", "role", "status", "createdAt", "disabledAt")
})

var _ = Service("adminOperators", func() {
	Description("The console's operators: list (any role), invite and disable (owner).")
	HTTP(func() { Path("/admin/operators") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Every operator, disabled ones included.")
		Payload(func() { operatorSession() })
		Result(func() {
			Attribute("operators", ArrayOf(AdminOperator))
			Required("operators")
		})
		HTTP(func() {
			GET("")
			adminCookie(false)
		})
	})
	Method("invite", func() {
		Description("Adds an operator and returns its one-time setup link (24 h), as `streamcart operator add` does.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("email", String, func() { MaxLength(254) })
			Attribute("role", String, func() { Enum("owner", "support", "viewer") })
			Required("email", "role")
		})
		Result(func() {
			Attribute("operator", AdminOperator)
			Attribute("setupUrl", String, "/checkout/admin/setup?token=… on the shop's public URL")
			Attribute("expiresAt", String, "RFC 3339")
			Required("operator", "setupUrl", "expiresAt")
		})
		Error("bad_request")
		Error("conflict") // an active or disabled operator has the email
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("")
			adminCookie(true)
			Response(StatusCreated)
		})
	})
	Method("disable", func() {
		Description("Stops an operator signing in and ends its sessions at once. An owner cannot disable itself.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("email", String, func() { MaxLength(254) })
			Required("email")
		})
		Result(AdminOperator)
		Error("not_found")
		Error("conflict") // itself
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{email}/disable")
			adminCookie(true)
		})
	})
})
