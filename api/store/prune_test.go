package store_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// pruneNow is the moved clock of the prune tests: years after the rows' real insertion time.
var pruneNow = time.Date(2031, 6, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) string { return pruneNow.Add(d).Format("2006-01-02T15:04:05.000000Z") }

// TestPruneRemovesExactlyWhatIsPastRetention fills every pruned table with a row just past its
// retention and one just within it, plus rows no retention applies to (orders, invoices, payment
// reviews, audit, unsent mail, dead jobs, sessions still valid), prunes at the moved clock, and
// checks that exactly the rows past retention went.
func TestPruneRemovesExactlyWhatIsPastRetention(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		s, err := store.OpenURL(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		r := store.DefaultRetention
		day := 24 * time.Hour
		past := func(keep time.Duration) string { return at(-keep - time.Second) }
		within := func(keep time.Duration) string { return at(-keep + time.Second) }
		exec := func(q string, args ...any) { t.Helper(); storetest.Exec(t, db, q, args...) }
		old := at(-5 * 365 * day)

		exec(`INSERT INTO clients (id, email, created_at) VALUES (1, 'a@example.com', ?)`, old)
		order := func(id string, key any, created string) {
			exec(`INSERT INTO orders (id, client_id, session_id, email, quote, total_amount, currency, status, ip, gateway,
				idempotency_key, request_hash, created_at, updated_at) VALUES (?, 1, 's', 'a@example.com', '{}', 100, 'EUR', 'active', '127.0.0.1', 'sandbox', ?, 'h', ?, ?)`,
				id, key, created, created)
			exec(`INSERT INTO invoices (id, order_id, client_id, amount, currency, status, gateway) VALUES (?, ?, 1, 100, 'EUR', 'paid', 'sandbox')`, "inv_"+id, id)
		}
		order("ord_past", "key-past", past(r.Idempotency))
		order("ord_within", "key-within", within(r.Idempotency))
		order("ord_nokey", nil, old)
		exec(`INSERT INTO payment_reviews (id, order_id, invoice_id, provider, transaction_id, amount, currency, reason, created_at)
			VALUES ('rev_1', 'ord_past', 'inv_ord_past', 'stripe', 'tx_1', 100, 'EUR', 'cancelled', ?)`, old)
		exec(`INSERT INTO audit_log (client_id, session_id, action, target, result, at) VALUES (1, 's', 'reset', 'svc_1', 'ok', ?)`, old)

		session := func(id, expires string) {
			exec(`INSERT INTO sessions (id, client_id, scope, created_at, expires_at) VALUES (?, 1, 'buyer', ?, ?)`, id, old, expires)
		}
		session("ses_past", past(r.Expired))
		session("ses_within", within(r.Expired))
		session("ses_valid", at(day)) // made long ago, still valid
		link := func(hash, expires string) {
			exec(`INSERT INTO signin_links (token_hash, client_id, created_at, expires_at) VALUES (?, 1, ?, ?)`, hash, old, expires)
		}
		link("link_past", past(r.Expired))
		link("link_within", within(r.Expired))

		click := func(aff, created string) {
			exec(`INSERT INTO affiliate_clicks (aff_id, ip, created_at) VALUES (?, '10.0.0.1', ?)`, aff, created)
		}
		click("past", past(r.Clicks))
		click("within", within(r.Clicks))

		mail := func(to, status, sent string) {
			exec(`INSERT INTO mail_outbox (to_addr, subject, body, status, created_at, sent_at) VALUES (?, 's', 'b', ?, ?, ?)`, to, status, old, sent)
		}
		mail("sent-past", "sent", past(r.SentMail))
		mail("sent-within", "sent", within(r.SentMail))
		mail("stored", "stored", "")
		mail("pending", "pending", "")
		mail("failed", "failed", "")

		job := func(key, state, updated string) {
			exec(`INSERT INTO jobs (kind, ref, unique_key, state, run_at, created_at, updated_at) VALUES ('k', ?, ?, ?, ?, ?, ?)`,
				key, key, state, old, old, updated)
		}
		job("done-past", store.JobDone, past(r.FinishedJobs))
		job("cancelled-past", store.JobCancelled, past(r.FinishedJobs))
		job("done-within", store.JobDone, within(r.FinishedJobs))
		job("dead-old", store.JobDead, old)
		job("queued-old", store.JobQueued, old)

		attempt := func(key, when string) {
			exec(`INSERT INTO auth_attempts (scope, key, at) VALUES ('password', ?, ?)`, key, when)
		}
		attempt("past", past(r.Attempts))
		attempt("within", within(r.Attempts))

		got, err := s.Prune(t.Context(), pruneNow, r)
		if err != nil {
			t.Fatal(err)
		}
		want := store.Pruned{IdempotencyKeys: 1, Sessions: 1, SigninLinks: 1, Clicks: 1, SentMail: 1, Jobs: 2, Attempts: 1}
		if got != want {
			t.Fatalf("pruned %+v, want %+v", got, want)
		}
		left := []struct {
			query string
			want  int
		}{
			{`SELECT COUNT(*) FROM orders`, 3},
			{`SELECT COUNT(*) FROM invoices`, 3},
			{`SELECT COUNT(*) FROM orders WHERE idempotency_key IS NULL AND id IN ('ord_past', 'ord_nokey')`, 2},
			{`SELECT COUNT(*) FROM orders WHERE idempotency_key = 'key-within'`, 1},
			{`SELECT COUNT(*) FROM payment_reviews`, 1},
			{`SELECT COUNT(*) FROM audit_log`, 1},
			{`SELECT COUNT(*) FROM sessions WHERE id IN ('ses_within', 'ses_valid')`, 2},
			{`SELECT COUNT(*) FROM sessions`, 2},
			{`SELECT COUNT(*) FROM signin_links WHERE token_hash = 'link_within'`, 1},
			{`SELECT COUNT(*) FROM signin_links`, 1},
			{`SELECT COUNT(*) FROM affiliate_clicks WHERE aff_id = 'within'`, 1},
			{`SELECT COUNT(*) FROM affiliate_clicks`, 1},
			{`SELECT COUNT(*) FROM mail_outbox WHERE to_addr <> 'sent-past'`, 4},
			{`SELECT COUNT(*) FROM mail_outbox`, 4},
			{`SELECT COUNT(*) FROM jobs WHERE ref IN ('done-within', 'dead-old', 'queued-old')`, 3},
			{`SELECT COUNT(*) FROM jobs`, 3},
			{`SELECT COUNT(*) FROM auth_attempts WHERE key = 'within'`, 1},
			{`SELECT COUNT(*) FROM auth_attempts`, 1},
		}
		for _, l := range left {
			if n := storetest.Count(t, db, l.query); n != l.want {
				t.Errorf("%s = %d, want %d", l.query, n, l.want)
			}
		}

		// A second prune at the same time finds nothing; a retention of 0 keeps that kind for ever.
		if again, err := s.Prune(t.Context(), pruneNow, r); err != nil || again != (store.Pruned{}) {
			t.Fatalf("second prune = %+v, %v; want nothing", again, err)
		}
		forever := r
		forever.Clicks = 0
		if p, err := s.Prune(t.Context(), pruneNow.Add(10*365*day), forever); err != nil || p.Clicks != 0 || p.Sessions != 2 {
			t.Fatalf("prune with clicks kept for ever = %+v, %v", p, err)
		}
	})
}

// TestPruneGoesInBatches prunes more rows than one statement touches.
func TestPruneGoesInBatches(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		s, err := store.OpenURL(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		const n = 2500
		storetest.Exec(t, db, `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
			INSERT INTO affiliate_clicks (aff_id, ip, created_at) SELECT 'aff', 'ip', ? FROM seq`, n, at(-500*24*time.Hour))
		p, err := s.Prune(t.Context(), pruneNow, store.DefaultRetention)
		if err != nil || p.Clicks != n {
			t.Fatalf("pruned %+v, %v; want %d clicks", p, err, n)
		}
	})
}
