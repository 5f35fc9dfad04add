package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/mail"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// speaking returns a copy of the shop's clients whose requests send Accept-Language: header.
func (s *shop) speaking(header string) *shop {
	c := *s
	c.clients(headerDoer{next: s.http, header: "Accept-Language", value: header})
	return &c
}

// mailsTo are the messages of the outbox to to, oldest first.
func (s *shop) mailsTo(to string) []mail.Stored {
	s.t.Helper()
	msgs, err := s.app.Store().ListMail(context.WithoutCancel(s.t.Context()), 100)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []mail.Stored
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].To == to {
			out = append(out, msgs[i])
		}
	}
	return out
}

// A buyer ordering from a German browser gets the order's mail in German: received, then ready,
// with a link to the German credentials page and never the line's password.
func TestOrderMailInTheBuyersLocale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		base := newShop(t)
		cases := []struct {
			acceptLanguage, email, locale string
			received, ready, page         string
		}{
			{"de-DE,de;q=0.9,en;q=0.5", "mail-de@example.com", "de-de", "Wir haben Ihre Bestellung", "Ihr Zugang ist bereit", "/checkout/de-de/success?order="},
			{"pt-PT", "mail-pt@example.com", "pt-pt", "Recebemos a sua encomenda", "A sua linha está pronta", "/checkout/pt-pt/success?order="},
			{"fr-FR", "mail-fr@example.com", "", "We received your order", "Your line is ready", "/checkout/success?order="},
		}
		for _, tc := range cases {
			s := base.speaking(tc.acceptLanguage)
			buyer := s.identify(tc.email, "")
			orderID, svcID := s.activeService(buyer.Token, standard())
			if n := s.count(`SELECT COUNT(*) FROM orders WHERE id = ? AND locale = ?`, orderID, tc.locale); n != 1 {
				t.Errorf("%s: order locale is not %q", tc.acceptLanguage, tc.locale)
			}
			msgs := s.mailsTo(tc.email)
			if len(msgs) != 2 {
				t.Fatalf("%s: %d mails, want order received and line ready", tc.acceptLanguage, len(msgs))
			}
			if !strings.HasPrefix(msgs[0].Subject, tc.received) || !strings.Contains(msgs[0].Subject, orderID) {
				t.Errorf("%s: first mail %q, want %q…", tc.acceptLanguage, msgs[0].Subject, tc.received)
			}
			if !strings.HasPrefix(msgs[1].Subject, tc.ready) || !strings.Contains(msgs[1].Body, s.base+tc.page+orderID) {
				t.Errorf("%s: second mail %q:\n%s", tc.acceptLanguage, msgs[1].Subject, msgs[1].Body)
			}
			svc := s.getService(buyer.Token, svcID)
			for _, m := range msgs {
				if m.HTML == "" || !strings.Contains(m.HTML, `lang="`) {
					t.Errorf("%s: %q has no HTML part", tc.acceptLanguage, m.Subject)
				}
				if svc.Password == "" || strings.Contains(m.Body+m.HTML, svc.Password) {
					t.Errorf("%s: %q carries the line's password (%q)", tc.acceptLanguage, m.Subject, svc.Password)
				}
			}
			// Provisioning again (a retried job) mails nothing more.
			s.drain()
			if n := len(s.mailsTo(tc.email)); n != 2 {
				t.Errorf("%s: %d mails after a second drain", tc.acceptLanguage, n)
			}
		}
	})
}

// A free trial has nothing to confirm as paid: its line-ready mail goes out, then, its 24 hours
// being its notice, at once its trial-ending mail (renewal_mail_test.go).
func TestTrialMailsOnlyLineReady(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		buyer := s.identify("trial-mail@example.com", "")
		s.activeService(buyer.Token, trial())
		msgs := s.mailsTo("trial-mail@example.com")
		if len(msgs) != 2 || !strings.HasPrefix(msgs[0].Subject, "Your line is ready") || !strings.HasPrefix(msgs[1].Subject, "Your Test Shop trial ends on") {
			t.Fatalf("mails %+v, want line ready, then trial ending", msgs)
		}
	})
}

// The sign-in link is written in the language of the request that asked for it.
func TestSignInLinkInTheRequestsLocale(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t).speaking("nl-NL,nl;q=0.9")
		s.identify("link-nl@example.com", "")
		if err := s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "link-nl@example.com"}); err != nil {
			t.Fatal(err)
		}
		token, _ := s.lastLink("link-nl@example.com")
		m := s.mailsTo("link-nl@example.com")[0]
		if m.Subject != "Je inloglink voor Test Shop" || !strings.Contains(m.Body, "binnen 15 minuten") || !strings.Contains(m.HTML, token) {
			t.Fatalf("mail %q:\n%s", m.Subject, m.Body)
		}
	})
}
