package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/upsell"
)

// AfterSale is what the after-sale packages need; both back ends are one.
type AfterSale interface {
	signin.Store
	mail.Store
	audit.Store
	upsell.Store
	reseller.Store
	reseller.LedgerStore
	renewal.Store
	renewal.RemindStore
	// QueueReminder stores a renewal or trial mail with its once-per-order-and-kind record.
	QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error)
	affiliate.Store
	panel.LineEditor
	ClientServices(ctx context.Context, clientID int64) ([]order.Service, error)
}

var (
	_ AfterSale = (*SQLite)(nil)
	_ AfterSale = (*Postgres)(nil)
)

// --- clients and sign-in ---

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

// InsertSigninLink stores a sign-in link by the hash of its token.
func (s *db) InsertSigninLink(ctx context.Context, tokenHash string, clientID int64, created, expires time.Time) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO signin_links (token_hash, client_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		tokenHash, clientID, fmtTime(created), fmtTime(expires))
	if err != nil {
		return fmt.Errorf("insert sign-in link: %w", err)
	}
	return nil
}

// CountSigninLinks counts a client's links created since the time.
func (s *db) CountSigninLinks(ctx context.Context, clientID int64, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM signin_links WHERE client_id = ? AND created_at >= ?`, clientID, fmtTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count sign-in links: %w", err)
	}
	return n, nil
}

// UseSigninLink marks a link used if it is unused and unexpired, and returns its client. The
// conditional update is the single-use guarantee: of two concurrent uses, one updates the row.
func (s *db) UseSigninLink(ctx context.Context, tokenHash string, now time.Time) (int64, error) {
	var clientID int64
	err := s.tx(ctx, func(tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE signin_links SET used_at = ? WHERE token_hash = ? AND used_at = '' AND expires_at > ?`,
			fmtTime(now), tokenHash, fmtTime(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = signin.ErrNotFound
			}
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT client_id FROM signin_links WHERE token_hash = ?`, tokenHash).Scan(&clientID)
	})
	if errors.Is(err, signin.ErrNotFound) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("use sign-in link: %w", err)
	}
	return clientID, nil
}

// AddAttempt records one sign-in attempt.
func (s *db) AddAttempt(ctx context.Context, scope, key string, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO auth_attempts (scope, key, at) VALUES (?, ?, ?)`, scope, key, fmtTime(at)); err != nil {
		return fmt.Errorf("add attempt: %w", err)
	}
	return nil
}

// CountAttempts counts attempts of scope and key since the time.
func (s *db) CountAttempts(ctx context.Context, scope, key string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM auth_attempts WHERE scope = ? AND key = ? AND at >= ?`, scope, key, fmtTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count attempts: %w", err)
	}
	return n, nil
}

// ReserveAttempt records an attempt of scope and key at at, unless max attempts are recorded
// since since: then it records nothing, and answers ok false and the oldest of them (the first to
// leave the window). The count and the insert run under the key's lock, so concurrent attempts,
// on every replica, are counted one after the other.
func (s *db) ReserveAttempt(ctx context.Context, scope, key string, at, since time.Time, max int) (id int64, oldest time.Time, ok bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "attempt:"+scope+":"+key); err != nil {
			return err
		}
		var n int
		var first sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(at) FROM auth_attempts WHERE scope = ? AND key = ? AND at >= ?`, scope, key, fmtTime(since)).Scan(&n, &first)
		if err != nil {
			return err
		}
		if n >= max {
			oldest = parseTime(first.String)
			return nil
		}
		ok = true
		return tx.QueryRowContext(ctx, `INSERT INTO auth_attempts (scope, key, at) VALUES (?, ?, ?) RETURNING id`, scope, key, fmtTime(at)).Scan(&id)
	})
	if err != nil {
		return 0, time.Time{}, false, fmt.Errorf("reserve attempt: %w", err)
	}
	return id, oldest, ok, nil
}

