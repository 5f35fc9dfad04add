// Package design is the single source of truth for Streamcart's HTTP API: `goa gen` turns it into
// gen/ (server, client, OpenAPI). Every path lives under /checkout/api; money is always integer
// minor units with an ISO currency; errors carry a stable name that clients use as a translation key.
package design

import (
	. "goa.design/goa/v3/dsl"
)

var _ = API("streamcart", func() {
	Title("Streamcart checkout API")
	Description("Catalog, pricing, promotions, sessions, orders, payments and provisioning for streaming-subscription checkouts.")
	Version("1.0")
	// Goa's random examples are lorem ipsum that typed clients and readers take for real values:
	// the document shows only the Example()s the design gives.
	Meta("openapi:example", "false")
	License(func() {
		Name("Apache-2.0")
		URL("https://www.apache.org/licenses/LICENSE-2.0")
	})
	Server("streamcart", func() {
		Host("localhost", func() { URI("http://localhost:8080") })
	})
	HTTP(func() {
		Path("/checkout/api")
		Consumes("application/json")
		Produces("application/json")
	})

	// Shared errors: every service refers to them by name; the HTTP status is fixed here once.
	Error("not_found", ErrorResult, "The resource does not exist or is not yours.")
	Error("bad_request", ErrorResult, "The request is malformed or names an unknown option.")
	Error("unauthorized", ErrorResult, "The session token is missing, invalid or expired.")
	Error("conflict", ErrorResult, "The resource is not in a state that allows this action.")
	Error("unavailable", ErrorResult, "A dependency is temporarily unavailable; retry later.")
	Error("forbidden", ErrorResult, "The operator's role does not allow this action.")
	Error("invalid_csrf_token", ErrorResult, "A change to the console without the session's X-CSRF-Token header, or with another one.")
	HTTP(func() {
		Response("not_found", StatusNotFound)
		Response("bad_request", StatusBadRequest)
		Response("unauthorized", StatusUnauthorized)
		Response("conflict", StatusConflict)
		Response("unavailable", StatusServiceUnavailable)
		Response("forbidden", StatusForbidden)
		Response("invalid_csrf_token", StatusForbidden)
	})
})

// SessionAuth is the Bearer token returned by POST /session. It is an HMAC-signed token, not a JWT,
// but travels the same way: "Authorization: Bearer <token>".
var SessionAuth = JWTSecurity("session", func() {
	Description("Bearer token from POST /checkout/api/session.")
})

// operatorSession adds the console operator's session to a payload: the streamcart_admin cookie
// set by POST /admin/session (HttpOnly, SameSite=Strict, Secure on an https shop). Goa 3.25 maps
// security keys to headers, query or body only, so the cookie is a plain attribute that every
// admin method checks first (api/httpapi/admin.go); optional, so that a missing cookie answers
// 401 unauthorized. A client's Bearer token is never read by the admin services.
func operatorSession() {
	Attribute("session", String, "Console session (the streamcart_admin cookie)", func() { MaxLength(128) })
}

// csrfAttr adds the CSRF header every change in the console carries.
func csrfAttr() {
	Attribute("csrfToken", String, "The csrfToken of POST /admin/session; required on every change")
}

// adminCookie maps the console cookie (and, on a change, the CSRF header) of a request.
func adminCookie(change bool) {
	Cookie("session:streamcart_admin")
	if change {
		Header("csrfToken:X-CSRF-Token")
	}
}

// Money is an exact amount: integer minor units (cents) and an ISO 4217 code.
var Money = Type("Money", func() {
	Attribute("amount", Int64, "Amount in minor units (e.g. cents)", func() { Example(1299) })
	Attribute("currency", String, "ISO 4217 currency code", func() { Example("EUR") })
	Required("amount", "currency")
})

// Cycles are the WHMCS billing cycles.
var Cycles = []any{"monthly", "quarterly", "semiannually", "annually", "biennially", "triennially", "onetime"}

// tokenAttr adds the Bearer token to a payload. It is optional in the payload so that a missing
// header reaches the authenticator and answers 401 unauthorized, not 400 missing_field.
func tokenAttr() {
	Token("token", String, "Session token")
}

// bearer maps the token to the Authorization header (Goa strips the "Bearer " prefix).
func bearer() {
	Header("token:Authorization")
}
