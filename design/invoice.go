package design

import . "goa.design/goa/v3/dsl"

var InvoiceLine = Type("InvoiceLine", func() {
	Attribute("description", String, "What the line bills, in the invoice's locale", func() { Example("Standard — monthly") })
	Attribute("amount", Money)
	Required("description", "amount")
})

var InvoiceResult = ResultType("application/vnd.streamcart.invoice", "InvoiceResult", func() {
	Attributes(func() {
		Attribute("invoiceId", String)
		Attribute("orderId", String)
		Attribute("serviceId", String, "The service the invoice renews")
		Attribute("serviceName", String, "The plan's name, in the requested locale when the catalog has it translated")
		Attribute("username", String, "The line's username, so the holder knows which line this pays")
		Attribute("status", String, "unpaid: payable; paid: the renewal is applied or being applied", func() { Enum("unpaid", "paid") })
		Attribute("billingCycle", String, func() { Enum(Cycles...) })
		Attribute("periodStart", String, "YYYY-MM-DD: the due date the invoice pays")
		Attribute("periodEnd", String, "YYYY-MM-DD: the next due date once paid (a suspended line: one cycle after the payment)")
		Attribute("nextDueDate", String, "YYYY-MM-DD: the service's due date now")
		Attribute("serviceStatus", String, func() { Enum("Pending", "Active", "Overdue", "Suspended", "Cancelled", "Terminated", "Expired") })
		Attribute("lines", ArrayOf(InvoiceLine))
		Attribute("total", Money)
		Attribute("net", Money, "The total without tax (as the order's net); absent when the order had no tax")
		Attribute("tax", TaxResult, "The tax in the total at the billing country's rate (as the order's tax); absent when the order had no tax")
		Attribute("gateway", String, "The gateway of the current payment link")
		Attribute("gateways", ArrayOf(GatewayResult), "The gateways it may be paid through")
		Attribute("paymentDeadline", String, "RFC 3339: the invoice closes then")
		Required("invoiceId", "orderId", "serviceId", "serviceName", "username", "status", "billingCycle", "periodStart",
			"periodEnd", "nextDueDate", "serviceStatus", "lines", "total", "gateway", "gateways", "paymentDeadline")
	})
})

// invoiceTokenPayload is the payload of a pay-link holder's request: the invoice and the signed
// token of its pay link (the reminder mails' /checkout/renew?invoice=…&t=…).
func invoiceTokenPayload() {
	Attribute("invoiceId", String)
	Attribute("t", String, "The pay link's signed token: good for this invoice only, until it closes", func() { MaxLength(2048) })
	localeParam()
	// t is not required: a missing token is one more wrong token (404), not a malformed request.
	Required("invoiceId")
}

// documentPayload is who asks for a document: its id, and the session's token or the invoice's
// pay-link token (neither required: a missing one is one more caller answered not_found).
func documentPayload(idName string) func() {
	return func() {
		Attribute(idName, String, func() { MaxLength(64) })
		Attribute("t", String, "The invoice's pay-link token", func() { MaxLength(2048) })
		Attribute("token", String, "The session's bearer token")
		Required(idName)
	}
}

var DocumentResult = Type("DocumentResult", func() {
	Attribute("contentType", String)
	Attribute("contentDisposition", String)
	Attribute("cacheControl", String)
	Required("contentType", "contentDisposition", "cacheControl")
})

func documentHTTP() {
	Param("t")
	Header("token:Authorization")
	SkipResponseBodyEncodeDecode()
	Response(StatusOK, func() {
		ContentType("application/pdf")
		Header("contentType:Content-Type")
		Header("contentDisposition:Content-Disposition")
		Header("cacheControl:Cache-Control")
	})
}

var _ = Service("invoices", func() {
	Description("Renewal invoices for the holder of a pay link (the reminder mails): view and pay one invoice without signing in. A wrong, stale or other invoice's token is not_found.")
	Error("not_found")

	Method("get", func() {
		Payload(invoiceTokenPayload)
		Result(InvoiceResult)
		HTTP(func() {
			GET("/invoices/{invoiceId}")
			Param("t")
			Param("locale")
		})
	})
	Method("pdf", func() {
		Description("The paid invoice as a PDF, in the buyer's locale: for the buyer's proven or buying session (Authorization, the rule of GET /orders/{orderId}) or the holder of the invoice's pay-link token (t, the mails' receipt link). Anyone else, an unpaid invoice and an unknown id: not_found alike.")
		Payload(documentPayload("invoiceId"))
		Result(DocumentResult)
		HTTP(func() {
			GET("/invoices/{invoiceId}.pdf")
			documentHTTP()
		})
	})
	Method("creditNotePdf", func() {
		Description("A credit note (a refund of the order) as a PDF, under the rule of its invoice's PDF (the invoice's pay-link token opens it too).")
		Payload(documentPayload("creditNoteId"))
		Result(DocumentResult)
		HTTP(func() {
			GET("/credit-notes/{creditNoteId}.pdf")
			documentHTTP()
		})
	})
	Method("pay", func() {
		Description("A payment link for the invoice through gateway: the current one when it is the same gateway and still open.")
		Payload(func() {
			invoiceTokenPayload()
			Attribute("gateway", String, "Payment gateway module; the invoice's when absent", func() { MaxLength(64) })
			Attribute("returnUrl", String, "Where the payment page sends the buyer back: a path or a same-origin URL", func() { MaxLength(2048) })
		})
		Result(func() {
			Attribute("paymentUrl", String)
			Attribute("orderId", String)
			Attribute("invoiceId", String)
			Required("paymentUrl", "orderId", "invoiceId")
		})
		Error("bad_request") // an unknown gateway
		Error("conflict")    // already paid
		Error("unavailable") // the gateway did not answer
		HTTP(func() {
			POST("/invoices/{invoiceId}/pay")
			Param("t")
			Param("locale")
		})
	})
})
