package app_test

import (
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/mail/mailtest"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// A sign-in link requested from a shop with STREAMCART_SMTP_URL goes out through the send job.
func TestSignInLinkMailedBySMTP(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		sink := mailtest.Start(t, mailtest.Accept)
		// A relay on this machine: plain text, as the URL says.
		s := newShop(t, func(c *app.Config) { c.SMTPURL = "smtp://" + sink.Addr + "?from=shop@example.com&tls=none" })
		s.identify("smtp@example.com", "")
		if err := s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "smtp@example.com"}); err != nil {
			t.Fatalf("POST /session/link: %v", err)
		}
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND status = 'pending'`, "smtp@example.com"); n != 1 {
			t.Fatalf("%d pending messages, want 1", n)
		}
		s.drain()
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND status = 'sent' AND sent_at <> ''`, "smtp@example.com"); n != 1 {
			t.Fatalf("%d sent messages, want 1", n)
		}
		got := sink.Messages()
		if len(got) != 1 {
			t.Fatalf("server received %d messages, want 1", len(got))
		}
		m := got[0]
		if m.From != "FROM:<shop@example.com>" || m.Rcpt != "TO:<smtp@example.com>" || !strings.Contains(m.Data, "\nTo: <smtp@example.com>\n") ||
			!strings.Contains(m.Data, "Content-Type: multipart/alternative") || !signinToken.MatchString(decodeQP(t, m.Data)) {
			t.Fatalf("received: %+v", m)
		}
	})
}

// decodeQP undoes the quoted-printable encoding of a message's parts (soft line breaks, "=3D").
func decodeQP(t *testing.T, data string) string {
	t.Helper()
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(data)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
