package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// step is one statement of a pipeline: statements whose results nothing in between depends on
// are sent to PostgreSQL together, in one round trip, and run there one after the other, each
// with a snapshot of its own (READ COMMITTED), exactly as if sent one by one. On SQLite, which
// has no round trips, a pipeline simply runs its steps in order.
type step struct {
	query string
	args  []any
	// row, when set, reads the statement's one row; sql.ErrNoRows when it has none.
	row func(rowScanner) error
	// write marks an INSERT queued by later: nothing reads its result, and it reads nothing a
	// write queued with it changes, so adjacent ones may run as one statement (mergeWrites).
	write bool
	// bound marks a query already in the back end's placeholders (mergeWrites' own).
	bound bool
}

// rowScanner is a result row of either back end.
type rowScanner interface {
	Scan(dest ...any) error
}

// pipeline runs steps in order and returns the first error.
func (q querier) pipeline(ctx context.Context, steps ...step) error {
	if q.p != nil {
		return q.p.send(ctx, steps)
	}
	for _, st := range steps {
		if st.row != nil {
			if err := st.row(q.QueryRowContext(ctx, st.query, st.args...)); err != nil {
				return err
			}
			continue
		}
		if _, err := q.ExecContext(ctx, st.query, st.args...); err != nil {
			return err
		}
	}
	return nil
}

// later runs a write whose result nothing reads: on PostgreSQL it goes with the transaction's
// next round trip (its error, if any, fails that one and the transaction), elsewhere at once.
func (q querier) later(ctx context.Context, query string, args ...any) error {
	if q.p != nil {
		q.p.pending = append(q.p.pending, step{query: query, args: args, write: true})
		return nil
	}
	_, err := q.ExecContext(ctx, query, args...)
	return err
}

// lockSteps is the step taking the dialect's locks on keys, in their order, or none where
// writers never overlap. One statement takes them all: the reads that depend on them must be
// statements of their own, after it.
func (d *dialect) lockSteps(keys ...string) []step {
	if d.lockExpr == "" || len(keys) == 0 {
		return nil
	}
	exprs := make([]string, len(keys))
	args := make([]any, len(keys))
	for i, k := range keys {
		exprs[i], args[i] = d.lockExpr, k
	}
	return []step{{query: `SELECT ` + strings.Join(exprs, ", "), args: args}}
}

// pipe is a PostgreSQL transaction on one connection that sends its statements in pipelines:
// BEGIN goes with the first statement, deferred writes (later) with the next round trip, and
// COMMIT with the last writes. Statements run through database/sql on the same connection
// first send what is pending.
type pipe struct {
	conn    *sql.Conn
	d       *dialect
	pending []step
	began   bool
	// err is the first error of any statement: the transaction is aborted, and ends in it.
	err error
	// guarded marks a guarded transaction's writes being gathered (WithGuardedTx): nothing may
	// be sent before its one round trip.
	guarded bool
}

// send runs the pending steps, then steps, in one round trip.
func (p *pipe) send(ctx context.Context, steps []step) error {
	if p.guarded {
		p.err = errGuardedRead
	}
	if p.err != nil {
		return p.err
	}
	all := p.pending
	if len(steps) > 0 {
		all = append(all, steps...)
	}
	p.pending = nil
	if len(all) == 0 {
		return nil
	}
	p.began = true
	all = mergeWrites(all, p.d.rebind)
	if f := pipeSent.Load(); f != nil {
		(*f)(len(all))
	}
	err := p.conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: pipeline on a %T connection", dc)
		}
		b := &pgx.Batch{}
		for _, st := range all {
			q := st.query
			if !st.bound {
				q = p.d.rebind(q)
			}
			b.Queue(q, st.args...)
		}
		br := c.Conn().SendBatch(ctx, b)
		var first error
		for _, st := range all {
			var err error
			if st.row != nil {
				err = st.row(pgRow{br.QueryRow()})
			} else {
				var tag pgconn.CommandTag
				tag, err = br.Exec()
				// COMMIT of a transaction an earlier statement aborted answers ROLLBACK, no error.
				if err == nil && st.query == `COMMIT` && tag.String() == "ROLLBACK" {
					err = pgx.ErrTxCommitRollback
				}
			}
			if err != nil && first == nil {
				first = err
			}
		}
		return errors.Join(first, br.Close())
	})
	if err != nil {
		p.err = err
	}
	return err
}

