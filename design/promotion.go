package design

import . "goa.design/goa/v3/dsl"

var PromotionResult = ResultType("application/vnd.streamcart.promotion", "PromotionResult", func() {
	Attributes(func() {
		Attribute("code", String, func() { Example("WELCOME10") })
		Attribute("type", String, func() { Enum("Percentage", "Fixed Amount") })
		Attribute("value", String, "Decimal value: a percentage, or an amount in the default currency", func() { Example("10") })
		Attribute("appliesTo", ArrayOf(Int), "Product ids the code applies to")
		Attribute("startDate", String, "YYYY-MM-DD")
		Attribute("expirationDate", String, "YYYY-MM-DD; 0000-00-00 means none")
		Required("code", "type", "value", "appliesTo", "startDate", "expirationDate")
	})
})

var _ = Service("promotion", func() {
	Description("Promo codes.")
	Error("not_found")
	Error("bad_request")
	Error("not_applicable", ErrorResult, "The code exists but does not apply to this product.")
	HTTP(func() {
		Response("not_applicable", StatusUnprocessableEntity)
	})

	Method("get", func() {
		Description("Looks a code up in its canonical form (trimmed, NFKC-normalised, upper-cased: kickoff, ＫＩＣＫＯＦＦ and KICKOFF are one code); unknown, not started, expired and used-up codes, and any whose canonical form is not [A-Z0-9_-]{1,32}, are all not_found.")
		Payload(func() {
			Attribute("code", String, func() { MinLength(1); MaxLength(64) })
			Attribute("pid", Int, "When given, the code must apply to this product")
			Required("code")
		})
		Result(PromotionResult)
		HTTP(func() {
			GET("/promotions/{code}")
			Param("pid")
		})
	})
})
