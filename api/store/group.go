package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// groupCommit runs SQLite's write transactions in groups (group commit). SQLite has one writer,
// so concurrent transactions queue for it anyway, and each commit writes the changed pages to the
// WAL again; most of an order's time was that commit. One goroutine takes every transaction
// queued at the moment the writer is free and runs them, one after the other, inside one
// BEGIN IMMEDIATE … COMMIT, each under a SAVEPOINT of its own:
//
//   - a member whose fn fails is rolled back to its savepoint alone and gets its own error;
//   - a member succeeds only when the shared COMMIT does: callers are answered after it, so what
//     a caller was told is committed is committed, exactly as with a transaction of its own;
//   - members run serially, each seeing the writes of those before it, so the outcome is that of
//     running the transactions one by one in queue order;
//   - if the group as a whole cannot go on (a savepoint statement or the commit fails, for
//     instance after SQLite rolled the whole transaction back on an I/O error), every member
//     not yet answered runs again in a transaction of its own (fn depends only on what it reads,
//     as the PostgreSQL retry already requires).
//
// Members' statements run detached from their caller's cancellation: the SQLite driver answers a
// cancelled context by interrupting the connection, which would roll back the whole group. A
// caller whose context ends while still queued is dropped and gets the context's error; once
// its fn has started, it waits for the group's outcome.
type groupCommit struct {
	db    *sql.DB
	d     *dialect
	st    *stmtCache
	queue chan *groupTx
	stop  chan struct{} // closed by close: no new members, the loop exits
	done  chan struct{} // closed when the loop has exited
	once  sync.Once
	// savepoint, rollbackTo and release are the members' statements, prepared once on the
	// writer connection (nil: run unprepared, parsed each time).
	savepoint, rollbackTo, release *sql.Stmt
}

// maxGroup bounds one group: its members wait for the slowest, and a failed group reruns them.
const maxGroup = 64

// Member states: a queued member is taken by the loop or abandoned by its caller, never both.
const (
	memberQueued int32 = iota
	memberTaken
	memberAbandoned
)

// groupTx is one caller's transaction.
type groupTx struct {
	ctx      context.Context
	fn       func(querier) error
	state    atomic.Int32
	err      error
	panicked bool
	panicVal any
	answered chan struct{}
}

// errStoreClosed answers transactions submitted to a closed store.
var errStoreClosed = errors.New("store: closed")

func newGroupCommit(db *sql.DB, d *dialect, st *stmtCache) *groupCommit {
	g := &groupCommit{db: db, d: d, st: st, queue: make(chan *groupTx, 4*maxGroup), stop: make(chan struct{}), done: make(chan struct{})}
	g.savepoint, g.rollbackTo, g.release = g.prepare(`SAVEPOINT member`), g.prepare(`ROLLBACK TO member`), g.prepare(`RELEASE member`)
	go g.loop()
	return g
}

// prepare prepares query on the writer, nil if it cannot (the statement then runs unprepared).
func (g *groupCommit) prepare(query string) *sql.Stmt {
	st, err := g.db.Prepare(query)
	if err != nil {
		return nil
	}
	return st
}

// exec runs a member statement in tx, prepared when it could be.
func exec(tx *sql.Tx, st *sql.Stmt, query string) error {
	var err error
	if st != nil {
		_, err = tx.Stmt(st).Exec()
	} else {
		_, err = tx.Exec(query)
	}
	return err
}

// close stops taking transactions; the group running finishes first.
func (g *groupCommit) close() {
	g.once.Do(func() { close(g.stop) })
	<-g.done
	for _, st := range []*sql.Stmt{g.savepoint, g.rollbackTo, g.release} {
		if st != nil {
			st.Close()
		}
	}
}

// do runs fn as one member of a group and returns its outcome once the group has committed.
func (g *groupCommit) do(ctx context.Context, fn func(querier) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m := &groupTx{ctx: ctx, fn: fn, answered: make(chan struct{})}
	select {
	case g.queue <- m:
	case <-ctx.Done():
		return ctx.Err()
	case <-g.stop:
		return errStoreClosed
	}
	select {
	case <-m.answered:
	case <-ctx.Done():
		if m.state.CompareAndSwap(memberQueued, memberAbandoned) {
			return ctx.Err()
		}
		<-m.answered
	case <-g.done:
		if m.state.CompareAndSwap(memberQueued, memberAbandoned) {
			return errStoreClosed
		}
		<-m.answered
	}
	if m.panicked {
		panic(m.panicVal)
	}
	return m.err
}

