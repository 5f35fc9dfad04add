package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/signin"
)

// InsertSigninLink stores a sign-in link by the hash of its token.
func (s *db) InsertSigninLink(ctx context.Context, tokenHash string, clientID int64, created, expires time.Time) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO signin_links (token_hash, client_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		tokenHash, clientID, fmtTime(created), fmtTime(expires))
	if err != nil {
		return fmt.Errorf("insert sign-in link: %w", err)
	}
	return nil
}

// CountSigninLinks counts a client's links created since the time.
func (s *db) CountSigninLinks(ctx context.Context, clientID int64, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM signin_links WHERE client_id = ? AND created_at >= ?`, clientID, fmtTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count sign-in links: %w", err)
	}
	return n, nil
}

// UseSigninLink marks a link used if it is unused and unexpired, and returns its client. The
// conditional update is the single-use guarantee: of two concurrent uses, one updates the row.
func (s *db) UseSigninLink(ctx context.Context, tokenHash string, now time.Time) (int64, error) {
	var clientID int64
	err := s.tx(ctx, func(tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE signin_links SET used_at = ? WHERE token_hash = ? AND used_at = '' AND expires_at > ?`,
			fmtTime(now), tokenHash, fmtTime(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = signin.ErrNotFound
			}
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT client_id FROM signin_links WHERE token_hash = ?`, tokenHash).Scan(&clientID)
	})
	if errors.Is(err, signin.ErrNotFound) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("use sign-in link: %w", err)
	}
	return clientID, nil
}
