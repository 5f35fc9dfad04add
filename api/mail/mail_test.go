package mail_test

import (
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/mail"
)

func TestParseSMTPURL(t *testing.T) {
	cases := []struct {
		raw      string
		addr     string
		from     string
		user     string
		password string
		tls      string
		err      bool
	}{
		{raw: "smtp://shop%40example.com:s3cret@mail.example:2525", addr: "mail.example:2525", from: "shop@example.com", user: "shop@example.com", password: "s3cret", tls: mail.TLSStartTLS},
		{raw: "smtp://mail.example?from=noreply@example.com", addr: "mail.example:587", from: "noreply@example.com", tls: mail.TLSStartTLS},
		{raw: "smtps://mail.example?from=noreply@example.com", addr: "mail.example:465", from: "noreply@example.com", tls: mail.TLSImplicit},
		{raw: "smtp://mail.example:465?from=noreply@example.com", addr: "mail.example:465", from: "noreply@example.com", tls: mail.TLSImplicit},
		{raw: "smtp://localhost:25?from=noreply@example.com&tls=none", addr: "localhost:25", from: "noreply@example.com", tls: mail.TLSNone},
		{raw: "smtp://mail.example?from=noreply@example.com&tls=maybe", err: true},
		{raw: "smtp://mail.example", err: true},
		{raw: "http://mail.example?from=a@b.c", err: true},
		{raw: "::", err: true},
	}
	for _, tc := range cases {
		s, err := mail.ParseSMTPURL(tc.raw)
		if tc.err {
			if err == nil {
				t.Errorf("%s: no error", tc.raw)
			}
			continue
		}
		if err != nil || s.Addr != tc.addr || s.From != tc.from || s.User != tc.user || s.Password != tc.password || s.TLS != tc.tls {
			t.Errorf("%s: %+v %v", tc.raw, s, err)
		}
	}
}

func TestFormatKeepsHeadersOnOneLine(t *testing.T) {
	if _, err := mail.Format("shop@example.com", mail.Stored{Message: mail.Message{To: "a@example.com\r\nBcc: x@evil.example", Subject: "Hi", Body: "x"}}); err == nil {
		t.Error("a recipient with a header in it was accepted")
	}
	b, err := mail.Format("shop@example.com", mail.Stored{Message: mail.Message{To: "a@example.com", Subject: "Hi\nBcc: x@evil.example", Body: "line 1\nline 2\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "\r\nBcc:") || !strings.Contains(string(b), "Subject: Hi Bcc: x@evil.example\r\n") || !strings.Contains(string(b), "line 1\r\nline 2\r\n") {
		t.Fatalf("message:\n%q", b)
	}
}
