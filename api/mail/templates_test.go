package mail_test

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/mail"
)

var placeholder = regexp.MustCompile(`\{[a-z]+\}`)

// TestTextsComplete is the build's check that every locale translates every sentence: no field
// is empty and each keeps the English sentence's placeholders.
func TestTextsComplete(t *testing.T) {
	en, ok := mail.TextsOf("en")
	if !ok {
		t.Fatal("no English texts")
	}
	for _, l := range mail.Locales {
		tx, ok := mail.TextsOf(l)
		if !ok {
			t.Errorf("%s: no texts", l)
			continue
		}
		v, ev := reflect.ValueOf(tx), reflect.ValueOf(en)
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			s := v.Field(i).String()
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: %s is not translated", l, name)
			}
			got, want := placeholder.FindAllString(s, -1), placeholder.FindAllString(ev.Field(i).String(), -1)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s has placeholders %v, English %v", l, name, got, want)
			}
		}
	}
}

var sample = mail.Data{Store: "Streamcart", Link: "https://shop.example/checkout/success?order=ord_7Qx&signin=tok", OrderID: "ord_7Qx", Total: "12,00 €", Minutes: 15}

// english are words that give away an untranslated sentence.
var english = regexp.MustCompile(`(?i)\b(hello|the|your|you|order|ready|sign|password|thank|payment|please|email|link from)\b`)

var tags = regexp.MustCompile(`<[^>]*>`)

func TestRenderEveryKindInEveryLocale(t *testing.T) {
	for _, kind := range mail.Kinds {
		for _, l := range mail.Locales {
			r, err := mail.Render(kind, l, sample)
			if err != nil {
				t.Fatalf("%s %s: %v", kind, l, err)
			}
			if r.Subject == "" || r.Text == "" || r.HTML == "" {
				t.Fatalf("%s %s: empty part: %+v", kind, l, r)
			}
			if !strings.Contains(r.Text, sample.Link) || !strings.Contains(r.HTML, `href="https://shop.example/checkout/success?order=ord_7Qx&amp;signin=tok"`) {
				t.Errorf("%s %s: link missing:\n%s\n%s", kind, l, r.Text, r.HTML)
			}
			if !strings.Contains(r.HTML, `<html lang="`+l+`">`) {
				t.Errorf("%s %s: html lang missing", kind, l)
			}
			all := r.Subject + "\n" + r.Text + "\n" + r.HTML
			if placeholder.MatchString(all) {
				t.Errorf("%s %s: placeholder left: %q", kind, l, placeholder.FindString(all))
			}
			// Only the data may be the same in every language: what is left must be the locale's.
			visible := r.Subject + "\n" + r.Text + "\n" + tags.ReplaceAllString(r.HTML, " ")
			for _, v := range []string{sample.Link, strings.ReplaceAll(sample.Link, "&", "&amp;"), sample.Store, sample.OrderID} {
				visible = strings.ReplaceAll(visible, v, "")
			}
			words := english.FindAllString(visible, -1)
			if strings.HasPrefix(l, "en") {
				if len(words) == 0 {
					t.Errorf("%s %s: the English marker words find nothing in English: %s", kind, l, visible)
				}
			} else if len(words) > 0 {
				t.Errorf("%s %s: English words %q left in:\n%s", kind, l, words, visible)
			}
		}
	}
}

func TestRenderGermanSigninLink(t *testing.T) {
	r, err := mail.Render(mail.KindSigninLink, "de-DE", sample)
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Ihr Anmeldelink für Streamcart" || !strings.Contains(r.Text, "innerhalb von 15 Minuten") {
		t.Errorf("%+v", r)
	}
}

func TestRenderEscapesHTML(t *testing.T) {
	r, err := mail.Render(mail.KindOrderReceived, "en", mail.Data{Store: `<b>Shop</b> & "Co"`, Link: "https://shop.example/", OrderID: "ord_1", Total: "€1.00"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.HTML, "<b>Shop</b>") || !strings.Contains(r.HTML, "&lt;b&gt;Shop&lt;/b&gt; &amp; &#34;Co&#34;") {
		t.Errorf("html:\n%s", r.HTML)
	}
	if !strings.Contains(r.Text, `<b>Shop</b> & "Co"`) {
		t.Errorf("text:\n%s", r.Text)
	}
	r, err = mail.Render(mail.KindLineReady, "en", mail.Data{Store: "Shop", Link: "javascript:alert(1)", OrderID: "ord_1"})
	if err != nil || strings.Contains(r.HTML, `href="javascript`) {
		t.Errorf("a script link in the href: %v\n%s", err, r.HTML)
	}
}

func TestRenderUnknownKindOrLocale(t *testing.T) {
	if _, err := mail.Render("renewal-reminder", "en", sample); err == nil {
		t.Error("an unknown kind rendered")
	}
	r, err := mail.Render(mail.KindLineReady, "fr-fr", sample)
	if err != nil || !strings.HasPrefix(r.Text, "Hello,") {
		t.Errorf("an unknown locale is not English: %v %q", err, r.Text)
	}
}

func TestLocaleMatching(t *testing.T) {
	cases := []struct{ header, want string }{
		{"de-DE,de;q=0.9,en;q=0.8", "de-de"},
		{"de-AT", "de-de"},
		{"fr-FR,fr;q=0.9,nl;q=0.8,en;q=0.5", "nl-nl"},
		{"en-US", "en-us"},
		{"en-AU", "en"},
		{"pt-BR", "pt-pt"},
		{"es;q=0.2, de;q=0.7", "de-de"},
		{"fr, *;q=0.5", ""},
		{"", ""},
		{"de;q=0", ""},
		{"de;q=abc, es", "es-es"},
	}
	for _, tc := range cases {
		if got := mail.MatchAcceptLanguage(tc.header); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.header, got, tc.want)
		}
	}
}

func TestFormatMoney(t *testing.T) {
	cases := []struct {
		minor        int64
		code, locale string
		want         string
	}{
		{1200, "EUR", "de-de", "12,00\u00a0€"},
		{1200, "EUR", "en", "€12.00"},
		{999, "USD", "en-us", "$9.99"},
		{1500, "JPY", "nl-nl", "JP¥\u00a01.500"},
	}
	for _, tc := range cases {
		if got := mail.FormatMoney(tc.minor, tc.code, tc.locale); got != tc.want {
			t.Errorf("%d %s %s: %q, want %q", tc.minor, tc.code, tc.locale, got, tc.want)
		}
	}
}