// RemoveAttempt forgets an attempt ReserveAttempt recorded.
func (s *db) RemoveAttempt(ctx context.Context, id int64) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM auth_attempts WHERE id = ?`, id); err != nil {
		return fmt.Errorf("remove attempt: %w", err)
	}
	return nil
}

// --- mail outbox ---

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

// --- audit log ---

// InsertAudit writes one entry.
func (s *db) InsertAudit(ctx context.Context, e audit.Entry) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO audit_log (client_id, session_id, operator, action, target, result, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ClientID, e.SessionID, e.Operator, e.Action, e.Target, e.Result, e.Detail, fmtTime(e.At))
	if err != nil {
		return fmt.Errorf("insert audit: %w", err)
	}
	return nil
}

// ListAudit returns the newest entries first, only target's when target is set.
func (s *db) ListAudit(ctx context.Context, target string, limit int) ([]audit.Entry, error) {
	q := `SELECT id, client_id, session_id, operator, action, target, result, detail, at FROM audit_log`
	args := []any{}
	if target != "" {
		q += ` WHERE target = ?`
		args = append(args, target)
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list audit: %w", err)
	}
	defer rows.Close()
	var out []audit.Entry
	for rows.Next() {
		var e audit.Entry
		var at string
		if err := rows.Scan(&e.ID, &e.ClientID, &e.SessionID, &e.Operator, &e.Action, &e.Target, &e.Result, &e.Detail, &at); err != nil {
			return nil, fmt.Errorf("list audit: %w", err)
		}
		e.At = parseTime(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// --- services of a client ---

// ClientServices reads a client's services, oldest first.
func (s *db) ClientServices(ctx context.Context, clientID int64) ([]order.Service, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE client_id = ? ORDER BY rowid`, clientID)
	if err != nil {
		return nil, fmt.Errorf("read client services: %w", err)
	}
	defer rows.Close()
	out := []order.Service{}
	for rows.Next() {
		v, err := scanService(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// --- upsells ---

func readUpsell(ctx context.Context, q querier, orderID string) (upsell.Upsell, error) {
	var u upsell.Upsell
	var created, applied string
	err := q.QueryRowContext(ctx, `SELECT order_id, service_id, extra_quantity, created_at, applied_at FROM upsells WHERE order_id = ?`, orderID).
		Scan(&u.OrderID, &u.ServiceID, &u.ExtraQuantity, &created, &applied)
	if errors.Is(err, sql.ErrNoRows) {
		return upsell.Upsell{}, upsell.ErrNotFound
	}
	if err != nil {
		return upsell.Upsell{}, fmt.Errorf("read upsell: %w", err)
	}
	u.CreatedAt, u.AppliedAt = parseTime(created), parseTime(applied)
	return u, nil
}

// Upsell reads the upsell of an order; upsell.ErrNotFound when the order is no upsell.
func (s *db) Upsell(ctx context.Context, orderID string) (upsell.Upsell, error) {
	return readUpsell(ctx, s.r, orderID)
}

// ApplyUpsell adds an upsell's connections to its service once. Under the service's lock the
// upsell row is read again: applied already, the service is returned as it is.
func (s *db) ApplyUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, error) {
	var svc order.Service
	err := s.tx(ctx, func(tx querier) error {
		u, err := readUpsell(ctx, tx, orderID)
		if err != nil {
			return err
		}
		if err := s.d.lock(ctx, tx, "service:"+u.ServiceID); err != nil {
			return err
		}
		if u, err = readUpsell(ctx, tx, orderID); err != nil {
			return err
		}
		if u.AppliedAt.IsZero() {
			if _, err := tx.ExecContext(ctx, `UPDATE services SET max_connections = max_connections + ? WHERE id = ?`, u.ExtraQuantity, u.ServiceID); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE upsells SET applied_at = ? WHERE order_id = ? AND applied_at = ''`, fmtTime(at), orderID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return fmt.Errorf("upsell %s applied concurrently (rows %d): %v", orderID, n, err)
			}
		}
		svc, err = scanService(tx.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = ?`, u.ServiceID))
		return err
	})
	if err != nil {
		return order.Service{}, fmt.Errorf("apply upsell: %w", err)
	}
	return svc, nil
}

