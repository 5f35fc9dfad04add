package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
)

var (
	_ console.ActionStore = (*SQLite)(nil)
	_ console.ActionStore = (*Postgres)(nil)
)

// ApproveHeld moves a held order to paid and queues its provisioning, in one transaction.
func (s *db) ApproveHeld(ctx context.Context, id string, now time.Time) (bool, error) {
	moved := false
	err := s.tx(ctx, func(q querier) error {
		var err error
		if moved, err = setOrderStatus(ctx, q, now, id, order.StatusPaid, order.StatusFraud); err != nil || !moved {
			return err
		}
		return enqueue(ctx, q, now, order.JobProvision, id, order.JobProvision+":"+id, now)
	})
	if err != nil {
		return false, fmt.Errorf("approve %s: %w", id, err)
	}
	return moved, nil
}

// SetOrderStatusFrom moves an order to status from one of from.
func (s *db) SetOrderStatusFrom(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error) {
	moved := false
	err := s.tx(ctx, func(q querier) error {
		var err error
		moved, err = setOrderStatus(ctx, q, s.now(), id, to, from...)
		return err
	})
	return moved, err
}

const refundColumns = `id, order_id, amount, currency, method, reference, reason, note, operator, created_at`

func scanRefund(sc interface{ Scan(...any) error }) (console.Refund, error) {
	var r console.Refund
	var at string
	err := sc.Scan(&r.ID, &r.OrderID, &r.Amount.Amount, &r.Amount.Currency, &r.Method, &r.Reference, &r.Reason, &r.Note, &r.Operator, &at)
	r.CreatedAt = parseTime(at)
	return r, err
}

