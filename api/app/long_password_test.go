package app_test

import (
	"strings"
	"testing"

	genresellers "github.com/streamcart/streamcart/gen/resellers"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// TestPasswordLongerThanBcryptReads: bcrypt reads 72 bytes, the API takes up to 256 characters.
// A longer password is refused with 400 bad_request and a message saying why — on sign-in (new
// and existing clients), on setting a password and on a reseller order — never a 500, and nothing
// is stored: the client keeps no password and can still set a proper one.
func TestPasswordLongerThanBcryptReads(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		long := strings.Repeat("é", 40) // 40 characters, 80 bytes
		const msg = "Please choose a password of at most 72 bytes (72 letters without accents)."
		_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "long@example.com", Password: ptr(long)})
		wantErr(t, err, "bad_request", msg)
		s.register("has-one@example.com", "a fine password")
		_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "has-one@example.com", Password: ptr(long)})
		wantErr(t, err, "bad_request", msg)

		s.identify("long@example.com", "") // the refused sign-in created no client
		proven := s.proven("long@example.com")
		err = s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(proven.Token), Password: long})
		wantErr(t, err, "bad_request", msg)

		buyer := s.identify("reseller-long@example.com", "")
		_, err = s.after.resellers.Order(t.Context(), &genresellers.OrderPayload{Token: ptr(buyer.Token), Pid: 10, Password: long, ConfirmPassword: long})
		wantErr(t, err, "bad_request", msg)

		// Nothing was stored: the client still has no password, and a proper one works.
		if err := s.session.SetPassword(t.Context(), &gensession.SetPasswordPayload{Token: ptr(proven.Token), Password: "seventy-two is plenty"}); err != nil {
			t.Fatal(err)
		}
		if got := s.identify("long@example.com", "seventy-two is plenty"); got.Scope != "proven" {
			t.Fatalf("scope %s, want proven", got.Scope)
		}
	})
}
