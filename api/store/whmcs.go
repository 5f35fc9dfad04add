package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
)

var (
	_ whmcsorder.Store      = (*SQLite)(nil)
	_ whmcsorder.HomeStore  = (*SQLite)(nil)
	_ whmcsorder.LinesStore = (*SQLite)(nil)
)

// ClaimPlacement claims the placing of an existing order in WHMCS (whmcsorder.Store): one
// statement makes its row, or takes over a placing claim that ran out before now, so two
// requests never both place it.
func (s *db) ClaimPlacement(ctx context.Context, orderID string, now, until time.Time) (whmcsorder.Placement, bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO whmcs_orders (order_id, state, claimed_until, created_at, updated_at)
		SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM orders WHERE id = ?)
		ON CONFLICT (order_id) DO UPDATE SET claimed_until = excluded.claimed_until, updated_at = excluded.updated_at
		WHERE whmcs_orders.state = ? AND whmcs_orders.claimed_until < ?`,
		orderID, whmcsorder.StatePlacing, fmtTime(until), fmtTime(now), fmtTime(now), orderID, whmcsorder.StatePlacing, fmtTime(now))
	if err != nil {
		return whmcsorder.Placement{}, false, fmt.Errorf("claim placement %s: %w", orderID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return whmcsorder.Placement{}, false, fmt.Errorf("claim placement %s: %w", orderID, err)
	}
	p, err := s.Placement(ctx, orderID)
	if err != nil {
		return p, false, err // no row: the order is gone (order.ErrNotFound)
	}
	return p, n == 1, nil
}

// SavePlacement writes a placement's state and ids, and its services' ids.
func (s *db) SavePlacement(ctx context.Context, p whmcsorder.Placement) error {
	err := s.tx(ctx, func(tx querier) error {
		if _, err := tx.ExecContext(ctx, `UPDATE whmcs_orders SET state = ?, ref = ?, whmcs_client = ?, whmcs_order = ?, whmcs_invoice = ?,
			updated_at = ? WHERE order_id = ?`, p.State, p.Ref, p.ClientRef, p.OrderRef, p.InvoiceRef, fmtTime(s.now()), p.OrderID); err != nil {
			return err
		}
		for id, ref := range p.ServiceRefs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO whmcs_services (service_id, order_id, whmcs_id) VALUES (?, ?, ?)
				ON CONFLICT (service_id) DO UPDATE SET whmcs_id = excluded.whmcs_id`, id, p.OrderID, ref); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save placement %s: %w", p.OrderID, err)
	}
	return nil
}

// Placement reads an order's placement in WHMCS; order.ErrNotFound when there is none.
func (s *db) Placement(ctx context.Context, orderID string) (whmcsorder.Placement, error) {
	p := whmcsorder.Placement{OrderID: orderID, ServiceRefs: map[string]int{}}
	err := s.r.QueryRowContext(ctx, `SELECT state, ref, whmcs_client, whmcs_order, whmcs_invoice FROM whmcs_orders WHERE order_id = ?`, orderID).
		Scan(&p.State, &p.Ref, &p.ClientRef, &p.OrderRef, &p.InvoiceRef)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("placement %s: %w", orderID, order.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("placement %s: %w", orderID, err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT service_id, whmcs_id FROM whmcs_services WHERE order_id = ?`, orderID)
	if err != nil {
		return p, fmt.Errorf("placement %s: %w", orderID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var ref int
		if err := rows.Scan(&id, &ref); err != nil {
			return p, fmt.Errorf("placement %s: %w", orderID, err)
		}
		p.ServiceRefs[id] = ref
	}
	return p, rows.Err()
}

// LostPlacements counts the placements under ref whose AddOrder's outcome is unknown (state
// lost): a WHMCS order may exist for them.
func (s *db) LostPlacements(ctx context.Context, ref string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM whmcs_orders WHERE ref = ? AND state = ?`, ref, whmcsorder.StateLost).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("lost placements: %w", err)
	}
	return n, nil
}

