package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/console"
)

// InsertAudit writes one entry.
func (s *db) InsertAudit(ctx context.Context, e audit.Entry) error {
	var args sql.NullString
	if e.Args != nil {
		b, err := json.Marshal(e.Args)
		if err != nil {
			return fmt.Errorf("insert audit: %w", err)
		}
		args = sql.NullString{String: string(b), Valid: true}
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO audit_log (client_id, session_id, operator, action, target, result, detail, ip, at, args) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ClientID, e.SessionID, e.Operator, e.Action, e.Target, e.Result, e.Detail, e.IP, fmtTime(e.At), args)
	if err != nil {
		return fmt.Errorf("insert audit: %w", err)
	}
	return nil
}

// ListAudit returns the newest entries first, only target's when target is set.
func (s *db) ListAudit(ctx context.Context, target string, limit int) ([]audit.Entry, error) {
	q := `SELECT id, client_id, session_id, operator, action, target, result, detail, ip, at, args FROM audit_log`
	args := []any{}
	if target != "" {
		q += ` WHERE target = ?`
		args = append(args, target)
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list audit: %w", err)
	}
	defer rows.Close()
	var out []audit.Entry
	for rows.Next() {
		var e audit.Entry
		var at string
		var args sql.NullString
		if err := rows.Scan(&e.ID, &e.ClientID, &e.SessionID, &e.Operator, &e.Action, &e.Target, &e.Result, &e.Detail, &e.IP, &at, &args); err != nil {
			return nil, fmt.Errorf("list audit: %w", err)
		}
		if e.Args, err = auditArgs(args); err != nil {
			return nil, fmt.Errorf("list audit %d: %w", e.ID, err)
		}
		e.At = parseTime(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// AuditPage lists audit entries newest first, strictly older than before (0: from the newest).
func (s *db) AuditPage(ctx context.Context, f console.AuditFilter) ([]console.AuditRow, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Operator != "" {
		where, args = append(where, "a.operator = ?"), append(args, strings.ToLower(f.Operator))
	}
	if f.Action != "" {
		where, args = append(where, "a.action = ?"), append(args, f.Action)
	}
	if f.Target != "" {
		where, args = append(where, "a.target = ?"), append(args, f.Target)
	}
	if f.IP != "" {
		where, args = append(where, "a.ip = ?"), append(args, f.IP)
	}
	if f.Before > 0 {
		where, args = append(where, "a.id < ?"), append(args, f.Before)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT a.id, a.client_id, a.session_id, a.operator, a.action, a.target, a.result, a.detail, a.ip, a.at, a.args,
		COALESCE(c.public_id, '') FROM audit_log a LEFT JOIN clients c ON c.id = a.client_id AND a.client_id <> 0
		WHERE `+strings.Join(where, " AND ")+` ORDER BY a.id DESC LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("audit page: %w", err)
	}
	defer rows.Close()
	out := []console.AuditRow{}
	for rows.Next() {
		var e audit.Entry
		var at, pub string
		var args sql.NullString
		if err := rows.Scan(&e.ID, &e.ClientID, &e.SessionID, &e.Operator, &e.Action, &e.Target, &e.Result, &e.Detail, &e.IP, &at, &args, &pub); err != nil {
			return nil, fmt.Errorf("audit page: %w", err)
		}
		if e.Args, err = auditArgs(args); err != nil {
			return nil, fmt.Errorf("audit page %d: %w", e.ID, err)
		}
		e.At = parseTime(at)
		out = append(out, console.AuditRow{Entry: e, CustomerID: pub})
	}
	return out, rows.Err()
}

// auditArgs reads an entry's stored parts: nil for a row written before they were kept (NULL).
func auditArgs(col sql.NullString) ([]string, error) {
	if !col.Valid {
		return nil, nil
	}
	args := []string{}
	if err := json.Unmarshal([]byte(col.String), &args); err != nil {
		return nil, err
	}
	return args, nil
}
