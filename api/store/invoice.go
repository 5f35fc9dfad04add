package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
)

// SetPaymentURL records where an invoice is paid. A transaction of its own, not a bare statement:
// the change moves the order's version too (migration 0028), whose row lock a concurrent cancel
// may hold, and a deadlock PostgreSQL breaks is then run again instead of failing.
func (s *db) SetPaymentURL(ctx context.Context, invoiceID, url string) error {
	err := s.tx(ctx, func(tx querier) error {
		_, err := tx.ExecContext(ctx, `UPDATE invoices SET payment_url = ? WHERE id = ?`, url, invoiceID)
		return err
	})
	if err != nil {
		return fmt.Errorf("set payment url: %w", err)
	}
	return nil
}

// SetPaymentLink moves an unpaid invoice and its pending order to another payment link: the
// gateway, the link and where it sends the buyer back. It reports false, changing nothing, when
// the invoice is no longer unpaid or the order no longer pending.
func (s *db) SetPaymentLink(ctx context.Context, o order.Order) (bool, error) {
	moved := false
	err := s.tx(ctx, func(tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE invoices SET gateway = ?, payment_url = ? WHERE id = ? AND status = ?`,
			o.Invoice.Gateway, o.Invoice.PaymentURL, o.Invoice.ID, string(order.InvoiceUnpaid))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE orders SET gateway = ?, return_url = ? WHERE id = ? AND status = ?`,
			o.Gateway, o.ReturnURL, o.ID, string(order.StatusPending))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if moved = n == 1; !moved {
			return errUnchanged
		}
		return nil
	})
	if errors.Is(err, errUnchanged) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("set payment link of %s: %w", o.Invoice.ID, err)
	}
	return moved, nil
}

// errUnchanged rolls a transaction back that found nothing to change.
var errUnchanged = errors.New("unchanged")

func (t *orderTx) SetInvoiceStatus(ctx context.Context, id string, to order.InvoiceStatus, txn string, at time.Time) (bool, error) {
	var orderID string
	err := t.tx.QueryRowContext(ctx, `SELECT order_id FROM invoices WHERE id = ?`, id).Scan(&orderID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("set invoice status: %w", err)
	}
	if err := t.d.lock(ctx, t.tx, orderLock(orderID)); err != nil {
		return false, fmt.Errorf("set invoice status: %w", err)
	}
	var txnArg any
	var paidAt string
	if to == order.InvoicePaid {
		txnArg, paidAt = txn, fmtTime(at)
		if err := t.d.lock(ctx, t.tx, "txn:"+txn); err != nil {
			return false, fmt.Errorf("set invoice status: %w", err)
		}
		var n int
		if err := t.tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM invoices WHERE transaction_id = ?`, txn).Scan(&n); err != nil {
			return false, fmt.Errorf("set invoice status: %w", err)
		}
		if n > 0 { // the same provider transaction never settles twice
			return false, nil
		}
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE invoices SET status = ?, transaction_id = COALESCE(?, transaction_id), paid_at = ?
		WHERE id = ? AND status = 'unpaid'`, string(to), txnArg, paidAt, id)
	if err != nil {
		return false, fmt.Errorf("set invoice status: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
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

// PutRef records what an outside system calls one of ours (scope names the system and kind).
// A transaction of its own: a payment seen (scope payment:processing) moves its order's version
// too, under the order's row lock (see SetPaymentURL).
func (s *db) PutRef(ctx context.Context, scope, key, ref string) error {
	err := s.tx(ctx, func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO external_refs (scope, key, ref, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (scope, key) DO UPDATE SET ref = excluded.ref`, scope, key, ref, fmtTime(s.now()))
		return err
	})
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

// ReopenHeld moves a held order to pending and its cancelled invoice to unpaid with o.Invoice's
// deadline and payment link, under the order's lock; false, changing nothing, when it is not held.
func (t *orderTx) ReopenHeld(ctx context.Context, o order.Order) (bool, error) {
	moved, err := setOrderStatus(ctx, t.tx, t.now(), o.ID, order.StatusPending, order.StatusFraud)
	if err != nil || !moved {
		return false, err
	}
	_, err = t.tx.ExecContext(ctx, `UPDATE invoices SET status = 'unpaid', deadline = ?, payment_url = ? WHERE id = ? AND status = 'cancelled'`,
		fmtTime(o.Invoice.Deadline), o.Invoice.PaymentURL, o.Invoice.ID)
	if err != nil {
		return false, fmt.Errorf("reopen held %s: %w", o.ID, err)
	}
	return true, nil
}
