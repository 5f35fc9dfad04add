package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/order"
)

const serviceColumns = `id, order_id, client_id, session_id, pid, name, billing_cycle, status, trial, username, password,
	server_hostname, max_connections, mac_address, expires_at, next_due_date, created_at, auto_renew,
	EXISTS (SELECT 1 FROM service_cards c WHERE c.service_id = services.id)`

func scanService(row interface{ Scan(...any) error }) (order.Service, error) {
	var v order.Service
	var status, expires, due, created string
	err := row.Scan(&v.ID, &v.OrderID, &v.ClientID, &v.SessionID, &v.PID, &v.Name, &v.BillingCycle, &status, &v.Trial,
		&v.Username, &v.Password, &v.ServerHostname, &v.MaxConnections, &v.MACAddress, &expires, &due, &created, &v.AutoRenew,
		&v.SavedCard)
	if errors.Is(err, sql.ErrNoRows) {
		return order.Service{}, order.ErrNotFound
	}
	if err != nil {
		return order.Service{}, fmt.Errorf("read service: %w", err)
	}
	v.Status = order.ServiceStatus(status)
	v.ExpiresAt, v.NextDueDate, v.CreatedAt = parseTime(expires), parseTime(due), parseTime(created)
	return v, nil
}

// Service reads one service.
func (s *db) Service(ctx context.Context, id string) (order.Service, error) {
	return scanService(s.r.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, id))
}

// scanServices reads the services of rows after out, and closes rows.
func scanServices(rows *sql.Rows, out []order.Service) ([]order.Service, error) {
	defer rows.Close()
	for rows.Next() {
		v, err := scanService(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// OrderServices reads an order's services.
func (s *db) OrderServices(ctx context.Context, orderID string) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE order_id = ? ORDER BY rowid`, orderID)
	if err != nil {
		return nil, fmt.Errorf("read services: %w", err)
	}
	return scanServices(rows, nil)
}

// OrderTargetLines lists the existing lines an order works on rather than creates: the line a
// renewal renews, an upsell raises or a charged change changes (none for a plan order).
func (s *db) OrderTargetLines(ctx context.Context, orderID string) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id IN (
		SELECT service_id FROM renewals WHERE order_id = ?
		UNION SELECT service_id FROM upsells WHERE order_id = ?
		UNION SELECT service_id FROM service_changes WHERE order_id = ? AND order_id <> '') ORDER BY rowid`, orderID, orderID, orderID)
	if err != nil {
		return nil, fmt.Errorf("read an order's lines: %w", err)
	}
	return scanServices(rows, nil)
}

// UpdateService writes a service's provisioning fields.
func (s *db) UpdateService(ctx context.Context, v order.Service) error {
	_, err := s.w.ExecContext(ctx, `UPDATE services SET status = ?, username = ?, password = ?, server_hostname = ?,
		max_connections = ?, mac_address = ?, expires_at = ?, next_due_date = ? WHERE id = ?`,
		string(v.Status), v.Username, v.Password, v.ServerHostname, v.MaxConnections, v.MACAddress,
		fmtTime(v.ExpiresAt), fmtTime(v.NextDueDate), v.ID)
	if err != nil {
		return fmt.Errorf("update service %s: %w", v.ID, err)
	}
	return nil
}

// ClientServices reads a client's services, oldest first.
func (s *db) ClientServices(ctx context.Context, clientID int64) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE client_id = ? ORDER BY rowid`, clientID)
	if err != nil {
		return nil, fmt.Errorf("read client services: %w", err)
	}
	return scanServices(rows, []order.Service{}) // a client with none reads as [], not null
}

func (s *db) services(ctx context.Context, where string, args ...any) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read services: %w", err)
	}
	return scanServices(rows, nil)
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

// SetAutoRenew sets the service's auto-renew under its lock when its status is one of in; it
// answers the service and whether it changed.
func (s *db) SetAutoRenew(ctx context.Context, id string, on bool, in ...order.ServiceStatus) (order.Service, bool, error) {
	var svc order.Service
	changed := false
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "service:"+id); err != nil {
			return err
		}
		var err error
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, id)); err != nil {
			return err
		}
		changed = false
		if svc.AutoRenew == on || !slices.Contains(in, svc.Status) {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE services SET auto_renew = ? WHERE id = ?`, on, id); err != nil {
			return err
		}
		svc.AutoRenew, changed = on, true
		return nil
	})
	if err != nil {
		return order.Service{}, false, fmt.Errorf("set auto-renew of %s: %w", id, err)
	}
	return svc, changed, nil
}

