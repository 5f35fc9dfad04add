package signin_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestMain(m *testing.M) {
	account.PasswordCost = bcrypt.MinCost // the real bcrypt, at its cheapest
	os.Exit(m.Run())
}

// sent keeps the mails sign-in sends.
type sent []mail.Message

func (s *sent) Send(_ context.Context, m mail.Message) error {
	*s = append(*s, m)
	return nil
}

// take returns the mails sent since the last call.
func (s *sent) take() []mail.Message {
	out := *s
	*s = nil
	return out
}

var linkInMail = regexp.MustCompile(`https?://[^\s"<>]*[?&]signin=([A-Za-z0-9_-]+)[^\s"<>]*`)

// link is the sign-in link of m and its token.
func link(t *testing.T, m mail.Message) (string, string) {
	t.Helper()
	got := linkInMail.FindStringSubmatch(m.Body)
	if got == nil {
		t.Fatalf("no sign-in link in %q", m.Body)
	}
	return got[0], got[1]
}

type fixture struct {
	svc      *signin.Service
	accounts *account.Service
	mails    *sent
	now      time.Time
}

// newFixture is sign-in on a fresh store of b, for the shop https://shop.example, on a clock the
// test moves (f.now).
func newFixture(t *testing.T, b storetest.Backend) *fixture {
	t.Helper()
	st := b.Open(t)
	key, err := authz.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	signer, err := authz.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{accounts: account.New(st, signer, nil), mails: &sent{}, now: time.Now().UTC().Truncate(time.Second)} // whole seconds: stored times keep microseconds
	f.svc = signin.New(st, f.accounts, f.mails, signin.Config{PublicURL: "https://shop.example"}, slog.New(slog.DiscardHandler),
		func() time.Time { return f.now })
	return f
}

// client makes email a client (as a first order does) and returns its email-only session.
func (f *fixture) client(t *testing.T, email string) account.Identified {
	t.Helper()
	id, err := f.accounts.Identify(t.Context(), email, "")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A link opens the page it was asked from, on this shop or on a site of the storefront that asked,
// and nowhere else: the token in it must never travel to another site.
func TestLinkOpensOnlyThisShopOrTheStorefrontsSites(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		f.client(t, "buyer@example.com")
		cases := []struct {
			returnURL string
			origins   []string
			want      string // the link without its token; "": refused
		}{
			{"", nil, "https://shop.example/checkout/?signin="},
			{"/checkout/de-de/?view=services", nil, "https://shop.example/checkout/de-de/?signin=&view=services"},
			{"https://shop.example/checkout/upsell", nil, "https://shop.example/checkout/upsell?signin="},
			{"https://reseller.example/buy", []string{"https://reseller.example"}, "https://reseller.example/buy?signin="},
			{"https://reseller.example/buy", nil, ""},
			{"https://evil.example/", []string{"https://reseller.example"}, ""},
			{"//evil.example/checkout/", nil, ""},
			{`/\evil.example`, nil, ""},
			{"checkout/", nil, ""},
			{"javascript:alert(1)", nil, ""},
			{"ftp://shop.example/", nil, ""},
		}
		for _, tc := range cases {
			t.Run(tc.returnURL, func(t *testing.T) {
				err := f.svc.RequestLink(t.Context(), signin.LinkRequest{Email: "buyer@example.com", ReturnURL: tc.returnURL, ReturnOrigins: tc.origins})
				mails := f.mails.take()
				if tc.want == "" {
					if !errors.Is(err, signin.ErrBadReturnURL) || len(mails) != 0 {
						t.Fatalf("err = %v, %d mails; want ErrBadReturnURL and none", err, len(mails))
					}
					return
				}
				if err != nil || len(mails) != 1 {
					t.Fatalf("err = %v, %d mails; want one", err, len(mails))
				}
				got, token := link(t, mails[0])
				if got = strings.Replace(got, token, "", 1); got != tc.want {
					t.Fatalf("link = %s, want %s", got, tc.want)
				}
				f.now = f.now.Add(signin.Window) // past the per-client limit
			})
		}
	})
}

