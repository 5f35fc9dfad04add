package store

import (
	"context"
	"fmt"
	"time"
)

// Retention is how long the daily prune keeps each kind of short-lived row. Only rows nothing
// needs once their time is over are ever pruned: orders, invoices, services, payment reviews,
// the audit log, unsent mail, dead jobs and sessions still valid are kept whatever their age.
type Retention struct {
	// Idempotency keeps an order's Idempotency-Key this long after the order was placed; then the
	// key is forgotten (the order stays) and the same key places a new order.
	Idempotency time.Duration
	// Expired keeps sessions and sign-in links this long past their expiry.
	Expired time.Duration
	// Clicks keeps affiliate clicks this long (the affiliate report counts what is left).
	Clicks time.Duration
	// SentMail keeps mail this long after it was sent; mail not sent (stored, pending, failed) stays.
	SentMail time.Duration
	// FinishedJobs keeps done and cancelled jobs this long after they finished; dead jobs stay
	// until an operator retries or cancels them.
	FinishedJobs time.Duration
	// Attempts keeps sign-in attempts this long: the throttle's window, beyond which no counter
	// looks.
	Attempts time.Duration
}

// DefaultRetention is the retention of a shop that sets none (docs/operations.md).
var DefaultRetention = Retention{
	Idempotency:  7 * 24 * time.Hour,
	Expired:      24 * time.Hour,
	Clicks:       400 * 24 * time.Hour,
	SentMail:     90 * 24 * time.Hour,
	FinishedJobs: 30 * 24 * time.Hour,
	Attempts:     15 * time.Minute,
}

// Pruned counts the rows one prune removed (or, for idempotency keys, cleared), by kind.
type Pruned struct {
	IdempotencyKeys, Sessions, SigninLinks, Clicks, SentMail, Jobs, Attempts int64
}

// Pruner removes rows past their retention.
type Pruner interface {
	Prune(ctx context.Context, now time.Time, r Retention) (Pruned, error)
}

// pruneBatch bounds the rows one statement touches: on SQLite a statement holds the only
// writer, so a year of clicks goes in many short writes between the shop's own.
const pruneBatch = 1000

// Prune removes what r no longer keeps at now. A zero duration in r keeps that kind for ever.
func (s *db) Prune(ctx context.Context, now time.Time, r Retention) (Pruned, error) {
	var p Pruned
	steps := []struct {
		name string
		keep time.Duration
		n    *int64
		// query changes at most pruneBatch rows (its second argument) older than its first, the cutoff.
		query string
	}{
		{"idempotency keys", r.Idempotency, &p.IdempotencyKeys, `UPDATE orders SET idempotency_key = NULL
			WHERE id IN (SELECT id FROM orders WHERE idempotency_key IS NOT NULL AND created_at < ? LIMIT ?)`},
		{"sessions", r.Expired, &p.Sessions, `DELETE FROM sessions
			WHERE id IN (SELECT id FROM sessions WHERE expires_at < ? LIMIT ?)`},
		{"sign-in links", r.Expired, &p.SigninLinks, `DELETE FROM signin_links
			WHERE token_hash IN (SELECT token_hash FROM signin_links WHERE expires_at < ? LIMIT ?)`},
		{"affiliate clicks", r.Clicks, &p.Clicks, `DELETE FROM affiliate_clicks
			WHERE id IN (SELECT id FROM affiliate_clicks WHERE created_at < ? LIMIT ?)`},
		{"sent mail", r.SentMail, &p.SentMail, `DELETE FROM mail_outbox
			WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'sent' AND sent_at <> '' AND sent_at < ? LIMIT ?)`},
		{"finished jobs", r.FinishedJobs, &p.Jobs, `DELETE FROM jobs
			WHERE id IN (SELECT id FROM jobs WHERE state IN ('done', 'cancelled') AND updated_at < ? LIMIT ?)`},
		{"sign-in attempts", r.Attempts, &p.Attempts, `DELETE FROM auth_attempts
			WHERE id IN (SELECT id FROM auth_attempts WHERE at < ? LIMIT ?)`},
	}
	for _, st := range steps {
		if st.keep <= 0 {
			continue
		}
		cutoff := fmtTime(now.Add(-st.keep))
		for {
			res, err := s.w.ExecContext(ctx, st.query, cutoff, pruneBatch)
			if err != nil {
				return p, fmt.Errorf("prune %s: %w", st.name, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return p, fmt.Errorf("prune %s: %w", st.name, err)
			}
			*st.n += n
			if n < pruneBatch {
				break
			}
		}
	}
	return p, nil
}