// ExtendService moves a line's expiry and next due date e.Days on (from now when it has expired
// or has none) and records the extension, under the service's lock; a capped extension that
// would take the line's capped days since e.Since past e.Cap is a *console.ExtendLimitError and
// changes nothing.
func (s *db) ExtendService(ctx context.Context, id string, e console.Extension, now time.Time) (order.Service, error) {
	var v order.Service
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "service:"+id); err != nil {
			return err
		}
		var err error
		if v, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, id)); err != nil {
			return err
		}
		capped := 0
		if e.Cap > 0 {
			capped = 1
			var given int
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(days), 0) FROM line_extensions WHERE service_id = ? AND capped = 1 AND at > ?`,
				id, fmtTime(e.Since)).Scan(&given); err != nil {
				return err
			}
			if given+e.Days > e.Cap {
				return &console.ExtendLimitError{Cap: e.Cap, Left: max(e.Cap-given, 0)}
			}
		}
		exp := v.ExpiresAt
		if exp.IsZero() || exp.Before(now) {
			exp = now
		}
		v.ExpiresAt = exp.AddDate(0, 0, e.Days)
		if !v.NextDueDate.IsZero() {
			v.NextDueDate = v.NextDueDate.AddDate(0, 0, e.Days)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE services SET expires_at = ?, next_due_date = ? WHERE id = ?`,
			fmtTime(v.ExpiresAt), fmtTime(v.NextDueDate), id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO line_extensions (service_id, operator, capped, days, at) VALUES (?, ?, ?, ?, ?)`,
			id, e.Operator, capped, e.Days, fmtTime(e.At))
		return err
	})
	if err != nil {
		return v, fmt.Errorf("extend service: %w", err)
	}
	return v, nil
}

// DueServices lists the paid-for services that are active, overdue or suspended and due at or
// before before, soonest first.
func (s *db) DueServices(ctx context.Context, before time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status IN (?, ?, ?) AND trial = ? AND auto_renew = ? AND next_due_date <> '' AND next_due_date <= ?
		ORDER BY next_due_date, id`,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), false, true, fmtTime(before))
}

// LapsedServices lists the paid-for services in status due at or before dueBefore.
func (s *db) LapsedServices(ctx context.Context, status order.ServiceStatus, dueBefore time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status = ? AND trial = ? AND next_due_date <> '' AND next_due_date <= ? ORDER BY next_due_date, id`,
		string(status), false, fmtTime(dueBefore))
}

// UnrenewedServices lists the services whose auto-renew was cancelled, still active, overdue or
// suspended, and due at or before now: they become Cancelled.
func (s *db) UnrenewedServices(ctx context.Context, now time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status IN (?, ?, ?) AND auto_renew = ? AND next_due_date <> '' AND next_due_date <= ? ORDER BY next_due_date, id`,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), false, fmtTime(now))
}

// EndedTrials lists the active free trials that expired at or before now.
func (s *db) EndedTrials(ctx context.Context, now time.Time) ([]order.Service, error) {
	return s.services(ctx, `WHERE status = ? AND trial = ? AND expires_at <> '' AND expires_at <= ? ORDER BY expires_at, id`,
		string(order.ServiceActive), true, fmtTime(now))
}
