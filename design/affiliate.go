package design

import . "goa.design/goa/v3/dsl"

var _ = Service("affiliates", func() {
	Description("Affiliate clicks; orders carry the affiliate id (affiliateId on POST /orders).")
	Error("bad_request")

	Method("click", func() {
		Payload(func() {
			Attribute("affId", String, "The aff_id landing parameter: digits", func() {
				Pattern(`^[0-9]{1,18}$`)
				Example("42")
			})
			Attribute("referer", String, func() { MaxLength(2048) })
			Required("affId")
		})
		HTTP(func() {
			POST("/affiliates/clicks")
			Response(StatusNoContent)
		})
	})
})
