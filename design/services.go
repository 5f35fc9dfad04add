package design

import . "goa.design/goa/v3/dsl"

var ServiceResult = ResultType("application/vnd.streamcart.service", "ServiceResult", func() {
	Attributes(func() {
		Attribute("serviceId", String)
		Attribute("orderId", String)
		Attribute("pid", Int)
		Attribute("name", String, "Plan name, in the requested locale when the catalog has it translated")
		Attribute("status", String, func() { Enum("Pending", "Active", "Overdue", "Suspended", "Cancelled", "Terminated", "Expired") })
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

// serviceIDPayload is the payload of an action on one service.
func serviceIDPayload() {
	tokenAttr()
	Attribute("serviceId", String)
	localeParam()
	Required("serviceId")
}

// manageErrors are the errors of an action on a line through the panel (manageError in
// api/httpapi/services_manage.go).
func manageErrors() {
	Error("not_found")
	Error("conflict") // not active, or not managed here
	Error("unavailable")
}

var _ = Service("services", func() {
	Description("A buyer's services (IPTV lines): read them, and with a proven session manage them through the panel.")
	Security(SessionAuth)
	// Every method checks the token; the other errors are each method's (api/httpapi/services*.go).
	Error("unauthorized")

	Method("list", func() {
		Description("The services the session may read: a proven session's are all of its client's, an email-only session's those it bought.")
		Payload(func() {
			tokenAttr()
			localeParam()
		})
		Result(func() {
			Attribute("services", CollectionOf(ServiceResult))
			Required("services")
		})
		HTTP(func() {
			GET("/services")
			Param("locale")
			bearer()
		})
	})
	Method("get", func() {
		Payload(serviceIDPayload)
		Result(ServiceResult)
		Error("not_found")
		HTTP(func() {
			GET("/services/{serviceId}")
			Param("locale")
			bearer()
		})
	})
	Method("playlist", func() {
		Description("The service's m3u_plus playlist file.")
		Payload(serviceIDPayload)
		Result(func() {
			Attribute("contentType", String)
			Attribute("contentDisposition", String)
			Required("contentType", "contentDisposition")
		})
		Error("not_found") // also: not active yet
		HTTP(func() {
			GET("/services/{serviceId}/playlist.m3u")
			Param("locale")
			bearer()
			SkipResponseBodyEncodeDecode()
			Response(StatusOK, func() {
				Header("contentType:Content-Type")
				Header("contentDisposition:Content-Disposition")
			})
		})
	})
	Method("restart", func() {
		Description("Restarts the line on the panel (drops its open connections). Proven sessions only.")
		Payload(serviceIDPayload)
		Result(ServiceResult)
		manageErrors()
		HTTP(func() {
			POST("/services/{serviceId}/restart")
			Param("locale")
			bearer()
		})
	})
	Method("recreate", func() {
		Description("Builds the line again on the panel with the same credentials and limits. Proven sessions only.")
		Payload(serviceIDPayload)
		Result(ServiceResult)
		manageErrors()
		HTTP(func() {
			POST("/services/{serviceId}/recreate")
			Param("locale")
			bearer()
		})
	})
	Method("terminate", func() {
		Description("Deletes the line from the panel for good; the body must confirm it. Proven sessions only.")
		Payload(func() {
			serviceIDPayload()
			Attribute("confirm", Boolean, "Must be true")
		})
		Result(ServiceResult)
		manageErrors()
		Error("bad_request") // not confirmed
		HTTP(func() {
			POST("/services/{serviceId}/terminate")
			Param("locale")
			bearer()
		})
	})
	Method("setMac", func() {
		Description("Changes the device MAC address: six hex pairs separated by ':' or '-', stored upper-case with ':'. Proven sessions only.")
		Payload(func() {
			serviceIDPayload()
			Attribute("macAddress", String, func() { MaxLength(64); Example("00:1A:79:12:34:56") })
			Required("macAddress")
		})
		Result(ServiceResult)
		manageErrors()
		Error("invalid_mac", ErrorResult, "The MAC address is not six hex pairs separated by ':' or '-'.")
		HTTP(func() {
			PUT("/services/{serviceId}/mac")
			Response("invalid_mac", StatusBadRequest)
			Param("locale")
			bearer()
		})
	})
})
