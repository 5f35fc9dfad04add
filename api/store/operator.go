package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/operator"
)

// Operators is the console's accounts (package operator).
type Operators interface {
	operator.Store
}

var (
	_ Operators = (*SQLite)(nil)
	_ Operators = (*Postgres)(nil)
)

const operatorColumns = `id, email, role, status, password_hash, totp_secret, totp_step, created_at, disabled_at`

func scanOperator(sc interface{ Scan(...any) error }) (operator.Operator, error) {
	var o operator.Operator
	var role, status, created, disabled string
	err := sc.Scan(&o.ID, &o.Email, &role, &status, &o.PasswordHash, &o.TOTPSecret, &o.TOTPStep, &created, &disabled)
	o.Role, o.Status, o.CreatedAt, o.DisabledAt = operator.Role(role), operator.Status(status), parseTime(created), parseTime(disabled)
	return o, err
}

// InsertOperator adds a pending operator with its setup token, in one transaction.
func (s *db) InsertOperator(ctx context.Context, o operator.Operator, tokenHash string, expires time.Time) (operator.Operator, error) {
	err := s.tx(ctx, func(tx querier) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO operators (email, role, status, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			o.Email, string(o.Role), string(o.Status), fmtTime(o.CreatedAt)).Scan(&o.ID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO operator_setup_tokens (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			tokenHash, o.ID, fmtTime(o.CreatedAt), fmtTime(expires))
		return err
	})
	if s.d.isUnique(err) {
		return operator.Operator{}, operator.ErrExists
	}
	if err != nil {
		return operator.Operator{}, fmt.Errorf("insert operator: %w", err)
	}
	return o, nil
}

// OperatorByEmail reads an operator by (lower-case) email; operator.ErrNotFound when none.
func (s *db) OperatorByEmail(ctx context.Context, email string) (operator.Operator, error) {
	o, err := scanOperator(s.r.QueryRowContext(ctx, `SELECT `+operatorColumns+` FROM operators WHERE email = ?`, email))
	if errors.Is(err, sql.ErrNoRows) {
		return operator.Operator{}, operator.ErrNotFound
	}
	if err != nil {
		return operator.Operator{}, fmt.Errorf("read operator: %w", err)
	}
	return o, nil
}

// ListOperators lists every operator, oldest first.
func (s *db) ListOperators(ctx context.Context) ([]operator.Operator, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+operatorColumns+` FROM operators ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list operators: %w", err)
	}
	defer rows.Close()
	var out []operator.Operator
	for rows.Next() {
		o, err := scanOperator(rows)
		if err != nil {
			return nil, fmt.Errorf("list operators: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// DisableOperator disables an operator and revokes its live sessions in one transaction.
func (s *db) DisableOperator(ctx context.Context, email string, at time.Time) (operator.Operator, error) {
	var o operator.Operator
	err := s.tx(ctx, func(tx querier) error {
		var err error
		o, err = scanOperator(tx.QueryRowContext(ctx, `SELECT `+operatorColumns+` FROM operators WHERE email = ?`, email))
		if errors.Is(err, sql.ErrNoRows) {
			return operator.ErrNotFound
		}
		if err != nil {
			return err
		}
		if o.Status != operator.StatusDisabled {
			o.Status, o.DisabledAt = operator.StatusDisabled, at
			if _, err := tx.ExecContext(ctx, `UPDATE operators SET status = ?, disabled_at = ? WHERE id = ?`, string(o.Status), fmtTime(at), o.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE operator_id = ? AND revoked_at = ''`, fmtTime(at), o.ID)
		return err
	})
	if errors.Is(err, operator.ErrNotFound) {
		return operator.Operator{}, err
	}
	if err != nil {
		return operator.Operator{}, fmt.Errorf("disable operator: %w", err)
	}
	return o, nil
}

// SetupOperator reads the pending operator of an unused, unexpired setup token.
func (s *db) SetupOperator(ctx context.Context, tokenHash string, now time.Time) (operator.Operator, error) {
	o, err := scanOperator(s.w.QueryRowContext(ctx, `SELECT `+operatorColumnsOf("o")+` FROM operator_setup_tokens t JOIN operators o ON o.id = t.operator_id
		WHERE t.token_hash = ? AND t.used_at = '' AND t.expires_at > ? AND o.status = ?`, tokenHash, fmtTime(now), string(operator.StatusPending)))
	if errors.Is(err, sql.ErrNoRows) {
		return operator.Operator{}, operator.ErrInvalidSetup
	}
	if err != nil {
		return operator.Operator{}, fmt.Errorf("read setup token: %w", err)
	}
	return o, nil
}

// operatorColumnsOf is operatorColumns qualified by a table alias.
func operatorColumnsOf(alias string) string {
	return alias + "." + strings.ReplaceAll(operatorColumns, ", ", ", "+alias+".")
}

