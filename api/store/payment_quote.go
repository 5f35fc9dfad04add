package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/payment"
)

// PutQuote stores an invoice's payment quote unless it has one, and answers the stored one.
func (s *db) PutQuote(ctx context.Context, q payment.Quote) (payment.Quote, error) {
	// A transaction of its own: the quote moves its order's version, under the order's row lock
	// (see SetPaymentURL).
	err := s.tx(ctx, func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO payment_quotes (invoice_id, gateway, amount, currency, network, rate, basis, taken_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (invoice_id) DO NOTHING`,
			q.InvoiceID, q.Gateway, q.Amount, q.Currency, q.Network, q.Rate, q.Basis, fmtTime(q.TakenAt))
		return err
	})
	if err != nil {
		return payment.Quote{}, fmt.Errorf("put quote %s: %w", q.InvoiceID, err)
	}
	return s.quote(ctx, s.w, q.InvoiceID)
}

// Quote reads an invoice's payment quote; payment.ErrNotFound when none.
func (s *db) Quote(ctx context.Context, invoiceID string) (payment.Quote, error) {
	return s.quote(ctx, s.r, invoiceID)
}

func (s *db) quote(ctx context.Context, q querier, invoiceID string) (payment.Quote, error) {
	var out payment.Quote
	var taken string
	err := q.QueryRowContext(ctx, `SELECT invoice_id, gateway, amount, currency, network, rate, basis, taken_at
		FROM payment_quotes WHERE invoice_id = ?`, invoiceID).
		Scan(&out.InvoiceID, &out.Gateway, &out.Amount, &out.Currency, &out.Network, &out.Rate, &out.Basis, &taken)
	if errors.Is(err, sql.ErrNoRows) {
		return payment.Quote{}, fmt.Errorf("quote %s: %w", invoiceID, payment.ErrNotFound)
	}
	if err != nil {
		return payment.Quote{}, fmt.Errorf("quote %s: %w", invoiceID, err)
	}
	out.TakenAt = parseTime(taken)
	return out, nil
}
