package design

import . "goa.design/goa/v3/dsl"

var AdminPromotion = Type("AdminPromotion", func() {
	Attribute("code", String)
	Attribute("type", String, func() { Enum("Percentage", "Fixed Amount") })
	Attribute("value", String, "Percent, or an amount in the catalog's default currency (\"5.00\")")
	Attribute("amount", Money, "A Fixed Amount promotion's value in minor units and the catalog's default currency, so that a console formats it as all money; absent for a percentage")
	Attribute("appliesTo", ArrayOf(Int), "Product ids (pids) the code is valid for")
	Attribute("startDate", String, "YYYY-MM-DD; empty: no start")
	Attribute("expirationDate", String, "YYYY-MM-DD; empty: never expires")
	Attribute("maxUses", Int, "0: unlimited")
	Attribute("recurring", Boolean, "The discount applies to renewals too")
	Attribute("disabled", Boolean, "Switched off by an operator")
	Attribute("uses", Int, "Orders placed with the code")
	Attribute("products", ArrayOf(String), "The names of the products in appliesTo, in its order (\"#9\" for a pid the catalog does not have)")
	Attribute("status", String, "Today on the shop's clock: disabled, scheduled (before startDate), expired (after expirationDate), or active", func() {
		Enum("active", "scheduled", "expired", "disabled")
	})
	Required("code", "type", "value", "appliesTo", "startDate", "expirationDate", "maxUses", "recurring", "disabled", "uses", "products", "status")
})

var _ = Service("adminPromotions", func() {
	Description("The console's promotions with their usage. Promotions live in the catalog: every change saves a new catalog version.")
	HTTP(func() { Path("/admin/promotions") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Every promotion of the catalog in force, with how often it was used.")
		Payload(func() { operatorSession() })
		Result(func() {
			Attribute("promotions", ArrayOf(AdminPromotion))
			Required("promotions")
		})
		HTTP(func() {
			GET("")
			adminCookie(false)
		})
	})
	Method("create", func() {
		Description("Adds a promotion to the catalog (owner): a new catalog version.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("code", String, func() { MinLength(1); MaxLength(32) })
			Attribute("type", String, func() { Enum("Percentage", "Fixed Amount") })
			Attribute("value", String, func() { MinLength(1); MaxLength(32) })
			Attribute("appliesTo", ArrayOf(Int), "Product ids (pids) the code is valid for; at least one", func() { MinLength(1) })
			Attribute("startDate", String, "YYYY-MM-DD", func() { MaxLength(10) })
			Attribute("expirationDate", String, "YYYY-MM-DD", func() { MaxLength(10) })
			Attribute("maxUses", Int, func() { Minimum(0) })
			Attribute("recurring", Boolean, func() { Default(false) })
			Required("code", "type", "value", "appliesTo")
		})
		Result(AdminPromotion)
		Error("invalid_catalog", InvalidCatalog, "The promotion does not pass the catalog's validation; nothing was changed.")
		Error("conflict") // the code exists
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("")
			adminCookie(true)
			Response(StatusCreated)
			Response("invalid_catalog", StatusBadRequest)
		})
	})
	Method("update", func() {
		Description("Changes a promotion (owner): disable or enable it, move its dates, change its use limit; absent fields stay. An empty date removes it. A new catalog version.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("code", String, func() { MaxLength(32) })
			Attribute("disabled", Boolean)
			Attribute("startDate", String, "YYYY-MM-DD, or empty for none", func() { MaxLength(10) })
			Attribute("expirationDate", String, "YYYY-MM-DD, or empty for none", func() { MaxLength(10) })
			Attribute("maxUses", Int, "0: unlimited", func() { Minimum(0) })
			Required("code")
		})
		Result(AdminPromotion)
		Error("not_found")
		Error("invalid_catalog", InvalidCatalog, "The change does not pass the catalog's validation; nothing was changed.")
		Error("invalid_csrf_token")
		HTTP(func() {
			PATCH("/{code}")
			adminCookie(true)
			Response("invalid_catalog", StatusBadRequest)
		})
	})
})
