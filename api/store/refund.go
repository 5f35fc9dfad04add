package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/refund"
)

const refundColumns = `id, order_id, amount, currency, method, reference, reason, note, operator, created_at, COALESCE(idempotency_key, '')`

func scanRefund(sc interface{ Scan(...any) error }) (refund.Refund, error) {
	var r refund.Refund
	var at string
	err := sc.Scan(&r.ID, &r.OrderID, &r.Amount.Amount, &r.Amount.Currency, &r.Method, &r.Reference, &r.Reason, &r.Note, &r.Operator, &at,
		&r.IdempotencyKey)
	r.CreatedAt = parseTime(at)
	return r, err
}

func orderRefunds(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, orderID string) ([]refund.Refund, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+refundColumns+` FROM order_refunds WHERE order_id = ? ORDER BY seq`, orderID)
	if err != nil {
		return nil, fmt.Errorf("order refunds: %w", err)
	}
	defer rows.Close()
	out := []refund.Refund{}
	for rows.Next() {
		r, err := scanRefund(rows)
		if err != nil {
			return nil, fmt.Errorf("order refunds: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// OrderRefunds lists an order's refunds, oldest first.
func (s *db) OrderRefunds(ctx context.Context, orderID string) ([]refund.Refund, error) {
	return orderRefunds(ctx, s.r, orderID)
}

// ReserveRefund records r under the order's lock unless it takes more than paid minus what was
// refunded already (refund.ErrTooMuch; refund.ErrFullyRefunded when nothing is left). An
// r.Amount of 0 takes all that is left. It answers the refund as recorded. A refund of the order
// recorded with r's idempotency key is answered instead (replayed), first, under the same lock:
// concurrent requests with one key record one refund; with another reason, or another amount
// asked, it is refund.ErrKeyReused.
func (s *db) ReserveRefund(ctx context.Context, r refund.Refund, paid int64) (refund.Refund, bool, error) {
	replayed := false
	err := s.tx(ctx, func(q querier) error {
		if err := q.d.lock(ctx, q, orderLock(r.OrderID)); err != nil {
			return err
		}
		prev, err := orderRefunds(ctx, q, r.OrderID)
		if err != nil {
			return err
		}
		var done int64
		for _, p := range prev {
			if r.IdempotencyKey != "" && p.IdempotencyKey == r.IdempotencyKey {
				if p.Reason != r.Reason || (r.Amount.Amount != 0 && p.Amount.Amount != r.Amount.Amount) {
					return refund.ErrKeyReused
				}
				r, replayed = p, true
				return nil
			}
			done += p.Amount.Amount
		}
		left := paid - done
		switch {
		case left <= 0:
			return refund.ErrFullyRefunded
		case r.Amount.Amount == 0:
			r.Amount.Amount = left
		case r.Amount.Amount > left:
			return fmt.Errorf("%w: %d left", refund.ErrTooMuch, left)
		}
		var key any
		if r.IdempotencyKey != "" {
			key = r.IdempotencyKey
		}
		_, err = q.ExecContext(ctx, `INSERT INTO order_refunds (id, order_id, seq, amount, currency, method, reference, reason, note, operator,
			created_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.OrderID, len(prev)+1, r.Amount.Amount, r.Amount.Currency,
			r.Method, r.Reference, r.Reason, r.Note, r.Operator, fmtTime(r.CreatedAt), key)
		return err
	})
	if err != nil {
		return r, false, fmt.Errorf("refund %s: %w", r.OrderID, err)
	}
	return r, replayed, nil
}

// CompleteRefund records the gateway's refund id of a reserved refund.
func (s *db) CompleteRefund(ctx context.Context, id, reference string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE order_refunds SET reference = ? WHERE id = ?`, reference, id)
	if err != nil {
		return fmt.Errorf("complete refund: %w", err)
	}
	return nil
}

// DropRefund forgets a reserved refund the gateway refused.
func (s *db) DropRefund(ctx context.Context, id string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM order_refunds WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("drop refund: %w", err)
	}
	return nil
}

// FinishFulfilment ends the fulfilment of order id: provisioning → active, or → partially_refunded
// when a refund was given while it ran (refund.Service leaves the status of an order being
// fulfilled as it is, so a partial refund never stops its fulfilment). moved false: the order was
// not provisioning. One transaction under the order's lock: the status moves first, then the
// refunds given (manual, or with the gateway's reference) are read, so a refund completed
// meanwhile is either seen here or finds the order active and marks it itself; a reserved refund
// the gateway may still refuse is not counted.
func (s *db) FinishFulfilment(ctx context.Context, id string) (moved bool, err error) {
	err = s.tx(ctx, func(q querier) error {
		if moved, err = setOrderStatus(ctx, q, s.now(), id, order.StatusActive, order.StatusProvisioning); err != nil || !moved {
			return err
		}
		var n int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM order_refunds WHERE order_id = ? AND (method = ? OR reference <> '')`,
			id, refund.Manual).Scan(&n); err != nil {
			return fmt.Errorf("finish fulfilment %s: %w", id, err)
		}
		if n > 0 {
			_, err = setOrderStatus(ctx, q, s.now(), id, order.StatusPartiallyRefunded, order.StatusActive)
		}
		return err
	})
	return moved, err
}
