package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/planchange"
)

const changeColumns = `id, service_id, order_id, charge, from_pid, from_name, from_cycle, from_connections, from_due,
	to_pid, to_name, to_cycle, to_connections, to_due, amount, currency, reason, operator, idempotency_key, request_hash,
	created_at, applied_at, reversed_at`

func scanChange(row interface{ Scan(...any) error }) (planchange.Change, error) {
	var c planchange.Change
	var charge, fromDue, toDue, created, applied, reversed string
	err := row.Scan(&c.ID, &c.ServiceID, &c.OrderID, &charge, &c.From.PID, &c.From.Name, &c.From.BillingCycle, &c.From.MaxConnections, &fromDue,
		&c.To.PID, &c.To.Name, &c.To.BillingCycle, &c.To.MaxConnections, &toDue, &c.Amount.Amount, &c.Amount.Currency, &c.Reason, &c.Operator,
		&c.IdempotencyKey, &c.RequestHash, &created, &applied, &reversed)
	if errors.Is(err, sql.ErrNoRows) {
		return c, planchange.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("read change: %w", err)
	}
	c.Charge = planchange.Charge(charge)
	c.From.NextDueDate, c.To.NextDueDate = parseTime(fromDue), parseTime(toDue)
	c.CreatedAt, c.AppliedAt, c.ReversedAt = parseTime(created), parseTime(applied), parseTime(reversed)
	return c, nil
}

// pendingChange finds a charge-now change of the service not applied that may still be paid:
// its order paid and about to be applied, unpaid before its deadline, or being placed.
const pendingChange = `SELECT COUNT(*) FROM service_changes c
	LEFT JOIN orders o ON o.id = c.order_id
	LEFT JOIN invoices i ON i.order_id = c.order_id
	WHERE c.service_id = ? AND c.order_id <> '' AND c.applied_at = '' AND c.reversed_at = '' AND (
		o.status IN ('paid', 'provisioning')
		OR (o.status = 'pending' AND i.status = 'unpaid' AND i.deadline > ?)
		OR (o.id IS NULL AND c.created_at > ?))`

// setTerms gives a service the terms t; its expiry moves as far as its due date does.
func setTerms(ctx context.Context, tx querier, svc *order.Service, t planchange.Terms) error {
	if moved := t.NextDueDate.Sub(svc.NextDueDate); moved != 0 && !svc.ExpiresAt.IsZero() {
		svc.ExpiresAt = svc.ExpiresAt.Add(moved)
	}
	svc.PID, svc.Name, svc.BillingCycle, svc.MaxConnections, svc.NextDueDate = t.PID, t.Name, t.BillingCycle, t.MaxConnections, t.NextDueDate
	_, err := tx.ExecContext(ctx, `UPDATE services SET pid = ?, name = ?, billing_cycle = ?, max_connections = ?, next_due_date = ?, expires_at = ? WHERE id = ?`,
		svc.PID, svc.Name, svc.BillingCycle, svc.MaxConnections, fmtTime(svc.NextDueDate), fmtTime(svc.ExpiresAt), svc.ID)
	return err
}

// RecordChange records a change of a line's terms under the line's lock (planchange.Store).
func (s *db) RecordChange(ctx context.Context, c planchange.Change, apply bool, now time.Time) (got planchange.Change, replayed bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		got, replayed = planchange.Change{}, false
		if err := s.d.lock(ctx, tx, "service:"+c.ServiceID); err != nil {
			return err
		}
		if c.IdempotencyKey != "" {
			prev, err := scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE idempotency_key = ?`, c.IdempotencyKey))
			if err == nil {
				got, replayed = prev, true
				if prev.RequestHash != c.RequestHash || prev.ServiceID != c.ServiceID {
					return planchange.ErrKeyReused
				}
				return nil
			}
			if !errors.Is(err, planchange.ErrNotFound) {
				return err
			}
		}
		if c.ID == "" { // a replay's look-up only
			return planchange.ErrNotFound
		}
		svc, err := scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, c.ServiceID))
		if err != nil {
			return err
		}
		if !slices.Contains(running, svc.Status) {
			return planchange.ErrLineState
		}
		now := planchange.TermsOf(svc)
		switch {
		case now.Same(c.To):
			return planchange.ErrNothingToChange
		case !now.Same(c.From):
			return planchange.ErrStale
		}
		var pending int
		if err := tx.QueryRowContext(ctx, pendingChange, c.ServiceID, fmtTime(c.CreatedAt), fmtTime(c.CreatedAt.Add(-order.PaymentDeadline))).Scan(&pending); err != nil {
			return err
		}
		if pending > 0 {
			return planchange.ErrPending
		}
		got = c
		if apply {
			got.AppliedAt = c.CreatedAt
			if err := setTerms(ctx, tx, &svc, c.To); err != nil {
				return err
			}
			if err := enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":"+c.ID, c.CreatedAt); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO service_changes (`+changeColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			got.ID, got.ServiceID, got.OrderID, string(got.Charge), got.From.PID, got.From.Name, got.From.BillingCycle, got.From.MaxConnections,
			fmtTime(got.From.NextDueDate), got.To.PID, got.To.Name, got.To.BillingCycle, got.To.MaxConnections, fmtTime(got.To.NextDueDate),
			got.Amount.Amount, got.Amount.Currency, got.Reason, got.Operator, got.IdempotencyKey, got.RequestHash,
			fmtTime(got.CreatedAt), fmtTime(got.AppliedAt), "")
		return err
	})
	if err != nil && !replayed {
		return planchange.Change{}, false, fmt.Errorf("record change: %w", err)
	}
	if err != nil {
		return got, true, fmt.Errorf("record change: %w", err)
	}
	return got, replayed, nil
}

