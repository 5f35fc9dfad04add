package operator_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/store/storetest"
)

const password = "correct horse battery"

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

type fixture struct {
	ops *operator.Operators
	now time.Time
	mu  sync.Mutex
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) move(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

func newFixture(t *testing.T, b storetest.Backend) *fixture {
	f := &fixture{now: t0}
	f.ops = operator.New(b.Open(t), operator.Config{Issuer: "Test Shop", PasswordCost: bcrypt.MinCost,
		// The guard's delay moves the clock instead of waiting.
		Guard: operator.Guard{Now: f.clock, Sleep: func(_ context.Context, d time.Duration) error { f.move(d); return nil }}},
		slog.New(slog.NewTextHandler(io.Discard, nil)), f.clock)
	return f
}

// enrol adds and sets up an operator and returns its TOTP secret.
func (f *fixture) enrol(t *testing.T, email string, role operator.Role) string {
	t.Helper()
	inv, err := f.ops.Add(t.Context(), email, role)
	if err != nil {
		t.Fatal(err)
	}
	en, err := f.ops.Setup(t.Context(), inv.Token, password)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := operator.Code(en.Secret, f.clock())
	if err := f.ops.Confirm(t.Context(), inv.Token, code); err != nil {
		t.Fatal(err)
	}
	f.move(31 * time.Second) // the confirming code is used up
	return en.Secret
}

func TestSetupAndSignIn(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		inv, err := f.ops.Add(ctx, " Me@Example.com ", operator.RoleOwner)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Operator.Email != "me@example.com" || !inv.ExpiresAt.Equal(t0.Add(24*time.Hour)) {
			t.Fatalf("invitation %+v", inv)
		}
		if got := inv.Link("https://shop.example/"); got != "https://shop.example/checkout/admin/setup?token="+inv.Token {
			t.Fatalf("link %s", got)
		}
		if _, err := f.ops.Add(ctx, "me@example.com", operator.RoleViewer); !errors.Is(err, operator.ErrExists) {
			t.Fatalf("second add: %v, want ErrExists", err)
		}
		// An address that reads otherwise than it is (issue 24, finding 8) is no operator's.
		for _, email := range []string{"\u202emoc.elpmaxe@u", "u\xff@example.com", "u\u200b@example.com", "u\u2028@example.com"} {
			if _, err := f.ops.Add(ctx, email, operator.RoleViewer); !errors.Is(err, operator.ErrInvalidEmail) {
				t.Fatalf("add %+q: %v, want ErrInvalidEmail", email, err)
			}
		}
		if _, err := f.ops.Setup(ctx, inv.Token, "short pass"); !errors.Is(err, operator.ErrWeakPassword) {
			t.Fatalf("short password: %v", err)
		}
		if err := f.ops.Confirm(ctx, inv.Token, "123456"); !errors.Is(err, operator.ErrSetupNotBegun) {
			t.Fatalf("confirm before setup: %v", err)
		}
		en, err := f.ops.Setup(ctx, inv.Token, password)
		if err != nil {
			t.Fatal(err)
		}
		if en.Secret == "" || en.URL == "" {
			t.Fatalf("enrolment %+v", en)
		}
		// Not active before the authenticator is proven.
		code, _ := operator.Code(en.Secret, f.clock())
		if _, err := f.ops.SignIn(ctx, "me@example.com", password, code, ""); !errors.Is(err, operator.ErrInvalidCredentials) {
			t.Fatalf("sign-in before confirm: %v", err)
		}
		if err := f.ops.Confirm(ctx, inv.Token, "000000"); !errors.Is(err, operator.ErrInvalidOTP) {
			t.Fatalf("wrong code: %v", err)
		}
		if err := f.ops.Confirm(ctx, inv.Token, code); err != nil {
			t.Fatal(err)
		}
		if err := f.ops.Confirm(ctx, inv.Token, code); !errors.Is(err, operator.ErrInvalidSetup) {
			t.Fatalf("used token: %v", err)
		}
		if _, err := f.ops.Setup(ctx, inv.Token, password); !errors.Is(err, operator.ErrInvalidSetup) {
			t.Fatalf("setup with a used token: %v", err)
		}
		// The confirming code was used: the same code cannot sign in.
		if _, err := f.ops.SignIn(ctx, "me@example.com", password, code, ""); !errors.Is(err, operator.ErrInvalidCredentials) {
			t.Fatalf("replayed code: %v", err)
		}
		f.move(30 * time.Second)
		code, _ = operator.Code(en.Secret, f.clock())
		in, err := f.ops.SignIn(ctx, "ME@example.com", password, code, "")
		if err != nil {
			t.Fatal(err)
		}
		if in.Principal.Role != operator.RoleOwner || in.CSRF != operator.CSRFToken(in.Token) || !in.ExpiresAt.Equal(f.clock().Add(12*time.Hour)) {
			t.Fatalf("signed in %+v", in)
		}
		p, err := f.ops.Authenticate(ctx, in.Token)
		if err != nil || p.Email != "me@example.com" {
			t.Fatalf("authenticate: %+v %v", p, err)
		}
		f.move(12*time.Hour - time.Second)
		if _, err := f.ops.Authenticate(ctx, in.Token); err != nil {
			t.Fatalf("before 12 h: %v", err)
		}
		f.move(time.Second)
		if _, err := f.ops.Authenticate(ctx, in.Token); !errors.Is(err, operator.ErrUnauthorized) {
			t.Fatalf("after 12 h: %v", err)
		}
	})
}

