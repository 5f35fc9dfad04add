package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/order"
)

const reviewColumns = `id, order_id, invoice_id, provider, transaction_id, payment_ref, amount, currency, reason,
	refund_id, refunded_at, refund_error, created_at`

func scanReview(row rowScanner) (order.Review, error) {
	var r order.Review
	var refunded, created string
	err := row.Scan(&r.ID, &r.OrderID, &r.InvoiceID, &r.Provider, &r.TransactionID, &r.PaymentRef, &r.Amount.Amount,
		&r.Amount.Currency, &r.Reason, &r.RefundID, &refunded, &r.RefundError, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return order.Review{}, order.ErrNotFound
	}
	if err != nil {
		return order.Review{}, fmt.Errorf("read payment review: %w", err)
	}
	r.RefundedAt, r.CreatedAt = parseTime(refunded), parseTime(created)
	return r, nil
}

// InsertReview records a payment under review unless its transaction is recorded already. The
// transaction's lock (the one a settlement takes) makes concurrent deliveries queue.
func (t *orderTx) InsertReview(ctx context.Context, r order.Review) (bool, error) {
	if err := t.d.lock(ctx, t.tx, "txn:"+r.TransactionID); err != nil {
		return false, fmt.Errorf("insert payment review: %w", err)
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO payment_reviews (id, order_id, invoice_id, provider, transaction_id, payment_ref,
		amount, currency, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (transaction_id) DO NOTHING`,
		r.ID, r.OrderID, r.InvoiceID, r.Provider, r.TransactionID, r.PaymentRef, r.Amount.Amount, r.Amount.Currency, r.Reason,
		fmtTime(r.CreatedAt))
	if err != nil {
		return false, fmt.Errorf("insert payment review: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Review reads one payment under review.
func (s *db) Review(ctx context.Context, id string) (order.Review, error) {
	return scanReview(s.r.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM payment_reviews WHERE id = ?`, id))
}

// RecordRefund records a refund made, or (refundID "") the failure of an attempt.
func (s *db) RecordRefund(ctx context.Context, id, refundID, failure string, at time.Time) error {
	var err error
	if refundID != "" {
		_, err = s.w.ExecContext(ctx, `UPDATE payment_reviews SET refund_id = ?, refunded_at = ?, refund_error = '' WHERE id = ?`,
			refundID, fmtTime(at), id)
	} else {
		_, err = s.w.ExecContext(ctx, `UPDATE payment_reviews SET refund_error = ? WHERE id = ? AND refund_id = ''`, clip(failure), id)
	}
	if err != nil {
		return fmt.Errorf("record refund %s: %w", id, err)
	}
	return nil
}

// Reviews lists the payments under review, newest first.
func (s *db) Reviews(ctx context.Context, limit int) ([]order.Review, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+reviewColumns+` FROM payment_reviews ORDER BY created_at DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list payment reviews: %w", err)
	}
	defer rows.Close()
	out := []order.Review{}
	for rows.Next() {
		r, err := scanReview(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
