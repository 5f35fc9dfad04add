package manage_test

import (
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/manage"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

type fixture struct {
	st     store.Backend
	lines  *panel.Builtin
	orders *order.Orders
	m      *manage.Services
}

// newFixture is the service manager on a fresh store of b, with the built-in panel, the real
// policies and the audit log in the same store.
func newFixture(t *testing.T, b storetest.Backend) fixture {
	t.Helper()
	st := b.Open(t)
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	f := fixture{st: st, lines: panel.NewBuiltin(st, "tv.example", nil)}
	f.orders = order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, order.Config{Fraud: fraud.Rules{}}, log, nil)
	f.m = manage.New(st, f.lines, catalog.Demo, az, audit.New(st, log, nil), nil)
	return f
}

// session opens a session of scope for email's client.
func (f fixture) session(t *testing.T, email string, scope authz.Scope) authz.Claims {
	t.Helper()
	c, _, err := f.st.EnsureClient(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ses := account.Session{ID: id.New("ses_"), ClientID: c.ID, Scope: scope, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := f.st.CreateSession(t.Context(), ses); err != nil {
		t.Fatal(err)
	}
	return authz.Claims{ClientID: c.ID, SessionID: ses.ID, Scope: scope, Email: email}
}

// service is a monthly service bought by buyer, with a line on the panel, in status.
func (f fixture) service(t *testing.T, buyer authz.Claims, status order.ServiceStatus) order.Service {
	t.Helper()
	ctx := t.Context()
	o, err := f.orders.Create(ctx, buyer, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.st.Service(ctx, o.ServiceIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	s.Status, s.Username, s.Password, s.ExpiresAt = status, panel.NewUsername("sc"), panel.NewPassword(), time.Now().AddDate(0, 1, 0)
	if err := f.st.UpdateService(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := f.lines.CreateLine(ctx, panel.Line{Ref: s.ID, Username: s.Username, Password: s.Password,
		MaxConnections: s.MaxConnections, ExpiresAt: s.ExpiresAt, Enabled: status == order.ServiceActive}); err != nil {
		t.Fatal(err)
	}
	return s
}

// Only a proven session of the owning client manages a service; to anyone else (an email-only
// session, even the one that bought it, or another client) it does not exist. Listing shows a
// client's services to its proven sessions, and an email-only session what it bought itself.
func TestOnlyTheOwnersProvenSessionManages(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		buyer := f.session(t, "ana@example.com", authz.ScopeEmail)
		svc := f.service(t, buyer, order.ServiceActive)
		other := f.service(t, f.session(t, "ana@example.com", authz.ScopeEmail), order.ServiceActive)
		cases := []struct {
			name   string
			claims authz.Claims
			manage bool
			listed []string
		}{
			{"proven session of the owner", f.session(t, "ana@example.com", authz.ScopeProven), true, []string{svc.ID, other.ID}},
			{"email-only session that bought it", buyer, false, []string{svc.ID}},
			{"another email-only session of the owner", f.session(t, "ana@example.com", authz.ScopeEmail), false, []string{}},
			{"proven session of another client", f.session(t, "bob@example.com", authz.ScopeProven), false, []string{}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.m.Managed(ctx, tc.claims, svc.ID)
				if tc.manage && (err != nil || got.ID != svc.ID) {
					t.Fatalf("Managed = %s, %v; want the service", got.ID, err)
				}
				if !tc.manage && !errors.Is(err, order.ErrNotFound) {
					t.Fatalf("Managed = %s, %v; want order.ErrNotFound", got.ID, err)
				}
				if _, err := f.m.Restart(ctx, tc.claims, svc.ID); (err == nil) != tc.manage {
					t.Fatalf("Restart: %v, want allowed = %v", err, tc.manage)
				}
				list, err := f.m.List(ctx, tc.claims)
				if err != nil {
					t.Fatal(err)
				}
				ids := []string{}
				for _, s := range list {
					ids = append(ids, s.ID)
				}
				if !slices.Equal(ids, tc.listed) {
					t.Fatalf("List = %v, want %v", ids, tc.listed)
				}
			})
		}
		if _, err := f.m.Managed(ctx, cases[0].claims, "svc_unknown"); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("unknown service: %v, want order.ErrNotFound", err)
		}
	})
}

// Each action runs only in the statuses that allow it (restart on an active line; recreate,
// terminate and a new MAC on an active or suspended one), changes the panel's line and the
// service together, and is written to the audit log; a refused one changes nothing.
func TestActionsFollowTheServiceStatus(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		owner := f.session(t, "ana@example.com", authz.ScopeProven)
		type action struct {
			name string
			run  func(id string) (order.Service, error)
			// check is what a successful action left on the service and its line.
			check func(t *testing.T, s order.Service, line panel.Line, lineErr error)
		}
		restart := action{"restart", func(id string) (order.Service, error) { return f.m.Restart(ctx, owner, id) },
			func(t *testing.T, s order.Service, line panel.Line, lineErr error) {
				if lineErr != nil || !line.Enabled || s.Status != order.ServiceActive {
					t.Fatalf("after restart: %s, line %+v %v; want active and enabled", s.Status, line, lineErr)
				}
			}}
		recreate := action{"recreate", func(id string) (order.Service, error) { return f.m.Recreate(ctx, owner, id) },
			func(t *testing.T, s order.Service, line panel.Line, lineErr error) {
				if lineErr != nil || !line.Enabled || line.Username != s.Username || s.Status != order.ServiceActive {
					t.Fatalf("after recreate: %s, line %+v %v; want active with its credentials", s.Status, line, lineErr)
				}
			}}
		terminate := action{"terminate", func(id string) (order.Service, error) { return f.m.Terminate(ctx, owner, id) },
			func(t *testing.T, s order.Service, _ panel.Line, lineErr error) {
				if !errors.Is(lineErr, panel.ErrNotFound) || s.Status != order.ServiceTerminated {
					t.Fatalf("after terminate: %s, line error %v; want terminated and no line", s.Status, lineErr)
				}
			}}
		mac := action{"mac", func(id string) (order.Service, error) { return f.m.SetMAC(ctx, owner, id, " 0a-1b-2c-3d-4e-5f ") },
			func(t *testing.T, s order.Service, line panel.Line, lineErr error) {
				if lineErr != nil || line.MAC != "0A:1B:2C:3D:4E:5F" || s.MACAddress != "0A:1B:2C:3D:4E:5F" {
					t.Fatalf("after mac: service %q, line %+v %v; want 0A:1B:2C:3D:4E:5F on both", s.MACAddress, line, lineErr)
				}
			}}
		cases := []struct {
			status  order.ServiceStatus
			allowed []action
			refused []action
		}{
			{order.ServiceActive, []action{restart, recreate, mac, terminate}, nil},
			{order.ServiceSuspended, []action{recreate}, []action{restart}},
			{order.ServiceSuspended, []action{mac, terminate}, nil},
			{order.ServicePending, nil, []action{restart, recreate, terminate, mac}},
			{order.ServiceTerminated, nil, []action{restart, recreate, terminate, mac}},
		}
		for _, tc := range cases {
			t.Run(string(tc.status), func(t *testing.T) {
				svc := f.service(t, owner, tc.status)
				for _, a := range tc.refused {
					if _, err := a.run(svc.ID); !errors.Is(err, manage.ErrState) {
						t.Fatalf("%s on %s: %v, want ErrState", a.name, tc.status, err)
					}
				}
				for _, a := range tc.allowed {
					got, err := a.run(svc.ID)
					if err != nil {
						t.Fatalf("%s on %s: %v", a.name, tc.status, err)
					}
					stored, err := f.st.Service(ctx, svc.ID)
					if err != nil || stored.Status != got.Status || stored.MACAddress != got.MACAddress {
						t.Fatalf("%s: stored %+v, %v; answered %+v", a.name, stored, err, got)
					}
					line, lineErr := f.lines.Line(ctx, svc.ID)
					a.check(t, stored, line, lineErr)
				}
				entries, err := f.st.ListAudit(ctx, svc.ID, 100)
				if err != nil {
					t.Fatal(err)
				}
				if len(entries) != len(tc.allowed) {
					t.Fatalf("%d audit entries, want %d (one per action run): %+v", len(entries), len(tc.allowed), entries)
				}
			})
		}
	})
}

