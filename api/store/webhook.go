package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/payment"
)

var _ payment.Inbox = (*SQLite)(nil)

const webhookColumns = `id, provider, event_id, body, received_at, processed_at, outcome`

func scanWebhook(row interface{ Scan(...any) error }) (payment.Webhook, error) {
	var w payment.Webhook
	var received, processed string
	err := row.Scan(&w.ID, &w.Provider, &w.EventID, &w.Body, &received, &processed, &w.Outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return payment.Webhook{}, payment.ErrNotFound
	}
	if err != nil {
		return payment.Webhook{}, err
	}
	w.ReceivedAt, w.ProcessedAt = parseTime(received), parseTime(processed)
	return w, nil
}

// InsertWebhook stores a verified webhook unless its (provider, event id) is stored, and queues
// its processing job in the same transaction, so a stored webhook is always processed once.
func (s *db) InsertWebhook(ctx context.Context, w payment.Webhook) (payment.Webhook, bool, error) {
	var stored payment.Webhook
	var created bool
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "webhook:"+w.Provider+":"+w.EventID); err != nil {
			return err
		}
		var err error
		stored, err = scanWebhook(tx.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE provider = ? AND event_id = ?`,
			w.Provider, w.EventID))
		if !errors.Is(err, payment.ErrNotFound) {
			return err
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO webhooks (provider, event_id, body, received_at) VALUES (?, ?, ?, ?) RETURNING id`,
			w.Provider, w.EventID, w.Body, fmtTime(w.ReceivedAt)).Scan(&id); err != nil {
			return err
		}
		ref := strconv.FormatInt(id, 10)
		if err := enqueue(ctx, tx, s.now(), payment.JobWebhook, ref, payment.JobWebhook+":"+ref, s.now()); err != nil {
			return err
		}
		stored, created = w, true
		stored.ID = id
		return nil
	})
	if err != nil {
		return payment.Webhook{}, false, fmt.Errorf("insert webhook %s/%s: %w", w.Provider, w.EventID, err)
	}
	return stored, created, nil
}

// Webhook reads a stored webhook.
func (s *db) Webhook(ctx context.Context, id int64) (payment.Webhook, error) {
	w, err := scanWebhook(s.r.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE id = ?`, id))
	if err != nil {
		return payment.Webhook{}, fmt.Errorf("read webhook %d: %w", id, err)
	}
	return w, nil
}

// WebhookByEvent reads the webhook stored for a provider's event.
func (s *db) WebhookByEvent(ctx context.Context, provider, eventID string) (payment.Webhook, error) {
	w, err := scanWebhook(s.r.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE provider = ? AND event_id = ?`,
		provider, eventID))
	if err != nil {
		return payment.Webhook{}, fmt.Errorf("read webhook %s/%s: %w", provider, eventID, err)
	}
	return w, nil
}

// CountWebhooks counts the stored webhooks of a provider.
func (s *db) CountWebhooks(ctx context.Context, provider string) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhooks WHERE provider = ?`, provider).Scan(&n); err != nil {
		return 0, fmt.Errorf("count webhooks: %w", err)
	}
	return n, nil
}

// FinishWebhook records a webhook's processing outcome.
func (s *db) FinishWebhook(ctx context.Context, id int64, outcome string, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE webhooks SET processed_at = ?, outcome = ? WHERE id = ?`, fmtTime(at), outcome, id); err != nil {
		return fmt.Errorf("finish webhook %d: %w", id, err)
	}
	return nil
}

// WebhooksBetween lists stored events received in [from, to), oldest first.
func (s *db) WebhooksBetween(ctx context.Context, from, to time.Time, limit int) ([]console.Webhook, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, provider, event_id, body, received_at, processed_at, outcome FROM webhooks
		WHERE received_at >= ? AND received_at < ? ORDER BY received_at, id LIMIT ?`, fmtTime(from), fmtTime(to), limit)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	defer rows.Close()
	var out []console.Webhook
	for rows.Next() {
		var w console.Webhook
		var received, processed string
		if err := rows.Scan(&w.ID, &w.Provider, &w.EventID, &w.Body, &received, &processed, &w.Outcome); err != nil {
			return nil, fmt.Errorf("list webhooks: %w", err)
		}
		w.ReceivedAt, w.Processed = parseTime(received), parseTime(processed)
		out = append(out, w)
	}
	return out, rows.Err()
}

// WebhookPage lists stored events newest first, strictly older than before (0: from the newest).
// outcome "pending" selects the events not processed yet; another its first word.
func (s *db) WebhookPage(ctx context.Context, provider, outcome string, before int64, limit int) ([]console.Webhook, error) {
	where, args := []string{"1 = 1"}, []any{}
	if provider != "" {
		where, args = append(where, "provider = ?"), append(args, provider)
	}
	switch outcome {
	case "":
	case "pending":
		where = append(where, "processed_at = ''")
	default:
		like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(outcome)
		where, args = append(where, `processed_at <> '' AND (outcome = ? OR outcome LIKE ? ESCAPE '\')`), append(args, outcome, like+":%")
	}
	if before > 0 {
		where, args = append(where, "id < ?"), append(args, before)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, provider, event_id, body, received_at, processed_at, outcome FROM webhooks WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("webhook page: %w", err)
	}
	defer rows.Close()
	out := []console.Webhook{}
	for rows.Next() {
		var w console.Webhook
		var rec, proc string
		if err := rows.Scan(&w.ID, &w.Provider, &w.EventID, &w.Body, &rec, &proc, &w.Outcome); err != nil {
			return nil, fmt.Errorf("webhook page: %w", err)
		}
		w.ReceivedAt, w.Processed = parseTime(rec), parseTime(proc)
		out = append(out, w)
	}
	return out, rows.Err()
}
