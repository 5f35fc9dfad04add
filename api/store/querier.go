package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
)

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
	// txStmts, when set, keeps tx's own statements of st's, so the members of a group commit
	// (which share tx) make each once per group, not once per member and statement.
	txStmts map[*sql.Stmt]*sql.Stmt
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
	if q.txStmts == nil {
		return q.tx.StmtContext(ctx, st)
	}
	ts, ok := q.txStmts[st]
	if !ok {
		ts = q.tx.StmtContext(ctx, st)
		q.txStmts[st] = ts
	}
	return ts
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
