package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/period"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// ReserveRenewal records a renewal unless its service's period has one: the unique key
// (service_id, period_start) lets one of any number of concurrent sweeps record it.
func (s *db) ReserveRenewal(ctx context.Context, r renewal.Renewal) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO renewals (order_id, service_id, period_start, period_end, cycle_months, created_at,
		pid, billing_cycle, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (service_id, period_start) WHERE cancelled_at = '' DO NOTHING`,
		r.OrderID, r.ServiceID, fmtTime(r.PeriodStart), fmtTime(r.PeriodEnd), r.CycleMonths, fmtTime(r.CreatedAt), r.PID, r.BillingCycle, r.Name)
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

const renewalColumns = `order_id, service_id, period_start, period_end, cycle_months, created_at, applied_at, cancelled_at,
	pid, billing_cycle, name`

func scanRenewal(row interface{ Scan(...any) error }) (renewal.Renewal, error) {
	var r renewal.Renewal
	var start, end, created, applied, cancelled string
	err := row.Scan(&r.OrderID, &r.ServiceID, &start, &end, &r.CycleMonths, &created, &applied, &cancelled, &r.PID, &r.BillingCycle, &r.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return renewal.Renewal{}, renewal.ErrNotFound
	}
	if err != nil {
		return renewal.Renewal{}, fmt.Errorf("read renewal: %w", err)
	}
	r.PeriodStart, r.PeriodEnd, r.CreatedAt, r.AppliedAt = parseTime(start), parseTime(end), parseTime(created), parseTime(applied)
	r.CancelledAt = parseTime(cancelled)
	return r, nil
}

// Renewal reads the renewal of an order.
func (s *db) Renewal(ctx context.Context, orderID string) (renewal.Renewal, error) {
	return scanRenewal(s.r.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE order_id = ?`, orderID))
}

