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
		err      bool
	}{
		{raw: "smtp://shop%40example.com:s3cret@mail.example:2525", addr: "mail.example:2525", from: "shop@example.com", user: "shop@example.com", password: "s3cret"},
		{raw: "smtp://mail.example?from=noreply@example.com", addr: "mail.example:587", from: "noreply@example.com"},
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
		if err != nil || s.Addr != tc.addr || s.From != tc.from || s.User != tc.user || s.Password != tc.password {
			t.Errorf("%s: %+v %v", tc.raw, s, err)
		}
	}
}

func TestFormatKeepsHeadersOnOneLine(t *testing.T) {
	b := string(mail.Format("shop@example.com", mail.Message{To: "a@example.com\r\nBcc: x@evil.example", Subject: "Hi\nthere", Body: "line 1\nline 2\n"}))
	if strings.Contains(b, "\r\nBcc:") || !strings.Contains(b, "Subject: Hi there\r\n") || !strings.HasSuffix(b, "line 1\r\nline 2\r\n") {
		t.Fatalf("message:\n%q", b)
	}
}