// --- reseller purchases ---

// InsertPurchase records the purpose of a reseller order.
func (s *db) InsertPurchase(ctx context.Context, p reseller.Purchase) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO reseller_orders (order_id, service_id, client_id, session_id, pid, credits, new_account, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.OrderID, p.ServiceID, p.ClientID, p.SessionID, p.PID, p.Credits, p.NewAccount, p.PasswordHash, fmtTime(p.CreatedAt))
	if err != nil {
		return fmt.Errorf("insert reseller order: %w", err)
	}
	return nil
}

func (s *db) purchase(ctx context.Context, where string, arg any) (reseller.Purchase, error) {
	var p reseller.Purchase
	var created, credited string
	err := s.r.QueryRowContext(ctx, `SELECT order_id, service_id, client_id, session_id, pid, credits, new_account, password_hash, account, created_at, credited_at
		FROM reseller_orders WHERE `+where, arg).Scan(&p.OrderID, &p.ServiceID, &p.ClientID, &p.SessionID, &p.PID, &p.Credits, &p.NewAccount,
		&p.PasswordHash, &p.Account, &created, &credited)
	if errors.Is(err, sql.ErrNoRows) {
		return reseller.Purchase{}, reseller.ErrNotFound
	}
	if err != nil {
		return reseller.Purchase{}, fmt.Errorf("read reseller order: %w", err)
	}
	p.CreatedAt, p.CreditedAt = parseTime(created), parseTime(credited)
	return p, nil
}

// Purchase reads the reseller purchase of an order.
func (s *db) Purchase(ctx context.Context, orderID string) (reseller.Purchase, error) {
	return s.purchase(ctx, `order_id = ?`, orderID)
}

// ServicePurchase reads the reseller purchase of a service.
func (s *db) ServicePurchase(ctx context.Context, serviceID string) (reseller.Purchase, error) {
	return s.purchase(ctx, `service_id = ?`, serviceID)
}

// SessionCredited reports whether a reseller purchase of the session was credited.
func (s *db) SessionCredited(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM reseller_orders WHERE session_id = ? AND credited_at <> ''`, sessionID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("session credited: %w", err)
	}
	return n > 0, nil
}

// MarkCredited records that a reseller order credited account.
func (s *db) MarkCredited(ctx context.Context, orderID, account string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE reseller_orders SET account = ?, credited_at = ? WHERE order_id = ? AND credited_at = ''`,
		account, fmtTime(at), orderID)
	if err != nil {
		return fmt.Errorf("mark credited: %w", err)
	}
	return nil
}

// --- built-in panel: line edits ---

// UpdateLine rewrites a built-in panel line; panel.ErrNotFound when none.
func (s *db) UpdateLine(ctx context.Context, l panel.Line) error {
	res, err := s.w.ExecContext(ctx, `UPDATE panel_lines SET username = ?, password = ?, max_connections = ?, expires_at = ?, trial = ?,
		enabled = ?, mac = ? WHERE ref = ?`, l.Username, l.Password, l.MaxConnections, fmtTime(l.ExpiresAt), l.Trial, l.Enabled, l.MAC, l.Ref)
	if err != nil {
		return fmt.Errorf("update line %s: %w", l.Ref, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("update line %s: %w", l.Ref, panel.ErrNotFound)
	}
	return nil
}

// DeleteLine removes a built-in panel line.
func (s *db) DeleteLine(ctx context.Context, ref string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM panel_lines WHERE ref = ?`, ref); err != nil {
		return fmt.Errorf("delete line %s: %w", ref, err)
	}
	return nil
}

// --- reseller credit ledger ---

// CreditReseller adds credits to account once per ref, creating the account (with passwordHash)
// when absent.
func (s *db) CreditReseller(ctx context.Context, ref, acct, passwordHash string, credits int, at time.Time) (reseller.Account, error) {
	var a reseller.Account
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "reseller-credit:"+ref); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM panel_reseller_credits WHERE ref = ?`, ref).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO panel_reseller_credits (ref, account, credits, created_at) VALUES (?, ?, ?, ?)`,
				ref, acct, credits, fmtTime(at)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO panel_resellers (account, credits, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (account) DO UPDATE SET credits = panel_resellers.credits + excluded.credits, updated_at = excluded.updated_at`,
				acct, credits, passwordHash, fmtTime(at), fmtTime(at)); err != nil {
				return err
			}
		}
		var created string
		if err := tx.QueryRowContext(ctx, `SELECT account, credits, created_at FROM panel_resellers WHERE account = ?`, acct).
			Scan(&a.Account, &a.Credits, &created); err != nil {
			return err
		}
		a.CreatedAt = parseTime(created)
		return nil
	})
	if err != nil {
		return reseller.Account{}, fmt.Errorf("credit reseller %s: %w", acct, err)
	}
	return a, nil
}