func (g *groupCommit) loop() {
	defer close(g.done)
	group := make([]*groupTx, 0, maxGroup)
	for {
		var first *groupTx
		select {
		case first = <-g.queue:
		case <-g.stop:
			return
		}
		group = append(group[:0], first)
		// Let the goroutines already runnable go first: on few cores the callers of the group
		// just answered, and requests about to join, could not run while this loop did.
		runtime.Gosched()
	fill:
		for len(group) < maxGroup {
			select {
			case m := <-g.queue:
				group = append(group, m)
			default:
				break fill
			}
		}
		live := group[:0]
		for _, m := range group {
			if m.state.CompareAndSwap(memberQueued, memberTaken) {
				live = append(live, m)
			}
		}
		if len(live) > 0 {
			g.run(live)
			// The connection is back in the pool: prepare what ran unprepared.
			g.st.preparePending(context.Background())
		}
		clear(group)
	}
}

// run runs one group and answers every member.
func (g *groupCommit) run(group []*groupTx) {
	if len(group) == 1 { // alone: no savepoint needed, the transaction is the member's
		g.alone(group[0])
		return
	}
	tx, err := g.db.BeginTx(context.Background(), nil)
	if err != nil {
		for _, m := range group {
			answer(m, err)
		}
		return
	}
	q := g.querier(tx)
	ok := make([]*groupTx, 0, len(group))
	for i, m := range group {
		if err := exec(tx, g.savepoint, `SAVEPOINT member`); err != nil {
			g.rerun(tx, ok, group[i:])
			return
		}
		err := call(m, q)
		if err != nil {
			if rbErr := exec(tx, g.rollbackTo, `ROLLBACK TO member`); rbErr != nil {
				// The transaction is gone with the members before this one: this member's
				// outcome is its own error, the others run again alone.
				answer(m, err)
				g.rerun(tx, ok, group[i+1:])
				return
			}
			answer(m, err)
		} else {
			ok = append(ok, m)
		}
		if err := exec(tx, g.release, `RELEASE member`); err != nil {
			g.rerun(tx, ok, group[i+1:]) // m, if it succeeded, is in ok
			return
		}
	}
	if err := tx.Commit(); err != nil {
		g.rerun(nil, ok, nil)
		return
	}
	for _, m := range ok {
		answer(m, nil)
	}
}

// rerun abandons the group's transaction (nil: already ended) and runs each member of done and
// rest in a transaction of its own: done's work was lost with the group, rest's never ran.
func (g *groupCommit) rerun(tx *sql.Tx, done, rest []*groupTx) {
	if tx != nil {
		tx.Rollback()
	}
	for _, m := range done {
		g.alone(m)
	}
	for _, m := range rest {
		g.alone(m)
	}
}

// alone runs m in a transaction of its own and answers it.
func (g *groupCommit) alone(m *groupTx) {
	tx, err := g.db.BeginTx(context.Background(), nil)
	if err != nil {
		answer(m, err)
		return
	}
	if err := call(m, g.querier(tx)); err != nil {
		tx.Rollback()
		answer(m, err)
		return
	}
	answer(m, tx.Commit())
}

func (g *groupCommit) querier(tx *sql.Tx) querier {
	return querier{q: tx, d: g.d, st: g.st, tx: tx, detached: true, txStmts: map[*sql.Stmt]*sql.Stmt{}}
}

// call runs m's fn, turning a panic into an error for the group and a panic for the caller.
func call(m *groupTx, q querier) (err error) {
	defer func() {
		if v := recover(); v != nil {
			m.panicked, m.panicVal = true, v
			err = fmt.Errorf("store: transaction panicked: %v", v)
		}
	}()
	return m.fn(q)
}

// answer records m's outcome and wakes its caller.
func answer(m *groupTx, err error) {
	m.err = err
	close(m.answered)
}