// A MAC address is six hex pairs with one separator throughout, ':' or '-'; it is kept upper-case
// with ':'.
func TestNormalizeMAC(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"0a:1b:2c:3d:4e:5f", "0A:1B:2C:3D:4E:5F"},
		{"0A-1B-2C-3D-4E-5F", "0A:1B:2C:3D:4E:5F"},
		{"  00:11:22:33:44:55\n", "00:11:22:33:44:55"},
		{"0A:1B-2C:3D:4E:5F", ""},
		{"0A:1B:2C:3D:4E", ""},
		{"0A:1B:2C:3D:4E:5F:60", ""},
		{"0A1B2C3D4E5F", ""},
		{"0G:1B:2C:3D:4E:5F", ""},
		{"0A.1B.2C.3D.4E.5F", ""},
		{"", ""},
	}
	for _, tc := range cases {
		t.Run(tc.raw, func(t *testing.T) {
			got, err := manage.NormalizeMAC(tc.raw)
			if tc.want == "" {
				if !errors.Is(err, manage.ErrInvalidMAC) {
					t.Fatalf("NormalizeMAC = %q, %v; want ErrInvalidMAC", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("NormalizeMAC = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A bad MAC is refused only after ownership: a foreign service is not found whatever the MAC.
func TestBadMACOnAForeignServiceIsNotFound(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		svc := f.service(t, f.session(t, "ana@example.com", authz.ScopeEmail), order.ServiceActive)
		stranger := f.session(t, "bob@example.com", authz.ScopeProven)
		if _, err := f.m.SetMAC(t.Context(), stranger, svc.ID, "not a mac"); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("bad MAC on a foreign service: %v, want order.ErrNotFound", err)
		}
	})
}