// A link signs its client in once, with a proven session, and only within LinkTTL.
func TestLinkWorksOnceWithinItsLife(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		f.client(t, "buyer@example.com")
		request := func() string {
			t.Helper()
			if err := f.svc.RequestLink(ctx, signin.LinkRequest{Email: " Buyer@Example.com "}); err != nil {
				t.Fatal(err)
			}
			mails := f.mails.take()
			if len(mails) != 1 || mails[0].To != "buyer@example.com" {
				t.Fatalf("mails = %+v, want one to buyer@example.com", mails)
			}
			_, token := link(t, mails[0])
			return token
		}

		token := request()
		id, err := f.svc.RedeemLink(ctx, token)
		if err != nil || id.Claims.Scope != authz.ScopeProven || id.Claims.Email != "buyer@example.com" {
			t.Fatalf("redeem = %+v, %v; want a proven session of buyer@example.com", id.Claims, err)
		}
		if _, err := f.svc.RedeemLink(ctx, token); !errors.Is(err, signin.ErrInvalidLink) {
			t.Fatalf("second redeem: %v, want ErrInvalidLink", err)
		}

		late := request()
		f.now = f.now.Add(signin.LinkTTL + time.Second)
		if _, err := f.svc.RedeemLink(ctx, late); !errors.Is(err, signin.ErrInvalidLink) {
			t.Fatalf("redeem after %s: %v, want ErrInvalidLink", signin.LinkTTL, err)
		}
		for _, bad := range []string{"", "not-a-token", token + "x"} {
			if _, err := f.svc.RedeemLink(ctx, bad); !errors.Is(err, signin.ErrInvalidLink) {
				t.Fatalf("redeem %q: %v, want ErrInvalidLink", bad, err)
			}
		}
	})
}

// Asking for links answers alike whoever asks: an unknown email, or one past its limit, gets no
// mail and no error. A client gets MaxLinksPerEmail links per Window, an address asks
// MaxLinksPerIP times per Window; a malformed email is the only refusal.
func TestLinkRequestsAreLimitedSilently(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		f.client(t, "buyer@example.com")
		ask := func(email, ip string) int {
			t.Helper()
			if err := f.svc.RequestLink(ctx, signin.LinkRequest{Email: email, IP: ip}); err != nil {
				t.Fatalf("request link for %s: %v", email, err)
			}
			return len(f.mails.take())
		}

		if n := ask("stranger@example.com", ""); n != 0 {
			t.Fatalf("unknown email got %d mails", n)
		}
		for i := range signin.MaxLinksPerEmail {
			if n := ask("buyer@example.com", ""); n != 1 {
				t.Fatalf("link %d: %d mails, want 1", i+1, n)
			}
		}
		if n := ask("buyer@example.com", ""); n != 0 {
			t.Fatalf("link past the client's limit: %d mails, want none", n)
		}
		f.now = f.now.Add(signin.Window + time.Second)
		if n := ask("buyer@example.com", ""); n != 1 {
			t.Fatalf("link a window later: %d mails, want 1", n)
		}

		f.now = f.now.Add(signin.Window + time.Second)
		for i := range signin.MaxLinksPerIP {
			email := fmt.Sprintf("c%d@example.com", i)
			f.client(t, email)
			if n := ask(email, "203.0.113.7"); n != 1 {
				t.Fatalf("request %d from the address: %d mails, want 1", i+1, n)
			}
		}
		if n := ask("buyer@example.com", "203.0.113.7"); n != 0 {
			t.Fatalf("request past the address's limit: %d mails, want none", n)
		}
		if n := ask("buyer@example.com", "203.0.113.8"); n != 1 {
			t.Fatalf("request from another address: %d mails, want 1", n)
		}
		if err := f.svc.RequestLink(ctx, signin.LinkRequest{Email: "not an email"}); !errors.Is(err, account.ErrInvalidEmail) {
			t.Fatalf("malformed email: %v, want ErrInvalidEmail", err)
		}
	})
}

