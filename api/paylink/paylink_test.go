package paylink_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/streamcart/streamcart/api/paylink"
)

func TestTokenLimits(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := paylink.New([]byte("0123456789abcdef0123456789abcdef"), clock)
	tok, err := s.Sign("inv_1", now.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	other := paylink.New([]byte("another secret of thirty-two b.."), clock)
	forged, _ := other.Sign("inv_1", now.Add(24*time.Hour))
	expired, _ := s.Sign("inv_1", now.Add(-time.Second))
	none := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.RegisteredClaims{Subject: "inv_1", Audience: jwt.ClaimStrings{"streamcart:invoice"},
		ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))})
	unsigned, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	tests := []struct {
		name, invoice, token string
		ok                   bool
	}{
		{"its invoice", "inv_1", tok, true},
		{"another invoice", "inv_2", tok, false},
		{"another key", "inv_1", forged, false},
		{"expired", "inv_1", expired, false},
		{"alg none", "inv_1", unsigned, false},
		{"tampered", "inv_1", tok[:len(tok)-2] + "xx", false},
		{"empty", "inv_1", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Check(tt.invoice, tt.token); (err == nil) != tt.ok {
				t.Fatalf("Check = %v, want ok %v", err, tt.ok)
			}
		})
	}
	now = now.Add(25 * time.Hour)
	if s.Check("inv_1", tok) == nil {
		t.Fatal("a token past its expiry on the moved clock still works")
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct{ base, locale, invoice, token, want string }{
		{"https://shop.example/", "de-de", "inv_1", "a.b.c", "https://shop.example/checkout/de-de/renew?invoice=inv_1&t=a.b.c"},
		{"https://shop.example", "en", "inv_1", "a.b.c", "https://shop.example/checkout/renew?invoice=inv_1&t=a.b.c"},
		{"https://shop.example", "fr-fr", "inv_1", "a.b.c", "https://shop.example/checkout/renew?invoice=inv_1&t=a.b.c"},
		{"", "", "inv 1", "x", "/checkout/renew?invoice=inv+1&t=x"},
	} {
		if got := paylink.URL(tc.base, tc.locale, tc.invoice, tc.token); got != tc.want {
			t.Errorf("URL(%q, %q, %q, %q) = %s, want %s", tc.base, tc.locale, tc.invoice, tc.token, got, tc.want)
		}
	}
}

func TestLinkIsSignedForItsInvoice(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := paylink.New([]byte("0123456789abcdef0123456789abcdef"), func() time.Time { return now })
	link, err := s.Link("https://shop.example", "pt-pt", "inv_9", now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if u.Path != "/checkout/pt-pt/renew" || u.Query().Get("invoice") != "inv_9" {
		t.Fatalf("link = %s", link)
	}
	if err := s.Check("inv_9", u.Query().Get("t")); err != nil {
		t.Fatalf("the link's token does not open its invoice: %v", err)
	}
	if s.Check("inv_8", u.Query().Get("t")) == nil {
		t.Fatal("the link's token opens another invoice")
	}
}
