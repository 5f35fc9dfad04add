package httpapi

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// A cell a spreadsheet would run as a formula gets a leading quote mark; others are kept.
func TestCSVSafe(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+1":                       "'+1",
		"-2+3":                     "'-2+3",
		"@SUM(A1)":                 "'@SUM(A1)",
		"\tx":                      "'\tx",
		"":                         "",
		"a=b@example.com":          "a=b@example.com",
		"00:1A:79:AA:BB:CC":        "00:1A:79:AA:BB:CC",
		"1299":                     "1299",
	} {
		if got := csvSafe(in); got != want {
			t.Errorf("csvSafe(%q) = %q, want %q", in, got, want)
		}
	}
	// Through the CSV writer a quoted cell stays one cell.
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{csvSafe(`=cmd|"/c calc"!A1`), "x,y"})
	w.Flush()
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 1 || rows[0][0] != `'=cmd|"/c calc"!A1` || rows[0][1] != "x,y" {
		t.Fatalf("round trip: %q %v", rows, err)
	}
}
