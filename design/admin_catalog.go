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
	Attribute("message", String)
	Required("line", "path", "message")
})

var InvalidCatalog = Type("InvalidCatalog", func() {
	Description("The catalog does not pass `streamcart catalog check`; nothing was changed.")
	ErrorName("name", String, "invalid_catalog")
	Attribute("message", String)
	Attribute("problems", ArrayOf(AdminCatalogProblem))
	Required("name", "message", "problems")
})

var AdminCatalogResult = Type("AdminCatalogResult", func() {
	Attribute("version", AdminCatalogVersion, "The version in force")
	Attribute("source", String, "The catalog file (YAML or JSON) as saved")
	Required("version", "source")
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
			Required("source")
		})
		Result(AdminCatalogResult)
		Error("invalid_catalog", InvalidCatalog, "The catalog does not pass validation; nothing was changed.")
		Error("invalid_csrf_token")
		Error("conflict") // it enables a gateway this shop has no settings for
		HTTP(func() {
			PUT("")
			adminCookie(true)
			Response(StatusOK)
			Response("invalid_catalog", StatusBadRequest)
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
