package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

//go:embed migrations/*.sql
var migrations embed.FS

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
	// creditWrites counts the writes to the built-in panel's balance made through this store
	// (PanelCreditWrites).
	creditWrites atomic.Uint64
	// guard keeps what the guarded order statements are made of (WithGuardedTx).
	guard guards
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

// foreignKeysOff, a line of a migration's SQLite section, applies it with SQLite's foreign keys
// off (migrateForeignKeysOff): what rebuilds a table that other tables refer to.
const foreignKeysOff = "-- streamcart: foreign keys off"

// migrateForeignKeysOff applies a SQLite migration that rebuilds a table others refer to, the
// way SQLite documents it (https://www.sqlite.org/lang_altertable.html#otheralter): foreign
// keys are switched off on the writer connection (only possible outside a transaction), the
// migration runs in one transaction, PRAGMA foreign_key_check must then find nothing dangling,
// and the keys are switched on again before the connection goes back to the pool.
func (s *db) migrateForeignKeysOff(ctx context.Context, version int, base, ddl string) (err error) {
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return err
	}
	defer func() {
		if _, onErr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`); onErr != nil {
			err = errors.Join(err, onErr, conn.Raw(func(any) error { return driver.ErrBadConn }))
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil || n > 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("%s: %w", base, err)
	}
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("%s: %w", base, err)
	}
	dangling := rows.Next()
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("%s: %w", base, err)
	}
	if dangling {
		return fmt.Errorf("%s: foreign key check failed after the migration", base)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, fmtTime(s.now())); err != nil {
		return err
	}
	return tx.Commit()
}

// appliedMigrations are the versions schema_migrations records.
func (s *db) appliedMigrations(ctx context.Context) (map[int]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		applied[v] = true
	}
	return applied, rows.Err()
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
	// The versions already recorded are skipped without a transaction of their own: a start on
	// a migrated database (every start but the first, each replica's, each test's copy of a
	// migrated template) read them in one query instead of a locked transaction per migration.
	// Versions are only ever added, so one recorded now stays recorded; one not recorded yet is
	// checked again under the lock below, as another replica may be applying it.
	applied, err := s.appliedMigrations(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, name := range names {
		base := filepath.Base(name)
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migrate: bad file name %s", base)
		}
		if applied[version] {
			continue
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		ddl, err := s.d.expandDDL(base, string(body))
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if s.group != nil && strings.Contains(ddl, foreignKeysOff) {
			err = s.migrateForeignKeysOff(ctx, version, base, ddl)
		} else {
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
				if _, err := tx.ExecContext(ctx, ddl); err != nil {
					return fmt.Errorf("%s: %w", base, err)
				}
				_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, fmtTime(s.now()))
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}
