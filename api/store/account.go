package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/id"
)

// EnsureClient returns the client with email, creating it (without a password) when absent.
func (s *db) EnsureClient(ctx context.Context, email string) (account.Client, bool, error) {
	var c account.Client
	created := false
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "client:"+email); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `SELECT `+clientColumns+` FROM clients WHERE email = ?`, email).Scan(&c.ID, &c.PublicID, &c.Email, &c.PasswordHash)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		c = account.Client{PublicID: id.Public("usr_"), Email: email}
		created = true
		return tx.QueryRowContext(ctx, `INSERT INTO clients (public_id, email, created_at) VALUES (?, ?, ?) RETURNING id`,
			c.PublicID, email, fmtTime(s.now())).Scan(&c.ID)
	})
	if err != nil {
		return account.Client{}, false, fmt.Errorf("ensure client: %w", err)
	}
	return c, created, nil
}

const clientColumns = `id, public_id, email, password_hash`

// CreateSession records a session.
func (s *db) CreateSession(ctx context.Context, ses account.Session) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO sessions (id, client_id, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		ses.ID, ses.ClientID, string(ses.Scope), fmtTime(ses.CreatedAt), fmtTime(ses.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// Session reads a session.
func (s *db) Session(ctx context.Context, id string) (account.Session, error) {
	var ses account.Session
	var scope, created, expires string
	var revoked sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT id, client_id, scope, created_at, expires_at, revoked_at FROM sessions WHERE id = ?`, id).
		Scan(&ses.ID, &ses.ClientID, &scope, &created, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Session{}, ErrNotFound
	}
	if err != nil {
		return account.Session{}, fmt.Errorf("read session: %w", err)
	}
	ses.Scope = authz.Scope(scope)
	ses.CreatedAt, ses.ExpiresAt, ses.RevokedAt = parseTime(created), parseTime(expires), parseTime(revoked.String)
	return ses, nil
}

// RevokeSession signs a session out.
// RevokedSince lists the sessions signed out at or after since (by the revoking process's clock).
func (s *db) RevokedSince(ctx context.Context, since time.Time) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at >= ?`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("revoked sessions: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("revoked sessions: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("revoked sessions: %w", err)
	}
	return ids, nil
}

// SubscribeEmail records the client's newsletter consent; the first consent's time is kept.
func (s *db) SubscribeEmail(ctx context.Context, clientID int64, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE clients SET email_subscribed_at = ? WHERE id = ? AND email_subscribed_at = ''`, fmtTime(at), clientID)
	if err != nil {
		return fmt.Errorf("subscribe email: %w", err)
	}
	return nil
}

// RevokeClientSessions signs out the client's live sessions but keep, and returns their ids.
func (s *db) RevokeClientSessions(ctx context.Context, clientID int64, keep string, at time.Time) ([]string, error) {
	rows, err := s.w.QueryContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE client_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ? RETURNING id`,
		fmtTime(at), clientID, keep, fmtTime(at))
	if err != nil {
		return nil, fmt.Errorf("revoke client sessions: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("revoke client sessions: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("revoke client sessions: %w", err)
	}
	return ids, nil
}

func (s *db) RevokeSession(ctx context.Context, id string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, fmtTime(at), id)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}
