package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Postgres is the PostgreSQL-backed store, for several replicas sharing one database. It runs
// the same queries as SQLite through pgx's database/sql driver (which caches prepared
// statements per connection). Writers of one key are serialised by advisory locks taken inside
// their transaction (see dialect.lock), job claims skip rows another replica has locked.
type Postgres struct {
	*db
	cfg *pgx.ConnConfig // ListenOrders connects with it, outside the pool
}

// defaultPoolSize is the connection pool size unless the URL sets pool_max_conns.
func defaultPoolSize() int { return max(16, 4*runtime.GOMAXPROCS(0)) }

// OpenPostgres connects to the database at rawURL (postgres://user@host:port/db?…) and applies
// pending migrations. The URL may set pool_max_conns (the pool size, as in pgxpool) besides
// any libpq parameter pgx understands.
func OpenPostgres(ctx context.Context, rawURL string) (*Postgres, error) {
	size := defaultPoolSize()
	if u, err := url.Parse(rawURL); err == nil {
		q := u.Query()
		if v := q.Get("pool_max_conns"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("open postgres: pool_max_conns %q: want a positive integer", v)
			}
			size = n
			// pgx would send an unknown parameter to the server as a setting.
			q.Del("pool_max_conns")
			u.RawQuery = q.Encode()
			rawURL = u.String()
		}
	}
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	pool := stdlib.OpenDB(*cfg)
	pool.SetMaxOpenConns(size)
	pool.SetMaxIdleConns(size)
	err = pool.PingContext(ctx)
	if isMissingDatabase(err) {
		// First start on a fresh server: make the database, as migrations make the tables.
		err = createDatabase(ctx, *cfg)
		if err == nil {
			err = pool.PingContext(ctx)
		}
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres %s@%s:%d/%s: %w", cfg.User, cfg.Host, cfg.Port, cfg.Database, err)
	}
	s := &Postgres{db: newDB(pool, pool, &postgresDialect, false), cfg: cfg}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func isMissingDatabase(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "3D000" // invalid_catalog_name
}

// createDatabase creates cfg's database through the server's maintenance database (postgres),
// with cfg's user as its owner. Another replica creating it at the same moment is no error.
func createDatabase(ctx context.Context, cfg pgx.ConnConfig) error {
	name := cfg.Database
	cfg.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, &cfg)
	if err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database
		err = nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}
