package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SQLite is the SQLite-backed store. Writes go through one connection so that a
// check-then-insert inside a transaction is atomic; reads use a pool.
type SQLite struct {
	*db
	dsn string // ListenOrders opens a connection of its own on it
}

// sqliteReaders is the size of the reader pool.
const sqliteReaders = 8

// Open opens (creating if needed) the database file and applies pending migrations.
func Open(ctx context.Context, path string) (*SQLite, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	q := url.Values{}
	// wal_autocheckpoint: the writer copies the WAL back into the database every 8,000 pages
	// (about 32 MB) instead of SQLite's 1,000. An order rewrites the same few b-tree pages, and
	// a checkpoint copies each page once however often it changed, so checkpointing less often
	// cuts the work the single writer does in its commits (measured in docs/benchmarks.md).
	// temp_store(MEMORY): the statement journal of each group commit member's savepoint (see
	// groupCommit) stays in memory instead of spilling to a temporary file past 64 KB.
	for _, p := range []string{"journal_mode(WAL)", "synchronous(NORMAL)", "busy_timeout(10000)", "foreign_keys(ON)",
		"wal_autocheckpoint(8000)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	w.SetMaxOpenConns(1) // one writer: serialises writers, BEGIN IMMEDIATE
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	// Every reader connection stays open once made: with database/sql's default of two idle
	// ones, more concurrent reads than two closed a connection after each burst and opened
	// another (its pragmas run again, its prepared statements lost): ~14 % of the CPU of an
	// order under 16 clients (docs/benchmarks.md, issue 24).
	r.SetMaxOpenConns(sqliteReaders)
	r.SetMaxIdleConns(sqliteReaders)
	s := &SQLite{db: newDB(w, r, &sqliteDialect, true), dsn: dsn}
	s.group = newGroupCommit(w, s.d, s.w.st)
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}
