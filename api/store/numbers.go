package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/numbering"
	"github.com/streamcart/streamcart/api/refund"
)

// nextNumber takes the next value of the counter name (number_sequences) inside tx. The
// UPDATE's row lock (PostgreSQL) or the one writer (SQLite) makes concurrent transactions of
// every replica take it one after the other; a rollback gives the value back, so the counter
// has no gap and no repeat.
func nextNumber(ctx context.Context, tx querier, name string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `UPDATE number_sequences SET last = last + 1 WHERE name = ? RETURNING last`, name).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("next %s number: %w", name, err)
	}
	return n, nil
}

func (t *orderTx) NumberInvoice(ctx context.Context, id, pattern string, at time.Time) (string, error) {
	var have string
	if err := t.tx.QueryRowContext(ctx, `SELECT COALESCE(number, '') FROM invoices WHERE id = ?`, id).Scan(&have); err != nil {
		return "", fmt.Errorf("number invoice %s: %w", id, err)
	}
	if have != "" {
		return have, nil
	}
	seq, err := nextNumber(ctx, t.tx, "invoice")
	if err != nil {
		return "", err
	}
	number, err := numbering.Format(pattern, seq, at)
	if err != nil {
		return "", err
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE invoices SET number = ? WHERE id = ?`, number, id); err != nil {
		return "", fmt.Errorf("number invoice %s: %w", id, err)
	}
	return number, nil
}

const creditNoteColumns = `id, number, refund_id, order_id, invoice_id, amount, currency, created_at, tax_amount, net_amount`

func scanCreditNote(sc interface{ Scan(...any) error }) (refund.CreditNote, error) {
	var c refund.CreditNote
	var at string
	err := sc.Scan(&c.ID, &c.Number, &c.RefundID, &c.OrderID, &c.InvoiceID, &c.Amount.Amount, &c.Amount.Currency, &at,
		&c.Tax.Amount, &c.Net.Amount)
	c.CreatedAt = parseTime(at)
	c.Tax.Currency, c.Net.Currency = c.Amount.Currency, c.Amount.Currency
	if c.Tax.Amount == 0 && c.Net.Amount == 0 {
		c.Net.Amount = c.Amount.Amount // a note issued before migration 0032 kept no net: it had no tax
	}
	return c, err
}

// IssueCreditNote numbers c from the credit note sequence with pattern and records it, in one
// transaction; a refund has one credit note: asked again, it answers the one issued. The tax it
// gives back is share's of the order's notes before it, summed after the sequence's row is
// locked: two refunds of one order at once take their shares one after the other.
func (s *db) IssueCreditNote(ctx context.Context, c refund.CreditNote, pattern string, share refund.TaxShare) (refund.CreditNote, error) {
	err := s.tx(ctx, func(tx querier) error {
		prev, err := scanCreditNote(tx.QueryRowContext(ctx, `SELECT `+creditNoteColumns+` FROM credit_notes WHERE refund_id = ?`, c.RefundID))
		if err == nil {
			c = prev
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		seq, err := nextNumber(ctx, tx, "credit_note")
		if err != nil {
			return err
		}
		if c.Number, err = numbering.Format(pattern, seq, c.CreatedAt); err != nil {
			return err
		}
		c.Tax = money.Money{Currency: c.Amount.Currency}
		if share != nil {
			var before, taxBefore int64
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(amount), 0), COALESCE(SUM(tax_amount), 0) FROM credit_notes
				WHERE order_id = ?`, c.OrderID).Scan(&before, &taxBefore); err != nil {
				return err
			}
			c.Tax.Amount = share(before, taxBefore)
		}
		c.Net = money.Money{Amount: c.Amount.Amount - c.Tax.Amount, Currency: c.Amount.Currency}
		_, err = tx.ExecContext(ctx, `INSERT INTO credit_notes (`+creditNoteColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.Number, c.RefundID, c.OrderID, c.InvoiceID, c.Amount.Amount, c.Amount.Currency, fmtTime(c.CreatedAt),
			c.Tax.Amount, c.Net.Amount)
		return err
	})
	if err != nil {
		return refund.CreditNote{}, fmt.Errorf("issue credit note for %s: %w", c.RefundID, err)
	}
	return c, nil
}

// OrderCreditNotes lists the credit notes of an order, oldest first.
func (s *db) OrderCreditNotes(ctx context.Context, orderID string) ([]refund.CreditNote, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+creditNoteColumns+` FROM credit_notes WHERE order_id = ? ORDER BY created_at, number`, orderID)
	if err != nil {
		return nil, fmt.Errorf("credit notes: %w", err)
	}
	defer rows.Close()
	out := []refund.CreditNote{}
	for rows.Next() {
		c, err := scanCreditNote(rows)
		if err != nil {
			return nil, fmt.Errorf("credit notes: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CreditNote reads a credit note; refund.ErrNoCreditNote when there is none.
func (s *db) CreditNote(ctx context.Context, id string) (refund.CreditNote, error) {
	c, err := scanCreditNote(s.r.QueryRowContext(ctx, `SELECT `+creditNoteColumns+` FROM credit_notes WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, refund.ErrNoCreditNote
	}
	if err != nil {
		return c, fmt.Errorf("credit note %s: %w", id, err)
	}
	return c, nil
}
