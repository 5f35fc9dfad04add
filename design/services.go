package design

import . "goa.design/goa/v3/dsl"

var ServiceResult = ResultType("application/vnd.streamcart.service", "ServiceResult", func() {
	Attributes(func() {
		Attribute("serviceId", String)
		Attribute("orderId", String)
		Attribute("pid", Int)
		Attribute("name", String)
		Attribute("status", String, func() { Enum("Pending", "Active", "Suspended", "Cancelled", "Terminated") })
		Attribute("username", String, "Line username; empty until provisioned")
		Attribute("password", String, "Line password; empty until provisioned")
		Attribute("serverHostname", String)
		Attribute("maxConnections", Int)
		Attribute("macAddress", String)
		Attribute("billingCycle", String)
		Attribute("nextDueDate", String, "YYYY-MM-DD; empty for one-time and trial services")
		Attribute("expiresAt", String, "RFC 3339; empty until provisioned")
		Attribute("trial", Boolean)
		Attribute("playlistUrl", String, "m3u_plus playlist on the panel")
		Required("serviceId", "orderId", "pid", "name", "status", "username", "password", "serverHostname",
			"maxConnections", "macAddress", "billingCycle", "nextDueDate", "expiresAt", "trial", "playlistUrl")
	})
})

var _ = Service("services", func() {
	Description("A buyer's services (IPTV lines).")
	Security(SessionAuth)
	Error("not_found")
	Error("unauthorized")

	Method("get", func() {
		Payload(func() {
			tokenAttr()
			Attribute("serviceId", String)
			Required("serviceId")
		})
		Result(ServiceResult)
		HTTP(func() {
			GET("/services/{serviceId}")
			bearer()
		})
	})
	Method("playlist", func() {
		Description("The service's m3u_plus playlist file.")
		Payload(func() {
			tokenAttr()
			Attribute("serviceId", String)
			Required("serviceId")
		})
		Result(func() {
			Attribute("contentType", String)
			Attribute("contentDisposition", String)
			Required("contentType", "contentDisposition")
		})
		HTTP(func() {
			GET("/services/{serviceId}/playlist.m3u")
			bearer()
			SkipResponseBodyEncodeDecode()
			Response(StatusOK, func() {
				Header("contentType:Content-Type")
				Header("contentDisposition:Content-Disposition")
			})
		})
	})
})
