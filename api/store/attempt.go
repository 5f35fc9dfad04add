package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// AddAttempt records one sign-in attempt.
func (s *db) AddAttempt(ctx context.Context, scope, key string, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO auth_attempts (scope, key, at) VALUES (?, ?, ?)`, scope, key, fmtTime(at)); err != nil {
		return fmt.Errorf("add attempt: %w", err)
	}
	return nil
}

// CountAttempts counts attempts of scope and key since the time.
func (s *db) CountAttempts(ctx context.Context, scope, key string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM auth_attempts WHERE scope = ? AND key = ? AND at >= ?`, scope, key, fmtTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count attempts: %w", err)
	}
	return n, nil
}

// ReserveAttempt records an attempt of scope and key at at, unless max attempts are recorded
// since since: then it records nothing, and answers ok false and the oldest of them (the first to
// leave the window). The count and the insert run under the key's lock, so concurrent attempts,
// on every replica, are counted one after the other.
func (s *db) ReserveAttempt(ctx context.Context, scope, key string, at, since time.Time, max int) (id int64, oldest time.Time, ok bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "attempt:"+scope+":"+key); err != nil {
			return err
		}
		var n int
		var first sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(at) FROM auth_attempts WHERE scope = ? AND key = ? AND at >= ?`, scope, key, fmtTime(since)).Scan(&n, &first)
		if err != nil {
			return err
		}
		if n >= max {
			oldest = parseTime(first.String)
			return nil
		}
		ok = true
		return tx.QueryRowContext(ctx, `INSERT INTO auth_attempts (scope, key, at) VALUES (?, ?, ?) RETURNING id`, scope, key, fmtTime(at)).Scan(&id)
	})
	if err != nil {
		return 0, time.Time{}, false, fmt.Errorf("reserve attempt: %w", err)
	}
	return id, oldest, ok, nil
}

// RemoveAttempt forgets an attempt ReserveAttempt recorded.
func (s *db) RemoveAttempt(ctx context.Context, id int64) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM auth_attempts WHERE id = ?`, id); err != nil {
		return fmt.Errorf("remove attempt: %w", err)
	}
	return nil
}

// AttemptsSince counts the attempts of scope and key since since and answers the latest of them
// (zero when none).
func (s *db) AttemptsSince(ctx context.Context, scope, key string, since time.Time) (int, time.Time, error) {
	var n int
	var last sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), MAX(at) FROM auth_attempts WHERE scope = ? AND key = ? AND at >= ?`,
		scope, key, fmtTime(since)).Scan(&n, &last)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("attempts since: %w", err)
	}
	if !last.Valid {
		return n, time.Time{}, nil
	}
	return n, parseTime(last.String), nil
}
