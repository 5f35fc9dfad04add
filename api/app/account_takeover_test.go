package app_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	genresellers "github.com/streamcart/streamcart/gen/resellers"
	genservices "github.com/streamcart/streamcart/gen/services"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// wantThrottled checks that err is 429 too_many_attempts with a wait of at most 15 minutes.
func wantThrottled(t *testing.T, err error) {
	t.Helper()
	var tm *gensession.TooManyAttempts
	if !errors.As(err, &tm) {
		t.Fatalf("error = %v (%T), want too_many_attempts", err, err)
	}
	if tm.Name != "too_many_attempts" || tm.Message != "Too many failed sign-in attempts. Please wait 15 minutes and try again." ||
		tm.RetryAfter < 1 || tm.RetryAfter > 15*60 {
		t.Fatalf("too_many_attempts = %+v, want the message and 1 to 900 seconds", tm)
	}
}

// TestResellerOrderTakesOverNoAccount (issue 12, account takeover): an email-only session for the
// victim's address orders a reseller plan with a password of the attacker's choosing. Whether the
// order fails (unknown product, unknown gateway) or succeeds, the password never becomes the
// victim's sign-in password, the answer hands out no proven session, and a failing order stores
// nothing.
func TestResellerOrderTakesOverNoAccount(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		victim := s.identify("victim@example.com", "")
		s.activeService(victim.Token, standard())
		attacker := s.identify("victim@example.com", "") // anyone can type the address
		signInAsVictim := func() {
			t.Helper()
			_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "victim@example.com", Password: ptr("attacker-pw")})
			wantErr(t, err, "invalid_credentials", "Wrong email or password.")
		}

		failing := []struct {
			name string
			p    genresellers.OrderPayload
			want string
		}{
			{"unknown product", genresellers.OrderPayload{Pid: 999}, "not_found"},
			{"not a reseller plan", genresellers.OrderPayload{Pid: 2}, "not_found"},
			{"unknown gateway", genresellers.OrderPayload{Pid: 10, Gateway: ptr("nope")}, "bad_request"},
			{"foreign return URL", genresellers.OrderPayload{Pid: 10, ReturnURL: ptr("https://evil.example/")}, "bad_request"},
		}
		for _, tc := range failing {
			p := tc.p
			p.Token, p.Password, p.ConfirmPassword = ptr(attacker.Token), "attacker-pw", "attacker-pw"
			_, err := s.after.resellers.Order(t.Context(), &p)
			wantErr(t, err, tc.want, "")
			signInAsVictim()
		}
		for table, n := range map[string]int{
			"reseller_orders": s.count(`SELECT COUNT(*) FROM reseller_orders`),
			"orders":          s.count(`SELECT COUNT(*) FROM orders`) - 1, // the victim's own
			"passwords":       s.count(`SELECT COUNT(*) FROM clients WHERE password_hash <> ''`),
		} {
			if n != 0 {
				t.Errorf("failing reseller orders left %d rows in %s", n, table)
			}
		}

		// A reseller order that succeeds: the password is the panel account's only, and the answer
		// is the caller's email-only session, which still cannot read the victim's line.
		ord, err := s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(attacker.Token), Pid: 10,
			Password: "attacker-pw", ConfirmPassword: "attacker-pw"})
		if err != nil {
			t.Fatal(err)
		}
		if ord.Session.Scope != "email" || ord.Session.Token != attacker.Token || ord.Session.UserID != victim.UserID {
			t.Fatalf("answer session %+v, want the caller's own email-only session", ord.Session)
		}
		signInAsVictim()
		list, err := s.services.List(t.Context(), &genservices.ListPayload{Token: ptr(ord.Session.Token)})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range list.Services {
			if v.Username != "" {
				t.Fatalf("the attacker's session reads the victim's line %+v", v)
			}
		}
	})
}

// TestPasswordCreatesNoClient (issue 12, pre-registration): a password for an address that is
// not a client is refused like any wrong password, and creates neither client nor session.
func TestPasswordCreatesNoClient(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "owner@example.com", Password: ptr("attacker-pw")})
		wantErr(t, err, "invalid_credentials", "Wrong email or password.")
		if n := s.count(`SELECT COUNT(*) FROM clients`) + s.count(`SELECT COUNT(*) FROM sessions`); n != 0 {
			t.Fatalf("%d clients and sessions after a refused sign-in, want none", n)
		}
		// The owner arrives later: still no password, so the attacker's one opens nothing.
		s.activeService(s.identify("owner@example.com", "").Token, standard())
		_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "owner@example.com", Password: ptr("attacker-pw")})
		wantErr(t, err, "invalid_credentials", "")
	})
}

