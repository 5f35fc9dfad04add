package authz

import (
	"context"

	"github.com/ory/ladon"
)

// What console operators do (OperatorAllowed). Every area of the console is one resource.
const (
	OpRead            = "read"             // orders, customers, lines without credentials, jobs, mail, webhooks, summary
	OpReadCredentials = "read-credentials" // line usernames and passwords
	OpResendMail      = "resend-mail"      // a stored message again; a sign-in link to a customer
	OpRetryJob        = "retry-job"
	OpCancelJob       = "cancel-job"
	OpManageLine      = "manage-line"    // suspend, unsuspend, extend
	OpTerminateLine   = "terminate-line" // delete the line for good
	OpSignOutCustomer = "signout-customer"
	OpRefund          = "refund"
	OpReviewOrder     = "review-order"     // reject a held order (refunding what it took)
	OpRequestPayment  = "request-payment"  // release a held order to be paid: pending again, the pay link mailed
	OpProvisionUnpaid = "provision-unpaid" // release a held order provisioned without payment
	OpEditCatalog     = "edit-catalog"     // catalog and promotions
	OpManageOperators = "manage-operators"
	// OpChangeLineAtRenewal changes a line's plan, cycle, connections or due date billed from its
	// next renewal; OpChangeLine also charges the difference now, or gives it free.
	OpChangeLineAtRenewal = "change-line-at-renewal"
	OpChangeLine          = "change-line"
	OpReadSettings        = "read-settings" // the settings in force (secrets masked)
)

// Operator roles, as package operator names them.
const (
	RoleOwner   = "owner"
	RoleSupport = "support"
	RoleViewer  = "viewer"
)

// operatorPolicies are the roles. A role's policy lists all it may do, so reading one policy
// tells what the role can do; anything no policy allows is denied, an unknown role included.
func operatorPolicies() []ladon.Policy {
	viewer := []string{OpRead}
	support := append(append([]string{}, viewer...), OpReadCredentials, OpResendMail, OpRetryJob, OpManageLine, OpSignOutCustomer, OpChangeLineAtRenewal,
		OpRequestPayment)
	owner := append(append([]string{}, support...), OpCancelJob, OpTerminateLine, OpRefund, OpReviewOrder, OpProvisionUnpaid, OpEditCatalog, OpManageOperators,
		OpChangeLine, OpReadSettings)
	policy := func(role, desc string, actions []string) ladon.Policy {
		return &ladon.DefaultPolicy{
			ID:          "operator-" + role,
			Description: desc,
			Subjects:    []string{"operator-role:" + role},
			Resources:   []string{"console"},
			Actions:     actions,
			Effect:      ladon.AllowAccess,
		}
	}
	return []ladon.Policy{
		policy(RoleViewer, "A viewer reads everything but line credentials.", viewer),
		policy(RoleSupport, "Support also reads credentials, resends mail, retries jobs, suspends, unsuspends and extends lines, changes lines billed from their next renewal, signs customers out and asks the buyer of a held order to pay.", support),
		policy(RoleOwner, "An owner also cancels jobs, terminates lines, refunds, provisions held orders unpaid and rejects them, edits the catalog and promotions, manages operators, changes lines charged now or free and reads the settings.", owner),
	}
}

// OperatorAllowed reports whether an operator of role may do action in the console.
func (a *Authorizer) OperatorAllowed(role, action string) bool {
	if role == "" || action == "" {
		return false
	}
	// Ladon matches actions as patterns: a literal action is checked as itself, never as a regexp.
	return a.warden.IsAllowed(context.Background(), &ladon.Request{
		Subject: "operator-role:" + role, Resource: "console", Action: action,
	}) == nil
}