// WHMCSOrderTaken reports whether one of our orders being placed or placed holds WHMCS order id.
func (s *db) WHMCSOrderTaken(ctx context.Context, whmcsOrder int) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM whmcs_orders WHERE whmcs_order = ? AND state IN (?, ?)`,
		whmcsOrder, whmcsorder.StatePlacing, whmcsorder.StatePlaced).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("whmcs order taken: %w", err)
	}
	return n > 0, nil
}

// ServiceRef is the WHMCS client and service our service id maps to (whmcsorder.LinesStore);
// order.ErrNotFound for a service not placed in WHMCS.
func (s *db) ServiceRef(ctx context.Context, serviceID string) (int, int, error) {
	var client, service int
	err := s.r.QueryRowContext(ctx, `SELECT o.whmcs_client, v.whmcs_id FROM whmcs_services v
		JOIN whmcs_orders o ON o.order_id = v.order_id WHERE v.service_id = ? AND o.state = ?`, serviceID, whmcsorder.StatePlaced).Scan(&client, &service)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, fmt.Errorf("whmcs service %s: %w", serviceID, order.ErrNotFound)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("whmcs service %s: %w", serviceID, err)
	}
	return client, service, nil
}

// PutWHMCSClient records the WHMCS client one of our clients is.
func (s *db) PutWHMCSClient(ctx context.Context, clientID int64, whmcsID int) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO whmcs_clients (client_id, whmcs_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (client_id) DO UPDATE SET whmcs_id = excluded.whmcs_id`, clientID, whmcsID, fmtTime(s.now()))
	if err != nil {
		return fmt.Errorf("put whmcs client %d: %w", clientID, err)
	}
	return nil
}

// DropOrder deletes an order its billing system refused, as if it had never been placed: its
// trial record, services, invoice and jobs with it. Only while no payment reached it (pending, or
// paid free at creation): a paid order is never deleted.
func (s *db) DropOrder(ctx context.Context, id string) error {
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, orderLock(id)); err != nil {
			return err
		}
		var status, txn string
		var amount int64
		err := tx.QueryRowContext(ctx, `SELECT o.status, COALESCE(i.transaction_id, ''), i.amount FROM orders o
			JOIN invoices i ON i.order_id = o.id WHERE o.id = ?`, id).Scan(&status, &txn, &amount)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // dropped already
		}
		if err != nil {
			return err
		}
		free := order.Status(status) == order.StatusPaid && amount == 0 && strings.HasPrefix(txn, "free:")
		if order.Status(status) != order.StatusPending && !free {
			return fmt.Errorf("order is %s: %w", status, order.ErrAlreadySettled)
		}
		for _, q := range []string{
			`DELETE FROM trial_starts WHERE order_id = ?`,
			`DELETE FROM services WHERE order_id = ?`,
			`DELETE FROM invoices WHERE order_id = ?`,
			`DELETE FROM jobs WHERE ref = ? AND kind IN ('` + order.JobProvision + `', '` + order.JobExpire + `')`,
			`DELETE FROM orders WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("drop order %s: %w", id, err)
	}
	return nil
}

// LeaseUpgrade takes the lease of WHMCS service service for holder until until
// (whmcsorder.Store): free, run out before now, or holder's already; false when another holds it.
func (s *db) LeaseUpgrade(ctx context.Context, service int, holder string, now, until time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO whmcs_upgrade_leases (whmcs_service, holder, until) VALUES (?, ?, ?)
		ON CONFLICT (whmcs_service) DO UPDATE SET holder = excluded.holder, until = excluded.until
		WHERE whmcs_upgrade_leases.until < ? OR whmcs_upgrade_leases.holder = excluded.holder`,
		service, holder, fmtTime(until), fmtTime(now))
	if err != nil {
		return false, fmt.Errorf("lease whmcs service %d: %w", service, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("lease whmcs service %d: %w", service, err)
	}
	return n == 1, nil
}

// ReleaseUpgrade gives back holder's lease of WHMCS service service (none held: nothing).
func (s *db) ReleaseUpgrade(ctx context.Context, service int, holder string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM whmcs_upgrade_leases WHERE whmcs_service = ? AND holder = ?`, service, holder); err != nil {
		return fmt.Errorf("release whmcs service %d: %w", service, err)
	}
	return nil
}
