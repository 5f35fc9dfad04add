package design

import . "goa.design/goa/v3/dsl"

var AdminDay = Type("AdminDay", func() {
	Attribute("date", String, "YYYY-MM-DD (UTC)")
	Attribute("orders", Int, "Orders placed that day")
	Attribute("paidRevenue", ArrayOf(Money), "Invoices paid that day, per currency")
	Attribute("refunded", ArrayOf(Money), "Refunds made that day, per currency")
	Attribute("netRevenue", ArrayOf(Money), "paidRevenue less refunded, per currency")
	Required("date", "orders", "paidRevenue", "refunded", "netRevenue")
})

var AdminCount = Type("AdminCount", func() {
	Attribute("count", Int, "How many")
	Attribute("amount", Money, "What they amount to, in the shop's default currency")
	Required("count", "amount")
})

var AdminRenewalsDue = Type("AdminRenewalsDue", func() {
	Attribute("days7", AdminCount, "Renewals due within 7 days (overdue ones included), auto-renew on, and what they will charge")
	Attribute("days30", AdminCount, "The same within 30 days")
	Required("days7", "days30")
})

var _ = Service("adminSummary", func() {
	Description("The console's dashboard: what happened over the last days, and what needs a look now.")
	Error("unauthorized")
	Error("forbidden")

	Method("get", func() {
		Description("Counts over the last days (business time, UTC days, today included), and the alerts worth a look now: held orders, failed and dead jobs, failed mail, mail never sent for want of a mail server, money needing review, paid orders not active after 10 minutes.")
		Payload(func() {
			operatorSession()
			Attribute("days", Int, func() { Minimum(1); Maximum(366); Default(30) })
		})
		Result(func() {
			Attribute("from", String, "RFC 3339: the first instant counted")
			Attribute("orders", Int, "Orders placed")
			Attribute("paidRevenue", ArrayOf(Money), "Invoices paid, per currency (before refunds)")
			Attribute("refundedRevenue", ArrayOf(Money), "Refunds made, per currency")
			Attribute("netRevenue", ArrayOf(Money), "The revenue: invoices paid less refunds made, per currency")
			Attribute("newCustomers", Int, "Clients first seen")
			Attribute("failedPayments", Int, "Invoices whose payment failed")
			Attribute("activeLines", Int, "Lines Active or Overdue now")
			Attribute("renewalsDue7d", Int, "Renewing lines due within 7 days")
			Attribute("heldOrders", Int, "Orders held by the fraud check now")
			Attribute("failedJobs", Int, "Jobs waiting for a retry after a failure")
			Attribute("deadJobs", Int, "Jobs that gave up")
			Attribute("failedMails", Int, "Messages the mail server refused")
			Attribute("storedMails", Int, "Messages kept in the outbox only, never sent: no mail server is configured (STREAMCART_SMTP_URL)")
			Attribute("moneyToReview", Int, "Payments to review (state review): money that could not settle its order, to refund or accept")
			Attribute("paidNotActive", Int, "Orders paid more than 10 minutes ago and not active")
			Attribute("series", ArrayOf(AdminDay), "One entry per day, oldest first")
			Attribute("mrr", Money, "Monthly recurring revenue: the next period's price of every line that will renew (Active or Overdue, auto-renew on, no trial), divided by its months, in the shop's default currency")
			Attribute("activeSubscriptions", Int, "Lines Active or Overdue that renew (no trials, no one-time plans), auto-renew on or off")
			Attribute("churn30d", Float64, "Lines that ended (Cancelled, Terminated, Expired) in the last 30 days ÷ lines live 30 days ago; 0 with none live then")
			Attribute("renewalsDue", AdminRenewalsDue, "Renewals due within 7 and 30 days")
			Attribute("failedRenewals", Int, "Renewals whose payment failed since from, once each: a renewal invoice that failed, or a saved card declined, needing the buyer's authentication or refused (even if paid afterwards)")
			Attribute("refunds", AdminCount, "Refunds made since from, in the shop's default currency")
			Required("from", "orders", "paidRevenue", "refundedRevenue", "netRevenue", "newCustomers", "failedPayments", "activeLines", "renewalsDue7d",
				"heldOrders", "failedJobs", "deadJobs", "failedMails", "storedMails", "moneyToReview", "paidNotActive", "series",
				"mrr", "activeSubscriptions", "churn30d", "renewalsDue", "failedRenewals", "refunds")
		})
		HTTP(func() {
			GET("/admin/summary")
			adminCookie(false)
			Param("days")
		})
	})
})
