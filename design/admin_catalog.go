package design

import . "goa.design/goa/v3/dsl"

var AdminCatalogVersion = Type("AdminCatalogVersion", func() {
	Attribute("version", Int64, "1, 2, …: every accepted catalog is kept")
	Attribute("operator", String, "Who saved it; empty for the catalog in force before the console")
	Attribute("comment", String)
	Attribute("sha256", String, "Hex SHA-256 of the source")
	Attribute("createdAt", String, "RFC 3339")
	Required("version", "operator", "comment", "sha256", "createdAt")
})

var AdminCatalogProblem = Type("AdminCatalogProblem", func() {
	Attribute("line", Int, "1-based line of the source; 0 when unknown")
	Attribute("path", String, "The field, e.g. products[2].pricing.EUR.monthly")
	Attribute("field", String, "The field again (the same as path)")
	Attribute("message", String)
	Required("line", "path", "field", "message")
})

var InvalidCatalog = Type("InvalidCatalog", func() {
	Description("The catalog does not pass `streamcart catalog check`; nothing was changed.")
	ErrorName("name", String, "invalid_catalog")
	Attribute("message", String)
	Attribute("line", Int, "The first problem's line (1-based; 0 when unknown)")
	Attribute("field", String, "The first problem's field path, e.g. products[1].cycles.monthly.EUR")
	Attribute("problems", ArrayOf(AdminCatalogProblem))
	Required("name", "message", "line", "field", "problems")
})

var AdminCatalogResult = Type("AdminCatalogResult", func() {
	Attribute("version", AdminCatalogVersion, "The version in force")
	Attribute("source", String, "The catalog file (YAML or JSON) as saved")
	Attribute("published", Boolean, "false: the catalog in force is the file the shop was started or imported with, never published here (version 0)")
	Attribute("form", AdminCatalogForm, "GET /admin/catalog only: the catalog in force as the form edits it")
	Required("version", "source", "published")
})

var AdminCatalogFormPlan = Type("AdminCatalogFormPlan", func() {
	Attribute("pid", Int)
	Attribute("group", String, "plan or reseller")
	Attribute("name", String)
	Attribute("trial", Boolean)
	Attribute("extras", Boolean, "Offers extra connections (config option 2)")
	Attribute("proxy", Boolean, "Offers proxy protection (config option 4)")
	Attribute("prices", MapOf(String, MapOf(String, String)), "Cycle → currency → price as written (\"12.99\"); a disabled cycle or a converted currency is absent")
	Required("pid", "group", "name", "trial", "extras", "proxy", "prices")
})

var AdminCatalogFormOption = Type("AdminCatalogFormOption", func() {
	Attribute("id", Int, "2: extra connections, 4: proxy protection")
	Attribute("name", String)
	Attribute("maxQty", Int, "Extra connections: the most a buyer may add; 0 for proxy")
	Attribute("prices", MapOf(String, MapOf(String, String)), "Cycle → currency → price per unit")
	Required("id", "name", "maxQty", "prices")
})

var AdminCatalogFormPromotion = Type("AdminCatalogFormPromotion", func() {
	Attribute("code", String)
	Attribute("type", String)
	Attribute("value", String)
	Attribute("appliesTo", ArrayOf(Int))
	Attribute("products", ArrayOf(String), "Names of the products in appliesTo (read only)")
	Attribute("startDate", String, "YYYY-MM-DD or empty")
	Attribute("expirationDate", String, "YYYY-MM-DD or empty")
	Attribute("maxUses", Int)
	Attribute("recurring", Boolean)
	Attribute("disabled", Boolean)
	Attribute("status", String, "active, scheduled, expired or disabled today (read only)")
	Required("code", "type", "value", "appliesTo", "startDate", "expirationDate", "maxUses", "recurring", "disabled")
})

var AdminCatalogFormStorefront = Type("AdminCatalogFormStorefront", func() {
	Attribute("key", String, "pk_…: identifies the storefront (not editable here)")
	Attribute("name", String)
	Attribute("default", Boolean, "Serves requests without a key (read only)")
	Attribute("defaultCurrency", String, "A code from currencies, or empty")
	Attribute("defaultLocale", String, "Empty: the buyer's")
	Attribute("allowedOrigins", ArrayOf(String))
	Required("key", "name", "defaultCurrency", "defaultLocale", "allowedOrigins")
})

