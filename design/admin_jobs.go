package design

import . "goa.design/goa/v3/dsl"

var AdminJob = Type("AdminJob", func() {
	Attribute("id", Int64)
	Attribute("kind", String, "provision, mail, webhook, expire, refund, reconcile, prune, renewals, trial-ending, line-sync")
	Attribute("ref", String, "What it works on: an order id, a mail id, …")
	Attribute("state", String, func() { Enum("queued", "running", "done", "dead", "cancelled") })
	Attribute("attempts", Int)
	Attribute("runAt", String, "RFC 3339")
	Attribute("lastError", String)
	Attribute("updatedAt", String, "RFC 3339")
	Required("id", "kind", "ref", "state", "attempts", "runAt", "lastError", "updatedAt")
})

// jobIDPayload is the payload of an action on one job.
func jobIDPayload() {
	operatorSession()
	csrfAttr()
	Attribute("id", Int64)
	Required("id")
}

var _ = Service("adminJobs", func() {
	Description("The console's view of the job queue, as streamcart jobs: list, retry, cancel.")
	HTTP(func() { Path("/admin/jobs") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Jobs, newest first: queued (waiting, failed ones included), failed (queued again after a failure), dead; all when state is absent.")
		Payload(func() {
			operatorSession()
			Attribute("state", String, func() { Enum("queued", "failed", "dead") })
			Attribute("limit", Int, func() { Minimum(1); Maximum(500); Default(100) })
		})
		Result(func() {
			Attribute("jobs", ArrayOf(AdminJob))
			Required("jobs")
		})
		HTTP(func() {
			GET("")
			adminCookie(false)
			Param("state")
			Param("limit")
		})
	})
	Method("retry", func() {
		Description("A dead, cancelled or waiting job queued again to run now, its attempts reset (support, owner).")
		Payload(jobIDPayload)
		Result(AdminJob)
		Error("not_found")
		Error("conflict") // running or done
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/retry")
			adminCookie(true)
		})
	})
	Method("cancel", func() {
		Description("A queued or dead job cancelled: no worker takes it again (owner).")
		Payload(jobIDPayload)
		Result(AdminJob)
		Error("not_found")
		Error("conflict") // running, done or cancelled
		Error("invalid_csrf_token")
		HTTP(func() {
			POST("/{id}/cancel")
			adminCookie(true)
		})
	})
})
