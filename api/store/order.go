package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/order"
)

// orderTx is order.Tx over one write transaction. Each check that a later write depends on
// (idempotency key, promotion uses, orders per IP, trials started, transaction id) first takes the dialect's lock
// on what it counts, so on PostgreSQL concurrent orders queue up per key exactly as SQLite's
// single writer queues every transaction.
type orderTx struct {
	tx  querier
	d   *dialect
	now func() time.Time
}

// WithTx runs fn in a write transaction.
func (s *db) WithTx(ctx context.Context, fn func(order.Tx) error) error {
	return s.tx(ctx, func(tx querier) error { return fn(&orderTx{tx: tx, d: s.d, now: s.now}) })
}

const orderColumns = `o.id, o.client_id, o.session_id, o.email, o.quote, o.status, o.fraud, o.ip, o.gateway, o.affiliate_id,
	o.return_url, o.promo_code, COALESCE(o.idempotency_key, ''), o.request_hash, o.created_at, o.updated_at, o.locale,
	o.kind, o.renew_with_card, COALESCE(o.billing_country, ''), COALESCE(o.ip_country, ''), o.country_confirmed, o.version,
	i.id, i.amount, i.currency, i.status, i.gateway, i.payment_url, i.deadline, COALESCE(i.transaction_id, ''), i.paid_at,
	COALESCE(i.number, '')`

func orderQuery(where string) string {
	return `SELECT ` + orderColumns + ` FROM orders o JOIN invoices i ON i.order_id = o.id WHERE ` + where
}

// scanOrder reads a row of orderQuery, without the service ids.
func scanOrder(row rowScanner) (order.Order, error) {
	var o order.Order
	var quote, status, kind, invStatus, created, updated, deadline, paidAt string
	err := row.Scan(
		&o.ID, &o.ClientID, &o.SessionID, &o.Email, &quote, &status, &o.Fraud, &o.IP, &o.Gateway, &o.AffiliateID,
		&o.ReturnURL, &o.PromoCode, &o.IdempotencyKey, &o.RequestHash, &created, &updated, &o.Locale, &kind, &o.RenewWithCard,
		&o.BillingCountry, &o.IPCountry, &o.CountryConfirmed, &o.Version, &o.Invoice.ID, &o.Invoice.Amount.Amount, &o.Invoice.Amount.Currency, &invStatus, &o.Invoice.Gateway,
		&o.Invoice.PaymentURL, &deadline, &o.Invoice.TransactionID, &paidAt, &o.Invoice.Number)
	if errors.Is(err, sql.ErrNoRows) {
		return order.Order{}, order.ErrNotFound
	}
	if err != nil {
		return order.Order{}, fmt.Errorf("read order: %w", err)
	}
	if err := json.Unmarshal([]byte(quote), &o.Quote); err != nil {
		return order.Order{}, fmt.Errorf("read order %s quote: %w", o.ID, err)
	}
	o.Status, o.Kind, o.Invoice.Status = order.Status(status), order.Kind(kind), order.InvoiceStatus(invStatus)
	o.CreatedAt, o.UpdatedAt = parseTime(created), parseTime(updated)
	o.Invoice.OrderID, o.Invoice.ClientID = o.ID, o.ClientID
	o.Invoice.Deadline, o.Invoice.PaidAt = parseTime(deadline), parseTime(paidAt)
	return o, nil
}

func readOrder(ctx context.Context, q querier, where string, args ...any) (order.Order, error) {
	o, err := scanOrder(q.QueryRowContext(ctx, orderQuery(where), args...))
	if err != nil {
		return order.Order{}, err
	}
	return o, readServiceIDs(ctx, q, &o)
}

func readServiceIDs(ctx context.Context, q querier, o *order.Order) error {
	rows, err := q.QueryContext(ctx, `SELECT id FROM services WHERE order_id = ? ORDER BY rowid`, o.ID)
	if err != nil {
		return fmt.Errorf("read order services: %w", err)
	}
	defer rows.Close()
	o.ServiceIDs = []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return fmt.Errorf("read order services: %w", err)
		}
		o.ServiceIDs = append(o.ServiceIDs, id)
	}
	return rows.Err()
}

