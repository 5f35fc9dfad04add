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

// DueServices lists the active, paid-for services due at or before before, soonest first.
func (s *db) DueServices(ctx context.Context, before time.Time) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services
		WHERE status = ? AND trial = ? AND next_due_date <> '' AND next_due_date <= ? ORDER BY next_due_date, id`,
		string(order.ServiceActive), false, fmtTime(before))
	if err != nil {
		return nil, fmt.Errorf("read due services: %w", err)
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

// ReserveRenewal records a renewal unless its service's period has one: the unique key
// (service_id, period_start) lets one of any number of concurrent sweeps record it.
func (s *db) ReserveRenewal(ctx context.Context, r renewal.Renewal) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO renewals (order_id, service_id, period_start, period_end, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (service_id, period_start) DO NOTHING`,
		r.OrderID, r.ServiceID, fmtTime(r.PeriodStart), fmtTime(r.PeriodEnd), fmtTime(r.CreatedAt))
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

const renewalColumns = `order_id, service_id, period_start, period_end, created_at, applied_at`

func scanRenewal(row interface{ Scan(...any) error }) (renewal.Renewal, error) {
	var r renewal.Renewal
	var start, end, created, applied string
	err := row.Scan(&r.OrderID, &r.ServiceID, &start, &end, &created, &applied)
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

// ApplyRenewal moves the service's due date and expiry to the renewal's period end, under the
// service's lock (the one upsells take), once: a renewal applied already changes nothing.
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
		if r.AppliedAt.IsZero() {
			end := fmtTime(r.PeriodEnd)
			if _, err := tx.ExecContext(ctx, `UPDATE services SET next_due_date = ?, expires_at = ? WHERE id = ?`, end, end, r.ServiceID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE renewals SET applied_at = ? WHERE order_id = ?`, fmtTime(at), orderID); err != nil {
				return err
			}
		}
		svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, r.ServiceID))
		return err
	})
	if err != nil {
		return order.Service{}, fmt.Errorf("apply renewal %s: %w", orderID, err)
	}
	return svc, nil
}
