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
		Attribute("autoRenew", Boolean, "The service renews each period: a renewal invoice is made before its due date. False once the buyer cancelled auto-renew (the service becomes Cancelled at its due date), and for trials and one-time services")
		Attribute("renewsWithCard", Boolean, "Renewals are charged off-session to the card saved at the first Stripe purchase; a declined charge falls back to the pay link")
		Attribute("renewalInvoiceId", String, "The open (unpaid) renewal invoice; null when none", func() {
			Meta("struct:tag:json", "renewalInvoiceId") // always present, null when none
		})
		Attribute("renewalOrderId", String, "The order of the open renewal invoice; null when none", func() {
			Meta("struct:tag:json", "renewalOrderId") // always present, null when none
		})
		Attribute("renewalCardCharge", String, "Why the saved card did not pay the open renewal invoice: the outcome of its latest off-session charge (declined: the bank refused the card; authentication_required: the bank asks the buyer to confirm, which only the pay link can do; refused: the card can no longer be charged); null when no charge of it failed. The invoice stays payable by its pay link", func() {
			Enum("declined", "authentication_required", "refused")
			Meta("struct:tag:json", "renewalCardCharge") // always present, null when none
		})
		Attribute("recurringAmount", Money, "What the next period costs: the plan, cycle and extras as bought, at the catalog's prices, without one-time promotions; null for trials and one-time services", func() {
			Meta("struct:tag:json", "recurringAmount") // always present, null when none
		})
		Required("serviceId", "orderId", "pid", "name", "status", "username", "password", "serverHostname",
			"maxConnections", "macAddress", "billingCycle", "nextDueDate", "expiresAt", "trial", "playlistUrl",
			"autoRenew", "renewsWithCard")
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
				ContentType("audio/x-mpegurl") // the document's media type; the header adds the charset
				Header("contentType:Content-Type")
				Header("contentDisposition:Content-Disposition")
			})
		})
	})
	Method("qr", func() {
		Description("A QR code of the line for a phone or TV app to scan, as SVG: kind xtream encodes the Xtream codes as JSON {\"server\":\"http://host:port\",\"username\":…,\"password\":…}, kind m3u the playlistUrl. The playlist's rules: the sessions that may read the service; not_found for any other and until the line works. Never cached (credentials inside).")
		Payload(func() {
			serviceIDPayload()
			Attribute("kind", String, "What the code holds", func() { Enum("xtream", "m3u"); Default("xtream") })
		})
		Result(func() {
			Attribute("contentType", String)
			Attribute("cacheControl", String)
			Required("contentType", "cacheControl")
		})
		Error("not_found") // also: not active yet
		HTTP(func() {
			GET("/services/{serviceId}/qr.svg")
			Param("kind")
			Param("locale")
			bearer()
			SkipResponseBodyEncodeDecode()
			Response(StatusOK, func() {
				ContentType("image/svg+xml")
				Header("contentType:Content-Type")
				Header("cacheControl:Cache-Control")
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

	Method("renew", func() {
		Description("Renews the service now: answers the open renewal invoice of the same billing cycle, or places one for the period starting at the next due date (early renewal, also for an overdue or suspended line). Another billingCycle of the same plan replaces an open invoice of another cycle. A trial converts to the paid plan pid (the same line and credentials). Proven sessions and the session that bought the service.")
		Payload(func() {
			serviceIDPayload()
			Attribute("billingCycle", String, "The cycle of the period to pay; the service's own when absent", func() { Enum(Cycles...) })
			Attribute("pid", Int, "Trials only: the paid plan the trial converts to")
			Attribute("gateway", String, "Payment gateway module; the renewal's (or the shop's default) when absent", func() { MaxLength(64) })
			Attribute("returnUrl", String, "Where the payment page sends the buyer back: a path or a same-origin URL", func() { MaxLength(2048) })
		})
		Result(OrderResult)
		Error("not_found")
		Error("bad_request") // a cycle or plan not sold, an unknown gateway
		Error("conflict")    // terminated, cancelled, pending, a one-time or reseller service
		Error("unavailable") // the gateway did not answer
		Error("out_of_stock", ErrorResult, "The panel's reseller credits cannot cover extending the line for this period (the plan's credits in the catalog), as a new order's 409 out_of_stock: nothing was placed or charged.")
		HTTP(func() {
			POST("/services/{serviceId}/renew")
			Param("locale")
			bearer()
			Response(StatusCreated)
			Response("out_of_stock", StatusConflict)
		})
	})
	Method("cancel", func() {
		Description("Cancels auto-renew: no more renewal invoices, the open one is cancelled, and the service becomes Cancelled (line disabled) at its due date. Proven sessions only.")
		Payload(serviceIDPayload)
		Result(ServiceResult)
		Error("not_found")
		Error("conflict") // a trial, one-time, terminated or already cancelled service
		HTTP(func() {
			POST("/services/{serviceId}/cancel")
			Param("locale")
			bearer()
		})
	})
	Method("resume", func() {
		Description("Undoes a cancelled auto-renew until the due date: renewal invoices are made again. Proven sessions only.")
		Payload(serviceIDPayload)
		Result(ServiceResult)
		Error("not_found")
		Error("conflict") // auto-renew not cancelled, or the service is Cancelled already
		HTTP(func() {
			POST("/services/{serviceId}/resume")
			Param("locale")
			bearer()
		})
	})
})
