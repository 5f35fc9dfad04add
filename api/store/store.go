// Package store keeps Streamcart's state in SQLite (the embedded default, one file) or in
// PostgreSQL (several replicas on one database). Both back ends share every query and every
// migration; a dialect (dialect.go) holds the few differences, and one conformance suite runs
// against both.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/provision"
)

//go:embed migrations/*.sql
var migrations embed.FS

// timeFormat is how every timestamp is stored: sortable text, UTC, fixed width.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeFormat, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// Backend is everything the shop needs from its database; *SQLite and *Postgres both are one.
type Backend interface {
	order.Store
	account.Store
	job.Store
	panel.LineStore
	provision.Store
	payment.Inbox
	payment.Refs
	payment.Quotes
	AfterSale
	Cards
	Operators
	console.Store
	console.ActionStore

	// RevokedSince lists the sessions signed out at or after since (api/sessioncache polls it).
	RevokedSince(ctx context.Context, since time.Time) ([]string, error)
	// PendingInvoices lists unpaid invoices of gateways due before before (reconciliation).
	PendingInvoices(ctx context.Context, before time.Time, gateways []string, limit int) ([]string, error)
	WebhookByEvent(ctx context.Context, provider, eventID string) (payment.Webhook, error)
	CountWebhooks(ctx context.Context, provider string) (int, error)
	// Reviews lists the payments under review, newest first (streamcart payments review).
	Reviews(ctx context.Context, limit int) ([]order.Review, error)

	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	JobByKey(ctx context.Context, uniqueKey string) (JobInfo, error)
	JobCounts(ctx context.Context) (map[string]int, error)
	Jobs
	Pruner

	Setting(ctx context.Context, key string) ([]byte, error)
	PutSetting(ctx context.Context, key string, value []byte) error
	SettingOnce(ctx context.Context, key string, value []byte) ([]byte, error)

	// Dialect names the back end: "sqlite" or "postgres".
	Dialect() string
	Migrate(ctx context.Context) error
	Ping(ctx context.Context) error
	Close() error
}

var (
	_ Backend = (*SQLite)(nil)
	_ Backend = (*Postgres)(nil)
)

// OpenURL opens the back end db names: a postgres:// (or postgresql://) URL opens PostgreSQL,
// anything else is the path of a SQLite file. Pending migrations are applied either way.
func OpenURL(ctx context.Context, db string) (Backend, error) {
	if IsPostgresURL(db) {
		return OpenPostgres(ctx, db)
	}
	return Open(ctx, db)
}

// IsPostgresURL reports whether db names a PostgreSQL database rather than a SQLite file.
func IsPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// rawQuerier is what both a pool and a transaction offer.
type rawQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// querier runs the shared queries (written with ? placeholders) in the back end's dialect.
type querier struct {
	q rawQuerier
	d *dialect
	// st, when set, keeps the prepared statements of q's pool, so a query is parsed once per
	// connection instead of on every call (SQLite; pgx caches its own). tx is set when q is a
	// transaction of that pool.
	st *stmtCache
	tx *sql.Tx
	// detached runs statements without the caller's cancellation (a member of a group commit:
	// see groupCommit).
	detached bool
	// p, when set, is the pipelined PostgreSQL transaction q belongs to (see pipe); what it
	// holds back is sent before any statement q runs itself.
	p *pipe
}

func (q querier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = q.context(ctx)
	if q.p != nil {
		if err := q.p.flush(ctx); err != nil {
			return nil, err
		}
	}
	query = q.d.rebind(query)
	if st := q.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return q.q.ExecContext(ctx, query, args...)
}

func (q querier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = q.context(ctx)
	if q.p != nil {
		if err := q.p.flush(ctx); err != nil {
			return nil, err
		}
	}
	query = q.d.rebind(query)
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return q.q.QueryContext(ctx, query, args...)
}

func (q querier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = q.context(ctx)
	if q.p != nil {
		if err := q.p.flush(ctx); err != nil {
			// No statement may run outside the transaction: a row of a cancelled context
			// fails its Scan without running, and the transaction ends in the pipe's error.
			dead, cancel := context.WithCancel(ctx)
			cancel()
			return q.q.QueryRowContext(dead, query, args...)
		}
	}
	query = q.d.rebind(query)
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return q.q.QueryRowContext(ctx, query, args...)
}