func orderRefunds(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, orderID string) ([]console.Refund, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+refundColumns+` FROM order_refunds WHERE order_id = ? ORDER BY seq`, orderID)
	if err != nil {
		return nil, fmt.Errorf("order refunds: %w", err)
	}
	defer rows.Close()
	out := []console.Refund{}
	for rows.Next() {
		r, err := scanRefund(rows)
		if err != nil {
			return nil, fmt.Errorf("order refunds: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// OrderRefunds lists an order's refunds, oldest first.
func (s *db) OrderRefunds(ctx context.Context, orderID string) ([]console.Refund, error) {
	return orderRefunds(ctx, s.r, orderID)
}

// ReserveRefund records r under the order's lock unless it takes more than paid minus what was
// refunded already (console.ErrRefundTooMuch; console.ErrFullyRefunded when nothing is left). An
// r.Amount of 0 takes all that is left. It answers the refund as recorded.
func (s *db) ReserveRefund(ctx context.Context, r console.Refund, paid int64) (console.Refund, error) {
	err := s.tx(ctx, func(q querier) error {
		if err := q.d.lock(ctx, q, orderLock(r.OrderID)); err != nil {
			return err
		}
		prev, err := orderRefunds(ctx, q, r.OrderID)
		if err != nil {
			return err
		}
		var done int64
		for _, p := range prev {
			done += p.Amount.Amount
		}
		left := paid - done
		switch {
		case left <= 0:
			return console.ErrFullyRefunded
		case r.Amount.Amount == 0:
			r.Amount.Amount = left
		case r.Amount.Amount > left:
			return fmt.Errorf("%w: %d left", console.ErrRefundTooMuch, left)
		}
		_, err = q.ExecContext(ctx, `INSERT INTO order_refunds (id, order_id, seq, amount, currency, method, reference, reason, note, operator, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.OrderID, len(prev)+1, r.Amount.Amount, r.Amount.Currency, r.Method,
			r.Reference, r.Reason, r.Note, r.Operator, fmtTime(r.CreatedAt))
		return err
	})
	if err != nil {
		return r, fmt.Errorf("refund %s: %w", r.OrderID, err)
	}
	return r, nil
}

// CompleteRefund records the gateway's refund id of a reserved refund.
func (s *db) CompleteRefund(ctx context.Context, id, reference string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE order_refunds SET reference = ? WHERE id = ?`, reference, id)
	if err != nil {
		return fmt.Errorf("complete refund: %w", err)
	}
	return nil
}

// DropRefund forgets a reserved refund the gateway refused.
func (s *db) DropRefund(ctx context.Context, id string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM order_refunds WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("drop refund: %w", err)
	}
	return nil
}

// AuditPage lists audit entries newest first, strictly older than before (0: from the newest).
func (s *db) AuditPage(ctx context.Context, f console.AuditFilter) ([]console.AuditRow, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Operator != "" {
		where, args = append(where, "a.operator = ?"), append(args, strings.ToLower(f.Operator))
	}
	if f.Action != "" {
		where, args = append(where, "a.action = ?"), append(args, f.Action)
	}
	if f.Target != "" {
		where, args = append(where, "a.target = ?"), append(args, f.Target)
	}
	if f.Before > 0 {
		where, args = append(where, "a.id < ?"), append(args, f.Before)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT a.id, a.client_id, a.session_id, a.operator, a.action, a.target, a.result, a.detail, a.at,
		COALESCE(c.public_id, '') FROM audit_log a LEFT JOIN clients c ON c.id = a.client_id AND a.client_id <> 0
		WHERE `+strings.Join(where, " AND ")+` ORDER BY a.id DESC LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("audit page: %w", err)
	}
	defer rows.Close()
	out := []console.AuditRow{}
	for rows.Next() {
		var e audit.Entry
		var at, pub string
		if err := rows.Scan(&e.ID, &e.ClientID, &e.SessionID, &e.Operator, &e.Action, &e.Target, &e.Result, &e.Detail, &at, &pub); err != nil {
			return nil, fmt.Errorf("audit page: %w", err)
		}
		e.At = parseTime(at)
		out = append(out, console.AuditRow{Entry: e, CustomerID: pub})
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

// ExtendService moves a line's expiry and next due date days on (from now when it has expired
// or has none) and answers the line.
func (s *db) ExtendService(ctx context.Context, id string, days int, now time.Time) (order.Service, error) {
	v, err := s.Service(ctx, id)
	if err != nil {
		return v, err
	}
	exp := v.ExpiresAt
	if exp.IsZero() || exp.Before(now) {
		exp = now
	}
	exp = exp.AddDate(0, 0, days)
	due := v.NextDueDate
	if !due.IsZero() {
		due = due.AddDate(0, 0, days)
	}
	_, err = s.w.ExecContext(ctx, `UPDATE services SET expires_at = ?, next_due_date = ? WHERE id = ?`, fmtTime(exp), fmtTime(due), id)
	if err != nil {
		return v, fmt.Errorf("extend service: %w", err)
	}
	return s.Service(ctx, id)
}

// SaveCatalog keeps source as the next catalog version and makes it the catalog setting key,
// in one transaction.
func (s *db) SaveCatalog(ctx context.Context, key string, source []byte, v console.CatalogVersion) (console.CatalogVersion, error) {
	err := s.tx(ctx, func(q querier) error {
		if err := q.d.lock(ctx, q, "streamcart:catalog"); err != nil {
			return err
		}
		if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) + 1 FROM catalog_versions`).Scan(&v.Version); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO catalog_versions (version, source, sha256, operator, comment, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			v.Version, string(source), v.SHA256, v.Operator, v.Comment, fmtTime(v.CreatedAt)); err != nil {
			return err
		}
		_, err := q.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, source, fmtTime(v.CreatedAt))
		return err
	})
	if err != nil {
		return v, fmt.Errorf("save catalog: %w", err)
	}
	return v, nil
}

// CatalogVersions lists the saved catalogs, newest first.
func (s *db) CatalogVersions(ctx context.Context) ([]console.CatalogVersion, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT version, operator, comment, sha256, created_at FROM catalog_versions ORDER BY version DESC`)
	if err != nil {
		return nil, fmt.Errorf("catalog versions: %w", err)
	}
	defer rows.Close()
	out := []console.CatalogVersion{}
	for rows.Next() {
		var v console.CatalogVersion
		var at string
		if err := rows.Scan(&v.Version, &v.Operator, &v.Comment, &v.SHA256, &at); err != nil {
			return nil, fmt.Errorf("catalog versions: %w", err)
		}
		v.CreatedAt = parseTime(at)
		out = append(out, v)
	}
	return out, rows.Err()
}

// CatalogVersion reads one saved catalog; console.ErrNotFound when none.
func (s *db) CatalogVersion(ctx context.Context, version int64) (console.CatalogVersion, []byte, error) {
	var v console.CatalogVersion
	var at, src string
	err := s.r.QueryRowContext(ctx, `SELECT version, operator, comment, sha256, created_at, source FROM catalog_versions WHERE version = ?`, version).
		Scan(&v.Version, &v.Operator, &v.Comment, &v.SHA256, &at, &src)
	if errors.Is(err, sql.ErrNoRows) {
		return v, nil, console.ErrNotFound
	}
	if err != nil {
		return v, nil, fmt.Errorf("catalog version: %w", err)
	}
	v.CreatedAt = parseTime(at)
	return v, []byte(src), nil
}
