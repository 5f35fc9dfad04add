package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/upsell"
)

// outstandingUpsells sums the extra connections of a service's upsells not applied yet that may
// still be: paid ones about to be applied, unpaid ones before their deadline, and those whose
// order is still being placed (recorded before it, counted for as long as an order stays payable).
const outstandingUpsells = `SELECT CAST(COALESCE(SUM(u.extra_quantity), 0) AS INTEGER) FROM upsells u
	LEFT JOIN orders o ON o.id = u.order_id
	LEFT JOIN invoices i ON i.order_id = u.order_id
	WHERE u.service_id = ? AND u.applied_at = '' AND (
		o.status IN ('paid', 'provisioning')
		OR (o.status = 'pending' AND i.status = 'unpaid' AND i.deadline > ?)
		OR (o.id IS NULL AND u.created_at > ?))`

func outstandingArgs(serviceID string, now time.Time) []any {
	return []any{serviceID, fmtTime(now), fmtTime(now.Add(-order.PaymentDeadline))}
}

// OutstandingUpsells counts the extra connections a service's pending upsells may still add.
func (s *db) OutstandingUpsells(ctx context.Context, serviceID string, now time.Time) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, outstandingUpsells, outstandingArgs(serviceID, now)...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count pending upsells: %w", err)
	}
	return n, nil
}

// ReserveUpsell records an upsell under its service's lock (the one applying an upsell takes)
// when the service is active and its connections, with every outstanding upsell and this one,
// stay within 1+maxExtra: concurrent upsells of one service queue, and only those that fit are
// recorded (upsell.ErrServiceNotActive, upsell.ErrQuantity otherwise).
func (s *db) ReserveUpsell(ctx context.Context, u upsell.Upsell, maxExtra int, now time.Time) error {
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "service:"+u.ServiceID); err != nil {
			return err
		}
		var status string
		var conns int
		if err := tx.QueryRowContext(ctx, `SELECT status, max_connections FROM services WHERE id = ?`, u.ServiceID).Scan(&status, &conns); err != nil {
			return err
		}
		if order.ServiceStatus(status) != order.ServiceActive {
			return upsell.ErrServiceNotActive
		}
		var pending int
		if err := tx.QueryRowContext(ctx, outstandingUpsells, outstandingArgs(u.ServiceID, now)...).Scan(&pending); err != nil {
			return err
		}
		if conns-1+pending+u.ExtraQuantity > maxExtra {
			return fmt.Errorf("%d connections, %d pending, %d more asked, at most %d extra: %w", conns, pending, u.ExtraQuantity, maxExtra, upsell.ErrQuantity)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO upsells (order_id, service_id, extra_quantity, created_at) VALUES (?, ?, ?, ?)`,
			u.OrderID, u.ServiceID, u.ExtraQuantity, fmtTime(u.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("reserve upsell: %w", err)
	}
	return nil
}

// DeleteUpsell forgets an upsell whose order was never placed.
func (s *db) DeleteUpsell(ctx context.Context, orderID string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM upsells WHERE order_id = ? AND NOT EXISTS (SELECT 1 FROM orders WHERE id = ?)`, orderID, orderID); err != nil {
		return fmt.Errorf("delete upsell %s: %w", orderID, err)
	}
	return nil
}

func readUpsell(ctx context.Context, q querier, orderID string) (upsell.Upsell, error) {
	var u upsell.Upsell
	var created, applied string
	err := q.QueryRowContext(ctx, `SELECT order_id, service_id, extra_quantity, created_at, applied_at FROM upsells WHERE order_id = ?`, orderID).
		Scan(&u.OrderID, &u.ServiceID, &u.ExtraQuantity, &created, &applied)
	if errors.Is(err, sql.ErrNoRows) {
		return upsell.Upsell{}, upsell.ErrNotFound
	}
	if err != nil {
		return upsell.Upsell{}, fmt.Errorf("read upsell: %w", err)
	}
	u.CreatedAt, u.AppliedAt = parseTime(created), parseTime(applied)
	return u, nil
}

// Upsell reads the upsell of an order; upsell.ErrNotFound when the order is no upsell.
func (s *db) Upsell(ctx context.Context, orderID string) (upsell.Upsell, error) {
	return readUpsell(ctx, s.r, orderID)
}

// ApplyUpsell adds an upsell's connections to its service once. Under the service's lock the
// upsell row is read again: applied already, or taken back by a refund, the service is returned
// as it is.
func (s *db) ApplyUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, error) {
	var svc order.Service
	err := s.tx(ctx, func(tx querier) error {
		u, err := readUpsell(ctx, tx, orderID)
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+u.ServiceID); err != nil {
			return err
		}
		if u, err = readUpsell(ctx, tx, orderID); err != nil {
			return err
		}
		var reversed string
		if err := tx.QueryRowContext(ctx, `SELECT reversed_at FROM upsells WHERE order_id = ?`, orderID).Scan(&reversed); err != nil {
			return err
		}
		if u.AppliedAt.IsZero() && reversed == "" {
			if _, err := tx.ExecContext(ctx, `UPDATE services SET max_connections = max_connections + ? WHERE id = ?`, u.ExtraQuantity, u.ServiceID); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE upsells SET applied_at = ? WHERE order_id = ? AND applied_at = ''`, fmtTime(at), orderID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return fmt.Errorf("upsell %s applied concurrently (rows %d): %v", orderID, n, err)
			}
		}
		svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, u.ServiceID))
		return err
	})
	if err != nil {
		return order.Service{}, fmt.Errorf("apply upsell: %w", err)
	}
	return svc, nil
}

// ReverseUpsell takes back an upsell whose payment was refunded, once, under the service's lock:
// applied to a line still running, its connections come off the service's (never below one);
// not applied yet, it never will be. moved reports the service changed; its panel line is then
// brought in step by a order.JobLineSync queued in the same transaction.
func (s *db) ReverseUpsell(ctx context.Context, orderID string, at time.Time) (svc order.Service, moved bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		u, err := readUpsell(ctx, tx, orderID)
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+u.ServiceID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE upsells SET reversed_at = ? WHERE order_id = ? AND reversed_at = ''`, fmtTime(at), orderID)
		if err != nil {
			return err
		}
		first, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if u, err = readUpsell(ctx, tx, orderID); err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, u.ServiceID)); err != nil {
			return err
		}
		if first == 0 || u.AppliedAt.IsZero() || !slices.Contains(running, svc.Status) {
			return nil
		}
		svc.MaxConnections = max(1, svc.MaxConnections-u.ExtraQuantity)
		if _, err := tx.ExecContext(ctx, `UPDATE services SET max_connections = ? WHERE id = ?`, svc.MaxConnections, svc.ID); err != nil {
			return err
		}
		moved = true
		return enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":"+orderID, at)
	})
	if err != nil {
		return order.Service{}, false, fmt.Errorf("reverse upsell %s: %w", orderID, err)
	}
	return svc, moved, nil
}
