package country_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/streamcart/streamcart/api/country"
)

func TestCodes(t *testing.T) {
	codes := country.Codes()
	if len(codes) != 249 {
		t.Fatalf("%d codes, want ISO 3166-1's 249", len(codes))
	}
	if !slices.IsSorted(codes) || len(slices.Compact(slices.Clone(codes))) != len(codes) {
		t.Fatal("codes not sorted or repeated")
	}
	// Every one is a country to CLDR as well, with its alpha-3 code: a typo here would not be.
	for _, c := range codes {
		r, err := language.ParseRegion(c)
		if err != nil || !r.IsCountry() || r.ISO3() == "ZZZ" {
			t.Errorf("%s: not a CLDR country (%v)", c, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"DE", "DE", true}, {"de", "DE", true}, {" fr ", "FR", true}, {"GR", "GR", true},
		{"EL", "EL", false}, {"UK", "UK", false}, {"EU", "EU", false}, {"XK", "XK", false}, {"XX", "XX", false},
		{"", "", false}, {"DEU", "DEU", false}, {"D", "D", false},
	} {
		got, ok := country.Normalize(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// The widget's billing-country select offers the same codes (widget/src/screens/checkout/countries.ts).
func TestWidgetCountries(t *testing.T) {
	src, err := os.ReadFile("../../widget/src/screens/checkout/countries.ts")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), "const CODES =")
	body, _, _ := strings.Cut(after, ";")
	if !ok {
		t.Fatal("countries.ts has no CODES")
	}
	var joined strings.Builder
	for _, m := range regexp.MustCompile(`'([A-Z]*)'`).FindAllStringSubmatch(body, -1) {
		joined.WriteString(m[1])
	}
	if got, want := joined.String(), strings.Join(country.Codes(), ""); got != want {
		t.Fatalf("the widget's codes differ from api/country's:\n got %s\nwant %s", got, want)
	}
}
