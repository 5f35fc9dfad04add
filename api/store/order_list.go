package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/console"
)

const consoleOrderQuery = `SELECT o.id, o.kind, o.status, o.email, c.public_id, o.gateway, o.promo_code, i.amount, i.currency,
	i.id, i.status, o.created_at, i.paid_at
	FROM orders o JOIN invoices i ON i.order_id = o.id JOIN clients c ON c.id = o.client_id`

// consoleOrderPage is consoleOrderQuery on a page of orders chosen first: every filter is on the
// order itself, and joining after the limit keeps PostgreSQL from joining every match (a hash
// join over all invoices: 53 ms against 2 ms a page for 2,220 matches).
const consoleOrderPage = `SELECT o.id, o.kind, o.status, o.email, c.public_id, o.gateway, o.promo_code, i.amount, i.currency,
	i.id, i.status, o.created_at, i.paid_at
	FROM (SELECT * FROM orders o WHERE %s ORDER BY o.created_at DESC, o.id DESC LIMIT ?) o
	JOIN invoices i ON i.order_id = o.id JOIN clients c ON c.id = o.client_id
	ORDER BY o.created_at DESC, o.id DESC`

func scanConsoleOrder(sc interface{ Scan(...any) error }) (console.OrderRow, error) {
	var r console.OrderRow
	var created, paid string
	err := sc.Scan(&r.ID, &r.Kind, &r.Status, &r.Email, &r.CustomerID, &r.Gateway, &r.PromoCode, &r.Total.Amount, &r.Total.Currency,
		&r.InvoiceID, &r.InvoiceStatus, &created, &paid)
	r.CreatedAt, r.PaidAt = parseTime(created), parseTime(paid)
	return r, err
}

// ListOrders lists orders newest first, keyset-paged on (created_at, id).
func (s *db) ListOrders(ctx context.Context, f console.OrderFilter) ([]console.OrderRow, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Status != "" {
		where, args = append(where, "o.status = ?"), append(args, f.Status)
	}
	if f.Gateway != "" {
		where, args = append(where, "o.gateway = ?"), append(args, f.Gateway)
	}
	if !f.From.IsZero() {
		where, args = append(where, "o.created_at >= ?"), append(args, fmtTime(f.From))
	}
	if !f.To.IsZero() {
		where, args = append(where, "o.created_at < ?"), append(args, fmtTime(f.To))
	}
	if q := strings.TrimSpace(f.Q); q != "" {
		// Whole ids and usernames, an email whole or by its beginning (LIKE with its wildcards escaped).
		email := strings.ToLower(q)
		like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(email) + "%"
		// One indexed lookup each, joined: an OR across tables and columns makes both back ends
		// scan every order (143 ms on 100,000 orders against 0.4 ms; docs/benchmarks.md). The
		// range lets SQLite's email index find a beginning (exact in its byte order); under a
		// PostgreSQL collation a range could drop matches, so there LIKE alone decides.
		prefix, pargs := "", []any{}
		if s.d.name == "sqlite" {
			prefix, pargs = " AND email >= ? AND email < ?", []any{email, email + "\xff"}
		}
		where = append(where, `o.id IN (SELECT id FROM orders WHERE id = ? UNION SELECT order_id FROM invoices WHERE id = ?
			UNION SELECT id FROM orders WHERE email = ? UNION SELECT id FROM orders WHERE email LIKE ? ESCAPE '\'`+prefix+`
			UNION SELECT order_id FROM services WHERE username = ?)`)
		args = append(append(append(args, q, q, email, like), pargs...), q)
	}
	if !f.AfterAt.IsZero() {
		where = append(where, "(o.created_at < ? OR (o.created_at = ? AND o.id < ?))")
		args = append(args, fmtTime(f.AfterAt), fmtTime(f.AfterAt), f.AfterID)
	}
	rows, err := s.r.QueryContext(ctx, fmt.Sprintf(consoleOrderPage, strings.Join(where, " AND ")), append(args, f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("list orders: %w", err)
	}
	defer rows.Close()
	out := []console.OrderRow{}
	for rows.Next() {
		r, err := scanConsoleOrder(rows)
		if err != nil {
			return nil, fmt.Errorf("list orders: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// OrderRow reads one order as the console lists it; console.ErrNotFound when none.
func (s *db) OrderRow(ctx context.Context, id string) (console.OrderRow, error) {
	r, err := scanConsoleOrder(s.r.QueryRowContext(ctx, consoleOrderQuery+` WHERE o.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return console.OrderRow{}, console.ErrNotFound
	}
	if err != nil {
		return console.OrderRow{}, fmt.Errorf("read order %s: %w", id, err)
	}
	return r, nil
}
