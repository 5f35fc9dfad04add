package authz_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/authz"
)

func session(client int64, sid string, scope authz.Scope) authz.Claims {
	return authz.Claims{ClientID: client, SessionID: sid, Scope: scope, IssuedAt: t0, ExpiresAt: t0.Add(time.Hour)}
}

func TestAllowed(t *testing.T) {
	const (
		clientA = int64(1)
		clientB = int64(2)
	)
	var (
		emailA1  = session(clientA, "a-1", authz.ScopeEmail)
		emailA2  = session(clientA, "a-2", authz.ScopeEmail)
		provenA  = session(clientA, "a-3", authz.ScopeProven)
		emailB1  = session(clientB, "b-1", authz.ScopeEmail)
		provenB  = session(clientB, "b-2", authz.ScopeProven)
		orderA1  = authz.Resource{Kind: authz.KindOrder, ID: "10", ClientID: clientA, SessionID: "a-1"}
		svcA1    = authz.Resource{Kind: authz.KindService, ID: "11", ClientID: clientA, SessionID: "a-1"}
		invA1    = authz.Resource{Kind: authz.KindInvoice, ID: "12", ClientID: clientA, SessionID: "a-1"}
		orderA2  = authz.Resource{Kind: authz.KindOrder, ID: "20", ClientID: clientA, SessionID: "a-2"}
		orderB1  = authz.Resource{Kind: authz.KindOrder, ID: "30", ClientID: clientB, SessionID: "b-1"}
		orderAB1 = authz.Resource{Kind: authz.KindOrder, ID: "31", ClientID: clientB, SessionID: "a-1"} // B's order naming A's session
	)

	cases := []struct {
		name   string
		claims authz.Claims
		action string
		res    authz.Resource
		want   bool
	}{
		// A proven session reads and manages everything of its client.
		{"proven reads own order of another session", provenA, authz.ActionRead, orderA1, true},
		{"proven reads own order of second session", provenA, authz.ActionRead, orderA2, true},
		{"proven reads own service", provenA, authz.ActionRead, svcA1, true},
		{"proven reads own invoice", provenA, authz.ActionRead, invA1, true},
		{"proven cancels own", provenA, authz.ActionCancel, orderA2, true},
		{"proven pays own", provenA, authz.ActionPay, invA1, true},
		{"proven manages own", provenA, authz.ActionManage, svcA1, true},

		// An email session sees only what it bought itself.
		{"email reads same-session order", emailA1, authz.ActionRead, orderA1, true},
		{"email reads same-session service", emailA1, authz.ActionRead, svcA1, true},
		{"email reads same-session invoice", emailA1, authz.ActionRead, invA1, true},
		{"email cancels same-session", emailA1, authz.ActionCancel, orderA1, true},
		{"email pays same-session", emailA1, authz.ActionPay, invA1, true},
		{"email cannot manage even same-session", emailA1, authz.ActionManage, svcA1, false},
		{"email cannot read other session of same client", emailA2, authz.ActionRead, orderA1, false},
		{"email cannot cancel other session of same client", emailA2, authz.ActionCancel, orderA1, false},
		{"email cannot pay other session of same client", emailA1, authz.ActionPay, orderA2, false},

		// Nobody crosses clients.
		{"proven cross-client read", provenA, authz.ActionRead, orderB1, false},
		{"proven cross-client manage", provenB, authz.ActionManage, svcA1, false},
		{"email cross-client read", emailB1, authz.ActionRead, orderA1, false},
		{"email cross-client with matching session id", emailA1, authz.ActionRead, orderAB1, false},
		{"email other client same session id", session(clientB, "a-1", authz.ScopeEmail), authz.ActionRead, orderA1, false},

		// Deny by default.
		{"unknown action", provenA, "delete", orderA1, false},
		{"empty action", provenA, "", orderA1, false},
		{"action as pattern", provenA, "read|manage", orderA1, false},
		{"unknown kind", provenA, authz.ActionRead, authz.Resource{Kind: "user", ID: "1", ClientID: clientA}, false},
		{"empty kind", provenA, authz.ActionRead, authz.Resource{ID: "1", ClientID: clientA}, false},
		{"empty resource id", provenA, authz.ActionRead, authz.Resource{Kind: authz.KindOrder, ClientID: clientA}, false},
		{"resource without owner", provenA, authz.ActionRead, authz.Resource{Kind: authz.KindOrder, ID: "1"}, false},
		{"unknown scope", session(clientA, "a-1", "admin"), authz.ActionRead, orderA1, false},
		{"empty scope", session(clientA, "a-1", ""), authz.ActionRead, orderA1, false},
		{"zero claims", authz.Claims{}, authz.ActionRead, orderA1, false},
		{"email without session vs resource without session", session(clientA, "", authz.ScopeEmail), authz.ActionRead,
			authz.Resource{Kind: authz.KindOrder, ID: "1", ClientID: clientA}, false},
		{"email vs resource bought by no session", emailA1, authz.ActionRead,
			authz.Resource{Kind: authz.KindOrder, ID: "1", ClientID: clientA}, false},
	}

	a, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.Allowed(tc.claims, tc.action, tc.res); got != tc.want {
				t.Fatalf("Allowed(%+v, %q, %+v) = %v, want %v", tc.claims, tc.action, tc.res, got, tc.want)
			}
		})
	}
}

// TestTokenToDecision follows a request end to end: only a genuine, unexpired
// token reaches the policies.
func TestTokenToDecision(t *testing.T) {
	s := mustSigner(t)
	other := mustSigner(t)
	a, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	order := authz.Resource{Kind: authz.KindOrder, ID: "10", ClientID: 1, SessionID: "a-1"}
	genuine, err := s.Sign(session(1, "a-1", authz.ScopeEmail))
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := other.Sign(session(1, "a-1", authz.ScopeProven))
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name  string
		token string
		now   time.Time
		want  bool
	}{
		{"genuine", genuine, t0, true},
		{"expired", genuine, t0.Add(2 * time.Hour), false},
		{"wrong key", foreign, t0, false},
		{"tampered", flipSig(genuine), t0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := s.Verify(tc.token, tc.now)
			got := err == nil && a.Allowed(c, authz.ActionRead, order)
			if got != tc.want {
				t.Fatalf("allowed = %v (verify err %v), want %v", got, err, tc.want)
			}
		})
	}
}

// The first decisions of a new Authorizer may come from many requests at once (under -race
// this failed while ladon set its metric on first use).
func TestAllowedFirstUseConcurrently(t *testing.T) {
	a, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	c := session(1, "a-1", authz.ScopeEmail)
	r := authz.Resource{Kind: authz.KindOrder, ID: "10", ClientID: 1, SessionID: "a-1"}
	start := make(chan struct{})
	allowed := make(chan bool, 40)
	for range 40 {
		go func() {
			<-start
			allowed <- a.Allowed(c, authz.ActionRead, r)
		}()
	}
	close(start)
	for range 40 {
		if !<-allowed {
			t.Fatal("the buyer's own order refused")
		}
	}
}
