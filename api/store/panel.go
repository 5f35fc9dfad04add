package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/panel"
)

var (
	_ panel.LineStore     = (*SQLite)(nil)
	_ panel.CreditStore   = (*SQLite)(nil)
	_ panel.LineCatalog   = (*SQLite)(nil)
	_ panel.PaidLineStore = (*SQLite)(nil)
)

const lineColumns = `ref, username, password, max_connections, expires_at, trial, enabled, bouquets, mac`

func scanLine(row interface{ Scan(...any) error }) (panel.Line, error) {
	var l panel.Line
	var expires, bouquets string
	err := row.Scan(&l.Ref, &l.Username, &l.Password, &l.MaxConnections, &expires, &l.Trial, &l.Enabled, &bouquets, &l.MAC)
	if errors.Is(err, sql.ErrNoRows) {
		return panel.Line{}, panel.ErrNotFound
	}
	if err != nil {
		return panel.Line{}, err
	}
	l.ExpiresAt = parseTime(expires)
	if err := json.Unmarshal([]byte(bouquets), &l.Bouquets); err != nil {
		return panel.Line{}, fmt.Errorf("line %s bouquets: %w", l.Ref, err)
	}
	if len(l.Bouquets) == 0 {
		l.Bouquets = nil // a line stored without bouquets reads back as it was given
	}
	return l, nil
}

// InsertLine stores a built-in panel line unless its ref exists, and returns the stored line.
// The ref is checked inside the write transaction under a lock on the ref, so concurrent repeats
// store one line; a username already used by another ref trips the unique index (the ref is the
// primary key, so on panel_lines it can only be the username) and answers panel.ErrUsernameTaken.
func (s *db) InsertLine(ctx context.Context, l panel.Line, createdAt time.Time) (panel.Line, bool, error) {
	bouquets, err := json.Marshal(l.Bouquets)
	if err != nil {
		return panel.Line{}, false, fmt.Errorf("insert line %s: %w", l.Ref, err)
	}
	if l.Bouquets == nil {
		bouquets = []byte("[]")
	}
	var stored panel.Line
	var created bool
	if l.Credits > 0 {
		defer s.creditWrites.Add(1) // after the commit (PanelCreditWrites)
	}
	err = s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "line:"+l.Ref); err != nil {
			return err
		}
		stored, err = scanLine(tx.QueryRowContext(ctx, `SELECT `+lineColumns+` FROM panel_lines WHERE ref = ?`, l.Ref))
		if !errors.Is(err, panel.ErrNotFound) {
			return err
		}
		if l.Credits > 0 {
			// Spent in the line's own transaction: a line refused for its username gives
			// its credits back with the rollback, and a repeat of the ref spends nothing.
			res, err := tx.ExecContext(ctx, `UPDATE panel_credits SET balance = balance - ? WHERE name = 'builtin' AND balance >= ?`,
				l.Credits, l.Credits)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return panel.ErrNoCredits
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO panel_lines (`+lineColumns+`, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			l.Ref, l.Username, l.Password, l.MaxConnections, fmtTime(l.ExpiresAt), l.Trial, l.Enabled, string(bouquets), l.MAC,
			fmtTime(createdAt))
		if s.d.isUnique(err) {
			return panel.ErrUsernameTaken
		}
		if err != nil {
			return err
		}
		stored, err = scanLine(tx.QueryRowContext(ctx, `SELECT `+lineColumns+` FROM panel_lines WHERE ref = ?`, l.Ref))
		created = err == nil
		return err
	})
	if err != nil {
		return panel.Line{}, false, fmt.Errorf("insert line %s: %w", l.Ref, err)
	}
	return stored, created, nil
}

// LineByRef reads a built-in panel line; panel.ErrNotFound when none.
func (s *db) LineByRef(ctx context.Context, ref string) (panel.Line, error) {
	l, err := scanLine(s.r.QueryRowContext(ctx, `SELECT `+lineColumns+` FROM panel_lines WHERE ref = ?`, ref))
	if err != nil {
		return panel.Line{}, fmt.Errorf("read line %s: %w", ref, err)
	}
	return l, nil
}

