package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/console"
)

// The form reads the demo catalog and writes back only what changed: comments, unknown and
// untouched fields stay, and the result passes the catalog check.
func TestWriteFormRoundTrip(t *testing.T) {
	src := catalog.DemoYAML()
	cat, err := catalog.Parse("demo", src)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	f, err := console.ReadForm(src, cat, now)
	if err != nil {
		t.Fatal(err)
	}
	same, err := console.WriteForm(src, f)
	if err != nil {
		t.Fatal(err)
	}
	if string(same) != string(src) {
		t.Fatalf("an unchanged form changed the file:\n%s", console.Diff("demo", "form", src, same))
	}
	// A price changed in place: the file's layout stays, the diff is that one line.
	f.Plans[1].Prices["monthly"]["EUR"] = "11.49"
	one, err := console.WriteForm(src, f)
	if err != nil {
		t.Fatal(err)
	}
	d := console.Diff("demo", "form", src, one)
	if strings.Count(d, "\n-") != 1 || strings.Count(d, "\n+") != 2 || !strings.Contains(d, "\n+      monthly:      {EUR: \"11.49\", GBP: \"10.99\"}") {
		t.Fatalf("diff of one price:\n%s", d)
	}

	tests := []struct {
		name   string
		edit   func(f *console.Form)
		want   []string // in the new source
		absent []string
	}{
		{"a price", func(f *console.Form) { f.Plans[1].Prices["monthly"]["EUR"] = "11.49" },
			[]string{`monthly:      {EUR: "11.49", GBP: "10.99"}`, "# USD is converted from EUR at the catalog rate", "# Expired on purpose"}, nil},
		{"a new currency price and a removed one", func(f *console.Form) {
			f.Plans[1].Prices["monthly"]["USD"] = "13.99"
			delete(f.Plans[1].Prices["monthly"], "GBP")
		}, []string{`monthly: {EUR: "12.99", USD: "13.99"}`}, nil},
		{"a cycle disabled", func(f *console.Form) { delete(f.Plans[1].Prices, "quarterly") }, nil, []string{`quarterly:    {EUR: "32.99", GBP: "27.99"}`}},
		{"name, extras off", func(f *console.Form) { f.Plans[1].Name = "Standard HD"; f.Plans[1].Extras = false },
			[]string{"name: Standard HD"}, nil},
		{"promotion dates and uses", func(f *console.Form) {
			for i := range f.Promotions {
				if f.Promotions[i].Code == "SAVE5" {
					f.Promotions[i].ExpirationDate, f.Promotions[i].MaxUses, f.Promotions[i].Recurring = "2027-01-31", 50, true
					f.Promotions[i].AppliesTo = []int{2, 3}
				}
			}
		}, []string{`expirationDate: "2027-01-31"`, "maxUses: 50", "recurring: true", `value: "5.00" # in the default currency`}, nil},
		{"storefront", func(f *console.Form) {
			f.Storefronts[1].Name = "Partner shop"
			f.Storefronts[1].AllowedOrigins = append(f.Storefronts[1].AllowedOrigins, "https://partner.example")
		}, []string{"name: Partner shop", "https://partner.example", "primary: \"#0f766e\""}, nil},
		{"extras price", func(f *console.Form) { f.Extras.Prices["monthly"]["EUR"] = "3.50"; f.Extras.MaxQty = 6 },
			[]string{`monthly:      {EUR: "3.50", GBP: "2.50"}`, "maxQty: 6"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := console.ReadForm(src, cat, now)
			tc.edit(&f)
			out, err := console.WriteForm(src, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("missing %q", w)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(string(out), w) {
					t.Errorf("still has %q", w)
				}
			}
			if _, err := catalog.Parse("draft", out); err != nil {
				t.Fatalf("the draft does not pass the check: %v", err)
			}
			back, _ := console.ReadForm(out, nil, now)
			if tc.name == "a price" && back.Plans[1].Prices["monthly"]["EUR"] != "11.49" {
				t.Fatalf("read back: %v", back.Plans[1].Prices)
			}
			if tc.name == "name, extras off" && (back.Plans[1].Extras || !back.Plans[1].Proxy) {
				t.Fatalf("read back: %+v", back.Plans[1])
			}
		})
	}
}

func TestPromoStatus(t *testing.T) {
	now := time.Date(2026, 11, 28, 23, 59, 0, 0, time.UTC)
	for _, tc := range []struct {
		p    catalog.Promotion
		want string
	}{
		{catalog.Promotion{StartDate: catalog.NoDate, ExpirationDate: catalog.NoDate}, console.PromoActive},
		{catalog.Promotion{ExpirationDate: "2026-11-28"}, console.PromoActive}, // inclusive
		{catalog.Promotion{ExpirationDate: "2026-11-27"}, console.PromoExpired},
		{catalog.Promotion{StartDate: "2026-11-29"}, console.PromoScheduled},
		{catalog.Promotion{ExpirationDate: "2020-01-01", Disabled: true}, console.PromoDisabled},
	} {
		if got := console.PromoStatus(tc.p, now); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.p, got, tc.want)
		}
	}
}

// A JSON catalog is read as YAML and written as YAML with the same content; a form naming what
// the file lacks is ErrForm.
func TestWriteFormJSONAndMismatch(t *testing.T) {
	cat, _ := catalog.Parse("demo", catalog.DemoYAML())
	_ = cat
	src := []byte(`{"defaultCurrency": "EUR", "currencies": [{"code": "EUR", "rate": "1"}], "gateways": "sandbox",
 "products": [{"pid": 2, "group": "plan", "name": "Standard", "cycles": {"monthly": {"EUR": "12.99"}}}]}`)
	f, err := console.ReadForm(src, nil, time.Now())
	if err != nil || len(f.Plans) != 1 || f.Plans[0].Prices["monthly"]["EUR"] != "12.99" {
		t.Fatalf("ReadForm(JSON) = %+v, %v", f, err)
	}
	f.Plans[0].Prices["monthly"]["EUR"] = "9.99"
	out, err := console.WriteForm(src, f)
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse("draft", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if p, _ := c.Product(2); p.Name != "Standard" {
		t.Fatalf("product 2: %+v", p)
	}
	f.Plans[0].PID = 7
	if _, err := console.WriteForm(src, f); err == nil || !strings.Contains(err.Error(), "pid 7") {
		t.Fatalf("a form naming pid 7: %v", err)
	}
	if _, err := console.WriteForm([]byte("- a list"), f); err == nil {
		t.Fatal("a source that is no mapping was accepted")
	}
}
