package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/reseller"
)

// InsertPurchase records the purpose of a reseller order.
func (s *db) InsertPurchase(ctx context.Context, p reseller.Purchase) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO reseller_orders (order_id, service_id, client_id, session_id, pid, credits, new_account, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.OrderID, p.ServiceID, p.ClientID, p.SessionID, p.PID, p.Credits, p.NewAccount, p.PasswordHash, fmtTime(p.CreatedAt))
	if err != nil {
		return fmt.Errorf("insert reseller order: %w", err)
	}
	return nil
}

// DeletePurchase forgets the purchase of a reseller order that was never placed: only while no
// order of its id exists (a dropped or refused one), so a placed order's purpose stays.
func (s *db) DeletePurchase(ctx context.Context, orderID string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM reseller_orders WHERE order_id = ? AND NOT EXISTS (SELECT 1 FROM orders WHERE id = ?)`,
		orderID, orderID); err != nil {
		return fmt.Errorf("delete reseller order %s: %w", orderID, err)
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

// TakeBackResellerCredit takes back, once, the credits the reseller order ref gave its account:
// as many as the account still has, up to those credited (credits spent stay spent). A ledger row
// "refund:<ref>" with the negative amount records it, under the ref's credit lock, so the credit
// and its take-back never interleave. moved is false when nothing was credited for ref, or it was
// taken back already.
func (s *db) TakeBackResellerCredit(ctx context.Context, ref string, at time.Time) (taken int, moved bool, err error) {
	err = s.tx(ctx, func(tx querier) error {
		taken, moved = 0, false
		if err := s.d.lock(ctx, tx, "reseller-credit:"+ref); err != nil {
			return err
		}
		var acct string
		var credited int
		err := tx.QueryRowContext(ctx, `SELECT account, credits FROM panel_reseller_credits WHERE ref = ?`, ref).Scan(&acct, &credited)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		var done int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM panel_reseller_credits WHERE ref = ?`, "refund:"+ref).Scan(&done); err != nil || done > 0 {
			return err
		}
		// Only take-backs lower a balance: one of another order may run at once, so the update is
		// made only while the balance still covers it, and read again when it did not.
		for range 5 {
			var balance int
			if err := tx.QueryRowContext(ctx, `SELECT credits FROM panel_resellers WHERE account = ?`, acct).Scan(&balance); err != nil {
				return err
			}
			take := min(balance, credited)
			res, err := tx.ExecContext(ctx, `UPDATE panel_resellers SET credits = credits - ?, updated_at = ? WHERE account = ? AND credits >= ?`,
				take, fmtTime(at), acct, take)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				if err != nil {
					return err
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO panel_reseller_credits (ref, account, credits, created_at) VALUES (?, ?, ?, ?)`,
				"refund:"+ref, acct, -take, fmtTime(at)); err != nil {
				return err
			}
			taken, moved = take, true
			return nil
		}
		return fmt.Errorf("account %s: balance kept changing", acct)
	})
	if err != nil {
		return 0, false, fmt.Errorf("take back reseller credit %s: %w", ref, err)
	}
	return taken, moved, nil
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
