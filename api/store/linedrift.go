package store

import (
	"context"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/order"
)

var _ linedrift.Store = (*SQLite)(nil)

// LineServices lists the services whose line the shop believes exists, oldest first.
func (s *db) LineServices(ctx context.Context) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE status IN (?, ?, ?, ?) AND username <> '' ORDER BY rowid`,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), string(order.ServiceExpired))
	if err != nil {
		return nil, fmt.Errorf("line services: %w", err)
	}
	return scanServices(rows, nil)
}

// Explained reports whether a service of any status is ref or, when ref is "", has username.
func (s *db) Explained(ctx context.Context, ref, username string) (bool, error) {
	q, arg := `SELECT COUNT(*) FROM services WHERE id = ?`, ref
	if ref == "" {
		q, arg = `SELECT COUNT(*) FROM services WHERE username = ? AND username <> ''`, username
	}
	var n int
	err := s.r.QueryRowContext(ctx, q, arg).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("explained line: %w", err)
	}
	return n > 0, nil
}

// TakeLease holds the named lease for holder until until when it is free, ran out before now, or
// is holder's already; one statement, so two takers never both get it.
func (s *db) TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO run_leases (name, holder, until) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
		WHERE run_leases.until < ? OR run_leases.holder = excluded.holder`, name, holder, fmtTime(until), fmtTime(now))
	if err != nil {
		return false, fmt.Errorf("take lease %s: %w", name, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("take lease %s: %w", name, err)
	}
	return n == 1, nil
}

// DropLease frees the named lease if holder has it.
func (s *db) DropLease(ctx context.Context, name, holder string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM run_leases WHERE name = ? AND holder = ?`, name, holder); err != nil {
		return fmt.Errorf("drop lease %s: %w", name, err)
	}
	return nil
}

// RecordDrift keeps one drift.
func (s *db) RecordDrift(ctx context.Context, d linedrift.Drift) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO line_drift (run_id, service_id, username, kind, want, found, action, error, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.RunID, d.ServiceID, d.Username, d.Kind, d.Want, d.Found, d.Action, d.Error, fmtTime(d.At))
	if err != nil {
		return fmt.Errorf("record drift: %w", err)
	}
	return nil
}

// DriftListed reports whether an unexplained line with username was recorded.
func (s *db) DriftListed(ctx context.Context, username string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM line_drift WHERE kind = ? AND username = ?`, linedrift.KindUnexplained, username).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("drift listed: %w", err)
	}
	return n > 0, nil
}

// DriftCounts counts the recorded drifts by kind (streamcart_line_drift_total, read at scrape
// time so every replica and the CLI's runs count alike).
func (s *db) DriftCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT kind, COUNT(*) FROM line_drift GROUP BY kind`)
	if err != nil {
		return nil, fmt.Errorf("drift counts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, fmt.Errorf("drift counts: %w", err)
		}
		out[k] = n
	}
	return out, rows.Err()
}

// DriftPage lists recorded drifts newest first, strictly older than before (0: from the newest).
func (s *db) DriftPage(ctx context.Context, before int64, limit int) ([]linedrift.Drift, error) {
	q := `SELECT id, run_id, service_id, username, kind, want, found, action, error, at FROM line_drift`
	args := []any{}
	if before > 0 {
		q += ` WHERE id < ?`
		args = append(args, before)
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("drift page: %w", err)
	}
	defer rows.Close()
	out := []linedrift.Drift{}
	for rows.Next() {
		var d linedrift.Drift
		var at string
		if err := rows.Scan(&d.ID, &d.RunID, &d.ServiceID, &d.Username, &d.Kind, &d.Want, &d.Found, &d.Action, &d.Error, &at); err != nil {
			return nil, fmt.Errorf("drift page: %w", err)
		}
		d.At = parseTime(at)
		out = append(out, d)
	}
	return out, rows.Err()
}
