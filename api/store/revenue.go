package store

import (
	"context"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// recurringWhere picks the lines that renew: Active or Overdue, no trial, a due date.
const recurringWhere = `status IN (?, ?) AND trial = ? AND next_due_date <> ''`

// RecurringLines reads the lines that renew and the orders that bought them (two reads, however
// many lines: the dashboard's MRR).
func (s *db) RecurringLines(ctx context.Context) ([]order.Service, map[string]order.Order, error) {
	args := []any{string(order.ServiceActive), string(order.ServiceOverdue), false}
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE `+recurringWhere+` ORDER BY rowid`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("recurring lines: %w", err)
	}
	var lines []order.Service
	for rows.Next() {
		svc, err := scanService(rows)
		if err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("recurring lines: %w", err)
		}
		lines = append(lines, svc)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("recurring lines: %w", err)
	}
	rows, err = s.r.QueryContext(ctx, orderQuery(`o.id IN (SELECT order_id FROM services WHERE `+recurringWhere+`)`), args...)
	if err != nil {
		return nil, nil, fmt.Errorf("recurring lines' orders: %w", err)
	}
	defer rows.Close()
	orders := map[string]order.Order{}
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, nil, fmt.Errorf("recurring lines' orders: %w", err)
		}
		orders[o.ID] = o
	}
	return lines, orders, rows.Err()
}

// Churn counts the lines (no trials) that ended with their period in [from, now] — a line's end
// is its expiry, or its due date when it has none: a line keeps no date of a refund or a
// termination, so one ended early counts at the end of the period it had — and those live at
// from (Active, Overdue or Suspended, or ended since): created by then and not ended before it.
func (s *db) Churn(ctx context.Context, from, now time.Time) (ended, liveAtFrom int, err error) {
	f, n := fmtTime(from), fmtTime(now)
	endedStatus := []any{string(order.ServiceCancelled), string(order.ServiceTerminated), string(order.ServiceExpired)}
	const end = `CASE WHEN expires_at <> '' THEN expires_at ELSE next_due_date END`
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM services WHERE trial = ? AND status IN (?, ?, ?)
		AND `+end+` >= ? AND `+end+` <= ?`, append(append([]any{false}, endedStatus...), f, n)...).Scan(&ended); err != nil {
		return 0, 0, fmt.Errorf("churn: %w", err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM services WHERE trial = ? AND created_at <= ?
		AND (status IN (?, ?, ?) OR (status IN (?, ?, ?) AND `+end+` >= ?))`,
		false, f, string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended),
		endedStatus[0], endedStatus[1], endedStatus[2], f).Scan(&liveAtFrom); err != nil {
		return 0, 0, fmt.Errorf("churn: %w", err)
	}
	return ended, liveAtFrom, nil
}

// FailedRenewals counts the renewals whose payment failed since from, once each: an invoice
// that failed, or an off-session charge of the saved card that was declined, needed the buyer's
// authentication or was refused (renewal_charges), even when a later attempt or the pay link paid
// it. A declined card leaves its invoice open, so the invoice alone never showed it.
func (s *db) FailedRenewals(ctx context.Context, from time.Time) (int, error) {
	var n int
	f := fmtTime(from)
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM invoices i JOIN orders o ON o.id = i.order_id
		WHERE o.kind = ? AND ((i.status = ? AND o.updated_at >= ?)
			OR EXISTS (SELECT 1 FROM renewal_charges c WHERE c.order_id = o.id AND c.outcome IN (?, ?, ?) AND c.at >= ?))`,
		string(order.KindRenewal), string(order.InvoiceFailed), f,
		renewal.ChargeDeclined, renewal.ChargeAuthRequired, renewal.ChargeRefused, f).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("failed renewals: %w", err)
	}
	return n, nil
}

// RefundTotals counts the refunds made since from and sums them per currency.
func (s *db) RefundTotals(ctx context.Context, from time.Time) (int, map[string]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT currency, COUNT(*), SUM(amount) FROM order_refunds WHERE created_at >= ? GROUP BY currency`, fmtTime(from))
	if err != nil {
		return 0, nil, fmt.Errorf("refunds: %w", err)
	}
	defer rows.Close()
	n, sums := 0, map[string]int64{}
	for rows.Next() {
		var cur string
		var k int
		var sum int64
		if err := rows.Scan(&cur, &k, &sum); err != nil {
			return 0, nil, fmt.Errorf("refunds: %w", err)
		}
		n += k
		sums[cur] += sum
	}
	return n, sums, rows.Err()
}