var AdminCatalogForm = Type("AdminCatalogForm", func() {
	Description("The parts of the catalog the console's form edits; everything else in the file is kept as it is.")
	Attribute("defaultCurrency", String)
	Attribute("currencies", ArrayOf(String), "Codes, in the file's order")
	Attribute("cycles", ArrayOf(String), "Every billing cycle, in display order")
	Attribute("plans", ArrayOf(AdminCatalogFormPlan))
	Attribute("extras", AdminCatalogFormOption, "Config option 2, when the catalog has it")
	Attribute("proxy", AdminCatalogFormOption, "Config option 4, when the catalog has it")
	Attribute("promotions", ArrayOf(AdminCatalogFormPromotion))
	Attribute("storefronts", ArrayOf(AdminCatalogFormStorefront))
	Required("defaultCurrency", "currencies", "cycles", "plans", "promotions", "storefronts")
})

var _ = Service("adminCatalog", func() {
	Description("The console's catalog: the file in force, saving a new one (validated as `streamcart catalog check`), and every version saved.")
	HTTP(func() { Path("/admin/catalog") })
	Error("unauthorized")
	Error("forbidden")

	Method("get", func() {
		Description("The catalog in force and its source.")
		Payload(func() { operatorSession() })
		Result(AdminCatalogResult)
		HTTP(func() {
			GET("")
			adminCookie(false)
		})
	})
	Method("put", func() {
		Description("Saves a new catalog (owner): the YAML or JSON source is validated exactly as `streamcart catalog check` and import do; a bad one answers 400 invalid_catalog with each problem's line and field path, and nothing changes. The running shop serves the new version at once here and within its catalog poll on other replicas.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("source", String, "The catalog file, YAML or JSON (the request body is at most 64 KB)", func() { MinLength(1); MaxLength(64 << 10) })
			Attribute("comment", String, func() { MaxLength(500) })
			Attribute("base", String, "The sha256 of the version in force the draft was made from: when another is in force now, 409 conflict and nothing changes (of 40 publishes of one draft, one makes the version)", func() { MaxLength(64) })
			Required("source")
		})
		Result(AdminCatalogResult)
		Error("invalid_catalog", InvalidCatalog, "The catalog does not pass validation; nothing was changed.")
		Error("invalid_csrf_token")
		Error("conflict") // it enables a gateway this shop has no settings for; or base is stale
		HTTP(func() {
			PUT("")
			adminCookie(true)
			Response(StatusOK)
			Response("invalid_catalog", StatusBadRequest)
		})
	})
	Method("check", func() {
		Description("Checks a catalog source exactly as `streamcart catalog check` and PUT do, changing nothing: 200 {ok: true}, or 400 invalid_catalog with the first problem's line and field and every problem.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("source", String, "The catalog file, YAML or JSON", func() { MinLength(1); MaxLength(64 << 10) })
			Required("source")
		})
		Result(func() {
			Attribute("ok", Boolean)
			Required("ok")
		})
		Error("invalid_catalog", InvalidCatalog, "The catalog does not pass validation.")
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/check")
			adminCookie(true)
			Response(StatusOK)
			Response("invalid_catalog", StatusBadRequest)
		})
	})
	Method("draft", func() {
		Description("Writes the form into a catalog source (owner), changing nothing stored: the YAML node tree of source (else the catalog in force) gets the form's values, keeping every field the form does not know and the comments; answers the new source and a unified diff against the version in force.")
		Payload(func() {
			operatorSession()
			csrfAttr()
			Attribute("source", String, "The source to start from; empty: the catalog in force", func() { MaxLength(64 << 10) })
			Attribute("form", AdminCatalogForm, "The form's values; absent: only the diff of source")
		})
		Result(func() {
			Attribute("source", String, "The catalog file with the form's values")
			Attribute("diff", String, "Unified diff of the version in force → source; empty when equal")
			Attribute("base", String, "sha256 of the version in force, for PUT's base")
			Required("source", "diff", "base")
		})
		Error("bad_request")
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/draft")
			adminCookie(true)
			Response(StatusOK)
			Response("bad_request", StatusBadRequest)
		})
	})
	Method("versions", func() {
		Description("Every saved catalog version, newest first.")
		Payload(func() { operatorSession() })
		Result(func() {
			Attribute("versions", ArrayOf(AdminCatalogVersion))
			Required("versions")
		})
		HTTP(func() {
			GET("/versions")
			adminCookie(false)
		})
	})
	Method("version", func() {
		Description("One saved version with its source.")
		Payload(func() {
			operatorSession()
			Attribute("version", Int64)
			Required("version")
		})
		Result(AdminCatalogResult)
		Error("not_found")
		HTTP(func() {
			GET("/versions/{version}")
			adminCookie(false)
		})
	})
})
