package money_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/bojanz/currency"

	"github.com/streamcart/streamcart/api/money"
)

var update = flag.Bool("update", false, "rewrite the widget's copy of the ISO 4217 minor digits")

// digitsFile is every ISO 4217 code's minor digits as this package counts them, for the widget:
// its Vitest (src/i18n/minor.test.ts) checks the digits it reads amounts with against it.
const digitsFile = "../../widget/src/test/iso4217-digits.json"

// TestWidgetDigitsFile fails when the widget's copy is not what the server counts (a currency
// table update): run go test ./api/money -run TestWidgetDigitsFile -update, then the widget's tests.
func TestWidgetDigitsFile(t *testing.T) {
	want := map[string]int{}
	for _, code := range currency.GetCurrencyCodes() {
		d, ok := money.Digits(code)
		if !ok {
			t.Fatalf("%s listed but not known", code)
		}
		want[code] = d
	}
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.WriteFile(digitsFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(digitsFile)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("%s is not the server's digits (%v): go test ./api/money -run TestWidgetDigitsFile -update", digitsFile, err)
	}
}
