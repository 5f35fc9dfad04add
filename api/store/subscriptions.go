package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/order"
)

// noDueKey is the sort key of a line without a due date: after every date, in byte order and in
// any collation (digits against digits).
const noDueKey = "9999-12-31T23:59:59.999999Z"

// openRenewalOf is the rest of a query for the line s's open renewal (as OpenRenewal finds it):
// its renewal r, order ro and invoice i.
const openRenewalOf = `FROM renewals r JOIN orders ro ON ro.id = r.order_id JOIN invoices i ON i.order_id = ro.id
		WHERE r.service_id = s.id AND r.cancelled_at = '' AND r.applied_at = '' AND ro.status = 'pending'
		ORDER BY r.period_start DESC LIMIT 1`

// subscriptionQuery reads lines with their client, their open renewal's invoice and order and
// their sort key; %s is the WHERE clause.
const subscriptionQuery = `SELECT s.id, s.order_id, s.client_id, s.session_id, s.pid, s.name, s.billing_cycle, s.status, s.trial,
	s.username, s.password, s.server_hostname, s.max_connections, s.mac_address, s.expires_at, s.next_due_date, s.created_at,
	s.auto_renew, EXISTS (SELECT 1 FROM service_cards sc WHERE sc.service_id = s.id),
	c.public_id, c.email,
	COALESCE((SELECT i.id ` + openRenewalOf + `), ''),
	COALESCE((SELECT ro.id ` + openRenewalOf + `), ''),
	CASE WHEN s.next_due_date = '' THEN '` + noDueKey + `' ELSE s.next_due_date END
	FROM services s JOIN clients c ON c.id = s.client_id
	WHERE %s`

// sortKeyExpr is the list's order: soonest due first, no due date last.
const sortKeyExpr = `(CASE WHEN s.next_due_date = '' THEN '` + noDueKey + `' ELSE s.next_due_date END)`

// extraScan scans a service's columns and then extra ones.
type extraScan struct {
	row   interface{ Scan(...any) error }
	extra []any
}

func (e extraScan) Scan(dest ...any) error { return e.row.Scan(append(dest, e.extra...)...) }

func scanServiceRow(row interface{ Scan(...any) error }) (console.ServiceRow, error) {
	var r console.ServiceRow
	v, err := scanService(extraScan{row, []any{&r.CustomerID, &r.Email, &r.RenewalInvoiceID, &r.RenewalOrderID, &r.SortKey}})
	r.Service = v
	return r, err
}

// normMAC writes a MAC address as stored: upper case, ':' between pairs.
func normMAC(q string) string { return strings.ToUpper(strings.ReplaceAll(q, "-", ":")) }

// ListServices lists lines soonest due first (no due date last), then by id, keyset-paged.
func (s *db) ListServices(ctx context.Context, f console.ServiceFilter) ([]console.ServiceRow, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Status != "" {
		where, args = append(where, "s.status = ?"), append(args, string(f.Status))
	}
	if f.PID != 0 {
		where, args = append(where, "s.pid = ?"), append(args, f.PID)
	}
	running := "s.status IN ('" + string(order.ServiceActive) + "', '" + string(order.ServiceOverdue) + "', '" + string(order.ServiceSuspended) + "')"
	if !f.DueBy.IsZero() {
		where = append(where, running+" AND s.next_due_date <> '' AND s.next_due_date <= ?")
		args = append(args, fmtTime(f.DueBy))
	}
	if f.AutoRenew != nil {
		// As the buyer's autoRenew: running, not a trial, with a due date, not cancelled.
		renews := "(" + running + " AND s.trial = ? AND s.next_due_date <> '' AND s.auto_renew = ?)"
		if !*f.AutoRenew {
			renews = "NOT " + renews
		}
		where, args = append(where, renews), append(args, false, true)
	}
	if q := strings.TrimSpace(f.Q); q != "" {
		email := strings.ToLower(q)
		like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(email) + "%"
		where = append(where, `(s.id = ? OR s.username = ? OR s.mac_address = ? OR c.email = ? OR c.email LIKE ? ESCAPE '\')`)
		args = append(args, q, q, normMAC(q), email, like)
	}
	if f.AfterID != "" {
		where = append(where, "("+sortKeyExpr+" > ? OR ("+sortKeyExpr+" = ? AND s.id > ?))")
		args = append(args, f.AfterKey, f.AfterKey, f.AfterID)
	}
	query := fmt.Sprintf(subscriptionQuery, strings.Join(where, " AND ")) + " ORDER BY " + sortKeyExpr + ", s.id LIMIT ?"
	rows, err := s.r.QueryContext(ctx, query, append(args, f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("list services: %w", err)
	}
	defer rows.Close()
	out := []console.ServiceRow{}
	for rows.Next() {
		r, err := scanServiceRow(rows)
		if err != nil {
			return nil, fmt.Errorf("list services: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ServiceRow reads one line as the console lists it; console.ErrNotFound when none.
func (s *db) ServiceRow(ctx context.Context, id string) (console.ServiceRow, error) {
	r, err := scanServiceRow(s.r.QueryRowContext(ctx, fmt.Sprintf(subscriptionQuery, "s.id = ?"), id))
	if err != nil {
		if errors.Is(err, order.ErrNotFound) {
			return console.ServiceRow{}, console.ErrNotFound
		}
		return console.ServiceRow{}, fmt.Errorf("read service %s: %w", id, err)
	}
	return r, nil
}
