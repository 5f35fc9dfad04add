package design

import . "goa.design/goa/v3/dsl"

var _ = Service("geo", func() {
	Description("The caller's country from an offline database (no third-party call).")
	Method("lookup", func() {
		Result(func() {
			Attribute("ip", String, "The caller's address as seen by the server")
			Attribute("country", String, "ISO 3166 alpha-2; MA when unknown, XX when the lookup failed")
			Required("ip", "country")
		})
		HTTP(func() { GET("/geo") })
	})
})
