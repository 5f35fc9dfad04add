package tax

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/streamcart/streamcart/api/money"
)

// ErrBadPeriod means the report's dates are not YYYY-MM-DD or from is after to.
var ErrBadPeriod = errors.New("tax report: bad period")

// Sum is what the documents of one country, rate and currency add up to, in minor units.
type Sum struct {
	Country, Rate, Currency string
	Documents               int
	Net, Tax, Gross         int64
}

// Store reads the taxed documents of a period.
type Store interface {
	// TaxSums sums, per country, rate and currency, the invoices of taxed orders paid in
	// [from, to) and the credit notes of taxed orders issued in [from, to).
	TaxSums(ctx context.Context, from, to time.Time) (invoices, creditNotes []Sum, err error)
}

// Row is one line of the report: a country and rate (in one currency) with its invoices and
// credit notes, and its net, tax and gross after the credit notes are subtracted.
type Row struct {
	Country, Rate, Currency string
	Invoices, CreditNotes   int
	Net, Tax, Gross         int64
}

// Report is the tax charged in a period, per country and rate: what an EU seller files in a
// One-Stop-Shop return.
type Report struct {
	From, To string // YYYY-MM-DD, both inclusive (UTC days)
	Rows     []Row  // by country, rate, currency
}

// Build reads the report of the UTC days from to to, both inclusive (YYYY-MM-DD). An invoice
// counts on the day it was paid, a credit note on the day it was issued, subtracted in its
// order's country and rate.
func Build(ctx context.Context, st Store, from, to string) (Report, error) {
	f, err1 := time.Parse(time.DateOnly, from)
	t, err2 := time.Parse(time.DateOnly, to)
	if err := errors.Join(err1, err2); err != nil {
		return Report{}, fmt.Errorf("%w: want YYYY-MM-DD: %v", ErrBadPeriod, err)
	}
	if t.Before(f) {
		return Report{}, fmt.Errorf("%w: --from %s is after --to %s", ErrBadPeriod, from, to)
	}
	invoices, notes, err := st.TaxSums(ctx, f, t.AddDate(0, 0, 1))
	if err != nil {
		return Report{}, fmt.Errorf("tax report: %w", err)
	}
	type key struct{ country, rate, currency string }
	rows := map[key]*Row{}
	row := func(s Sum) *Row {
		k := key{s.Country, s.Rate, s.Currency}
		if rows[k] == nil {
			rows[k] = &Row{Country: s.Country, Rate: s.Rate, Currency: s.Currency}
		}
		return rows[k]
	}
	for _, s := range invoices {
		r := row(s)
		r.Invoices += s.Documents
		r.Net, r.Tax, r.Gross = r.Net+s.Net, r.Tax+s.Tax, r.Gross+s.Gross
	}
	for _, s := range notes {
		r := row(s)
		r.CreditNotes += s.Documents
		r.Net, r.Tax, r.Gross = r.Net-s.Net, r.Tax-s.Tax, r.Gross-s.Gross
	}
	rep := Report{From: from, To: to, Rows: []Row{}}
	for _, r := range rows {
		rep.Rows = append(rep.Rows, *r)
	}
	slices.SortFunc(rep.Rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Country, b.Country), cmp.Compare(rateValue(a.Rate), rateValue(b.Rate)),
			cmp.Compare(a.Rate, b.Rate), cmp.Compare(a.Currency, b.Currency))
	})
	return rep, nil
}

func rateValue(r string) float64 {
	v, _ := strconv.ParseFloat(r, 64)
	return v
}

// header is the columns of both forms; amounts are decimals in the row's currency.
var header = []string{"COUNTRY", "RATE", "CURRENCY", "INVOICES", "CREDIT NOTES", "NET", "TAX", "GROSS"}

func (r Row) fields() []string {
	return []string{r.Country, r.Rate, r.Currency, strconv.Itoa(r.Invoices), strconv.Itoa(r.CreditNotes),
		money.Format(r.Net, r.Currency), money.Format(r.Tax, r.Currency), money.Format(r.Gross, r.Currency)}
}

// WriteText writes the report as an aligned table, its period first; a period without taxed
// documents says so.
func (rep Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "Tax from %s to %s (UTC days, both included), credit notes subtracted\n", rep.From, rep.To)
	if len(rep.Rows) == 0 {
		fmt.Fprintln(tw, "No taxed invoice or credit note in this period.")
		return tw.Flush()
	}
	for i, h := range header {
		fmt.Fprint(tw, h, sep(i))
	}
	for _, r := range rep.Rows {
		for i, f := range r.fields() {
			fmt.Fprint(tw, f, sep(i))
		}
	}
	return tw.Flush()
}

func sep(i int) string {
	if i == len(header)-1 {
		return "\t\n"
	}
	return "\t"
}

// WriteCSV writes the report as CSV (RFC 4180): a header line, then one line per row, amounts
// as decimals with the currency's digits ("46.13").
func (rep Report) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	cols := []string{"country", "rate", "currency", "invoices", "credit_notes", "net", "tax", "gross"}
	if err := c.Write(cols); err != nil {
		return err
	}
	for _, r := range rep.Rows {
		if err := c.Write(r.fields()); err != nil {
			return err
		}
	}
	c.Flush()
	return c.Error()
}
