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
	HTTP(func() {
		Response("not_found", StatusNotFound)
		Response("bad_request", StatusBadRequest)
		Response("unauthorized", StatusUnauthorized)
		Response("conflict", StatusConflict)
		Response("unavailable", StatusServiceUnavailable)
	})
})

// SessionAuth is the Bearer token returned by POST /session. It is an HMAC-signed token, not a JWT,
// but travels the same way: "Authorization: Bearer <token>".
var SessionAuth = JWTSecurity("session", func() {
	Description("Bearer token from POST /checkout/api/session.")
})

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
