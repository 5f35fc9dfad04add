package authz

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ory/ladon"
	"github.com/ory/ladon/manager/memory"
)

// Actions a session may ask for on a Resource.
const (
	ActionRead   = "read"
	ActionCancel = "cancel"
	ActionPay    = "pay"
	ActionManage = "manage"
)

// Resource kinds.
const (
	KindOrder   = "order"
	KindService = "service"
	KindInvoice = "invoice"
)

// Resource is something a client owns: the session that bought it is kept so
// an email-only session can be held to its own purchases.
type Resource struct {
	Kind      string // KindOrder, KindService or KindInvoice
	ID        string
	ClientID  int64
	SessionID string // session that bought it
}

// Context keys the policies read.
const (
	keyOwner  = "owner"  // "client:<resource client id>"
	keyBuyer  = "buyer"  // "session:<resource session id>"
	keyClient = "client" // [["client:<session client>", "client:<resource client>"]]
)

// policies is the whole rule set. Anything they do not allow is denied.
func policies() []ladon.Policy {
	return []ladon.Policy{
		&ladon.DefaultPolicy{
			ID:          "proven-session-owns-client",
			Description: "A proven session may do anything to what its client owns.",
			Subjects:    []string{"client:<[0-9]+>"},
			Resources:   []string{"<order|service|invoice>:<.+>"},
			Actions:     []string{"<read|cancel|pay|manage>"},
			Effect:      ladon.AllowAccess,
			Conditions: ladon.Conditions{
				keyOwner: &ladon.EqualsSubjectCondition{},
			},
		},
		&ladon.DefaultPolicy{
			ID:          "email-session-owns-its-purchases",
			Description: "An email-only session may read, cancel and pay what it bought itself, and only if its client owns it.",
			Subjects:    []string{"session:<.+>"},
			Resources:   []string{"<order|service|invoice>:<.+>"},
			Actions:     []string{"<read|cancel|pay>"},
			Effect:      ladon.AllowAccess,
			Conditions: ladon.Conditions{
				keyBuyer: &ladon.EqualsSubjectCondition{},
				// Session ids are unique, but the owner is checked as well so
				// that no session id, however obtained, crosses clients.
				keyClient: &ladon.StringPairsEqualCondition{},
			},
		},
	}
}

// Authorizer answers whether a session may act on a resource. It is safe for
// concurrent use.
type Authorizer struct {
	warden *ladon.Ladon
}

// NewAuthorizer returns an Authorizer with the policies installed in an
// in-memory ladon manager.
func NewAuthorizer() (*Authorizer, error) {
	ctx := context.Background()
	m := memory.NewMemoryManager()
	for _, p := range append(policies(), operatorPolicies()...) {
		if err := m.Create(ctx, p); err != nil {
			return nil, fmt.Errorf("authz: install policy %s: %w", p.GetID(), err)
		}
	}
	return &Authorizer{warden: &ladon.Ladon{
		Manager: m,
		Matcher: ladon.NewRegexpMatcher(64),
		// Set here: ladon fills a nil Metric on first use, a write that races between the
		// first concurrent requests.
		Metric: ladon.DefaultMetric,
	}}, nil
}

// Allowed reports whether the session described by c may perform action on r.
// The claims are trusted as given: they must come from Signer.Verify.
func (a *Authorizer) Allowed(c Claims, action string, r Resource) bool {
	// Empty ids would make "session:" equal "session:"; refuse them outright.
	if c.ClientID <= 0 || r.ClientID <= 0 || r.ID == "" || action == "" {
		return false
	}
	owner := clientSubject(r.ClientID)
	req := &ladon.Request{
		Resource: r.Kind + ":" + r.ID,
		Action:   action,
		Context:  ladon.Context{keyOwner: owner},
	}
	switch c.Scope {
	case ScopeProven:
		req.Subject = clientSubject(c.ClientID)
	case ScopeEmail:
		if c.SessionID == "" || r.SessionID == "" {
			return false
		}
		req.Subject = "session:" + c.SessionID
		req.Context[keyBuyer] = "session:" + r.SessionID
		req.Context[keyClient] = []any{[]any{clientSubject(c.ClientID), owner}}
	default:
		return false
	}
	return a.warden.IsAllowed(context.Background(), req) == nil
}

func clientSubject(id int64) string { return "client:" + strconv.FormatInt(id, 10) }
