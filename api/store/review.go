package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/order"
)

const reviewColumns = `id, order_id, invoice_id, provider, transaction_id, payment_ref, amount, currency, expected_amount,
	expected_currency, reason, state, refund_id, reference, refunded_at, refund_error, decided_by, created_at`

// refundClaimTTL is how long a provider refund under way (refunding_at) keeps other refunds and
// accepts of the payment out; a claim older than this was left by a crash and is free again.
const refundClaimTTL = 5 * time.Minute

func scanReview(row rowScanner) (order.Review, error) {
	var r order.Review
	var refunded, created string
	err := row.Scan(&r.ID, &r.OrderID, &r.InvoiceID, &r.Provider, &r.TransactionID, &r.PaymentRef, &r.Amount.Amount,
		&r.Amount.Currency, &r.Expected.Amount, &r.Expected.Currency, &r.Reason, &r.State, &r.RefundID, &r.Reference, &refunded,
		&r.RefundError, &r.DecidedBy, &created)
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
	if r.State == "" {
		r.State = order.ReviewOpen
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO payment_reviews (id, order_id, invoice_id, provider, transaction_id, payment_ref,
		amount, currency, expected_amount, expected_currency, reason, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (transaction_id) DO NOTHING`,
		r.ID, r.OrderID, r.InvoiceID, r.Provider, r.TransactionID, r.PaymentRef, r.Amount.Amount, r.Amount.Currency,
		r.Expected.Amount, r.Expected.Currency, r.Reason, r.State, fmtTime(r.CreatedAt))
	if err != nil {
		return false, fmt.Errorf("insert payment review: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// AcceptReview moves a payment to review to accepted (by, at) unless it is decided already or a
// refund of it is under way (order.ErrDecided); it answers the row.
func (t *orderTx) AcceptReview(ctx context.Context, id, by string, at time.Time) (order.Review, error) {
	res, err := t.tx.ExecContext(ctx, `UPDATE payment_reviews SET state = ?, decided_by = ?, decided_at = ?
		WHERE id = ? AND state = ? AND (refunding_at = '' OR refunding_at < ?)`,
		order.ReviewAccepted, by, fmtTime(at), id, order.ReviewOpen, fmtTime(time.Now().Add(-refundClaimTTL)))
	if err != nil {
		return order.Review{}, fmt.Errorf("accept payment %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return order.Review{}, fmt.Errorf("accept payment %s: %w", id, err)
	}
	r, err := scanReview(t.tx.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM payment_reviews WHERE id = ?`, id))
	if err != nil {
		return r, err
	}
	if n != 1 {
		return r, order.ErrDecided
	}
	return r, nil
}

// PayInvoice marks an unpaid or cancelled invoice paid by txn (a payment accepted after review);
// it reports false when the invoice is paid already or the transaction settled another one.
func (t *orderTx) PayInvoice(ctx context.Context, id, txn string, at time.Time) (bool, error) {
	var orderID string
	err := t.tx.QueryRowContext(ctx, `SELECT order_id FROM invoices WHERE id = ?`, id).Scan(&orderID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("pay invoice %s: %w", id, err)
	}
	if err := t.d.lock(ctx, t.tx, orderLock(orderID)); err != nil {
		return false, fmt.Errorf("pay invoice %s: %w", id, err)
	}
	var n int
	if err := t.tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM invoices WHERE transaction_id = ?`, txn).Scan(&n); err != nil {
		return false, fmt.Errorf("pay invoice %s: %w", id, err)
	}
	if n > 0 {
		return false, nil
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE invoices SET status = ?, transaction_id = ?, paid_at = ? WHERE id = ? AND status IN (?, ?)`,
		string(order.InvoicePaid), txn, fmtTime(at), id, string(order.InvoiceUnpaid), string(order.InvoiceCancelled))
	if err != nil {
		return false, fmt.Errorf("pay invoice %s: %w", id, err)
	}
	moved, err := res.RowsAffected()
	return moved == 1, err
}

// Review reads one payment under review.
func (s *db) Review(ctx context.Context, id string) (order.Review, error) {
	return scanReview(s.r.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM payment_reviews WHERE id = ?`, id))
}

// ClaimRefund marks a refund of a payment to review under way, once: false when it is decided
// already or another refund of it is under way. The claim is dated in real time (a lease, not
// business time).
func (s *db) ClaimRefund(ctx context.Context, id string) (bool, error) {
	now := time.Now()
	res, err := s.w.ExecContext(ctx, `UPDATE payment_reviews SET refunding_at = ? WHERE id = ? AND state = ?
		AND (refunding_at = '' OR refunding_at < ?)`, fmtTime(now), id, order.ReviewOpen, fmtTime(now.Add(-refundClaimTTL)))
	if err != nil {
		return false, fmt.Errorf("claim refund of %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// FinishRefund records a claimed refund: made (r.RefundID by the provider, or r.Reference by
// hand; state refunded, by r.DecidedBy at r.RefundedAt), or failed (failure, the claim let go).
func (s *db) FinishRefund(ctx context.Context, r order.Review, failure string) error {
	var err error
	if failure == "" {
		_, err = s.w.ExecContext(ctx, `UPDATE payment_reviews SET state = ?, refund_id = ?, reference = ?, refunded_at = ?,
			decided_by = ?, decided_at = ?, refund_error = '', refunding_at = '' WHERE id = ?`,
			order.ReviewRefunded, r.RefundID, r.Reference, fmtTime(r.RefundedAt), r.DecidedBy, fmtTime(r.RefundedAt), r.ID)
	} else {
		_, err = s.w.ExecContext(ctx, `UPDATE payment_reviews SET refund_error = ?, refunding_at = '' WHERE id = ? AND state = ?`,
			clip(failure), r.ID, order.ReviewOpen)
	}
	if err != nil {
		return fmt.Errorf("record refund of %s: %w", r.ID, err)
	}
	return nil
}

// Reviews lists the payments to review in every state, newest first.
func (s *db) Reviews(ctx context.Context, limit int) ([]order.Review, error) {
	return s.ReviewsIn(ctx, "", limit)
}

// ReviewsIn lists the payments to review in state ("": all), newest first.
func (s *db) ReviewsIn(ctx context.Context, state string, limit int) ([]order.Review, error) {
	q, args := `SELECT `+reviewColumns+` FROM payment_reviews ORDER BY created_at DESC, id LIMIT ?`, []any{limit}
	if state != "" {
		q, args = `SELECT `+reviewColumns+` FROM payment_reviews WHERE state = ? ORDER BY created_at DESC, id LIMIT ?`, []any{state, limit}
	}
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list payment reviews: %w", err)
	}
	return scanReviews(rows)
}

// OrderReviews lists an order's payments to review in state ("": all), oldest first.
func (s *db) OrderReviews(ctx context.Context, orderID, state string) ([]order.Review, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+reviewColumns+` FROM payment_reviews WHERE order_id = ? AND (? = '' OR state = ?)
		ORDER BY created_at, id`, orderID, state, state)
	if err != nil {
		return nil, fmt.Errorf("list payment reviews of %s: %w", orderID, err)
	}
	return scanReviews(rows)
}

// scanReviews reads every row of a payment_reviews query (reviewColumns) and closes rows.
func scanReviews(rows *sql.Rows) ([]order.Review, error) {
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