// DeleteChange forgets a charge-now change whose order was never placed.
func (s *db) DeleteChange(ctx context.Context, id string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM service_changes WHERE id = ? AND applied_at = '' AND NOT EXISTS (SELECT 1 FROM orders WHERE id = service_changes.order_id)`, id); err != nil {
		return fmt.Errorf("delete change %s: %w", id, err)
	}
	return nil
}

// ChangeOfOrder reads the change an order pays; planchange.ErrNotFound when none.
func (s *db) ChangeOfOrder(ctx context.Context, orderID string) (planchange.Change, error) {
	if orderID == "" {
		return planchange.Change{}, planchange.ErrNotFound
	}
	return scanChange(s.r.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE order_id = ?`, orderID))
}

// ServiceChanges lists a line's changes, newest first.
func (s *db) ServiceChanges(ctx context.Context, serviceID string) ([]planchange.Change, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE service_id = ? ORDER BY created_at DESC, id DESC`, serviceID)
	if err != nil {
		return nil, fmt.Errorf("list changes: %w", err)
	}
	defer rows.Close()
	var out []planchange.Change
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ApplyChange gives a paid change's line its new terms once, under the line's lock
// (planchange.Store). The fields the change moves are set to its To terms; a line no longer
// running is gone (nothing applied).
func (s *db) ApplyChange(ctx context.Context, orderID string, at time.Time) (svc order.Service, gone bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		gone = false
		c, err := scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE order_id = ?`, orderID))
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+c.ServiceID); err != nil {
			return err
		}
		if c, err = scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE order_id = ?`, orderID)); err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, c.ServiceID)); err != nil {
			return err
		}
		if !c.AppliedAt.IsZero() || !c.ReversedAt.IsZero() {
			return nil
		}
		if !slices.Contains(running, svc.Status) {
			gone = true
			return nil
		}
		if err := setTerms(ctx, tx, &svc, moved(c.From, c.To, planchange.TermsOf(svc))); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE service_changes SET applied_at = ? WHERE id = ? AND applied_at = ''`, fmtTime(at), c.ID); err != nil {
			return err
		}
		return enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":"+c.ID, at)
	})
	if err != nil {
		return order.Service{}, false, fmt.Errorf("apply change %s: %w", orderID, err)
	}
	return svc, gone, nil
}

// moved is cur with the fields that differ between from and to set to to's: a change moves only
// what it changes (an upsell bought meanwhile keeps its connections unless the change set them).
func moved(from, to, cur planchange.Terms) planchange.Terms {
	if from.PID != to.PID {
		cur.PID, cur.Name = to.PID, to.Name
	}
	if from.BillingCycle != to.BillingCycle {
		cur.BillingCycle = to.BillingCycle
	}
	if from.MaxConnections != to.MaxConnections {
		cur.MaxConnections = to.MaxConnections
	}
	if !from.NextDueDate.Equal(to.NextDueDate) {
		cur.NextDueDate = to.NextDueDate
	}
	return cur
}

// ReverseChange takes back a refunded change once, under the line's lock (planchange.Store).
func (s *db) ReverseChange(ctx context.Context, orderID string, at time.Time) (svc order.Service, changed bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		changed = false
		c, err := scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM service_changes WHERE order_id = ?`, orderID))
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+c.ServiceID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE service_changes SET reversed_at = ? WHERE id = ? AND reversed_at = ''`, fmtTime(at), c.ID)
		if err != nil {
			return err
		}
		first, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, c.ServiceID)); err != nil {
			return err
		}
		if first == 0 || c.AppliedAt.IsZero() || !slices.Contains(running, svc.Status) {
			return nil
		}
		if err := setTerms(ctx, tx, &svc, moved(c.To, c.From, planchange.TermsOf(svc))); err != nil {
			return err
		}
		changed = true
		return enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":reverse:"+c.ID, at)
	})
	if err != nil {
		return order.Service{}, false, fmt.Errorf("reverse change %s: %w", orderID, err)
	}
	return svc, changed, nil
}