func (q querier) context(ctx context.Context) context.Context {
	if q.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// stmt is the prepared statement for query, nil to run it unprepared.
func (q querier) stmt(ctx context.Context, query string) *sql.Stmt {
	if q.st == nil {
		return nil
	}
	if q.tx == nil {
		return q.st.get(ctx, query)
	}
	st := q.st.lookup(query)
	if st == nil {
		// Preparing on the pool now could wait for the very connection this transaction
		// holds (SQLite has one writer): note the query, prepared once the transaction ends.
		q.st.miss(query)
		return nil
	}
	return q.tx.StmtContext(ctx, st)
}

// maxStmts bounds the cache; the queries are a fixed set of strings, far fewer.
const maxStmts = 256

// stmtCache holds one prepared statement per query text for one pool. database/sql prepares
// it on each connection the first time it runs there and reuses it afterwards.
type stmtCache struct {
	db      *sql.DB
	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// cacheable leaves out the migrations' scripts (several statements, run once) and anything
// that is not a plain statement.
func cacheable(query string) bool {
	q := strings.TrimLeft(query, " \t\n")
	for _, verb := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "WITH"} {
		if len(q) >= len(verb) && strings.EqualFold(q[:len(verb)], verb) {
			return !strings.Contains(strings.TrimRight(q, " \t\n;"), ";")
		}
	}
	return false
}

// get returns query's statement, preparing it on the pool first; nil when it cannot be cached.
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	if st := c.lookup(query); st != nil {
		return st
	}
	if !cacheable(query) {
		return nil
	}
	c.mu.Lock()
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if full {
		return nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil // run unprepared: the error, if any, surfaces from the query itself
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.m[query]; ok {
		st.Close()
		return prev
	}
	c.m[query] = st
	delete(c.pending, query)
	return st
}

func (c *stmtCache) miss(query string) {
	if !cacheable(query) {
		return
	}
	c.mu.Lock()
	c.pending[query] = true
	c.mu.Unlock()
}

// preparePending prepares the queries transactions ran unprepared; called with no connection held.
func (c *stmtCache) preparePending(ctx context.Context) {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	queries := make([]string, 0, len(c.pending))
	for q := range c.pending {
		queries = append(queries, q)
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, q := range queries {
		c.get(ctx, q)
	}
}

func (c *stmtCache) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, st := range c.m {
		errs = append(errs, st.Close())
	}
	clear(c.m)
	return errors.Join(errs...)
}

// maxTxAttempts bounds the reruns of a transaction the database aborted to keep it consistent.
const maxTxAttempts = 10

// db is the store both back ends share; SQLite and Postgres embed it.
type db struct {
	wdb, rdb *sql.DB
	w, r     querier // writes, reads (the same pool on PostgreSQL)
	d        *dialect
	now      func() time.Time
	// group, on SQLite, runs the write transactions (see groupCommit).
	group *groupCommit
}

// newDB wires the pools; prepare keeps prepared statements per pool (SQLite: its driver parses
// a query on every call otherwise).
func newDB(w, r *sql.DB, d *dialect, prepare bool) *db {
	s := &db{wdb: w, rdb: r, w: querier{q: w, d: d}, r: querier{q: r, d: d}, d: d, now: time.Now}
	if prepare {
		s.w.st, s.r.st = newStmtCache(w), newStmtCache(r)
	}
	return s
}

// Dialect names the back end.
func (s *db) Dialect() string { return s.d.name }

// Close closes the pools.
func (s *db) Close() error {
	if s.group != nil {
		s.group.close()
	}
	stErr := errors.Join(s.w.st.close(), s.r.st.close())
	if s.wdb == s.rdb {
		return errors.Join(stErr, s.wdb.Close())
	}
	return errors.Join(stErr, s.wdb.Close(), s.rdb.Close())
}

// Ping checks that the database answers (readiness).
func (s *db) Ping(ctx context.Context) error {
	return s.rdb.PingContext(ctx)
}

// tx runs fn in a write transaction, committing when it returns nil. On PostgreSQL a
// transaction aborted by a deadlock or serialization failure runs again, and on SQLite fn runs
// as a member of a group commit (group.go), which runs it again alone if its group fails; so fn
// must only depend on what it reads (every caller's does) and use only the querier it is given.
func (s *db) tx(ctx context.Context, fn func(querier) error) error {
	if s.group != nil {
		return s.group.do(ctx, fn)
	}
	for attempt := 1; ; attempt++ {
		err := s.pipeTx(ctx, fn)
		if err == nil || attempt == maxTxAttempts || !s.d.retry(err) || ctx.Err() != nil {
			return err
		}
	}
}

// Migrate applies the embedded migrations not yet recorded, each in its own transaction. A
// lock makes replicas starting together apply each migration once.
func (s *db) Migrate(ctx context.Context) error {
	err := s.tx(ctx, func(tx querier) error {
		if err := s.d.lock(ctx, tx, "streamcart:migrate"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		base := filepath.Base(name)
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migrate: bad file name %s", base)
		}
		err = s.tx(ctx, func(tx querier) error {
			if err := s.d.lock(ctx, tx, "streamcart:migrate"); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			body, err := migrations.ReadFile(name)
			if err != nil {
				return err
			}
			ddl, err := s.d.expandDDL(base, string(body))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, ddl); err != nil {
				return fmt.Errorf("%s: %w", base, err)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, fmtTime(s.now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

// Setting reads a setting; ErrNotFound when absent.
func (s *db) Setting(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}

// PutSetting writes a setting.
func (s *db) PutSetting(ctx context.Context, key string, value []byte) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, fmtTime(s.now()))
	if err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}

// SettingOnce stores value under key unless one is there already, and returns the stored value.
// Two processes starting at once agree on one value (the signing key, for instance): the losing
// insert waits for the winner's commit, and the read that follows sees it.
func (s *db) SettingOnce(ctx context.Context, key string, value []byte) ([]byte, error) {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		key, value, fmtTime(s.now())); err != nil {
		return nil, fmt.Errorf("write setting %s: %w", key, err)
	}
	var v []byte
	if err := s.w.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v); err != nil {
		return nil, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}