// ResellerAccount reads a reseller account; reseller.ErrNotFound when none.
func (s *db) ResellerAccount(ctx context.Context, acct string) (reseller.Account, error) {
	var a reseller.Account
	var created string
	err := s.r.QueryRowContext(ctx, `SELECT account, credits, created_at FROM panel_resellers WHERE account = ?`, acct).Scan(&a.Account, &a.Credits, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return reseller.Account{}, reseller.ErrNotFound
	}
	if err != nil {
		return reseller.Account{}, fmt.Errorf("read reseller %s: %w", acct, err)
	}
	a.CreatedAt = parseTime(created)
	return a, nil
}

// --- affiliates ---

// InsertClick records an affiliate click, unless the address already clicked for the
// affiliate the same UTC day (a reload or a script must not inflate the count).
func (s *db) InsertClick(ctx context.Context, c affiliate.Click) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO affiliate_clicks (aff_id, referer, ip, created_at, day) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (aff_id, ip, day) WHERE day <> '' DO NOTHING`, c.AffID, c.Referer, c.IP, fmtTime(c.At), c.At.UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("insert click: %w", err)
	}
	return nil
}

// AffiliateCounts counts clicks and orders per affiliate since the time, and sums the paid
// invoices of those orders per currency.
func (s *db) AffiliateCounts(ctx context.Context, since time.Time) (clicks, orders, paid map[string]int, revenue map[string]map[string]int64, err error) {
	from := fmtTime(since)
	clicks, orders, paid, revenue = map[string]int{}, map[string]int{}, map[string]int{}, map[string]map[string]int64{}
	count := func(q string, into map[string]int) error {
		rows, err := s.r.QueryContext(ctx, q, from)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return err
			}
			into[id] = n
		}
		return rows.Err()
	}
	if err = count(`SELECT aff_id, COUNT(*) FROM affiliate_clicks WHERE created_at >= ? GROUP BY aff_id`, clicks); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("count clicks: %w", err)
	}
	if err = count(`SELECT affiliate_id, COUNT(*) FROM orders WHERE affiliate_id <> '' AND created_at >= ? GROUP BY affiliate_id`, orders); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("count orders: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT o.affiliate_id, i.currency, COUNT(*), CAST(SUM(i.amount) AS BIGINT) FROM orders o JOIN invoices i ON i.order_id = o.id
		WHERE o.affiliate_id <> '' AND o.created_at >= ? AND i.status = 'paid' GROUP BY o.affiliate_id, i.currency`, from)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("sum revenue: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, cur string
		var n int
		var sum int64
		if err := rows.Scan(&id, &cur, &n, &sum); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("sum revenue: %w", err)
		}
		paid[id] += n
		if revenue[id] == nil {
			revenue[id] = map[string]int64{}
		}
		revenue[id][cur] = sum
	}
	return clicks, orders, paid, revenue, rows.Err()
}
