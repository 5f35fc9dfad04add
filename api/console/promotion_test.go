package console_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
)

func ptr[T any](v T) *T { return &v }

// A promotion change edits the catalog's source: the fields it sets change, the others stay, an
// empty date means none; a new code is added once, an unknown one is not changed. The result is
// a catalog that parses, with every other promotion as it was.
func TestPromotionChangeApply(t *testing.T) {
	before := catalog.Demo()
	cases := []struct {
		name   string
		code   string
		add    bool
		change console.PromotionChange
		want   func(p catalog.Promotion) bool
		err    error
	}{
		{"value and dates of an existing code", "WELCOME10", false,
			console.PromotionChange{Value: ptr("15"), StartDate: ptr("2026-12-01"), ExpirationDate: ptr("")},
			func(p catalog.Promotion) bool {
				return p.Value == "15" && p.StartDate == "2026-12-01" && p.ExpirationDate == catalog.NoDate &&
					p.Type == "Percentage" && slices.Equal(p.AppliesTo, []int{2, 3, 4})
			}, nil},
		{"switched off, limited, recurring", "WELCOME10", false,
			console.PromotionChange{Disabled: ptr(true), MaxUses: ptr(50), Recurring: ptr(true)},
			func(p catalog.Promotion) bool { return p.Disabled && p.MaxUses == 50 && p.Recurring && p.Value == "10" }, nil},
		{"a new code", "SPRING20", true,
			console.PromotionChange{Type: ptr("Percentage"), Value: ptr("20"), AppliesTo: []int{2}},
			func(p catalog.Promotion) bool {
				return p.Type == "Percentage" && p.Value == "20" && slices.Equal(p.AppliesTo, []int{2})
			}, nil},
		{"adding a code that exists", "WELCOME10", true, console.PromotionChange{Value: ptr("1")}, nil, console.ErrExists},
		{"changing a code that does not", "NOPE", false, console.PromotionChange{Value: ptr("1")}, nil, console.ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.change.Apply(catalog.DemoYAML(), tc.code, tc.add)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("Apply = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			after, err := catalog.Parse("edited", out)
			if err != nil {
				t.Fatalf("the edited catalog does not parse: %v", err)
			}
			p, ok := after.Promotion(tc.code)
			if !ok || !tc.want(p) {
				t.Fatalf("promotion %s after the change: %+v (found %v)", tc.code, p, ok)
			}
			for _, old := range before.Promotions {
				if old.Code == tc.code {
					continue
				}
				if got, ok := after.Promotion(old.Code); !ok || got.Value != old.Value || got.Type != old.Type || got.Disabled != old.Disabled {
					t.Fatalf("promotion %s changed too: %+v, was %+v", old.Code, got, old)
				}
			}
		})
	}
	if _, err := (console.PromotionChange{}).Apply([]byte("- a list, not a catalog"), "X", true); err == nil {
		t.Fatal("a source that is not a mapping was edited")
	}
}
