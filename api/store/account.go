package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
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

func (s *db) client(ctx context.Context, where string, arg any) (account.Client, error) {
	var c account.Client
	err := s.r.QueryRowContext(ctx, `SELECT `+clientColumns+` FROM clients WHERE `+where, arg).Scan(&c.ID, &c.PublicID, &c.Email, &c.PasswordHash)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Client{}, account.ErrNotFound
	}
	if err != nil {
		return account.Client{}, fmt.Errorf("read client: %w", err)
	}
	return c, nil
}

// ClientByEmail reads a client by (lower-case) email; account.ErrNotFound when none.
func (s *db) ClientByEmail(ctx context.Context, email string) (account.Client, error) {
	return s.client(ctx, `email = ?`, email)
}

// ClientByID reads a client; account.ErrNotFound when none.
func (s *db) ClientByID(ctx context.Context, id int64) (account.Client, error) {
	return s.client(ctx, `id = ?`, id)
}

// SetPasswordHash replaces a client's password hash.
func (s *db) SetPasswordHash(ctx context.Context, clientID int64, hash string) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE clients SET password_hash = ? WHERE id = ?`, hash, clientID); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// Customers lists clients newest first; q matches an email whole or by its beginning, or a public id.
func (s *db) Customers(ctx context.Context, q string, limit int) ([]console.Customer, error) {
	where, args := "1 = 1", []any{}
	if q = strings.TrimSpace(q); q != "" {
		email := strings.ToLower(q)
		like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(email) + "%"
		where, args = `(c.public_id = ? OR c.email LIKE ? ESCAPE '\')`, []any{q, like}
	}
	return s.customers(ctx, where+` ORDER BY c.id DESC LIMIT ?`, append(args, limit)...)
}

// Customer reads one client by public id; console.ErrNotFound when none.
func (s *db) Customer(ctx context.Context, publicID string) (console.Customer, error) {
	cs, err := s.customers(ctx, `c.public_id = ?`, publicID)
	if err != nil {
		return console.Customer{}, err
	}
	if len(cs) == 0 {
		return console.Customer{}, console.ErrNotFound
	}
	return cs[0], nil
}

func (s *db) customers(ctx context.Context, where string, args ...any) ([]console.Customer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.public_id, c.email, c.created_at,
		(SELECT COUNT(*) FROM orders o WHERE o.client_id = c.id),
		(SELECT COUNT(*) FROM services v WHERE v.client_id = c.id AND v.status IN ('Active', 'Overdue'))
		FROM clients c WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("customers: %w", err)
	}
	defer rows.Close()
	out := []console.Customer{}
	for rows.Next() {
		var c console.Customer
		var at string
		if err := rows.Scan(&c.ID, &c.PublicID, &c.Email, &at, &c.Orders, &c.ActiveLines); err != nil {
			return nil, fmt.Errorf("customers: %w", err)
		}
		c.CreatedAt = parseTime(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// CustomerOrders lists a client's orders newest first.
func (s *db) CustomerOrders(ctx context.Context, clientID int64, limit int) ([]console.OrderRow, error) {
	rows, err := s.r.QueryContext(ctx, consoleOrderQuery+` WHERE o.client_id = ? ORDER BY o.created_at DESC, o.id DESC LIMIT ?`, clientID, limit)
	if err != nil {
		return nil, fmt.Errorf("customer orders: %w", err)
	}
	defer rows.Close()
	out := []console.OrderRow{}
	for rows.Next() {
		r, err := scanConsoleOrder(rows)
		if err != nil {
			return nil, fmt.Errorf("customer orders: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// LiveSessions lists a client's sessions not revoked nor expired at now, newest first.
func (s *db) LiveSessions(ctx context.Context, clientID int64, now time.Time) ([]console.ClientSession, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, scope, created_at, expires_at FROM sessions
		WHERE client_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at DESC`, clientID, fmtTime(now))
	if err != nil {
		return nil, fmt.Errorf("live sessions: %w", err)
	}
	defer rows.Close()
	out := []console.ClientSession{}
	for rows.Next() {
		var c console.ClientSession
		var created, expires string
		if err := rows.Scan(&c.ID, &c.Scope, &created, &expires); err != nil {
			return nil, fmt.Errorf("live sessions: %w", err)
		}
		c.CreatedAt, c.ExpiresAt = parseTime(created), parseTime(expires)
		out = append(out, c)
	}
	return out, rows.Err()
}
