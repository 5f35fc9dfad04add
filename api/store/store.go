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
	"time"

	"github.com/streamcart/streamcart/api/account"
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
	AfterSale

	// PendingInvoices lists unpaid invoices of gateways due before before (reconciliation).
	PendingInvoices(ctx context.Context, before time.Time, gateways []string, limit int) ([]string, error)
	WebhookByEvent(ctx context.Context, provider, eventID string) (payment.Webhook, error)
	CountWebhooks(ctx context.Context, provider string) (int, error)

	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	JobByKey(ctx context.Context, uniqueKey string) (JobInfo, error)
	JobCounts(ctx context.Context) (map[string]int, error)

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
}

func (q querier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return q.q.ExecContext(ctx, q.d.rebind(query), args...)
}

func (q querier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return q.q.QueryContext(ctx, q.d.rebind(query), args...)
}

func (q querier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return q.q.QueryRowContext(ctx, q.d.rebind(query), args...)
}

// maxTxAttempts bounds the reruns of a transaction the database aborted to keep it consistent.
const maxTxAttempts = 10

// db is the store both back ends share; SQLite and Postgres embed it.
type db struct {
	wdb, rdb *sql.DB
	w, r     querier // writes, reads (the same pool on PostgreSQL)
	d        *dialect
	now      func() time.Time
}

func newDB(w, r *sql.DB, d *dialect) *db {
	return &db{wdb: w, rdb: r, w: querier{w, d}, r: querier{r, d}, d: d, now: time.Now}
}

// Dialect names the back end.
func (s *db) Dialect() string { return s.d.name }

// Close closes the pools.
func (s *db) Close() error {
	if s.wdb == s.rdb {
		return s.wdb.Close()
	}
	return errors.Join(s.wdb.Close(), s.rdb.Close())
}

// Ping checks that the database answers (readiness).
func (s *db) Ping(ctx context.Context) error {
	return s.rdb.PingContext(ctx)
}

// tx runs fn in a write transaction, committing when it returns nil. On PostgreSQL a
// transaction aborted by a deadlock or serialization failure runs again, so fn must only
// depend on what it reads (every caller's does).
func (s *db) tx(ctx context.Context, fn func(querier) error) error {
	for attempt := 1; ; attempt++ {
		err := s.tx1(ctx, fn)
		if err == nil || attempt == maxTxAttempts || !s.d.retry(err) || ctx.Err() != nil {
			return err
		}
	}
}

func (s *db) tx1(ctx context.Context, fn func(querier) error) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(querier{tx, s.d}); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
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