// Order reads an order with its invoice and service ids.
func (s *db) Order(ctx context.Context, id string) (order.Order, error) {
	return readOrder(ctx, s.r, `o.id = ?`, id)
}

// ClientOrders lists the client's orders newest first (those of the session sessionID only,
// unless ""), at most limit.
func (s *db) ClientOrders(ctx context.Context, clientID int64, sessionID string, limit int) ([]order.Order, error) {
	where, args := `o.client_id = ?`, []any{clientID}
	if sessionID != "" {
		where, args = where+` AND o.session_id = ?`, append(args, sessionID)
	}
	rows, err := s.r.QueryContext(ctx, orderQuery(where)+` ORDER BY o.created_at DESC, o.id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("client orders: %w", err)
	}
	defer rows.Close()
	out := []order.Order{}
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("client orders: %w", err)
	}
	rows.Close()
	for i := range out {
		if err := readServiceIDs(ctx, s.r, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ClientOrderByKey reads the client's order placed with an idempotency key (no lock taken).
func (s *db) ClientOrderByKey(ctx context.Context, clientID int64, key string) (order.Order, error) {
	return readOrder(ctx, s.r, `o.client_id = ? AND o.idempotency_key = ?`, clientID, key)
}

// InvoiceOrder reads the order an invoice belongs to.
func (s *db) InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error) {
	return readOrder(ctx, s.r, `i.id = ?`, invoiceID)
}

// PromoUses counts the uses of a promotion at time now (see promoUsesQuery). code is the
// promotion's canonical code (catalog.CanonicalPromoCode), the form orders store it in.
func (s *db) PromoUses(ctx context.Context, code string, now time.Time) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, promoUsesQuery, code, fmtTime(now)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count promo uses: %w", err)
	}
	return n, nil
}

// promoUsesQuery counts the orders holding a use of a promotion (code, now): every order not
// cancelled, failed, held or set aside for review (its money goes back), except an unpaid one past its invoice's deadline. So a use is given
// back the moment the invoice expires, before the expiry job has cancelled the order.
const promoUsesQuery = `SELECT COUNT(*) FROM orders o JOIN invoices i ON i.order_id = o.id
	WHERE o.promo_code = ? AND o.status NOT IN ('cancelled', 'failed', 'fraud', 'needs_review')
	AND NOT (o.status = 'pending' AND i.status = 'unpaid' AND i.deadline <= ?)`

// SetOrderStatus moves an order outside any other transaction.
func (s *db) SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error) {
	var moved bool
	err := s.tx(ctx, func(tx querier) error {
		var err error
		moved, err = setOrderStatus(ctx, tx, s.now(), id, to, from...)
		return err
	})
	return moved, err
}

// Check takes its locks, then reads under them: on PostgreSQL in the same round trip, one
// statement taking the locks in Check's order and one reading everything Check names (a
// statement sees what was committed when it started, so what the previous holders wrote). The
// read is one statement of a few shapes (checkQuery), each thing read a scalar subquery, so
// PostgreSQL parses, plans and answers one statement, and SQLite steps one, instead of one per
// thing read (issue 24: two of the order's six statements were these reads). The key's order
// is read whole only when there is one (a replay).
func (t *orderTx) Check(ctx context.Context, c order.Check) (order.Checked, error) {
	var got order.Checked
	var shape checkShape
	var args []any
	// The locks in this order (the key's, the promotion's, the IP's, the trials'), the reads'
	// arguments in the query's order (checkQuery).
	if c.IdempotencyKey != "" {
		shape = shape | checkKey
		args = append(args, c.ClientID, c.IdempotencyKey)
	}
	if c.PromoCode != "" {
		shape = shape | checkPromo
		args = append(args, c.PromoCode, fmtTime(c.Now))
	}
	if c.CountIP {
		shape = shape | checkIP
		args = append(args, c.IP, fmtTime(c.Since))
	}
	if c.Trial {
		shape = shape | checkTrial
		args = append(args, c.ClientID, c.IP, fmtTime(c.TrialSince), c.TrialEmail)
	}
	steps := t.d.lockSteps(checkLocks(c)...)
	var prevID string
	if shape != 0 {
		steps = append(steps, step{query: checkQuery(shape), args: args, row: func(row rowScanner) error {
			dest := make([]any, 0, 6)
			if shape&checkKey != 0 {
				dest = append(dest, &prevID)
			}
			if shape&checkPromo != 0 {
				dest = append(dest, &got.PromoUses)
			}
			if shape&checkIP != 0 {
				dest = append(dest, &got.FromIP)
			}
			if shape&checkTrial != 0 {
				dest = append(dest, &got.Trials, &got.TrialsFromIP, &got.TrialsOfEmail)
			}
			return row.Scan(dest...)
		}})
	}
	if err := t.tx.pipeline(ctx, steps...); err != nil {
		return order.Checked{}, fmt.Errorf("order checks: %w", err)
	}
	if prevID != "" {
		// Under the key's lock: no other transaction changes what the key names meanwhile.
		prev, err := readOrder(ctx, t.tx, `o.id = ?`, prevID)
		if err != nil {
			return order.Checked{}, err
		}
		got.Prev = &prev
	}
	return got, nil
}

// checkLocks names the locks a Check takes, in their order: the key's, the promotion's, the
// IP's, the trials'.
func checkLocks(c order.Check) []string {
	var keys []string
	if c.IdempotencyKey != "" {
		keys = append(keys, "order-key:"+strconv.FormatInt(c.ClientID, 10)+":"+c.IdempotencyKey)
	}
	if c.PromoCode != "" {
		keys = append(keys, "promo:"+c.PromoCode)
	}
	if c.CountIP {
		keys = append(keys, "ip:"+c.IP)
	}
	if c.Trial {
		keys = append(keys, "trial-client:"+strconv.FormatInt(c.ClientID, 10), "trial-ip:"+c.IP, "trial-email:"+c.TrialEmail)
	}
	return keys
}

// checkShape names what a Check reads: the key's order and which counts.
type checkShape uint8

const (
	checkKey checkShape = 1 << iota
	checkPromo
	checkIP
	checkTrial
	checkShapes = 1 << iota
)

// checkQueries holds each shape's query text, made once: the text is the statement caches' key.
var checkQueries [checkShapes]struct {
	once sync.Once
	text string
}

// checkQuery is the statement reading a Check's shape, each a scalar subquery in this order:
// the id of the client's order under the key, empty when none (args: client, key); the
// promotion's uses (code, now); the orders from the IP (ip, since); the trials started by the
// client, from the IP and by the e-mail (client, ip, since, e-mail key).
func checkQuery(shape checkShape) string {
	q := &checkQueries[shape]
	q.once.Do(func() {
		var cols []string
		if shape&checkKey != 0 {
			cols = append(cols, `COALESCE((SELECT id FROM orders WHERE client_id = ? AND idempotency_key = ?), '')`)
		}
		if shape&checkPromo != 0 {
			cols = append(cols, `(`+promoUsesQuery+`)`)
		}
		if shape&checkIP != 0 {
			cols = append(cols, `(`+ipCountQuery+`)`)
		}
		if shape&checkTrial != 0 {
			cols = append(cols, `(`+trialStarts+`t.client_id = ?)`, `(`+trialStarts+`t.ip = ? AND t.created_at >= ?)`,
				`(`+trialStarts+`t.email_key = ?)`)
		}
		q.text = `SELECT ` + strings.Join(cols, ", ")
	})
	return q.text
}

// promoRead is the lock of a promotion's canonical code and the count of its uses at now.
func promoRead(code string, now time.Time, n *int) (string, step) {
	return "promo:" + code, step{query: promoUsesQuery, args: []any{code, fmtTime(now)}, row: func(row rowScanner) error { return row.Scan(n) }}
}

// trialStarts counts the free trials started (trial_starts, whatever their lines became since)
// whose orders count against a limit: those not cancelled, failed, held or set aside for review
// (such an order gives nothing).
const trialStarts = `SELECT COUNT(*) FROM trial_starts t JOIN orders o ON o.id = t.order_id
	WHERE o.status NOT IN ('cancelled', 'failed', 'fraud', 'needs_review') AND `

// ipCountQuery counts the orders from an address (ip) created at or after a time (since).
const ipCountQuery = `SELECT COUNT(*) FROM orders WHERE ip = ? AND created_at >= ?`

// RecordTrial stores the record of a free trial started, with the order's next round trip.
func (t *orderTx) RecordTrial(ctx context.Context, r order.TrialStart) error {
	if err := t.tx.later(ctx, `INSERT INTO trial_starts (order_id, client_id, ip, email_key, created_at) VALUES (?, ?, ?, ?, ?)`,
		r.OrderID, r.ClientID, r.IP, r.EmailKey, fmtTime(r.CreatedAt)); err != nil {
		return fmt.Errorf("record trial: %w", err)
	}
	return nil
}

func (t *orderTx) Order(ctx context.Context, id string) (order.Order, error) {
	return readOrder(ctx, t.tx, `o.id = ?`, id)
}

func (t *orderTx) InvoiceOrder(ctx context.Context, invoiceID string) (order.Order, error) {
	return readOrder(ctx, t.tx, `i.id = ?`, invoiceID)
}

// PromoUses takes the promotion's lock and counts its uses in one round trip.
func (t *orderTx) PromoUses(ctx context.Context, code string, now time.Time) (int, error) {
	var n int
	lock, read := promoRead(code, now, &n)
	if err := t.tx.pipeline(ctx, append(t.d.lockSteps(lock), read)...); err != nil {
		return 0, fmt.Errorf("count promo uses: %w", err)
	}
	return n, nil
}

func (t *orderTx) InsertOrder(ctx context.Context, o order.Order, services []order.Service) error {
	quote, err := json.Marshal(o.Quote)
	if err != nil {
		return fmt.Errorf("insert order: %w", err)
	}
	var key any
	if o.IdempotencyKey != "" {
		key = o.IdempotencyKey
	}
	// The rows go with the transaction's next round trip (on PostgreSQL, with COMMIT): nothing
	// reads them before.
	// The evidence and the tax are NULL for an order without tax (migration 0032).
	var billing, ipCountry, taxCountry, taxRate, taxAmount, net any
	if o.BillingCountry != "" {
		billing = o.BillingCountry
	}
	if o.IPCountry != "" {
		ipCountry = o.IPCountry
	}
	if tx := o.Quote.Tax; tx != nil {
		taxCountry, taxRate, taxAmount, net = tx.Country, tx.Rate, tx.Amount, o.Quote.Net.Amount
	}
	err = t.tx.later(ctx, `INSERT INTO orders (id, client_id, session_id, email, quote, total_amount, currency, status, fraud,
		ip, gateway, affiliate_id, return_url, promo_code, idempotency_key, request_hash, created_at, updated_at, locale, kind,
		renew_with_card, billing_country, ip_country, country_confirmed, tax_country, tax_rate, tax_amount, net_amount)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.ClientID, o.SessionID, o.Email, string(quote), o.Quote.Total.Amount, o.Quote.Total.Currency, string(o.Status), o.Fraud,
		o.IP, o.Gateway, o.AffiliateID, o.ReturnURL, o.PromoCode, key, o.RequestHash, fmtTime(o.CreatedAt), fmtTime(o.UpdatedAt), o.Locale, string(o.Kind),
		o.RenewWithCard, billing, ipCountry, o.CountryConfirmed, taxCountry, taxRate, taxAmount, net)
	if err != nil {
		return fmt.Errorf("insert order: %w", err)
	}
	inv := o.Invoice
	var txn any
	if inv.TransactionID != "" {
		txn = inv.TransactionID
	}
	err = t.tx.later(ctx, `INSERT INTO invoices (id, order_id, client_id, amount, currency, status, gateway, payment_url,
		deadline, transaction_id, paid_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		inv.ID, o.ID, o.ClientID, inv.Amount.Amount, inv.Amount.Currency, string(inv.Status), inv.Gateway, inv.PaymentURL,
		fmtTime(inv.Deadline), txn, fmtTime(inv.PaidAt))
	if err != nil {
		return fmt.Errorf("insert invoice: %w", err)
	}
	if h := o.Hold; h != nil {
		rules, err := json.Marshal(h.Rules)
		if err != nil {
			return fmt.Errorf("insert hold: %w", err)
		}
		if err := t.tx.later(ctx, `INSERT INTO order_holds (order_id, rules, ip, orders_from_ip, created_at) VALUES (?, ?, ?, ?, ?)`,
			o.ID, string(rules), h.IP, h.OrdersFromIP, fmtTime(o.CreatedAt)); err != nil {
			return fmt.Errorf("insert hold: %w", err)
		}
	}
	for _, v := range services {
		err = t.tx.later(ctx, `INSERT INTO services (id, order_id, client_id, session_id, pid, name, billing_cycle, status,
			trial, max_connections, created_at, auto_renew) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			v.ID, o.ID, v.ClientID, v.SessionID, v.PID, v.Name, v.BillingCycle, string(v.Status), v.Trial, v.MaxConnections, fmtTime(v.CreatedAt),
			v.AutoRenew)
		if err != nil {
			return fmt.Errorf("insert service: %w", err)
		}
	}
	return nil
}

