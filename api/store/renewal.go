package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// DueServices lists the paid-for services that are active, overdue or suspended and due at or
// before before, soonest first.
func (s *db) DueServices(ctx context.Context, before time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status IN (?, ?, ?) AND trial = ? AND next_due_date <> '' AND next_due_date <= ? ORDER BY next_due_date, id`,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), false, fmtTime(before))
}

// ReserveRenewal records a renewal unless its service's period has one: the unique key
// (service_id, period_start) lets one of any number of concurrent sweeps record it.
func (s *db) ReserveRenewal(ctx context.Context, r renewal.Renewal) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO renewals (order_id, service_id, period_start, period_end, cycle_months, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (service_id, period_start) DO NOTHING`,
		r.OrderID, r.ServiceID, fmtTime(r.PeriodStart), fmtTime(r.PeriodEnd), r.CycleMonths, fmtTime(r.CreatedAt))
	if err != nil {
		return false, fmt.Errorf("reserve renewal of %s: %w", r.ServiceID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("reserve renewal of %s: %w", r.ServiceID, err)
	}
	return n == 1, nil
}

// DeleteRenewal forgets a renewal whose order was never placed.
func (s *db) DeleteRenewal(ctx context.Context, orderID string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM renewals WHERE order_id = ? AND NOT EXISTS (SELECT 1 FROM orders WHERE id = ?)`, orderID, orderID); err != nil {
		return fmt.Errorf("delete renewal %s: %w", orderID, err)
	}
	return nil
}

const renewalColumns = `order_id, service_id, period_start, period_end, cycle_months, created_at, applied_at`

func scanRenewal(row interface{ Scan(...any) error }) (renewal.Renewal, error) {
	var r renewal.Renewal
	var start, end, created, applied string
	err := row.Scan(&r.OrderID, &r.ServiceID, &start, &end, &r.CycleMonths, &created, &applied)
	if errors.Is(err, sql.ErrNoRows) {
		return renewal.Renewal{}, renewal.ErrNotFound
	}
	if err != nil {
		return renewal.Renewal{}, fmt.Errorf("read renewal: %w", err)
	}
	r.PeriodStart, r.PeriodEnd, r.CreatedAt, r.AppliedAt = parseTime(start), parseTime(end), parseTime(created), parseTime(applied)
	return r, nil
}

// Renewal reads the renewal of an order.
func (s *db) Renewal(ctx context.Context, orderID string) (renewal.Renewal, error) {
	return scanRenewal(s.r.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE order_id = ?`, orderID))
}

// LatestRenewal reads the renewal of the service's latest period.
func (s *db) LatestRenewal(ctx context.Context, serviceID string) (renewal.Renewal, error) {
	return scanRenewal(s.r.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE service_id = ?
		ORDER BY period_start DESC LIMIT 1`, serviceID))
}

// ApplyRenewal makes the service active again for the renewal's period, under the service's
// lock (the one upsells take), once: a renewal applied already changes nothing. An active or
// overdue line is due at the period's end; a suspended one a cycle from at (the payment). A line
// in any other state (terminated, cancelled) is renewal.ErrLineGone.
func (s *db) ApplyRenewal(ctx context.Context, orderID string, at time.Time) (order.Service, error) {
	var svc order.Service
	err := s.tx(ctx, func(tx querier) error {
		r, err := scanRenewal(tx.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE order_id = ?`, orderID))
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+r.ServiceID); err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, r.ServiceID)); err != nil {
			return err
		}
		if !r.AppliedAt.IsZero() {
			return nil
		}
		end := r.PeriodEnd
		switch svc.Status {
		case order.ServiceActive, order.ServiceOverdue:
		case order.ServiceSuspended:
			end = at.AddDate(0, r.CycleMonths, 0)
		default:
			return renewal.ErrLineGone
		}
		svc.Status, svc.NextDueDate, svc.ExpiresAt = order.ServiceActive, end, end
		if _, err := tx.ExecContext(ctx, `UPDATE services SET status = ?, next_due_date = ?, expires_at = ? WHERE id = ?`,
			string(svc.Status), fmtTime(end), fmtTime(end), r.ServiceID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE renewals SET applied_at = ? WHERE order_id = ?`, fmtTime(at), orderID)
		return err
	})
	if err != nil {
		return order.Service{}, fmt.Errorf("apply renewal %s: %w", orderID, err)
	}
	return svc, nil
}

// LapsedServices lists the paid-for services in status due at or before dueBefore.
func (s *db) LapsedServices(ctx context.Context, status order.ServiceStatus, dueBefore time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status = ? AND trial = ? AND next_due_date <> '' AND next_due_date <= ? ORDER BY next_due_date, id`,
		string(status), false, fmtTime(dueBefore))
}

// EndedTrials lists the active free trials that expired at or before now.
func (s *db) EndedTrials(ctx context.Context, now time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status = ? AND trial = ? AND expires_at <> '' AND expires_at <= ? ORDER BY expires_at, id`,
		string(order.ServiceActive), true, fmtTime(now))
}

func (s *db) services(ctx context.Context, where string, args ...any) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read services: %w", err)
	}
	defer rows.Close()
	var out []order.Service
	for rows.Next() {
		v, err := scanService(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// SetServiceStatus moves a service to status to when it is in one of from; reports whether it moved.
func (s *db) SetServiceStatus(ctx context.Context, id string, to order.ServiceStatus, from ...order.ServiceStatus) (bool, error) {
	var moved bool
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "service:"+id); err != nil {
			return err
		}
		var status string
		if err := tx.QueryRowContext(ctx, `SELECT status FROM services WHERE id = ?`, id).Scan(&status); err != nil {
			return err
		}
		moved = false
		for _, f := range from {
			if order.ServiceStatus(status) == f {
				moved = true
			}
		}
		if !moved {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE services SET status = ? WHERE id = ?`, string(to), id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("set service %s %s: %w", id, to, err)
	}
	return moved, nil
}

// RenewalListing lists the renewable services due at or before dueBefore (zero: any), each with
// its order's email and the unpaid invoice of its latest renewal.
func (s *db) RenewalListing(ctx context.Context, dueBefore time.Time) ([]renewal.Listed, error) {
	bound := "9999"
	if !dueBefore.IsZero() {
		bound = fmtTime(dueBefore)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT s.id, o.email, s.next_due_date, s.status,
		COALESCE((SELECT i.id FROM renewals r JOIN invoices i ON i.order_id = r.order_id
			WHERE r.service_id = s.id AND i.status = 'unpaid' ORDER BY r.period_start DESC LIMIT 1), ''),
		EXISTS (SELECT 1 FROM service_cards c WHERE c.service_id = s.id)
		FROM services s JOIN orders o ON o.id = s.order_id
		WHERE s.status IN (?, ?, ?) AND s.next_due_date <> '' AND s.next_due_date <= ?
		ORDER BY s.next_due_date, s.id`,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), bound)
	if err != nil {
		return nil, fmt.Errorf("list renewals: %w", err)
	}
	defer rows.Close()
	var out []renewal.Listed
	for rows.Next() {
		var l renewal.Listed
		var due, status string
		if err := rows.Scan(&l.ServiceID, &l.Email, &due, &status, &l.OpenInvoice, &l.SavedCard); err != nil {
			return nil, fmt.Errorf("list renewals: %w", err)
		}
		l.Due, l.Status = parseTime(due), order.ServiceStatus(status)
		out = append(out, l)
	}
	return out, rows.Err()
}