func TestSetupTokenExpires(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		inv, err := f.ops.Add(t.Context(), "late@example.com", operator.RoleViewer)
		if err != nil {
			t.Fatal(err)
		}
		f.move(24 * time.Hour)
		if _, err := f.ops.Setup(t.Context(), inv.Token, password); !errors.Is(err, operator.ErrInvalidSetup) {
			t.Fatalf("expired token: %v", err)
		}
		if _, err := f.ops.Setup(t.Context(), "not-a-token", password); !errors.Is(err, operator.ErrInvalidSetup) {
			t.Fatalf("unknown token: %v", err)
		}
	})
}

func TestDisabledOperatorCannotSignIn(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		secret := f.enrol(t, "gone@example.com", operator.RoleSupport)
		code, _ := operator.Code(secret, f.clock())
		in, err := f.ops.SignIn(ctx, "gone@example.com", password, code, "")
		if err != nil {
			t.Fatal(err)
		}
		o, err := f.ops.Disable(ctx, "gone@example.com")
		if err != nil || o.Status != operator.StatusDisabled {
			t.Fatalf("disable: %+v %v", o, err)
		}
		if _, err := f.ops.Authenticate(ctx, in.Token); !errors.Is(err, operator.ErrUnauthorized) {
			t.Fatalf("session of a disabled operator: %v", err)
		}
		f.move(30 * time.Second)
		code, _ = operator.Code(secret, f.clock())
		if _, err := f.ops.SignIn(ctx, "gone@example.com", password, code, ""); !errors.Is(err, operator.ErrInvalidCredentials) {
			t.Fatalf("disabled sign-in: %v", err)
		}
		if _, err := f.ops.Disable(ctx, "nobody@example.com"); !errors.Is(err, operator.ErrNotFound) {
			t.Fatalf("disable unknown: %v", err)
		}
	})
}

