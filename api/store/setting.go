package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