// LatestRenewal reads the renewal (not cancelled) of the service's latest period.
func (s *db) LatestRenewal(ctx context.Context, serviceID string) (renewal.Renewal, error) {
	return scanRenewal(s.r.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE service_id = ? AND cancelled_at = ''
		ORDER BY period_start DESC LIMIT 1`, serviceID))
}

// OpenRenewal reads the service's renewal whose order is still pending (unpaid, not cancelled).
func (s *db) OpenRenewal(ctx context.Context, serviceID string) (renewal.Renewal, error) {
	return scanRenewal(s.r.QueryRowContext(ctx, `SELECT `+prefixed("r.", renewalColumns)+` FROM renewals r
		JOIN orders o ON o.id = r.order_id
		WHERE r.service_id = ? AND r.cancelled_at = '' AND r.applied_at = '' AND o.status = ?
		ORDER BY r.period_start DESC LIMIT 1`, serviceID, string(order.StatusPending)))
}

// CancelRenewal marks a renewal not applied cancelled, so its period may be renewed again; it
// reports whether it marked it.
func (s *db) CancelRenewal(ctx context.Context, orderID string, at time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE renewals SET cancelled_at = ? WHERE order_id = ? AND cancelled_at = '' AND applied_at = ''`,
		fmtTime(at), orderID)
	if err != nil {
		return false, fmt.Errorf("cancel renewal %s: %w", orderID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("cancel renewal %s: %w", orderID, err)
	}
	return n == 1, nil
}

// prefixed qualifies each of a column list's names with p.
func prefixed(p, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// lockedRenewal takes the lock of the renewal's service and reads the renewal under it: read
// before, it could miss an apply or a refund's take-back made while this waited for the lock.
func (s *db) lockedRenewal(ctx context.Context, tx querier, orderID string) (renewal.Renewal, error) {
	var serviceID string
	err := tx.QueryRowContext(ctx, `SELECT service_id FROM renewals WHERE order_id = ?`, orderID).Scan(&serviceID)
	if errors.Is(err, sql.ErrNoRows) {
		return renewal.Renewal{}, renewal.ErrNotFound
	}
	if err != nil {
		return renewal.Renewal{}, err
	}
	if err := s.d.lock(ctx, tx, "service:"+serviceID); err != nil {
		return renewal.Renewal{}, err
	}
	return scanRenewal(tx.QueryRowContext(ctx, `SELECT `+renewalColumns+` FROM renewals WHERE order_id = ?`, orderID))
}

// ApplyRenewal makes the service active again for the renewal's period, under the service's
// lock (the one upsells take), once: a renewal applied already changes nothing. An active or
// overdue line is due at the period's end moved by how far the later of its due date and its
// expiry runs past the period's start (an operator extended the line since it was invoiced); a
// suspended one a cycle after the latest of those and at (the payment); a trial converting to a
// paid plan a cycle from at. The service takes the renewal's plan, cycle and name when it names
// them. A line in any other state (terminated, cancelled), or a renewal cancelled meanwhile, is
// renewal.ErrLineGone.
func (s *db) ApplyRenewal(ctx context.Context, orderID string, at time.Time) (order.Service, error) {
	var svc order.Service
	err := s.tx(ctx, func(tx querier) error {
		r, err := s.lockedRenewal(ctx, tx, orderID)
		if err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, r.ServiceID)); err != nil {
			return err
		}
		if !r.AppliedAt.IsZero() {
			return nil
		}
		if !r.CancelledAt.IsZero() {
			return renewal.ErrLineGone
		}
		end, before := r.PeriodEnd, svc.NextDueDate
		if before.IsZero() {
			before = svc.ExpiresAt // a trial: it ran until its end
		}
		was := svc // the trial a conversion converts, kept for a refund of it
		switch {
		case svc.Trial && (svc.Status == order.ServiceActive || svc.Status == order.ServiceExpired):
			// A trial converting: its paid period starts with the payment, anchored on its day.
			end = period.AddMonths(at, r.CycleMonths, at.UTC().Day())
		case svc.Trial:
			return renewal.ErrLineGone
		case svc.Status == order.ServiceActive || svc.Status == order.ServiceOverdue:
			// From the later of the due date and the expiry: days an operator gave since the renewal
			// was invoiced (the line now runs past its period's start) stay the buyer's.
			if from := later(svc.NextDueDate, svc.ExpiresAt); from.After(r.PeriodStart) {
				before, end = from, r.PeriodEnd.Add(from.Sub(r.PeriodStart))
			}
		case svc.Status == order.ServiceSuspended:
			// A cycle from the payment, or from a later expiry an operator gave, anchored on its day.
			from := later(at, later(svc.NextDueDate, svc.ExpiresAt))
			end = period.AddMonths(from, r.CycleMonths, from.UTC().Day())
		default:
			return renewal.ErrLineGone
		}
		svc.Status, svc.NextDueDate, svc.ExpiresAt = order.ServiceActive, end, end
		if r.PID != 0 {
			svc.PID, svc.Trial = r.PID, false
		}
		if r.BillingCycle != "" {
			svc.BillingCycle = r.BillingCycle
		}
		if r.Name != "" {
			svc.Name = r.Name
		}
		if _, err := tx.ExecContext(ctx, `UPDATE services SET status = ?, next_due_date = ?, expires_at = ?, pid = ?, trial = ?,
			billing_cycle = ?, name = ? WHERE id = ?`,
			string(svc.Status), fmtTime(end), fmtTime(end), svc.PID, svc.Trial, svc.BillingCycle, svc.Name, r.ServiceID); err != nil {
			return err
		}
		if was.Trial {
			_, err = tx.ExecContext(ctx, `UPDATE renewals SET trial_pid = ?, trial_name = ?, trial_cycle = ?, trial_connections = ?
				WHERE order_id = ?`, was.PID, was.Name, was.BillingCycle, was.MaxConnections, orderID)
			if err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE renewals SET applied_at = ?, due_before = ?, due_after = ? WHERE order_id = ?`,
			fmtTime(at), fmtTime(before), fmtTime(end), orderID)
		return err
	})
	if err != nil {
		return order.Service{}, fmt.Errorf("apply renewal %s: %w", orderID, err)
	}
	return svc, nil
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// ReverseRenewal takes back a renewal whose payment was refunded, once, under the service's lock:
// the renewal is cancelled (its period may be renewed again, and one not applied yet never will
// be) and, when it was applied to a line still running (active, overdue or suspended), the
// service's due date and expiry move back by what it added. A line then due at or before at is
// Suspended: a refunded buyer has no grace days. A renewal that converted a trial puts the line
// back to that trial instead (its plan, name, cycle and connections, flagged trial, ending when
// the trial ended: Expired when that is past); its trial start stays recorded, so no trial is
// given back. moved reports a service changed; a renewal taken back already changes nothing. A
// service moved has its panel line brought in step by a order.JobLineSync queued in the same
// transaction.
func (s *db) ReverseRenewal(ctx context.Context, orderID string, at time.Time) (svc order.Service, moved bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		r, err := s.lockedRenewal(ctx, tx, orderID)
		if err != nil {
			return err
		}
		var before, after, reversed string
		var trial order.Service // the trial it converted; PID 0: no conversion
		if err := tx.QueryRowContext(ctx, `SELECT due_before, due_after, reversed_at, trial_pid, trial_name, trial_cycle,
			trial_connections FROM renewals WHERE order_id = ?`, orderID).
			Scan(&before, &after, &reversed, &trial.PID, &trial.Name, &trial.BillingCycle, &trial.MaxConnections); err != nil {
			return err
		}
		if svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, r.ServiceID)); err != nil {
			return err
		}
		if reversed != "" {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE renewals SET reversed_at = ?,
			cancelled_at = CASE WHEN cancelled_at = '' THEN ? ELSE cancelled_at END WHERE order_id = ?`,
			fmtTime(at), fmtTime(at), orderID); err != nil {
			return err
		}
		// A line back to its trial (a conversion refunded before) has no paid time to take back.
		if r.AppliedAt.IsZero() || !slices.Contains(running, svc.Status) || svc.Trial {
			return nil
		}
		if trial.PID != 0 {
			svc.PID, svc.Name, svc.BillingCycle, svc.MaxConnections, svc.Trial = trial.PID, trial.Name, trial.BillingCycle, trial.MaxConnections, true
			svc.ExpiresAt, svc.NextDueDate, svc.Status = parseTime(before), time.Time{}, order.ServiceActive
			if !svc.ExpiresAt.After(at) {
				svc.Status = order.ServiceExpired
			}
			if _, err := tx.ExecContext(ctx, `UPDATE services SET status = ?, next_due_date = ?, expires_at = ?, pid = ?, trial = ?,
				billing_cycle = ?, name = ?, max_connections = ? WHERE id = ?`, string(svc.Status), fmtTime(svc.NextDueDate),
				fmtTime(svc.ExpiresAt), svc.PID, svc.Trial, svc.BillingCycle, svc.Name, svc.MaxConnections, svc.ID); err != nil {
				return err
			}
			moved = true
			return enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":"+orderID, at)
		}
		from, to := r.PeriodStart, r.PeriodEnd
		if before != "" {
			from, to = parseTime(before), parseTime(after)
		}
		added := to.Sub(from)
		svc.NextDueDate, svc.ExpiresAt = svc.NextDueDate.Add(-added), svc.ExpiresAt.Add(-added)
		if !svc.NextDueDate.After(at) {
			svc.Status = order.ServiceSuspended
		}
		if _, err := tx.ExecContext(ctx, `UPDATE services SET status = ?, next_due_date = ?, expires_at = ? WHERE id = ?`,
			string(svc.Status), fmtTime(svc.NextDueDate), fmtTime(svc.ExpiresAt), svc.ID); err != nil {
			return err
		}
		moved = true
		return enqueue(ctx, tx, s.now(), order.JobLineSync, svc.ID, order.JobLineSync+":"+orderID, at)
	})
	if err != nil {
		return order.Service{}, false, fmt.Errorf("reverse renewal %s: %w", orderID, err)
	}
	return svc, moved, nil
}

