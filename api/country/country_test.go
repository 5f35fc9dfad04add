package country_test

import (
	"slices"
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
