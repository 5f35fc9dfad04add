package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// Setting reads a setting; ErrNotFound when absent.
func (s *db) Setting(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}

// PutSetting writes a setting.
func (s *db) PutSetting(ctx context.Context, key string, value []byte) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, fmtTime(s.now()))
	if err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}

// SettingOnce stores value under key unless one is there already, and returns the stored value.
// Two processes starting at once agree on one value (the signing key, for instance): the losing
// insert waits for the winner's commit, and the read that follows sees it.
func (s *db) SettingOnce(ctx context.Context, key string, value []byte) ([]byte, error) {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		key, value, fmtTime(s.now())); err != nil {
		return nil, fmt.Errorf("write setting %s: %w", key, err)
	}
	var v []byte
	if err := s.w.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v); err != nil {
		return nil, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}

// UpdateSetting replaces the setting under key with what change makes of its current value (ok
// false when there is none) and returns the new value. Concurrent updates of one key queue up, each seeing
// what the previous one committed, so none is lost. change may run more than once (a retried
// transaction) and must depend only on its argument; when it fails, nothing is written.
func (s *db) UpdateSetting(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error) {
	return s.updateSetting(ctx, key, change, nil)
}

// MoveTestClock is UpdateSetting for the test clock's offset (key): in the same transaction it
// keeps the move (test_clock_moves: the real time it took effect and the new value, a Go
// duration), from which ClockMoves tells what offset was in force when a row stamped in real
// time was written.
func (s *db) MoveTestClock(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error) {
	return s.updateSetting(ctx, key, change, func(q querier, v []byte) error {
		_, err := q.ExecContext(ctx, `INSERT INTO test_clock_moves (at, clock_offset) VALUES (?, ?)`, fmtTime(s.now()), v)
		return err
	})
}

// ClockMoves lists the test clock's moves, oldest first; a stored value that is not a duration
// is an error.
func (s *db) ClockMoves(ctx context.Context) (clock.Moves, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT at, clock_offset FROM test_clock_moves ORDER BY at, id`)
	if err != nil {
		return nil, fmt.Errorf("read the test clock's moves: %w", err)
	}
	defer rows.Close()
	var out clock.Moves
	for rows.Next() {
		var at string
		var raw []byte
		if err := rows.Scan(&at, &raw); err != nil {
			return nil, fmt.Errorf("read the test clock's moves: %w", err)
		}
		d, err := time.ParseDuration(string(raw))
		if err != nil {
			return nil, fmt.Errorf("read the test clock's moves: offset %q is not a duration", raw)
		}
		out = append(out, clock.Move{At: parseTime(at), Offset: d})
	}
	return out, rows.Err()
}

func (s *db) updateSetting(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error), also func(q querier, v []byte) error) ([]byte, error) {
	var updated []byte
	err := s.tx(ctx, func(q querier) error {
		if err := s.d.lock(ctx, q, "setting:"+key); err != nil {
			return err
		}
		var old []byte
		err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		v, err := change(old, err == nil)
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, v, fmtTime(s.now())); err != nil {
			return err
		}
		if also != nil {
			if err := also(q, v); err != nil {
				return err
			}
		}
		updated = v
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("update setting %s: %w", key, err)
	}
	return updated, nil
}
