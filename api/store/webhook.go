package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
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

// PutRef records what an outside system calls one of ours (scope names the system and kind).
func (s *db) PutRef(ctx context.Context, scope, key, ref string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO external_refs (scope, key, ref, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (scope, key) DO UPDATE SET ref = excluded.ref`, scope, key, ref, fmtTime(s.now()))
	if err != nil {
		return fmt.Errorf("put ref %s/%s: %w", scope, key, err)
	}
	return nil
}

// Ref reads a reference recorded by PutRef; payment.ErrNotFound when none.
func (s *db) Ref(ctx context.Context, scope, key string) (string, error) {
	var ref string
	err := s.r.QueryRowContext(ctx, `SELECT ref FROM external_refs WHERE scope = ? AND key = ?`, scope, key).Scan(&ref)
	if errors.Is(err, sql.ErrNoRows) {
		// Refs serve both the gateways and the remote panels: each tests its own sentinel.
		return "", fmt.Errorf("ref %s/%s: %w (%w)", scope, key, payment.ErrNotFound, panel.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("ref %s/%s: %w", scope, key, err)
	}
	return ref, nil
}

// PendingInvoices lists the unpaid invoices, taken with one of gateways, of pending orders whose
// deadline is before before, oldest deadline first: what reconciliation asks the providers about.
func (s *db) PendingInvoices(ctx context.Context, before time.Time, gateways []string, limit int) ([]string, error) {
	if len(gateways) == 0 {
		return nil, nil
	}
	args := []any{string(order.InvoiceUnpaid), string(order.StatusPending), fmtTime(before)}
	marks := make([]string, len(gateways))
	for i, g := range gateways {
		marks[i] = "?"
		args = append(args, g)
	}
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, `SELECT i.id FROM invoices i JOIN orders o ON o.id = i.order_id
		WHERE i.status = ? AND o.status = ? AND i.deadline <> '' AND i.deadline < ? AND i.gateway IN (`+strings.Join(marks, ", ")+`)
		ORDER BY i.deadline LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("pending invoices: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("pending invoices: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