// TestNoAccountOracle (issue 12): an unknown address, an address without a password and a wrong
// password get the same answer (status and body, but for Goa's random error id), and create
// nothing. That each costs one bcrypt computation is TestIdentifyRunsBcryptOnce's (api/account).
func TestNoAccountOracle(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		s.identify("nopass@example.com", "")
		s.register("haspass@example.com", "the-right-one")
		clients, sessions := s.count(`SELECT COUNT(*) FROM clients`), s.count(`SELECT COUNT(*) FROM sessions`)
		var first string
		for _, email := range []string{"unknown@example.com", "nopass@example.com", "haspass@example.com"} {
			status, _, body := s.raw(http.MethodPost, "/checkout/api/session", "", strings.NewReader(`{"email":"`+email+`","password":"a-guess-123"}`))
			var answer map[string]any
			if err := json.Unmarshal(body, &answer); err != nil || status != http.StatusUnauthorized {
				t.Fatalf("%s: %d %s, want 401", email, status, body)
			}
			delete(answer, "id")
			shape, _ := json.Marshal(answer)
			if first == "" {
				first = string(shape)
			} else if string(shape) != first {
				t.Fatalf("%s answers %s, the unknown address %s", email, shape, first)
			}
		}
		if !strings.Contains(first, `"name":"invalid_credentials"`) {
			t.Fatalf("answer %s, want invalid_credentials", first)
		}
		if c, n := s.count(`SELECT COUNT(*) FROM clients`), s.count(`SELECT COUNT(*) FROM sessions`); c != clients || n != sessions {
			t.Fatalf("refused sign-ins made %d clients and %d sessions", c-clients, n-sessions)
		}
	})
}

// TestConcurrentWrongPasswords (issue 12, parallel guessing): 40 wrong passwords for one email
// sent at once are evaluated at most 5 times; the others answer 429 too_many_attempts with
// Retry-After, and so does the right password afterwards.
func TestConcurrentWrongPasswords(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		s.register("target@example.com", "the-right-one")
		const guesses = 40
		type answer struct {
			status int
			retry  string
		}
		answers := make([]answer, guesses)
		var wg sync.WaitGroup
		for i := range guesses {
			wg.Go(func() {
				body := strings.NewReader(`{"email":"target@example.com","password":"guess-` + strconv.Itoa(i) + `"}`)
				resp, err := s.http.Post(s.base+"/checkout/api/session", "application/json", body)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				answers[i] = answer{resp.StatusCode, resp.Header.Get("Retry-After")}
			})
		}
		wg.Wait()
		evaluated := 0
		for _, a := range answers {
			switch a.status {
			case http.StatusUnauthorized:
				evaluated++
			case http.StatusTooManyRequests:
				if n, err := strconv.Atoi(a.retry); err != nil || n < 1 || n > 15*60 {
					t.Errorf("Retry-After %q, want 1 to 900 seconds", a.retry)
				}
			default:
				t.Errorf("status %d, want 401 or 429", a.status)
			}
		}
		if evaluated != 5 {
			t.Fatalf("%d of %d concurrent wrong passwords evaluated, want 5", evaluated, guesses)
		}
		_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "target@example.com", Password: ptr("the-right-one")})
		wantThrottled(t, err)
	})
}

// TestPasswordChangeEndsOtherSessions (issue 12): only a proven session sets a password, and
// setting it signs out every other session of the client, email-only or proven; the session
// that changed it goes on.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		emailOnly := s.identify("moving@example.com", "")
		err := s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(emailOnly.Token), Password: "chosen-by-anyone"})
		wantErr(t, err, "unauthorized", "")
		other := s.proven("moving@example.com")
		changer := s.proven("moving@example.com")
		bystander := s.identify("bystander@example.com", "")
		if err := s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(changer.Token), Password: "new-password"}); err != nil {
			t.Fatal(err)
		}
		for name, tc := range map[string]struct {
			token string
			alive bool
		}{
			"email-only session": {emailOnly.Token, false}, "other proven session": {other.Token, false},
			"the changing session": {changer.Token, true}, "another client's session": {bystander.Token, true},
		} {
			_, err := s.services.List(t.Context(), &genservices.ListPayload{Token: ptr(tc.token)})
			if tc.alive && err != nil {
				t.Errorf("%s: %v, want it still signed in", name, err)
			}
			if !tc.alive {
				wantErr(t, err, "unauthorized", "")
				p := standard()
				p.Token = ptr(tc.token)
				_, err = s.order.Create(t.Context(), &p)
				wantErr(t, err, "unauthorized", "")
			}
		}
		if got := s.identify("moving@example.com", "new-password"); got.Scope != "proven" {
			t.Fatalf("scope %s, want proven", got.Scope)
		}
	})
}
