package design

import . "goa.design/goa/v3/dsl"

// OrderStatuses are an order's states. needs_review: a payment arrived that the order cannot
// deliver (cancelled, expired, held, already paid, line gone); it is refunded where the gateway
// can, else listed for the operator, and the order is never provisioned.
var OrderStatuses = []any{"pending", "paid", "provisioning", "active", "fraud", "cancelled", "failed", "needs_review", "partially_refunded", "refunded"}

var OrderResult = ResultType("application/vnd.streamcart.order", "OrderResult", func() {
	Attributes(func() {
		Attribute("orderId", String)
		Attribute("invoiceId", String)
		Attribute("status", String, func() { Enum(OrderStatuses...) })
		Attribute("fraud", Boolean, "The order is held by the fraud check and will not be provisioned")
		Attribute("serviceIds", ArrayOf(String))
		Attribute("total", Money)
		Attribute("paymentUrl", String, "Where the buyer pays; empty when nothing is due")
		Attribute("paymentDeadline", String, "RFC 3339; empty when nothing is due")
		Attribute("createdAt", String, "RFC 3339")
		Attribute("quote", QuoteResult, "The priced selection")
		Attribute("recurring", RecurringResult, "What renews after this order's period, and for how much (as quote.recurring); null for a one-time plan, a free trial and a reseller credit plan", func() {
			Meta("struct:tag:json", "recurring") // always present, null when nothing renews
		})
		Attribute("net", Money, "The total without tax (as quote.net)")
		Attribute("tax", TaxResult, "The tax in the total (as quote.tax); null when the catalog had no tax block", func() {
			Meta("struct:tag:json", "tax") // always present, null without tax
		})
		Attribute("paymentQuote", PaymentQuote, "What the gateway asks the buyer to pay when it takes another currency than the invoice's (Coinbase: USDC); absent otherwise")
		Attribute("paymentState", String, "processing: the provider has seen the payment and is confirming it (Coinbase's PROCESSING); the order is still pending and nothing is settled yet. Absent otherwise", func() {
			Enum("processing")
		})
		Attribute("invoiceNumber", String, "The invoice's number, given when it is paid (catalog invoiceNumber); null until then", func() {
			Meta("struct:tag:json", "invoiceNumber") // always present, null until paid
		})
		Attribute("receiptUrl", String, "The invoice's PDF (GET /invoices/{invoiceId}.pdf, with the session's Authorization header); null until paid", func() {
			Meta("struct:tag:json", "receiptUrl") // always present, null until paid
		})
		Attribute("creditNotes", ArrayOf(CreditNoteRef), "The credit notes the order's refunds issued, oldest first")
		Required("orderId", "invoiceId", "status", "fraud", "serviceIds", "total", "net", "paymentUrl", "paymentDeadline", "createdAt", "quote", "creditNotes")
	})
})

var CreditNoteRef = Type("CreditNoteRef", func() {
	Description("A credit note: what a refund gave back, numbered from its own sequence, referring to the order's invoice.")
	Attribute("id", String)
	Attribute("number", String, func() { Example("CN-2026-000001") })
	Attribute("amount", Money)
	Attribute("tax", Money, "The tax it gives back: the invoice's tax in proportion to the amount; absent when the order had no tax")
	Attribute("pdfUrl", String, "GET /credit-notes/{id}.pdf")
	Required("id", "number", "amount", "pdfUrl")
})

var PaymentQuote = Type("PaymentQuote", func() {
	Description("The invoice's total converted to the gateway's currency when its payment link was made, kept for that invoice.")
	Attribute("amount", String, "Decimal amount the payment link asks", func() { Example("17.27") })
	Attribute("currency", String, "The token asked", func() { Example("USDC") })
	Attribute("network", String, "The network it is paid on", func() { Example("base") })
	Attribute("rate", String, "Units of currency per unit of the invoice's currency: the catalog's USD rate over the invoice currency's", func() { Example("1.08") })
	Attribute("rateTakenAt", String, "RFC 3339: when the rate was taken (the payment link's creation)")
	Required("amount", "currency", "network", "rate", "rateTakenAt")
})

