package design

import . "goa.design/goa/v3/dsl"

var SessionResult = Type("SessionResult", func() {
	Attribute("token", String, "Bearer token")
	Attribute("userId", String, "Client id")
	Attribute("email", String)
	Attribute("scope", String, "email: may buy and read this session's purchases; proven: all of the client's", func() {
		Enum("email", "proven")
	})
	Attribute("expiresAt", String, "RFC 3339")
	Required("token", "userId", "email", "scope", "expiresAt")
})

var _ = Service("session", func() {
	Description("Identifies a buyer by email (and optionally proves it with a password).")
	Error("bad_request")
	Error("unauthorized")
	Error("invalid_email", ErrorResult, "The email does not look like an email address.")
	Error("invalid_credentials", ErrorResult, "Wrong email or password.")
	HTTP(func() {
		Response("invalid_email", StatusBadRequest)
		Response("invalid_credentials", StatusUnauthorized)
	})

	Method("create", func() {
		Payload(func() {
			Attribute("email", String, func() { MaxLength(254); Example("buyer@example.com") })
			Attribute("password", String, func() { MaxLength(256) })
			Required("email")
		})
		Result(SessionResult)
		HTTP(func() {
			POST("/session")
			Response(StatusCreated)
		})
	})
	Method("delete", func() {
		Description("Signs out: the token stops working.")
		Security(SessionAuth)
		Payload(func() {
			tokenAttr()
		})
		HTTP(func() {
			DELETE("/session")
			bearer()
			Response(StatusNoContent)
		})
	})
})
