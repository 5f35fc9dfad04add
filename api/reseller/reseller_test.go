package reseller_test

import (
	"errors"
	"log/slog"
	"os"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestMain(m *testing.M) {
	account.PasswordCost = bcrypt.MinCost // the panel account's password is hashed for real, cheaply
	os.Exit(m.Run())
}

// The demo catalog's reseller plans; the demo has no set-up product, so Pro stands in for it.
const (
	starter    = 10 // 100 credits, EUR 149.00 a month
	pro        = 11 // 500 credits, EUR 599.00 a month
	starterEUR = 14900
	proEUR     = 59900
)

type fixture struct {
	st     store.Backend
	orders *order.Orders
	ledger *reseller.Ledger
	r      *reseller.Resellers
}

// newFixture sells reseller plans from the demo catalog on a fresh store of b, with the
// new-reseller product newPID (0: none).
func newFixture(t *testing.T, b storetest.Backend, newPID int) fixture {
	t.Helper()
	st := b.Open(t)
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	f := fixture{st: st, ledger: reseller.NewLedger(st)}
	f.orders = order.New(st, catalog.Demo, []order.Gateway{payment.Sandbox{}}, az, order.Config{Fraud: fraud.Rules{}}, log, nil)
	f.r = reseller.New(st, catalog.Demo, f.orders, f.ledger, az, audit.New(st, log, nil), reseller.Config{NewResellerPID: newPID}, log, nil)
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

// paid places a reseller order of pid for claims and settles its invoice.
func (f fixture) paid(t *testing.T, claims authz.Claims, pid int) order.Order {
	t.Helper()
	o, err := f.r.Order(t.Context(), claims, reseller.Request{PID: pid, Currency: "EUR", Password: "panel password"})
	if err != nil {
		t.Fatal(err)
	}
	if o, err = f.orders.Settle(t.Context(), o.Invoice.ID, "txn_"+o.ID); err != nil || o.Status != order.StatusPaid {
		t.Fatalf("settle %s: %s, %v", o.ID, o.Status, err)
	}
	return o
}

// A new reseller pays the plan and, once, the new-reseller product; one who says they are a
// reseller already, or whose account has been credited, pays the plan alone, as does everyone
// when the shop has no such product.
func TestOrderAddsTheNewResellerProductToNewResellersOnly(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			name      string
			newPID    int
			existing  bool
			credited  bool // the buyer's account was credited by an earlier order
			wantLines int
			wantTotal int64
		}{
			{"new reseller", pro, false, false, 2, starterEUR + proEUR},
			{"says they are a reseller", pro, true, false, 1, starterEUR},
			{"account already credited", pro, false, true, 1, starterEUR},
			{"shop without the product", 0, false, false, 1, starterEUR},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				f := newFixture(t, b, tc.newPID)
				buyer := f.session(t, "res@example.com", authz.ScopeProven)
				if tc.credited {
					first := f.paid(t, buyer, starter)
					if err := f.r.Fulfil(t.Context(), job.Job{Ref: first.ID}); err != nil {
						t.Fatal(err)
					}
				}
				o, err := f.r.Order(t.Context(), buyer, reseller.Request{PID: starter, Currency: "EUR", ExistingReseller: tc.existing, Password: "panel password"})
				if err != nil {
					t.Fatal(err)
				}
				if len(o.Quote.Lines) != tc.wantLines || o.Invoice.Amount.Amount != tc.wantTotal || o.Kind != order.KindReseller {
					t.Fatalf("order: %s, %d lines, total %d; want a reseller order of %d lines, total %d",
						o.Kind, len(o.Quote.Lines), o.Invoice.Amount.Amount, tc.wantLines, tc.wantTotal)
				}
			})
		}
	})
}

// An order that cannot be placed leaves no trace: a product that is no reseller plan, or a panel
// password too short, is refused before anything is stored.
func TestRefusedOrderStoresNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, pro)
		buyer := f.session(t, "res@example.com", authz.ScopeProven)
		cases := []struct {
			name string
			req  reseller.Request
			want error
		}{
			{"a plan for viewers", reseller.Request{PID: 2, Password: "panel password"}, reseller.ErrNotReseller},
			{"an unknown product", reseller.Request{PID: 999, Password: "panel password"}, reseller.ErrNotReseller},
			{"a short password", reseller.Request{PID: starter, Password: "short"}, signin.ErrWeakPassword},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := f.r.Order(t.Context(), buyer, tc.req); !errors.Is(err, tc.want) {
					t.Fatalf("Order = %v, want %v", err, tc.want)
				}
			})
		}
		if orders, err := f.st.CustomerOrders(t.Context(), buyer.ClientID, 10); err != nil || len(orders) != 0 {
			t.Fatalf("orders stored: %d, %v; want none", len(orders), err)
		}
	})
}