// CancelOrderLines cancels an order's running lines (a full refund) and, in the same transaction,
// queues for each a order.JobLineSync that switches its panel line off; it answers how many.
func (s *db) CancelOrderLines(ctx context.Context, orderID string, at time.Time) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx querier) error {
		n = 0
		rows, err := tx.QueryContext(ctx, `SELECT id FROM services WHERE order_id = ? AND status IN (?, ?, ?)`, orderID,
			string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended))
		if err != nil {
			return err
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			if err := s.d.lock(ctx, tx, "service:"+id); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE services SET status = ? WHERE id = ? AND status IN (?, ?, ?)`, string(order.ServiceCancelled), id,
				string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended))
			if err != nil {
				return err
			}
			if k, err := res.RowsAffected(); err != nil || k != 1 {
				if err != nil {
					return err
				}
				continue
			}
			if err := enqueue(ctx, tx, s.now(), order.JobLineSync, id, order.JobLineSync+":"+id+":refund:"+orderID, at); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("cancel lines of %s: %w", orderID, err)
	}
	return n, nil
}

// running are the statuses of a line a refunded renewal or upsell is taken back from.
var running = []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended}

// RenewalListing lists the renewable services due at or before dueBefore (zero: any), each with
// its order's email and the unpaid invoice of its latest renewal.
func (s *db) RenewalListing(ctx context.Context, dueBefore time.Time) ([]renewal.Listed, error) {
	bound := "9999"
	if !dueBefore.IsZero() {
		bound = fmtTime(dueBefore)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT s.id, o.email, s.next_due_date, s.status, s.auto_renew,
		COALESCE((SELECT i.id FROM renewals r JOIN invoices i ON i.order_id = r.order_id
			WHERE r.service_id = s.id AND r.cancelled_at = '' AND i.status = 'unpaid' ORDER BY r.period_start DESC LIMIT 1), ''),
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
		if err := rows.Scan(&l.ServiceID, &l.Email, &due, &status, &l.AutoRenew, &l.OpenInvoice, &l.SavedCard); err != nil {
			return nil, fmt.Errorf("list renewals: %w", err)
		}
		l.Due, l.Status = parseTime(due), order.ServiceStatus(status)
		out = append(out, l)
	}
	return out, rows.Err()
}