// SetOperatorCredentials keeps a pending operator's password hash and TOTP secret.
func (s *db) SetOperatorCredentials(ctx context.Context, id int64, passwordHash, totpSecret string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE operators SET password_hash = ?, totp_secret = ? WHERE id = ? AND status = ?`,
		passwordHash, totpSecret, id, string(operator.StatusPending))
	if err != nil {
		return fmt.Errorf("set operator credentials: %w", err)
	}
	return nil
}

// CompleteSetup uses the setup token and activates its operator. The conditional update is the
// single-use guarantee: of two concurrent confirmations, one updates the row.
func (s *db) CompleteSetup(ctx context.Context, tokenHash string, step int64, now time.Time) error {
	err := s.tx(ctx, func(tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE operator_setup_tokens SET used_at = ? WHERE token_hash = ? AND used_at = '' AND expires_at > ?`,
			fmtTime(now), tokenHash, fmtTime(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = operator.ErrInvalidSetup
			}
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE operators SET status = ?, totp_step = ? WHERE status = ? AND id = (SELECT operator_id FROM operator_setup_tokens WHERE token_hash = ?)`,
			string(operator.StatusActive), step, string(operator.StatusPending), tokenHash)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = operator.ErrInvalidSetup // disabled while setting up
			}
			return err
		}
		return nil
	})
	if errors.Is(err, operator.ErrInvalidSetup) {
		return err
	}
	if err != nil {
		return fmt.Errorf("complete setup: %w", err)
	}
	return nil
}

// UseTOTPStep moves the operator's last accepted step forward, only forward.
func (s *db) UseTOTPStep(ctx context.Context, id, step int64) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE operators SET totp_step = ? WHERE id = ? AND totp_step < ?`, step, id, step)
	if err != nil {
		return false, fmt.Errorf("use totp step: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("use totp step: %w", err)
	}
	return n == 1, nil
}

// ReplaceTOTPSecret stores an operator's TOTP secret while it is still old (compare and set).
func (s *db) ReplaceTOTPSecret(ctx context.Context, id int64, old, secret string) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE operators SET totp_secret = ? WHERE id = ? AND totp_secret = ?`, secret, id, old)
	if err != nil {
		return false, fmt.Errorf("replace totp secret: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("replace totp secret: %w", err)
	}
	return n == 1, nil
}

// ResetOperator puts an operator back to pending with a new setup token, in one transaction: its
// password, TOTP secret and last step are forgotten, its unused setup tokens voided and its
// sessions revoked.
func (s *db) ResetOperator(ctx context.Context, email, tokenHash string, now, expires time.Time) (operator.Operator, error) {
	var o operator.Operator
	err := s.tx(ctx, func(tx querier) error {
		var err error
		o, err = scanOperator(tx.QueryRowContext(ctx, `SELECT `+operatorColumns+` FROM operators WHERE email = ?`, email))
		if errors.Is(err, sql.ErrNoRows) {
			return operator.ErrNotFound
		}
		if err != nil {
			return err
		}
		o.Status, o.PasswordHash, o.TOTPSecret, o.TOTPStep, o.DisabledAt = operator.StatusPending, "", "", 0, time.Time{}
		if _, err := tx.ExecContext(ctx, `UPDATE operators SET status = ?, password_hash = '', totp_secret = '', totp_step = 0,
			disabled_at = '' WHERE id = ?`, string(o.Status), o.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE operator_setup_tokens SET used_at = ? WHERE operator_id = ? AND used_at = ''`,
			fmtTime(now), o.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO operator_setup_tokens (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			tokenHash, o.ID, fmtTime(now), fmtTime(expires)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE operator_id = ? AND revoked_at = ''`, fmtTime(now), o.ID)
		return err
	})
	if errors.Is(err, operator.ErrNotFound) {
		return operator.Operator{}, err
	}
	if err != nil {
		return operator.Operator{}, fmt.Errorf("reset operator: %w", err)
	}
	return o, nil
}

// CreateOperatorSession stores a console session.
func (s *db) CreateOperatorSession(ctx context.Context, o operator.Session) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO operator_sessions (id, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		o.ID, o.OperatorID, fmtTime(o.CreatedAt), fmtTime(o.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create operator session: %w", err)
	}
	return nil
}

// OperatorSession reads a console session and its operator.
func (s *db) OperatorSession(ctx context.Context, id string) (operator.Session, operator.Operator, error) {
	var sess operator.Session
	var created, expires, revoked string
	var o operator.Operator
	var role, status, oCreated, disabled string
	err := s.r.QueryRowContext(ctx, `SELECT s.id, s.operator_id, s.created_at, s.expires_at, s.revoked_at,
		o.id, o.email, o.role, o.status, o.password_hash, o.totp_secret, o.totp_step, o.created_at, o.disabled_at
		FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id = ?`, id).
		Scan(&sess.ID, &sess.OperatorID, &created, &expires, &revoked,
			&o.ID, &o.Email, &role, &status, &o.PasswordHash, &o.TOTPSecret, &o.TOTPStep, &oCreated, &disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return operator.Session{}, operator.Operator{}, operator.ErrNotFound
	}
	if err != nil {
		return operator.Session{}, operator.Operator{}, fmt.Errorf("read operator session: %w", err)
	}
	sess.CreatedAt, sess.ExpiresAt, sess.RevokedAt = parseTime(created), parseTime(expires), parseTime(revoked)
	o.Role, o.Status, o.CreatedAt, o.DisabledAt = operator.Role(role), operator.Status(status), parseTime(oCreated), parseTime(disabled)
	return sess, o, nil
}

// RevokeOperatorSession signs a console session out.
func (s *db) RevokeOperatorSession(ctx context.Context, id string, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE id = ? AND revoked_at = ''`, fmtTime(at), id); err != nil {
		return fmt.Errorf("revoke operator session: %w", err)
	}
	return nil
}
