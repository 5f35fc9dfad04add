package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// QueueReminder records the mail kind about an order, sent at sentAt (business time), and stores
// m as QueueMail does, in one transaction; when the order already has a mail of that kind it
// stores nothing and reports false. The primary key (order_id, kind) decides between replicas.
func (s *db) QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error) {
	var queued bool
	err := s.tx(ctx, func(tx querier) error {
		var got string
		err := tx.QueryRowContext(ctx, `INSERT INTO renewal_reminders (order_id, kind, sent_at) VALUES (?, ?, ?)
			ON CONFLICT (order_id, kind) DO NOTHING RETURNING order_id`, orderID, kind, fmtTime(sentAt)).Scan(&got)
		if errors.Is(err, sql.ErrNoRows) {
			queued = false
			return nil
		}
		if err != nil {
			return err
		}
		queued = true
		_, err = queueMail(ctx, tx, m, status, send, at)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("queue %s mail of %s: %w", kind, orderID, err)
	}
	return queued, nil
}

// OpenRenewals lists the renewals not yet applied whose order is pending with its invoice unpaid,
// each with its service's status and the business time of its last recorded mail, soonest due
// first.
func (s *db) OpenRenewals(ctx context.Context) ([]renewal.Open, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.order_id, r.service_id, r.period_start, r.period_end, r.cycle_months, r.created_at,
			r.applied_at, sv.status, COALESCE((SELECT MAX(m.sent_at) FROM renewal_reminders m WHERE m.order_id = r.order_id), '')
		FROM renewals r
		JOIN orders o ON o.id = r.order_id
		JOIN invoices i ON i.order_id = r.order_id
		JOIN services sv ON sv.id = r.service_id
		WHERE r.applied_at = '' AND o.status = ? AND i.status = ?
		ORDER BY r.period_start, r.order_id`, string(order.StatusPending), string(order.InvoiceUnpaid))
	if err != nil {
		return nil, fmt.Errorf("open renewals: %w", err)
	}
	defer rows.Close()
	var out []renewal.Open
	for rows.Next() {
		var o renewal.Open
		var start, end, created, applied, status, last string
		if err := rows.Scan(&o.OrderID, &o.ServiceID, &start, &end, &o.CycleMonths, &created, &applied, &status, &last); err != nil {
			return nil, fmt.Errorf("open renewals: %w", err)
		}
		o.PeriodStart, o.PeriodEnd, o.CreatedAt, o.AppliedAt = parseTime(start), parseTime(end), parseTime(created), parseTime(applied)
		o.Service, o.LastMail = order.ServiceStatus(status), parseTime(last)
		out = append(out, o)
	}
	return out, rows.Err()
}

// TrialsEnding lists the active free trials that end after from and at or before to.
func (s *db) TrialsEnding(ctx context.Context, from, to time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status = ? AND trial = ? AND expires_at <> '' AND expires_at > ? AND expires_at <= ? ORDER BY expires_at, id`,
		string(order.ServiceActive), true, fmtTime(from), fmtTime(to))
}
