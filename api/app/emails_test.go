package app_test

import (
	"net/http"
	"strings"
	"testing"

	gensession "github.com/streamcart/streamcart/gen/session"
)

// TestEmailsReadAsTyped (issue 24, finding 8): an address with invalid UTF-8 (which the JSON
// decoder silently turned into U+FFFD, merging u\xff@ and u\xfe@ into one client), a bidi
// control that makes it read backwards in the console, a line separator or a zero-width
// character is 400 invalid_email with the spec's message, for an email-only session, a password
// sign-in and a sign-in link, sent as raw bytes and through the generated client; nothing is
// stored.
func TestEmailsReadAsTyped(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		const msg = "Please enter a Valid Email."
		for _, email := range []string{
			"u\xff@example.com", "u\xfe@example.com", "u\ufffd@example.com",
			"\u202emoc.elpmaxe@u", "u\u202a@example.com", "u\u2066@example.com", "u\u2069@example.com",
			"u\u200e@example.com", "u\u200f@example.com", "u\u061c@example.com",
			"u\u2028@example.com", "u\u2029@example.com",
			"u\u200b@example.com", "u\u200d@example.com", "u\u2060@example.com", "\ufeffu@example.com",
		} {
			for _, tc := range []struct{ path, body string }{
				{"/checkout/api/session", `{"email":"` + email + `"}`},
				{"/checkout/api/session", `{"email":"` + email + `","password":"correct horse"}`},
				{"/checkout/api/session/link", `{"email":"` + email + `"}`},
			} {
				status, _, b := s.send(http.MethodPost, tc.path, "", "", tc.body)
				if e := decodeError(t, b); status != http.StatusBadRequest || e.Name != "invalid_email" || e.Message != msg {
					t.Errorf("%s %+q: status %d %+v", tc.path, tc.body, status, e)
				}
			}
			_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: email})
			wantErr(t, err, "invalid_email", msg)
		}
		if n := s.count(`SELECT COUNT(*) FROM clients`); n != 0 {
			t.Fatalf("%d clients stored by refused addresses", n)
		}
		// Letters beyond ASCII are still addresses.
		if res := s.identify("Käufer@Bücher.de", ""); !strings.EqualFold(res.Email, "käufer@bücher.de") {
			t.Fatalf("an accented address: %+v", res)
		}
	})
}
