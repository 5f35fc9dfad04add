package tax_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/tax"
)

// sums is a Store answering fixed sums and keeping the period it was asked.
type sums struct {
	invoices, notes []tax.Sum
	from, to        time.Time
}

func (s *sums) TaxSums(_ context.Context, from, to time.Time) ([]tax.Sum, []tax.Sum, error) {
	s.from, s.to = from, to
	return s.invoices, s.notes, nil
}

func TestReport(t *testing.T) {
	st := &sums{
		invoices: []tax.Sum{
			{Country: "FR", Rate: "20", Currency: "EUR", Documents: 2, Net: 9148, Tax: 1830, Gross: 10978},
			{Country: "DE", Rate: "19", Currency: "EUR", Documents: 3, Net: 13839, Tax: 2628, Gross: 16467},
			{Country: "DE", Rate: "7", Currency: "EUR", Documents: 1, Net: 1000, Tax: 70, Gross: 1070},
		},
		notes: []tax.Sum{
			{Country: "DE", Rate: "19", Currency: "EUR", Documents: 1, Net: 2306, Tax: 438, Gross: 2744},
			// A credit note of an order whose invoice fell in an earlier period: a row of its own.
			{Country: "IE", Rate: "23", Currency: "EUR", Documents: 1, Net: 1000, Tax: 230, Gross: 1230},
		},
	}
	rep, err := tax.Build(t.Context(), st, "2026-10-01", "2026-12-31")
	if err != nil {
		t.Fatal(err)
	}
	if !st.from.Equal(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)) || !st.to.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("asked [%s, %s), want the whole of both days", st.from, st.to)
	}
	want := []tax.Row{
		{Country: "DE", Rate: "7", Currency: "EUR", Invoices: 1, Net: 1000, Tax: 70, Gross: 1070},
		{Country: "DE", Rate: "19", Currency: "EUR", Invoices: 3, CreditNotes: 1, Net: 11533, Tax: 2190, Gross: 13723},
		{Country: "FR", Rate: "20", Currency: "EUR", Invoices: 2, Net: 9148, Tax: 1830, Gross: 10978},
		{Country: "IE", Rate: "23", Currency: "EUR", CreditNotes: 1, Net: -1000, Tax: -230, Gross: -1230},
	}
	if len(rep.Rows) != len(want) {
		t.Fatalf("rows %+v", rep.Rows)
	}
	for i := range want {
		if rep.Rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rep.Rows[i], want[i])
		}
	}
	var csv, text bytes.Buffer
	if err := rep.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	wantCSV := "country,rate,currency,invoices,credit_notes,net,tax,gross\n" +
		"DE,7,EUR,1,0,10.00,0.70,10.70\n" +
		"DE,19,EUR,3,1,115.33,21.90,137.23\n" +
		"FR,20,EUR,2,0,91.48,18.30,109.78\n" +
		"IE,23,EUR,0,1,-10.00,-2.30,-12.30\n"
	if csv.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant\n%s", csv.String(), wantCSV)
	}
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "2026-10-01 to 2026-12-31") || strings.Fields(lines[1])[0] != "COUNTRY" ||
		strings.Join(strings.Fields(lines[3]), " ") != "DE 19 EUR 3 1 115.33 21.90 137.23" {
		t.Errorf("text:\n%s", text.String())
	}

	empty, err := tax.Build(t.Context(), &sums{}, "2026-01-01", "2026-01-01")
	text.Reset()
	if err != nil || empty.WriteText(&text) != nil || !strings.Contains(text.String(), "No taxed invoice") {
		t.Errorf("empty report: %q, %v", text.String(), err)
	}
	for _, bad := range [][2]string{{"2026-13-01", "2026-12-31"}, {"2026-10-01", "31.12.2026"}, {"2026-12-31", "2026-10-01"}} {
		if _, err := tax.Build(t.Context(), st, bad[0], bad[1]); !errors.Is(err, tax.ErrBadPeriod) {
			t.Errorf("Build(%s, %s): %v, want ErrBadPeriod", bad[0], bad[1], err)
		}
	}
}