// mergeWrites joins each run of adjacent writes into one statement, `WITH w1 AS (INSERT …),
// w2 AS (INSERT …) INSERT …`, in rebind's placeholders: PostgreSQL starts, plans and answers one
// statement instead of several (an order's four rows: one instead of four). The rows are the
// same; foreign keys between them hold, being checked when the whole statement ends. A run's
// text is made once per sequence of query texts (mergedText).
func mergeWrites(steps []step, rebind func(string) string) []step {
	out := steps[:0:0]
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j].write {
			j++
		}
		if j-i < 2 {
			out = append(out, steps[i])
			i++
			continue
		}
		n := 0
		for _, st := range steps[i:j] {
			n += len(st.args)
		}
		args := make([]any, 0, n)
		for _, st := range steps[i:j] {
			args = append(args, st.args...)
		}
		out = append(out, step{query: mergedText(steps[i:j], rebind), args: args, bound: true})
		i = j
	}
	return out
}

// mergedKey names a run of writes by where their query texts are: the texts are the store's
// constants, so a run of the same writes finds its text without reading them. The key holds the
// texts' pointers, so no other text can take their place while it is kept.
type mergedKey [maxMergedRun]struct {
	p *byte
	n int
}

// maxMergedRun is the longest run whose text is kept (an order's: order, invoice, hold, a few
// services, trial, job); a longer one is made each time. maxMergedTexts bounds how many are kept
// (texts made per call, if any ever run merged, would otherwise grow it).
const (
	maxMergedRun   = 12
	maxMergedTexts = 256
)

var (
	mergedTexts   sync.Map // mergedKey → string
	mergedEntries atomic.Int32
)

// mergedText is the statement of a run of writes, in rebind's placeholders.
func mergedText(run []step, rebind func(string) string) string {
	var key mergedKey
	keep := len(run) <= maxMergedRun
	if keep {
		for k, st := range run {
			key[k].p, key[k].n = unsafe.StringData(st.query), len(st.query)
		}
		if v, ok := mergedTexts.Load(key); ok {
			return v.(string)
		}
	}
	var q strings.Builder
	for k, st := range run {
		switch {
		case k == 0:
			q.WriteString("WITH ")
		case k < len(run)-1:
			q.WriteString(", ")
		}
		if k < len(run)-1 {
			fmt.Fprintf(&q, "w%d AS (%s)", k+1, st.query)
		} else {
			q.WriteString(" " + st.query)
		}
	}
	text := rebind(q.String())
	if keep && mergedEntries.Load() < maxMergedTexts {
		if _, loaded := mergedTexts.LoadOrStore(key, text); !loaded {
			mergedEntries.Add(1)
		}
	}
	return text
}

// pipeSent, when set (by a test), is told the number of statements of each round trip.
var pipeSent atomic.Pointer[func(statements int)]

// flush sends what is pending, before a statement that does not go through a pipeline.
func (p *pipe) flush(ctx context.Context) error { return p.send(ctx, nil) }

// commit sends the pending writes and COMMIT in one round trip.
func (p *pipe) commit(ctx context.Context) error {
	if !p.began && len(p.pending) == 1 { // BEGIN alone: nothing ran, nothing to commit
		p.pending = nil
		return nil
	}
	return p.send(ctx, []step{{query: `COMMIT`}})
}

// rollback ends a transaction that began. Should it fail, the pool drops the connection when it
// comes back (pgx's session reset refuses one still in a transaction).
func (p *pipe) rollback(ctx context.Context) {
	if p.began {
		p.conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	}
}

// pgRow reports a missing row as database/sql does, so scanning code serves both back ends.
type pgRow struct{ pgx.Row }

func (r pgRow) Scan(dest ...any) error {
	err := r.Row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return sql.ErrNoRows
	}
	return err
}

// pipeTx runs fn in a pipelined transaction (PostgreSQL).
func (s *db) pipeTx(ctx context.Context, fn func(querier) error) error {
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	p := &pipe{conn: conn, d: s.d, pending: []step{{query: `BEGIN`}}}
	// fn's own error comes first: it may have turned a failed statement into a domain error. A
	// statement error fn did not return still fails the transaction (commit returns it).
	if err := fn(querier{q: conn, d: s.d, p: p}); err != nil {
		p.rollback(ctx)
		return err
	}
	if err := p.commit(ctx); err != nil {
		p.rollback(ctx)
		return err
	}
	return nil
}