// A paid reseller order credits its plan's credits to the buyer's account once, however often
// its job runs, and activates the order and its service; a second plan adds to the same account.
func TestFulfilCreditsOncePerOrder(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, 0)
		ctx := t.Context()
		buyer := f.session(t, "res@example.com", authz.ScopeProven)
		first := f.paid(t, buyer, starter)
		for range 2 {
			if err := f.r.Fulfil(ctx, job.Job{Ref: first.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if a, err := f.ledger.Account(ctx, "res@example.com"); err != nil || a.Credits != 100 {
			t.Fatalf("account after one plan run twice: %+v, %v; want 100 credits", a, err)
		}
		o, err := f.st.Order(ctx, first.ID)
		if err != nil || o.Status != order.StatusActive {
			t.Fatalf("order %s, %v; want active", o.Status, err)
		}
		svc, err := f.r.Service(ctx, buyer, first.ServiceIDs[0])
		if err != nil || svc.Status != order.ServiceActive || svc.Credits != 100 || svc.Account.Credits != 100 {
			t.Fatalf("service: %+v, %v; want active with 100 credits on its account", svc, err)
		}

		second := f.paid(t, buyer, pro)
		if err := f.r.Fulfil(ctx, job.Job{Ref: second.ID}); err != nil {
			t.Fatal(err)
		}
		if ok, credits, err := f.r.IsReseller(ctx, buyer); err != nil || !ok || credits != 600 {
			t.Fatalf("IsReseller = %v, %d, %v; want true with 600 credits", ok, credits, err)
		}

		// An order that is no reseller purchase can never be credited: its job fails for good.
		err = f.r.Fulfil(ctx, job.Job{Ref: "ord_unknown"})
		if !job.IsPermanent(err) {
			t.Fatalf("Fulfil(unknown order) = %v, want a permanent failure", err)
		}
	})
}

// An email-only session learns whether its client is a reseller only from a purchase it made
// itself: an email alone reveals nothing. A reseller's service is read by its owner alone.
func TestResellerAccountIsRevealedToItsOwnerOnly(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b, 0)
		ctx := t.Context()
		buyer := f.session(t, "res@example.com", authz.ScopeEmail)
		o := f.paid(t, buyer, starter)
		if err := f.r.Fulfil(ctx, job.Job{Ref: o.ID}); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name     string
			claims   authz.Claims
			reseller bool
			service  bool
		}{
			{"the email-only session that bought it", buyer, true, true},
			{"a proven session of the client", f.session(t, "res@example.com", authz.ScopeProven), true, true},
			{"another email-only session with the same email", f.session(t, "res@example.com", authz.ScopeEmail), false, false},
			{"another client", f.session(t, "other@example.com", authz.ScopeProven), false, false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ok, credits, err := f.r.IsReseller(ctx, tc.claims)
				if err != nil || ok != tc.reseller || (ok && credits != 100) {
					t.Fatalf("IsReseller = %v, %d, %v; want %v", ok, credits, err, tc.reseller)
				}
				_, err = f.r.Service(ctx, tc.claims, o.ServiceIDs[0])
				if tc.service != (err == nil) || (!tc.service && !errors.Is(err, order.ErrNotFound)) {
					t.Fatalf("Service = %v, want readable = %v (order.ErrNotFound otherwise)", err, tc.service)
				}
			})
		}
	})
}

// The ledger credits an account once per ref, creating it with the first password; a credit
// without its ref or account, or of no credits, is refused.
func TestLedgerCreditsOncePerRef(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		l := reseller.NewLedger(b.Open(t))
		ctx := t.Context()
		for _, bad := range []struct {
			ref, account string
			credits      int
		}{{"", "a@example.com", 10}, {"ord_1", "", 10}, {"ord_1", "a@example.com", 0}, {"ord_1", "a@example.com", -5}} {
			if _, err := l.Credit(ctx, bad.ref, bad.account, "hash", bad.credits); !errors.Is(err, reseller.ErrInvalidCredit) {
				t.Fatalf("Credit(%q, %q, %d) = %v, want ErrInvalidCredit", bad.ref, bad.account, bad.credits, err)
			}
		}
		if _, err := l.Account(ctx, "a@example.com"); !errors.Is(err, reseller.ErrNotFound) {
			t.Fatalf("account after refused credits: %v, want ErrNotFound", err)
		}
		steps := []struct {
			ref     string
			credits int
			want    int
		}{{"ord_1", 10, 10}, {"ord_1", 10, 10}, {"ord_2", 5, 15}, {"ord_1", 99, 15}}
		for _, s := range steps {
			a, err := l.Credit(ctx, s.ref, "a@example.com", "hash", s.credits)
			if err != nil || a.Credits != s.want {
				t.Fatalf("Credit(%s, %d) = %d, %v; want a balance of %d", s.ref, s.credits, a.Credits, err, s.want)
			}
		}
	})
}
