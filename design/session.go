package design

import . "goa.design/goa/v3/dsl"

var SessionResult = Type("SessionResult", func() {
	Attribute("token", String, "Bearer token", func() {
		Example("eyJzIjoic2VzXzAxamQ4eDVrMm03dmQweHczaDl0Z3BhOGJuIn0.n4bQgVNqJHXWkV3Yk0m3X5xI0sT1m8F2aPq7cR9dE6w")
	})
	Attribute("userId", String, "The client's opaque public id (usr_ and 26 characters, random: neither ordered nor counting). Was the decimal database id before issue 12; compare it only for equality.", func() {
		Example("usr_5kq2m7vd0xw3h9tgpa8bn1cyfe")
	})
	Attribute("email", String, func() { Example("buyer@example.com") })
	Attribute("scope", String, "email: may buy and read this session's purchases; proven: all of the client's", func() {
		Enum("email", "proven")
	})
	Attribute("expiresAt", String, "RFC 3339", func() { Example("2026-12-23T20:28:46Z") })
	Required("token", "userId", "email", "scope", "expiresAt")
})

var TooManyAttempts = Type("TooManyAttempts", func() {
	Description("Too many password attempts for this email or from this address; nothing was checked.")
	ErrorName("name", String, "too_many_attempts")
	Attribute("message", String)
	Attribute("retryAfter", Int, "Seconds until an attempt may be made again (the Retry-After header)")
	Required("name", "message", "retryAfter")
})

var _ = Service("session", func() {
	Description("Identifies a buyer by email, and proves it with a password or a one-time sign-in link.")
	// Each method declares the errors its code path (api/httpapi/session.go) can return.

	Method("create", func() {
		Description("Opens a session. Without a password: an email-only session, the client created on first sight. With the client's password: a proven session. A password never creates a client or sets its password: an unknown email, a client without a password and a wrong password all answer the same 401 invalid_credentials, and create nothing. Password attempts are throttled per email and per address (429 too_many_attempts with Retry-After). In WHMCS mode (STREAMCART_BACKEND=whmcs) the password is the buyer's WHMCS password, checked by WHMCS (ValidateLogin) behind the same throttling; 503 unavailable when WHMCS cannot be reached.")
		Payload(func() {
			Attribute("email", String, func() { MaxLength(254); Example("buyer@example.com") })
			Attribute("password", String, func() { MaxLength(256) })
			Required("email")
		})
		Result(SessionResult)
		Error("bad_request") // a password over 72 bytes
		Error("invalid_email", ErrorResult, "The email does not look like an email address.")
		Error("invalid_credentials", ErrorResult, "Wrong email or password.")
		Error("too_many_attempts", TooManyAttempts, "At most 5 password attempts per email and 20 per address in 15 minutes; wait Retry-After seconds.")
		Error("unavailable") // WHMCS mode: the seller's WHMCS, which checks passwords (ValidateLogin), could not be reached
		HTTP(func() {
			POST("/session")
			Response(StatusCreated)
			Response("invalid_email", StatusBadRequest)
			Response("invalid_credentials", StatusUnauthorized)
			Response("too_many_attempts", StatusTooManyRequests, func() {
				Header("retryAfter:Retry-After")
			})
		})
	})
	Method("delete", func() {
		Description("Signs out: the token stops working.")
		Security(SessionAuth)
		Payload(func() {
			tokenAttr()
		})
		Error("unauthorized")
		HTTP(func() {
			DELETE("/session")
			bearer()
			Response(StatusNoContent)
		})
	})
	Method("requestLink", func() {
		Description("Emails a one-time sign-in link (15 minutes) to a known client. Always answers 202, known email or not, and silently sends nothing when asked too often.")
		Payload(func() {
			Attribute("email", String, func() { MaxLength(254); Example("buyer@example.com") })
			Attribute("returnUrl", String, "Page the link opens, with ?signin=<token> added: a path or a URL on this site; /checkout/ when absent", func() {
				MaxLength(2048)
			})
			Required("email")
		})
		Error("bad_request") // a return URL off this site
		Error("invalid_email", ErrorResult, "The email does not look like an email address.")
		HTTP(func() {
			POST("/session/link")
			Response(StatusAccepted)
			Response("invalid_email", StatusBadRequest)
		})
	})
	Method("redeemLink", func() {
		Description("Trades a sign-in link's token for a proven session. A token works once.")
		Payload(func() {
			Attribute("token", String, "The signin parameter of the emailed link", func() { MaxLength(256) })
			Required("token")
		})
		Result(SessionResult)
		Error("invalid_link", ErrorResult, "The sign-in link is unknown, used or expired.")
		HTTP(func() {
			POST("/session/link/{token}")
			Response(StatusCreated)
			Response("invalid_link", StatusUnauthorized)
		})
	})
	Method("setPassword", func() {
		Description("Sets the client's sign-in password; only a proven session (password or sign-in link) may. Every other session of the client is signed out; this one stays.")
		Security(SessionAuth)
		Payload(func() {
			tokenAttr()
			Attribute("password", String, "At least 8 characters", func() { MaxLength(256) })
			Required("password")
		})
		Error("bad_request")  // a password over 72 bytes
		Error("unauthorized") // also: the session is not proven
		Error("weak_password", ErrorResult, "The password is too short.")
		Error("conflict", ErrorResult, "Passwords are kept by another system (the seller's WHMCS): this shop does not set them; nothing was changed.")
		HTTP(func() {
			PUT("/session/password")
			bearer()
			Response(StatusNoContent)
			Response("weak_password", StatusBadRequest)
			Response("conflict", StatusConflict)
		})
	})
})
