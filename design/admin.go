package design

import . "goa.design/goa/v3/dsl"

var AdminSessionResult = Type("AdminSessionResult", func() {
	Attribute("operator", String, "The operator's email", func() { Example("me@example.com") })
	Attribute("role", String, func() { Enum("owner", "support", "viewer") })
	Attribute("csrfToken", String, "Send it as X-CSRF-Token on every change")
	Attribute("expiresAt", String, "RFC 3339")
	Attribute("billing", String, "Who bills the lines (STREAMCART_BACKEND): builtin, this shop (lines are extended and changed here), or whmcs, the seller's WHMCS (its cron owns due dates and prices: extend and change answer 409 conflict)", func() {
		Enum("builtin", "whmcs")
	})
	Required("operator", "role", "csrfToken", "expiresAt", "billing")
})

var _ = Service("adminSession", func() {
	Description("Console operators: setting up an account from its one-time link (password and TOTP authenticator), and signing in and out. Operators are not clients: a client's Bearer token never opens the console.")
	HTTP(func() { Path("/admin") })

	Method("setup", func() {
		Description("Sets the password of the setup link's operator (at least 12 characters) and returns a fresh TOTP secret for an authenticator app. The operator is active only once setup/confirm sees one of its codes; until then setup may be called again.")
		Payload(func() {
			Attribute("token", String, "The token of the setup link", func() { MaxLength(128) })
			Attribute("password", String, func() { MaxLength(256) })
			Required("token", "password")
		})
		Result(func() {
			Attribute("totpSecret", String, "Base32 secret (RFC 6238: SHA-1, 6 digits, 30 s)")
			Attribute("otpauthUrl", String, "otpauth://totp/… for a QR code")
			Required("totpSecret", "otpauthUrl")
		})
		Error("invalid_setup_token", ErrorResult, "The setup link is unknown, used or expired (24 h).")
		Error("weak_password", ErrorResult, "The password is shorter than 12 characters.")
		Error("bad_request") // over 72 bytes
		HTTP(func() {
			POST("/setup")
			Response(StatusOK)
			Response("invalid_setup_token", StatusNotFound)
			Response("weak_password", StatusBadRequest)
		})
	})
	Method("confirmSetup", func() {
		Description("Proves the authenticator with a current code: the operator becomes active and the setup link is used up.")
		Payload(func() {
			Attribute("token", String, func() { MaxLength(128) })
			Attribute("otp", String, "6 digits", func() { MaxLength(16) })
			Required("token", "otp")
		})
		Error("invalid_setup_token", ErrorResult, "The setup link is unknown, used or expired (24 h).")
		Error("invalid_otp", ErrorResult, "The code is not the authenticator's current one.")
		Error("conflict") // no password set yet
		HTTP(func() {
			POST("/setup/confirm")
			Response(StatusNoContent)
			Response("invalid_setup_token", StatusNotFound)
			Response("invalid_otp", StatusBadRequest)
		})
	})
	Method("create", func() {
		Description("Signs an operator in with email, password and TOTP code: a 12-hour session in the streamcart_admin cookie (HttpOnly, SameSite=Strict, Secure on an https shop), and the CSRF token every change must carry. An address may try 10 times in 15 minutes (beyond: 429 too_many_attempts, nothing checked; a sign-in that succeeds gives its place back). An operator is never locked: after 5 refused sign-ins within 15 minutes, each further one doubles the time (from 1 s, at most 30 s) the server waits after the latest failure before it checks the next attempt, so the right password and code get in within 30 s whatever others try. Every refusal is in the audit log (console-signin-failed).")
		Payload(func() {
			Attribute("email", String, func() { MaxLength(254) })
			Attribute("password", String, func() { MaxLength(256) })
			Attribute("otp", String, func() { MaxLength(16) })
			Required("email", "password", "otp")
		})
		Result(func() {
			Extend(AdminSessionResult)
			Attribute("session", String, "The cookie's value")
			Required("session")
		})
		Error("invalid_credentials", ErrorResult, "Wrong email, password or code, or the operator is disabled or not set up.")
		Error("too_many_attempts", TooManyAttempts, "Ten sign-in attempts from this address in 15 minutes; wait Retry-After seconds.")
		Error("bad_request")
		HTTP(func() {
			POST("/session")
			Response(StatusCreated, func() {
				Cookie("session:streamcart_admin")
				CookieMaxAge(12 * 3600)
				CookiePath("/checkout/")
				CookieHTTPOnly()
				CookieSameSite(CookieSameSiteStrict)
			})
			Response("invalid_credentials", StatusUnauthorized)
			Response("too_many_attempts", StatusTooManyRequests, func() {
				Header("retryAfter:Retry-After")
			})
		})
	})
	Method("get", func() {
		Description("The signed-in operator, and the session's CSRF token again (a reloaded console page).")
		Payload(func() { operatorSession() })
		Result(AdminSessionResult)
		Error("unauthorized")
		HTTP(func() {
			GET("/session")
			adminCookie(false)
		})
	})
	Method("delete", func() {
		Description("Signs the operator out: the session stops working and the cookie is cleared.")
		Payload(func() {
			operatorSession()
			csrfAttr()
		})
		Result(func() {
			Attribute("session", String, "Empty: the cookie is cleared")
		})
		Error("unauthorized")
		Error("invalid_csrf_token")
		HTTP(func() {
			DELETE("/session")
			adminCookie(true)
			Response(StatusNoContent, func() {
				Cookie("session:streamcart_admin")
				CookieMaxAge(-1)
				CookiePath("/checkout/")
				CookieHTTPOnly()
				CookieSameSite(CookieSameSiteStrict)
			})
		})
	})
})