// TestConcurrentWrongSignInsThrottled: 40 wrong sign-ins at once from one address; at most 10
// are checked, the rest are refused as throttled, and so is then the right password from that
// address, until its oldest attempt is 15 minutes old. From another address the right password
// gets in at once: the account is slowed, never locked.
func TestConcurrentWrongSignInsThrottled(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		secret := f.enrol(t, "target@example.com", operator.RoleOwner)
		var wg sync.WaitGroup
		var mu sync.Mutex
		counts := map[string]int{}
		for range 40 {
			wg.Go(func() {
				_, err := f.ops.SignIn(ctx, "target@example.com", "wrong password!", "123456", "203.0.113.7")
				name := "other: " + errString(err)
				var r *operator.Refusal
				switch {
				case errors.Is(err, operator.ErrInvalidCredentials) && errors.As(err, &r) && r.Reason == operator.ReasonBadPassword:
					name = "checked"
				case errors.Is(err, operator.ErrTooManyAttempts):
					name = "throttled"
				}
				mu.Lock()
				counts[name]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if counts["checked"] != operator.MaxPerAddress || counts["throttled"] != 40-operator.MaxPerAddress {
			t.Fatalf("outcomes %v, want 10 checked and 30 throttled", counts)
		}
		code, _ := operator.Code(secret, f.clock())
		_, err := f.ops.SignIn(ctx, "target@example.com", password, code, "203.0.113.7")
		var te *operator.ThrottledError
		if !errors.As(err, &te) || te.RetryAfter <= 0 || te.RetryAfter > 15*time.Minute+time.Second {
			t.Fatalf("right password from the throttled address: %v", err)
		}
		// Another address of the same IPv6 /64 counts as the same.
		for range operator.MaxPerAddress {
			f.ops.SignIn(ctx, "target@example.com", "wrong password!", "123456", "2001:db8:1:2::1")
		}
		if _, err := f.ops.SignIn(ctx, "target@example.com", password, code, "2001:db8:1:2::ffff"); !errors.As(err, &te) {
			t.Fatalf("the same /64: %v, want throttled", err)
		}
		code, _ = operator.Code(secret, f.clock())
		if _, err := f.ops.SignIn(ctx, "target@example.com", password, code, "198.51.100.9"); err != nil {
			t.Fatalf("right password from another address: %v", err)
		}
		f.move(te.RetryAfter)
		code, _ = operator.Code(secret, f.clock())
		if _, err := f.ops.SignIn(ctx, "target@example.com", password, code, "203.0.113.7"); err != nil {
			t.Fatalf("after 15 minutes: %v", err)
		}
	})
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// TestSealedSecretBelongsToItsOperator: with a secret key, the TOTP secret is stored sealed, and
// sealed for its operator: copied onto another operator's row it does not open, so a database
// writer cannot lend one operator's authenticator to another.
func TestSealedSecretBelongsToItsOperator(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := &fixture{now: t0}
		st := b.Open(t)
		f.ops = operator.New(st, operator.Config{Issuer: "Test Shop", PasswordCost: bcrypt.MinCost,
			SecretKey: []byte("a secret key of the shop, 32+ bytes long")}, slog.New(slog.NewTextHandler(io.Discard, nil)), f.clock)
		ctx := t.Context()
		secretA := f.enrol(t, "a@example.com", operator.RoleOwner)
		f.enrol(t, "b@example.com", operator.RoleViewer)
		a, _ := st.OperatorByEmail(ctx, "a@example.com")
		b2, _ := st.OperatorByEmail(ctx, "b@example.com")
		if a.TOTPSecret == secretA || a.TOTPSecret == b2.TOTPSecret {
			t.Fatalf("stored secrets %q, %q: want sealed, each its own", a.TOTPSecret, b2.TOTPSecret)
		}
		if ok, err := st.ReplaceTOTPSecret(ctx, b2.ID, b2.TOTPSecret, a.TOTPSecret); err != nil || !ok {
			t.Fatalf("copy: %v %v", ok, err)
		}
		code, _ := operator.Code(secretA, f.clock())
		if _, err := f.ops.SignIn(ctx, "b@example.com", password, code, ""); !errors.Is(err, operator.ErrInvalidCredentials) {
			t.Fatalf("b signing in with a's copied secret: %v, want ErrInvalidCredentials", err)
		}
		if _, err := f.ops.SignIn(ctx, "a@example.com", password, code, ""); err != nil {
			t.Fatalf("a signing in: %v", err)
		}
	})
}
