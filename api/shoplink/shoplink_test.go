package shoplink_test

import (
	"net/url"
	"testing"

	"github.com/streamcart/streamcart/api/shoplink"
)

func TestPrefix(t *testing.T) {
	for _, tc := range []struct{ locale, want string }{
		{"de-de", "de-de"},
		{"pt-pt", "pt-pt"},
		{"en", ""},    // the default locale has no prefix
		{"fr-fr", ""}, // no pages in that locale: the default ones
		{"DE-DE", ""}, // prefixes are exact, as the storefront serves them
		{"", ""},
	} {
		if got := shoplink.Prefix(tc.locale); got != tc.want {
			t.Errorf("Prefix(%q) = %q, want %q", tc.locale, got, tc.want)
		}
	}
}

func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name, base, locale, route string
		query                     url.Values
		want                      string
	}{
		{"route in a locale", "https://shop.example", "de-de", "success", url.Values{"order": {"ord_1"}},
			"https://shop.example/checkout/de-de/success?order=ord_1"},
		{"default locale", "https://shop.example", "en", "waiting", url.Values{"order": {"ord_1"}},
			"https://shop.example/checkout/waiting?order=ord_1"},
		{"unknown locale", "https://shop.example", "fr-fr", "waiting", nil, "https://shop.example/checkout/waiting"},
		{"index in a locale", "https://shop.example/", "nl-nl", "", url.Values{"view": {"services"}},
			"https://shop.example/checkout/nl-nl/?view=services"},
		{"query escaped and sorted", "http://localhost:8080", "", "renew", url.Values{"t": {"a.b"}, "invoice": {"inv 1&x"}},
			"http://localhost:8080/checkout/renew?invoice=inv+1%26x&t=a.b"},
		{"no origin", "", "", "", nil, "/checkout/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := shoplink.Page(tc.base, tc.locale, tc.route, tc.query); got != tc.want {
				t.Errorf("Page = %q, want %q", got, tc.want)
			}
		})
	}
}
