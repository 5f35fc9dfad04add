package authz_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/authz"
)

func TestOperatorRoles(t *testing.T) {
	a, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	// Each action and the roles allowed it; every other role is refused.
	allowed := map[string][]string{
		authz.OpRead:            {"viewer", "support", "owner"},
		authz.OpReadCredentials: {"support", "owner"},
		authz.OpResendMail:      {"support", "owner"},
		authz.OpRetryJob:        {"support", "owner"},
		authz.OpManageLine:      {"support", "owner"},
		authz.OpSignOutCustomer: {"support", "owner"},
		authz.OpCancelJob:       {"owner"},
		authz.OpTerminateLine:   {"owner"},
		authz.OpRefund:          {"owner"},
		authz.OpReviewOrder:     {"owner"},
		authz.OpEditCatalog:     {"owner"},
		authz.OpManageOperators: {"owner"},
		"delete-everything":     {},
		"":                      {},
	}
	for action, roles := range allowed {
		for _, role := range []string{"viewer", "support", "owner", "", "admin", "Owner.*", "<.*>"} {
			want := false
			for _, r := range roles {
				want = want || r == role
			}
			if got := a.OperatorAllowed(role, action); got != want {
				t.Errorf("OperatorAllowed(%q, %q) = %v, want %v", role, action, got, want)
			}
		}
	}
}
