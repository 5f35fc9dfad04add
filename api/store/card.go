package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/renewal"
)

// SaveCard keeps c for every service of the order it paid (a later purchase's card replaces an
// earlier one): their renewals are charged to it.
func (s *db) SaveCard(ctx context.Context, c order.Card) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO service_cards (service_id, provider, customer, payment_method, order_id, saved_at)
		SELECT id, ?, ?, ?, order_id, ? FROM services WHERE order_id = ?
		ON CONFLICT (service_id) DO UPDATE SET provider = excluded.provider, customer = excluded.customer,
			payment_method = excluded.payment_method, order_id = excluded.order_id, saved_at = excluded.saved_at`,
		c.Provider, c.Customer, c.PaymentMethod, fmtTime(c.SavedAt), c.OrderID)
	if err != nil {
		return fmt.Errorf("save card of order %s: %w", c.OrderID, err)
	}
	return nil
}

// ServiceCard reads the card saved for a service; order.ErrNotFound when none.
func (s *db) ServiceCard(ctx context.Context, serviceID string) (order.Card, error) {
	var c order.Card
	var saved string
	err := s.r.QueryRowContext(ctx, `SELECT provider, customer, payment_method, order_id, saved_at FROM service_cards WHERE service_id = ?`,
		serviceID).Scan(&c.Provider, &c.Customer, &c.PaymentMethod, &c.OrderID, &saved)
	if errors.Is(err, sql.ErrNoRows) {
		return order.Card{}, order.ErrNotFound
	}
	if err != nil {
		return order.Card{}, fmt.Errorf("read card of %s: %w", serviceID, err)
	}
	c.SavedAt = parseTime(saved)
	return c, nil
}

// ClientCustomer is the provider's customer of the client's latest saved card; "" when none.
func (s *db) ClientCustomer(ctx context.Context, clientID int64, provider string) (string, error) {
	var customer string
	err := s.r.QueryRowContext(ctx, `SELECT c.customer FROM service_cards c JOIN services v ON v.id = c.service_id
		WHERE v.client_id = ? AND c.provider = ? ORDER BY c.saved_at DESC LIMIT 1`, clientID, provider).Scan(&customer)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read customer of client %d: %w", clientID, err)
	}
	return customer, nil
}

// CardRenewalsDue lists the unpaid renewal orders of provider whose service has a card of
// provider and is active, overdue or suspended, for periods starting before before.
func (s *db) CardRenewalsDue(ctx context.Context, provider string, before time.Time) ([]renewal.CardDue, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.order_id, r.service_id, r.period_start, r.period_end, r.cycle_months, r.created_at,
			c.provider, c.customer, c.payment_method, c.order_id, c.saved_at
		FROM renewals r
		JOIN orders o ON o.id = r.order_id
		JOIN invoices i ON i.order_id = r.order_id
		JOIN services v ON v.id = r.service_id
		JOIN service_cards c ON c.service_id = r.service_id
		WHERE o.status = ? AND i.status = ? AND i.gateway = ? AND c.provider = ? AND v.status IN (?, ?, ?)
			AND r.period_start < ?
		ORDER BY r.period_start, r.order_id`,
		string(order.StatusPending), string(order.InvoiceUnpaid), provider, provider,
		string(order.ServiceActive), string(order.ServiceOverdue), string(order.ServiceSuspended), fmtTime(before))
	if err != nil {
		return nil, fmt.Errorf("list card renewals: %w", err)
	}
	defer rows.Close()
	var out []renewal.CardDue
	for rows.Next() {
		var d renewal.CardDue
		var start, end, created, saved string
		if err := rows.Scan(&d.Renewal.OrderID, &d.Renewal.ServiceID, &start, &end, &d.Renewal.CycleMonths, &created,
			&d.Card.Provider, &d.Card.Customer, &d.Card.PaymentMethod, &d.Card.OrderID, &saved); err != nil {
			return nil, fmt.Errorf("list card renewals: %w", err)
		}
		d.Renewal.PeriodStart, d.Renewal.PeriodEnd, d.Renewal.CreatedAt = parseTime(start), parseTime(end), parseTime(created)
		d.Card.SavedAt = parseTime(saved)
		out = append(out, d)
	}
	return out, rows.Err()
}

// ReserveCharge records an attempt unless its order has that attempt, or takes over that attempt
// when it is still pending from before stale: the primary key (order_id, attempt) and the
// conditional update let one of any number of concurrent sweeps record it.
func (s *db) ReserveCharge(ctx context.Context, a renewal.Attempt, stale time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO renewal_charges (order_id, attempt, at, outcome, decline_code, payment_intent)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, attempt) DO UPDATE SET at = excluded.at
		WHERE renewal_charges.outcome = 'pending' AND renewal_charges.at < ?`,
		a.OrderID, a.N, fmtTime(a.At), a.Outcome, a.DeclineCode, a.PaymentIntent, fmtTime(stale))
	if err != nil {
		return false, fmt.Errorf("reserve charge %s/%d: %w", a.OrderID, a.N, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("reserve charge %s/%d: %w", a.OrderID, a.N, err)
	}
	return n == 1, nil
}

// FinishCharge records the outcome of an attempt.
func (s *db) FinishCharge(ctx context.Context, a renewal.Attempt) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE renewal_charges SET outcome = ?, decline_code = ?, payment_intent = ? WHERE order_id = ? AND attempt = ?`,
		a.Outcome, a.DeclineCode, a.PaymentIntent, a.OrderID, a.N); err != nil {
		return fmt.Errorf("finish charge %s/%d: %w", a.OrderID, a.N, err)
	}
	return nil
}

// ReleaseCharge forgets an attempt still pending.
func (s *db) ReleaseCharge(ctx context.Context, orderID string, n int) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM renewal_charges WHERE order_id = ? AND attempt = ? AND outcome = 'pending'`, orderID, n); err != nil {
		return fmt.Errorf("release charge %s/%d: %w", orderID, n, err)
	}
	return nil
}

// Charges lists the attempts of a renewal order, first first (operator view, tests).
func (s *db) Charges(ctx context.Context, orderID string) ([]renewal.Attempt, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT order_id, attempt, at, outcome, decline_code, payment_intent FROM renewal_charges
		WHERE order_id = ? ORDER BY attempt`, orderID)
	if err != nil {
		return nil, fmt.Errorf("list charges of %s: %w", orderID, err)
	}
	defer rows.Close()
	var out []renewal.Attempt
	for rows.Next() {
		var a renewal.Attempt
		var at string
		if err := rows.Scan(&a.OrderID, &a.N, &at, &a.Outcome, &a.DeclineCode, &a.PaymentIntent); err != nil {
			return nil, fmt.Errorf("list charges of %s: %w", orderID, err)
		}
		a.At = parseTime(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

// Cards keeps the cards saved for renewals and the off-session charges made to them.
type Cards interface {
	renewal.ChargeStore
	payment.CardStore
}

var (
	_ Cards = (*SQLite)(nil)
	_ Cards = (*Postgres)(nil)
)