// Wrong passwords for an email are limited to MaxFailuresPerEmail per Window; beyond, even the
// right password is throttled, with the wait until the oldest attempt leaves the window. A right
// password gives its place back, so it never counts against the buyer.
func TestPasswordAttemptsAreThrottled(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		const email, right = "buyer@example.com", "correct horse"
		if err := f.svc.SetPassword(ctx, proven(t, f, email).Claims, right); err != nil {
			t.Fatal(err)
		}
		try := func(password string) error {
			t.Helper()
			_, err := f.svc.Password(ctx, email, password, "198.51.100.1")
			return err
		}

		for range 3 {
			if err := try(right); err != nil {
				t.Fatalf("right password: %v", err)
			}
		}
		for i := range signin.MaxFailuresPerEmail {
			if err := try("wrong password"); !errors.Is(err, account.ErrInvalidCredentials) {
				t.Fatalf("wrong password %d: %v, want ErrInvalidCredentials", i+1, err)
			}
			f.now = f.now.Add(time.Minute)
		}
		err := try(right)
		var throttled *signin.ThrottledError
		if !errors.As(err, &throttled) || !errors.Is(err, signin.ErrTooManyAttempts) {
			t.Fatalf("right password past the limit: %v, want a ThrottledError", err)
		}
		// The first wrong password was MaxFailuresPerEmail minutes ago.
		if want := signin.Window - signin.MaxFailuresPerEmail*time.Minute; throttled.RetryAfter != want {
			t.Fatalf("retry after %s, want %s", throttled.RetryAfter, want)
		}
		f.now = f.now.Add(throttled.RetryAfter + time.Second)
		if err := try(right); err != nil {
			t.Fatalf("right password once the window moved on: %v", err)
		}
	})
}

// Setting a password needs a session proven by a link or a password, and a password long enough;
// once set it signs in, and the client's other sessions end.
func TestSetPasswordNeedsAProvenSession(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		f := newFixture(t, b)
		ctx := t.Context()
		emailOnly := f.client(t, "buyer@example.com")
		if err := f.svc.SetPassword(ctx, emailOnly.Claims, "long enough"); !errors.Is(err, signin.ErrNotProven) {
			t.Fatalf("email-only session: %v, want ErrNotProven", err)
		}
		linked := proven(t, f, "buyer@example.com")
		if err := f.svc.SetPassword(ctx, linked.Claims, "short"); !errors.Is(err, signin.ErrWeakPassword) {
			t.Fatalf("short password: %v, want ErrWeakPassword", err)
		}
		if err := f.svc.SetPassword(ctx, linked.Claims, "long enough"); err != nil {
			t.Fatal(err)
		}
		id, err := f.svc.Password(ctx, "buyer@example.com", "long enough", "")
		if err != nil || id.Claims.Scope != authz.ScopeProven {
			t.Fatalf("sign in with the new password: %+v, %v", id.Claims, err)
		}
		if _, err := f.accounts.Authenticate(ctx, emailOnly.Token); !errors.Is(err, account.ErrUnauthorized) {
			t.Fatalf("the other session after the password was set: %v, want ErrUnauthorized", err)
		}
		if _, err := f.accounts.Authenticate(ctx, linked.Token); err != nil {
			t.Fatalf("the session that set the password: %v", err)
		}
	})
}

// proven is a session of email proven by a sign-in link.
func proven(t *testing.T, f *fixture, email string) account.Identified {
	t.Helper()
	f.client(t, email)
	if err := f.svc.RequestLink(t.Context(), signin.LinkRequest{Email: email}); err != nil {
		t.Fatal(err)
	}
	mails := f.mails.take()
	if len(mails) != 1 {
		t.Fatalf("%d link mails, want 1", len(mails))
	}
	_, token := link(t, mails[0])
	id, err := f.svc.RedeemLink(t.Context(), token)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A password is at least MinPasswordLen characters (not bytes) and at most what bcrypt reads.
func TestCheckPassword(t *testing.T) {
	cases := []struct {
		name, password string
		want           error
	}{
		{"empty", "", signin.ErrWeakPassword},
		{"seven", "1234567", signin.ErrWeakPassword},
		{"eight", "12345678", nil},
		{"eight accented characters", strings.Repeat("é", 8), nil},
		{"seven accented characters, fourteen bytes", strings.Repeat("é", 7), signin.ErrWeakPassword},
		{"as long as bcrypt reads", strings.Repeat("a", account.MaxPasswordBytes), nil},
		{"longer than bcrypt reads", strings.Repeat("a", account.MaxPasswordBytes+1), account.ErrPasswordTooLong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := signin.CheckPassword(tc.password); !errors.Is(err, tc.want) {
				t.Fatalf("CheckPassword = %v, want %v", err, tc.want)
			}
		})
	}
}
