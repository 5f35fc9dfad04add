package store

import (
	"context"
	"fmt"
	"time"
)

// TakeStreamLease holds one of session's order-stream places for the stream id until until,
// unless max places not run out by now are held already, by any replica (httpapi.StreamLeases).
// Run-out places (a dead replica's) are dropped first. Under a lock on the session, so concurrent
// requests through different replicas never hold more than max.
func (s *db) TakeStreamLease(ctx context.Context, session, id string, max int, now, until time.Time) (bool, error) {
	ok := false
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "streams:"+session); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM stream_leases WHERE until < ?`, fmtTime(now)); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM stream_leases WHERE session = ?`, session).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO stream_leases (id, session, until) VALUES (?, ?, ?)`, id, session, fmtTime(until)); err != nil {
			return err
		}
		ok = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("take stream lease: %w", err)
	}
	return ok, nil
}

// RenewStreamLease moves a held stream place's end to until.
func (s *db) RenewStreamLease(ctx context.Context, id string, until time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE stream_leases SET until = ? WHERE id = ?`, fmtTime(until), id); err != nil {
		return fmt.Errorf("renew stream lease: %w", err)
	}
	return nil
}

// DropStreamLease gives a stream's place back.
func (s *db) DropStreamLease(ctx context.Context, id string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM stream_leases WHERE id = ?`, id); err != nil {
		return fmt.Errorf("drop stream lease: %w", err)
	}
	return nil
}
