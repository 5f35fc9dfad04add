package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/mail"
)

// QueueMail stores a message, and enqueues its send job when send is true, in one transaction.
func (s *db) QueueMail(ctx context.Context, m mail.Message, status string, send bool, at time.Time) (int64, error) {
	var id int64
	err := s.tx(ctx, func(tx querier) (err error) {
		id, err = queueMail(ctx, tx, m, status, send, at)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("queue mail: %w", err)
	}
	return id, nil
}

// queueMail stores a message in tx, with its send job when send is true.
func queueMail(ctx context.Context, tx querier, m mail.Message, status string, send bool, at time.Time) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO mail_outbox (to_addr, subject, body, html, status, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		m.To, m.Subject, m.Body, m.HTML, status, fmtTime(at)).Scan(&id)
	if err != nil || !send {
		return id, err
	}
	ref := strconv.FormatInt(id, 10)
	return id, enqueue(ctx, tx, at, mail.JobSend, ref, mail.JobSend+":"+ref, at)
}

const mailColumns = `id, to_addr, subject, body, html, status, attempts, last_error, created_at, sent_at`

func scanMail(row interface{ Scan(...any) error }) (mail.Stored, error) {
	var m mail.Stored
	var created, sent string
	err := row.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &m.HTML, &m.Status, &m.Attempts, &m.LastError, &created, &sent)
	if errors.Is(err, sql.ErrNoRows) {
		return mail.Stored{}, mail.ErrNotFound
	}
	if err != nil {
		return mail.Stored{}, fmt.Errorf("read mail: %w", err)
	}
	m.CreatedAt, m.SentAt = parseTime(created), parseTime(sent)
	return m, nil
}

// Mail reads one message; mail.ErrNotFound when none.
func (s *db) Mail(ctx context.Context, id int64) (mail.Stored, error) {
	return scanMail(s.r.QueryRowContext(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE id = ?`, id))
}

// ListMail returns the newest messages first.
func (s *db) ListMail(ctx context.Context, limit int) ([]mail.Stored, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+mailColumns+` FROM mail_outbox ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list mail: %w", err)
	}
	defer rows.Close()
	var out []mail.Stored
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MarkMail records a send attempt.
func (s *db) MarkMail(ctx context.Context, id int64, status, lastErr string, at time.Time) error {
	sent := ""
	if status == mail.StatusSent {
		sent = fmtTime(at)
	}
	_, err := s.w.ExecContext(ctx, `UPDATE mail_outbox SET status = ?, last_error = ?, attempts = attempts + 1, sent_at = ? WHERE id = ?`,
		status, lastErr, sent, id)
	if err != nil {
		return fmt.Errorf("mark mail: %w", err)
	}
	return nil
}

// MailTo lists the messages to addr created at or after since, oldest first.
func (s *db) MailTo(ctx context.Context, addr string, since time.Time) ([]mail.Stored, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE to_addr = ? AND created_at >= ? ORDER BY id LIMIT 200`,
		addr, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("list mail: %w", err)
	}
	defer rows.Close()
	var out []mail.Stored
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, fmt.Errorf("list mail: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MailPage lists the outbox newest first, strictly older than before (0: from the newest).
func (s *db) MailPage(ctx context.Context, status, to string, before int64, limit int) ([]mail.Stored, error) {
	where, args := []string{"1 = 1"}, []any{}
	if status != "" {
		where, args = append(where, "status = ?"), append(args, status)
	}
	if to = strings.ToLower(strings.TrimSpace(to)); to != "" {
		like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(to) + "%"
		where, args = append(where, `lower(to_addr) LIKE ? ESCAPE '\'`), append(args, like)
	}
	if before > 0 {
		where, args = append(where, "id < ?"), append(args, before)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE `+strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT ?`,
		append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("mail page: %w", err)
	}
	defer rows.Close()
	out := []mail.Stored{}
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