func (t *orderTx) SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error) {
	return setOrderStatus(ctx, t.tx, t.now(), id, to, from...)
}

func setOrderStatus(ctx context.Context, q querier, now time.Time, id string, to order.Status, from ...order.Status) (bool, error) {
	if len(from) == 0 { // no state to move from: nothing moves (and "IN ()" is not portable SQL)
		return false, nil
	}
	if err := q.d.lock(ctx, q, orderLock(id)); err != nil {
		return false, fmt.Errorf("set order status: %w", err)
	}
	args := []any{string(to), fmtTime(now), id}
	marks := make([]string, len(from))
	for i, f := range from {
		marks[i] = "?"
		args = append(args, string(f))
	}
	res, err := q.ExecContext(ctx, `UPDATE orders SET status = ?, updated_at = ? WHERE id = ? AND status IN (`+strings.Join(marks, ",")+`)`, args...)
	if err != nil {
		return false, fmt.Errorf("set order status: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil || n != 1 {
		return false, err
	}
	// A cancelled order (expired unpaid, cancelled by its buyer or the shop, rejected) will not
	// make its lines: the lines still waiting for it are Cancelled with it, as WHMCS cancels an
	// order's services, so that the buyer's GET /services and the console's Subscriptions say so
	// rather than Pending forever. A late payment accepted afterwards provisions them still.
	if to == order.StatusCancelled {
		if _, err := q.ExecContext(ctx, `UPDATE services SET status = ? WHERE order_id = ? AND status = ?`,
			string(order.ServiceCancelled), id, string(order.ServicePending)); err != nil {
			return false, fmt.Errorf("cancel the order's lines: %w", err)
		}
	}
	return true, nil
}

// orderLock names the lock an order's status and its invoice's status are changed under.
// Cancel moves the order then the invoice, a settlement the invoice then the order: taking the
// order's lock first makes them queue instead of deadlocking on each other's rows.
func orderLock(orderID string) string { return "order:" + orderID }

func (t *orderTx) Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error {
	return enqueue(ctx, t.tx, t.now(), kind, ref, uniqueKey, runAt)
}

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
