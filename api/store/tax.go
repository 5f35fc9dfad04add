package store

import (
	"context"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/tax"
)

// TaxSums sums the taxed orders' invoices paid in [from, to) and their credit notes issued in
// [from, to), per country, rate and currency (the columns of migration 0032): an order placed
// without a tax block (tax_country NULL) counts in neither.
func (s *db) TaxSums(ctx context.Context, from, to time.Time) (invoices, creditNotes []tax.Sum, err error) {
	invoices, err = s.taxSums(ctx, `SELECT o.tax_country, o.tax_rate, i.currency, COUNT(*), SUM(o.net_amount), SUM(o.tax_amount), SUM(i.amount)
		FROM invoices i JOIN orders o ON o.id = i.order_id
		WHERE o.tax_country IS NOT NULL AND i.status = 'paid' AND i.paid_at >= ? AND i.paid_at < ?
		GROUP BY o.tax_country, o.tax_rate, i.currency`, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("tax sums: invoices: %w", err)
	}
	creditNotes, err = s.taxSums(ctx, `SELECT o.tax_country, o.tax_rate, c.currency, COUNT(*), SUM(c.net_amount), SUM(c.tax_amount), SUM(c.amount)
		FROM credit_notes c JOIN orders o ON o.id = c.order_id
		WHERE o.tax_country IS NOT NULL AND c.created_at >= ? AND c.created_at < ?
		GROUP BY o.tax_country, o.tax_rate, c.currency`, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("tax sums: credit notes: %w", err)
	}
	return invoices, creditNotes, nil
}

func (s *db) taxSums(ctx context.Context, query string, from, to time.Time) ([]tax.Sum, error) {
	rows, err := s.r.QueryContext(ctx, query, fmtTime(from), fmtTime(to))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []tax.Sum{}
	for rows.Next() {
		var x tax.Sum
		if err := rows.Scan(&x.Country, &x.Rate, &x.Currency, &x.Documents, &x.Net, &x.Tax, &x.Gross); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}
