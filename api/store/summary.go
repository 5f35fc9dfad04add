package store

import (
	"context"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
)

// SummaryCounts counts the dashboard from from to now.
func (s *db) SummaryCounts(ctx context.Context, from, now time.Time) (console.Counts, error) {
	c := console.Counts{Revenue: map[string]map[string]int64{}, Refunded: map[string]map[string]int64{}, OrdersByDay: map[string]int{}}
	f, n := fmtTime(from), fmtTime(now)
	counts := []struct {
		dst   *int
		query string
		args  []any
	}{
		{&c.Orders, `SELECT COUNT(*) FROM orders WHERE created_at >= ? AND created_at <= ?`, []any{f, n}},
		{&c.NewCustomers, `SELECT COUNT(*) FROM clients WHERE created_at >= ? AND created_at <= ?`, []any{f, n}},
		{&c.FailedPayments, `SELECT COUNT(*) FROM invoices i JOIN orders o ON o.id = i.order_id WHERE i.status = ? AND o.updated_at >= ?`,
			[]any{string(order.InvoiceFailed), f}},
		{&c.ActiveLines, `SELECT COUNT(*) FROM services WHERE status IN (?, ?)`, []any{string(order.ServiceActive), string(order.ServiceOverdue)}},
		{&c.RenewalsDue, `SELECT COUNT(*) FROM services WHERE status IN (?, ?) AND trial = ? AND next_due_date <> '' AND next_due_date <= ?`,
			[]any{string(order.ServiceActive), string(order.ServiceOverdue), false, fmtTime(now.Add(7 * 24 * time.Hour))}},
		{&c.HeldOrders, `SELECT COUNT(*) FROM orders WHERE status = ?`, []any{string(order.StatusFraud)}},
		{&c.FailedJobs, `SELECT COUNT(*) FROM jobs WHERE state = ? AND last_error <> ''`, []any{JobQueued}},
		{&c.DeadJobs, `SELECT COUNT(*) FROM jobs WHERE state = ?`, []any{JobDead}},
		{&c.FailedMails, `SELECT COUNT(*) FROM mail_outbox WHERE status = ?`, []any{mail.StatusFailed}},
		{&c.StoredMails, `SELECT COUNT(*) FROM mail_outbox WHERE status = ?`, []any{mail.StatusStored}},
		{&c.MoneyToReview, `SELECT COUNT(*) FROM payment_reviews WHERE state = ?`, []any{order.ReviewOpen}},
		{&c.PaidNotActive, `SELECT COUNT(*) FROM orders o JOIN invoices i ON i.order_id = o.id
			WHERE o.status IN (?, ?) AND i.paid_at <> '' AND i.paid_at <= ?`,
			[]any{string(order.StatusPaid), string(order.StatusProvisioning), fmtTime(now.Add(-console.PaidNotActiveAfter))}},
	}
	for _, q := range counts {
		if err := s.r.QueryRowContext(ctx, q.query, q.args...).Scan(q.dst); err != nil {
			return c, fmt.Errorf("summary: %w", err)
		}
	}
	// Per day: the stored times are fixed-width UTC text, so their first 10 characters are the day.
	rows, err := s.r.QueryContext(ctx, `SELECT SUBSTR(created_at, 1, 10), COUNT(*) FROM orders WHERE created_at >= ? AND created_at <= ? GROUP BY SUBSTR(created_at, 1, 10)`, f, n)
	if err != nil {
		return c, fmt.Errorf("summary: %w", err)
	}
	for rows.Next() {
		var day string
		var k int
		if err := rows.Scan(&day, &k); err != nil {
			rows.Close()
			return c, fmt.Errorf("summary: %w", err)
		}
		c.OrdersByDay[day] = k
	}
	rows.Close()
	// A refunded invoice stays paid (its order is partially_refunded or refunded): revenue counts
	// what was paid on the day it was paid, refunds what went back on the day it went back.
	if err := s.perDay(ctx, c.Revenue, `SELECT SUBSTR(paid_at, 1, 10), currency, SUM(amount) FROM invoices WHERE status = ? AND paid_at >= ? AND paid_at <= ?
		GROUP BY SUBSTR(paid_at, 1, 10), currency`, string(order.InvoicePaid), f, n); err != nil {
		return c, err
	}
	if err := s.perDay(ctx, c.Refunded, `SELECT SUBSTR(created_at, 1, 10), currency, SUM(amount) FROM order_refunds WHERE created_at >= ? AND created_at <= ?
		GROUP BY SUBSTR(created_at, 1, 10), currency`, f, n); err != nil {
		return c, err
	}
	return c, nil
}

// perDay adds the (day, currency, amount) rows of query to into.
func (s *db) perDay(ctx context.Context, into map[string]map[string]int64, query string, args ...any) error {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var day, cur string
		var amt int64
		if err := rows.Scan(&day, &cur, &amt); err != nil {
			return fmt.Errorf("summary: %w", err)
		}
		if into[day] == nil {
			into[day] = map[string]int64{}
		}
		into[day][cur] += amt
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	return nil
}
