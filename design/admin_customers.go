package design

import . "goa.design/goa/v3/dsl"

var AdminCustomer = Type("AdminCustomer", func() {
	Attribute("id", String, "The client's public id (usr_…)")
	Attribute("email", String)
	Attribute("createdAt", String, "RFC 3339")
	Attribute("orders", Int, "Orders placed")
	Attribute("activeLines", Int, "Lines Active or Overdue")
	Required("id", "email", "createdAt", "orders", "activeLines")
})

var AdminCustomerSession = Type("AdminCustomerSession", func() {
	Attribute("id", String, "The session's id")
	Attribute("scope", String, "email (identified) or proven (password or sign-in link)")
	Attribute("createdAt", String, "RFC 3339")
	Attribute("expiresAt", String, "RFC 3339")
	Required("id", "scope", "createdAt", "expiresAt")
})

// customerAction is the payload of an action on one customer.
func customerAction() {
	operatorSession()
	csrfAttr()
	Attribute("id", String, "usr_…", func() { MaxLength(64) })
	Required("id")
}

var _ = Service("adminCustomers", func() {
	Description("The console's customers: search, one customer with orders, lines and sessions, signing them out, sending a sign-in link.")
	HTTP(func() { Path("/admin/customers") })
	Error("unauthorized")
	Error("forbidden")
	Error("not_found")

	Method("list", func() {
		Description("Customers, newest first. q matches an email (whole or its beginning) or a client id.")
		Payload(func() {
			operatorSession()
			Attribute("q", String, func() { MaxLength(254) })
			Attribute("limit", Int, func() { Minimum(1); Maximum(200); Default(50) })
		})
		Result(func() {
			Attribute("customers", ArrayOf(AdminCustomer))
			Required("customers")
		})
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("q")
			Param("limit")
		})
	})
	Method("get", func() {
		Description("One customer: its orders (newest first), its lines (credentials masked for a viewer) and its live sessions.")
		Payload(func() {
			operatorSession()
			Attribute("id", String, func() { MaxLength(64) })
			Required("id")
		})
		Result(func() {
			Attribute("customer", AdminCustomer)
			Attribute("orders", ArrayOf(AdminOrder))
			Attribute("services", ArrayOf(AdminLine))
			Attribute("sessions", ArrayOf(AdminCustomerSession))
			Required("customer", "orders", "services", "sessions")
		})
		HTTP(func() {
			GET("/{id}")
			adminCookie(false)
		})
	})
	Method("signout", func() {
		Description("Ends every session of the customer at once, on every replica (support, owner).")
		Payload(customerAction)
		Result(func() {
			Attribute("sessionsEnded", Int, "Live sessions ended")
			Required("sessionsEnded")
		})
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/signout")
			adminCookie(true)
		})
	})
	Method("signinLink", func() {
		Description("Mails the customer a one-time sign-in link, as the shop's own sign-in does (support, owner).")
		Payload(customerAction)
		Result(func() {
			Attribute("sentTo", String, "The customer's email")
			Required("sentTo")
		})
		Error("invalid_csrf_token")
		Error("unavailable")
		HTTP(func() {
			POST("/{id}/signin-link")
			adminCookie(true)
		})
	})
})
