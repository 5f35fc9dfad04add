package mail_test

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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
			if v.Field(i).Kind() == reflect.Array { // Months: every element written
				for j := range v.Field(i).Len() {
					if strings.TrimSpace(v.Field(i).Index(j).String()) == "" {
						t.Errorf("%s: %s[%d] is not translated", l, name, j)
					}
				}
				continue
			}
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

var sample = mail.Data{Store: "Streamcart", Link: "https://shop.example/checkout/success?order=ord_7Qx&signin=tok", OrderID: "ord_7Qx", Total: "12,00 €", Minutes: 15,
	Due: "24.12.2026", Suspend: "27.12.2026"}

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
	if _, err := mail.Render("renewal-receipt", "en", sample); err == nil {
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

// Each renewal mail says what it is about in every locale: the amount and due date, the
// suspension date for an overdue one, and the pay link; the trial's end for the trial mail.
func TestRenderRenewalMails(t *testing.T) {
	data := mail.Data{Store: "Streamcart", Link: "https://shop.example/checkout/de-de/renew?invoice=inv_1&t=tok", OrderID: "ord_1",
		Total: "18,99 €", Due: "DUE-DATE", Suspend: "SUSPEND-DATE"}
	cases := []struct {
		kind mail.Kind
		want []string // in the text of every locale
		not  []string
	}{
		{mail.KindRenewalInvoice, []string{"18,99 €", "DUE-DATE"}, []string{"SUSPEND-DATE"}},
		{mail.KindRenewalReminder, []string{"18,99 €", "DUE-DATE"}, []string{"SUSPEND-DATE"}},
		{mail.KindRenewalDue, []string{"18,99 €", "DUE-DATE"}, []string{"SUSPEND-DATE"}},
		{mail.KindRenewalOverdue, []string{"18,99 €", "DUE-DATE", "SUSPEND-DATE"}, nil},
		{mail.KindTrialEnding, []string{"DUE-DATE"}, []string{"18,99 €", "SUSPEND-DATE"}},
	}
	subjects := map[string]map[string]bool{}
	for _, tc := range cases {
		for _, l := range mail.Locales {
			r, err := mail.Render(tc.kind, l, data)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.kind, l, err)
			}
			for _, w := range append(tc.want, data.Link) {
				if !strings.Contains(r.Text, w) {
					t.Errorf("%s %s: no %q in:\n%s", tc.kind, l, w, r.Text)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(r.Text, w) {
					t.Errorf("%s %s: %q in:\n%s", tc.kind, l, w, r.Text)
				}
			}
			if subjects[l] == nil {
				subjects[l] = map[string]bool{}
			}
			if subjects[l][r.Subject] {
				t.Errorf("%s %s: subject %q shared with another kind", tc.kind, l, r.Subject)
			}
			subjects[l][r.Subject] = true
		}
	}
	r, err := mail.Render(mail.KindRenewalOverdue, "de-DE", mail.Data{Store: "Shop", Link: "https://shop.example/", Total: "18,99 €",
		Due:     mail.FormatDate(time.Date(2026, 12, 24, 15, 0, 0, 0, time.UTC), "de-de"),
		Suspend: mail.FormatDate(time.Date(2026, 12, 27, 15, 0, 0, 0, time.UTC), "de-de")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Zahlung überfällig: Ihr Shop-Zugang wird am 27. Dezember 2026 gesperrt" || !strings.Contains(r.Text, "am 24. Dezember 2026 fällig") {
		t.Errorf("%q\n%s", r.Subject, r.Text)
	}
}

func TestFormatDate(t *testing.T) {
	at := time.Date(2026, 3, 5, 23, 30, 0, 0, time.FixedZone("UTC-2", -2*3600)) // 6 March in UTC
	cases := []struct{ locale, want string }{
		{"en", "6 March 2026"},
		{"en-gb", "6 March 2026"},
		{"en-us", "March 6, 2026"},
		{"de-de", "6. März 2026"},
		{"es-es", "6 de marzo de 2026"},
		{"nl-nl", "6 maart 2026"},
		{"pt-pt", "6 de março de 2026"},
		{"fr-fr", "6 March 2026"},
	}
	for _, tc := range cases {
		if got := mail.FormatDate(at, tc.locale); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.locale, got, tc.want)
		}
	}
}