// UpdateLine rewrites a built-in panel line; panel.ErrNotFound when none.
func (s *db) UpdateLine(ctx context.Context, l panel.Line) error {
	bouquets, err := json.Marshal(l.Bouquets)
	if err != nil || l.Bouquets == nil {
		bouquets = []byte("[]")
	}
	res, err := s.w.ExecContext(ctx, `UPDATE panel_lines SET username = ?, password = ?, max_connections = ?, expires_at = ?, trial = ?,
		enabled = ?, mac = ?, bouquets = ? WHERE ref = ?`, l.Username, l.Password, l.MaxConnections, fmtTime(l.ExpiresAt), l.Trial, l.Enabled, l.MAC,
		string(bouquets), l.Ref)
	if err != nil {
		return fmt.Errorf("update line %s: %w", l.Ref, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("update line %s: %w", l.Ref, panel.ErrNotFound)
	}
	return nil
}

// ExtendLinePaid sets a built-in line's expiry, spending credits in the same transaction when
// until is later than the stored expiry (a repeat to the same expiry spends nothing).
func (s *db) ExtendLinePaid(ctx context.Context, ref string, until time.Time, credits int) error {
	defer s.creditWrites.Add(1) // after the commit (PanelCreditWrites)
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "line:"+ref); err != nil {
			return err
		}
		l, err := scanLine(tx.QueryRowContext(ctx, `SELECT `+lineColumns+` FROM panel_lines WHERE ref = ?`, ref))
		if err != nil {
			return err
		}
		if credits > 0 && until.Truncate(time.Second).After(l.ExpiresAt.Truncate(time.Second)) {
			res, err := tx.ExecContext(ctx, `UPDATE panel_credits SET balance = balance - ? WHERE name = 'builtin' AND balance >= ?`,
				credits, credits)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return panel.ErrNoCredits
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE panel_lines SET expires_at = ? WHERE ref = ?`, fmtTime(until), ref)
		return err
	})
	if err != nil {
		return fmt.Errorf("extend line %s: %w", ref, err)
	}
	return nil
}

// DeleteLine removes a built-in panel line.
func (s *db) DeleteLine(ctx context.Context, ref string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM panel_lines WHERE ref = ?`, ref); err != nil {
		return fmt.Errorf("delete line %s: %w", ref, err)
	}
	return nil
}

// ListLines lists every built-in panel line, oldest first.
func (s *db) ListLines(ctx context.Context) ([]panel.Line, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+lineColumns+` FROM panel_lines ORDER BY created_at, ref`)
	if err != nil {
		return nil, fmt.Errorf("list lines: %w", err)
	}
	defer rows.Close()
	out := []panel.Line{}
	for rows.Next() {
		l, err := scanLine(rows)
		if err != nil {
			return nil, fmt.Errorf("list lines: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// LineByUsername reads the built-in panel line with username; panel.ErrNotFound when none.
func (s *db) LineByUsername(ctx context.Context, username string) (panel.Line, error) {
	l, err := scanLine(s.r.QueryRowContext(ctx, `SELECT `+lineColumns+` FROM panel_lines WHERE username = ?`, username))
	if err != nil {
		return panel.Line{}, fmt.Errorf("read line %s: %w", username, err)
	}
	return l, nil
}

// PanelCredits reads the built-in panel's credit balance.
func (s *db) PanelCredits(ctx context.Context) (int64, error) {
	var n int64
	if err := s.r.QueryRowContext(ctx, `SELECT balance FROM panel_credits WHERE name = 'builtin'`).Scan(&n); err != nil {
		return 0, fmt.Errorf("panel credits: %w", err)
	}
	return n, nil
}

// PanelCreditWrites counts the writes to the built-in panel's balance made through this store
// (SetPanelCredits, a line's spend), each counted once it is committed or failed, so a balance
// read before the count moved may be stale and one read after it is not. The shop's cached
// balance is read again after a change it made itself; another process's is read within
// credits.LocalEvery.
func (s *db) PanelCreditWrites() uint64 { return s.creditWrites.Load() }

// SetPanelCredits sets the built-in panel's credit balance.
func (s *db) SetPanelCredits(ctx context.Context, n int64) error {
	defer s.creditWrites.Add(1)
	if _, err := s.w.ExecContext(ctx, `UPDATE panel_credits SET balance = ? WHERE name = 'builtin'`, n); err != nil {
		return fmt.Errorf("set panel credits: %w", err)
	}
	return nil
}