var RateLimited = Type("RateLimited", func() {
	Description("Too many requests of this kind are open or were made; nothing was done.")
	ErrorName("name", String, "rate_limited")
	Attribute("message", String)
	Attribute("retryAfter", Int, "Seconds until a request may be made again (the Retry-After header)")
	Required("name", "message", "retryAfter")
})

var PriceChanged = Type("PriceChanged", func() {
	Description("The expected total differs from the server's price; nothing was stored.")
	ErrorName("name", String, "price_changed")
	Attribute("message", String)
	Attribute("quote", QuoteResult, "The fresh quote to show the buyer")
	Required("name", "message", "quote")
})

var _ = Service("order", func() {
	Description("Orders: priced by the server, idempotent, owned by the session's client.")
	Security(SessionAuth)
	// Every method checks the token; the other errors are each method's (api/httpapi/order.go).
	Error("unauthorized")

	Method("create", func() {
		Payload(func() {
			tokenAttr()
			Extend(QuoteRequest)
			Attribute("idempotencyKey", String, func() { MinLength(1); MaxLength(255) })
			Attribute("gateway", String, "Payment gateway module; the default when absent")
			Attribute("expectedTotal", Money, "The total the buyer saw; a different server total answers price_changed")
			Attribute("affiliateId", String, func() { MaxLength(64) })
			Attribute("emailSubscription", Boolean, "The buyer ticked the checkout's newsletter box: the client's consent is recorded with its time once the order is placed (unticked changes nothing)")
			Attribute("returnUrl", String, "Where the payment page sends the buyer back: a path or a same-origin URL", func() {
				MaxLength(2048)
			})
			Attribute("confirmCountry", Boolean, "The buyer confirmed billingCountry where it differs from the country of their IP address (quote.tax.ipCountry); without it such an order answers 409 country_unconfirmed. Kept with the order as evidence")
			Attribute("renewWithCard", Boolean, "Stripe only: the buyer ticked \"Renew automatically with this card\" (consent shown): the card is saved (setup_future_usage=off_session) and each renewal charged to it at its due date")
		})
		Result(OrderResult)
		Error("not_found")
		Error("bad_request")
		Error("unavailable")
		Error("not_applicable", ErrorResult, "The promo code does not apply to this product.")
		Error("idempotency_mismatch", ErrorResult, "The Idempotency-Key was already used with another request body.")
		Error("price_changed", PriceChanged, "The expected total differs from the server's price: the body holds the fresh quote; nothing was stored.")
		Error("trial_used", ErrorResult, "A free trial beyond the limits: one per client (STREAMCART_TRIALS_PER_CLIENT) and a few per address per 30 days (STREAMCART_TRIALS_PER_IP).")
		Error("invalid_country", ErrorResult, "billingCountry is not an ISO 3166-1 alpha-2 country code.")
		Error("country_unconfirmed", ErrorResult, "The catalog charges tax and billingCountry differs from the country of the buyer's IP address: ask the buyer, then send confirmCountry: true. Nothing was stored.")
		Error("trial_unavailable", ErrorResult, "No free trial for this e-mail address: a throwaway (disposable) one, or a domain the seller refuses trials to (STREAMCART_TRIAL_BLOCK_DISPOSABLE, STREAMCART_TRIAL_BLOCKED_DOMAINS). Nothing was stored.")
		Error("out_of_stock", ErrorResult, "The plan is temporarily unavailable: the panel's reseller credits cannot cover a line of it for this billing cycle (the product's credits in the catalog; GET /products says available: false). Nothing was stored or charged.")
		HTTP(func() {
			POST("/orders")
			bearer()
			Header("idempotencyKey:Idempotency-Key")
			Response(StatusCreated)
			Response("not_applicable", StatusUnprocessableEntity)
			Response("idempotency_mismatch", StatusUnprocessableEntity)
			Response("price_changed", StatusConflict)
			Response("trial_used", StatusConflict)
			Response("trial_unavailable", StatusConflict)
			Response("out_of_stock", StatusConflict)
			Response("invalid_country", StatusBadRequest)
			Response("country_unconfirmed", StatusConflict)
		})
	})
	Method("get", func() {
		Payload(func() {
			tokenAttr()
			Attribute("orderId", String)
			Required("orderId")
		})
		Result(OrderResult)
		Error("not_found")
		HTTP(func() {
			GET("/orders/{orderId}")
			bearer()
		})
	})
	Method("events", func() {
		Description(`The order's live status as Server-Sent Events, for whoever may read it (the rule of GET /orders/{orderId}: another session's order is not_found alike). An event "status" whose data is the order's JSON exactly as GET /orders/{orderId} answers it comes at once and after every change, its id the order's version (monotonic); the stream closes after the event of a final status (active, fraud, cancelled, failed, needs_review, partially_refunded, refunded). A comment line (": heartbeat") every 15 s keeps proxies from timing it out; a stream without an event for STREAMCART_ORDER_STREAM_IDLE (10 min) is closed, as are all of a replica's when it shuts down: reconnect with Last-Event-ID, the last id received, and only a newer version is sent (an order already final and unchanged closes at once). Changes reach the stream from any replica within a second (PostgreSQL LISTEN/NOTIFY). The session's Authorization header is required as everywhere: browsers read the stream with fetch(), not EventSource. At most STREAMCART_ORDER_STREAMS_PER_SESSION (4) open streams per session and STREAMCART_ORDER_STREAMS (1000) per replica: beyond, 429 rate_limited with Retry-After; poll GET /orders/{orderId} instead.`)
		Payload(func() {
			tokenAttr()
			Attribute("orderId", String, func() { MaxLength(64) })
			Attribute("lastEventId", String, "The id of the last event received (a reconnecting stream): only a newer version is sent", func() {
				Pattern("^[0-9]{1,18}$")
			})
			Required("orderId")
		})
		Result(func() {
			Attribute("contentType", String)
			Attribute("cacheControl", String)
			Attribute("accelBuffering", String, "no: nginx passes each event on at once")
			Required("contentType", "cacheControl", "accelBuffering")
		})
		Error("not_found")
		Error("rate_limited", RateLimited, "Too many open streams: this session's (STREAMCART_ORDER_STREAMS_PER_SESSION) or this replica's (STREAMCART_ORDER_STREAMS); poll GET /orders/{orderId}, or retry after Retry-After seconds.")
		HTTP(func() {
			GET("/orders/{orderId}/events")
			bearer()
			Header("lastEventId:Last-Event-ID")
			SkipResponseBodyEncodeDecode()
			Response(StatusOK, func() {
				ContentType("text/event-stream")
				Header("contentType:Content-Type")
				Header("cacheControl:Cache-Control")
				Header("accelBuffering:X-Accel-Buffering")
			})
			Response("rate_limited", StatusTooManyRequests, func() {
				Header("retryAfter:Retry-After")
			})
		})
	})
	Method("list", func() {
		Description("The session's orders, newest first: a proven session's are its client's, a buying (email-only) session's those it placed.")
		Payload(func() {
			tokenAttr()
		})
		Result(func() {
			Attribute("orders", ArrayOf(OrderResult))
			Required("orders")
		})
		HTTP(func() {
			GET("/orders")
			bearer()
		})
	})
	Method("cancel", func() {
		Description("Cancels a pending order.")
		Payload(func() {
			tokenAttr()
			Attribute("orderId", String)
			Required("orderId")
		})
		Result(OrderResult)
		Error("not_found")
		Error("conflict") // not pending
		HTTP(func() {
			POST("/orders/{orderId}/cancel")
			bearer()
		})
	})
})
