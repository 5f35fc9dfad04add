package console

import (
	"regexp"
	"strconv"

	"github.com/streamcart/streamcart/api/money"
)

// The wordings of an audit entry's Args (AuditArgs), each with its values after it:
//
//	payment-requested   [] (order-approve asking the buyer to pay)
//	provisioned-unpaid  [] (order-approve provisioning without payment)
//	refund              [amount in minor units, currency, method, reason, "replayed" or ""]
//	version             [catalog version, comment]
//	sessions            [count] (customer-signout)
//	signin-failed       [reason] (console-signin-failed: unknown_email, bad_password, …)
const (
	AuditPaymentRequested = "payment-requested"
	AuditProvisionUnpaid  = "provisioned-unpaid"
	AuditRefund           = "refund"
	AuditVersion          = "version"
	AuditSessions         = "sessions"
	AuditSignInFailed     = "signin-failed"
)

var (
	refundDetail   = regexp.MustCompile(`^(replayed \(nothing more refunded\): )?(-?\d+(?:\.\d+)?) ([A-Z]{3}) by ([^:]+): (.*)$`)
	versionDetail  = regexp.MustCompile(`^version (\d+): (.*)$`)
	sessionsDetail = regexp.MustCompile(`^(\d+) session\(s\)$`)
)

// AuditArgs are an audit entry's detail in parts, so that a console words it in its operator's
// language; nil for a detail that is not English the server wrote (a reason an operator typed, a
// value) or that none of the wordings reads. The details are read back as the HTTP handlers write
// them, since the log keeps only the text.
func AuditArgs(action, detail string) []string {
	switch action {
	case "order-approve":
		switch detail {
		case "payment requested":
			return []string{AuditPaymentRequested}
		case "provisioned unpaid":
			return []string{AuditProvisionUnpaid}
		}
	case "order-refund":
		if m := refundDetail.FindStringSubmatch(detail); m != nil {
			minor, err := money.Parse(m[2], m[3])
			if err != nil {
				return nil
			}
			replayed := ""
			if m[1] != "" {
				replayed = "replayed"
			}
			return []string{AuditRefund, strconv.FormatInt(minor, 10), m[3], m[4], m[5], replayed}
		}
	case "catalog-save":
		if m := versionDetail.FindStringSubmatch(detail); m != nil {
			return []string{AuditVersion, m[1], m[2]}
		}
	case "customer-signout":
		if m := sessionsDetail.FindStringSubmatch(detail); m != nil {
			return []string{AuditSessions, m[1]}
		}
	case "console-signin-failed":
		if detail != "" {
			return []string{AuditSignInFailed, detail}
		}
	}
	return nil
}
