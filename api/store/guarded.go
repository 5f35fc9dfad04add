package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/streamcart/streamcart/api/order"
)

// WithGuardedTx places an order in one round trip on PostgreSQL (order.GuardedStore): BEGIN, the
// locks Check takes (the same keys in the same order), one statement writing fn's rows only if
// the checks pass, and COMMIT go in one pipeline, and the statement answers whether they passed.
// The checks are Check's reads stated as a condition (no order under the key, each count below
// its limit), evaluated in a statement of its own after the locks' as Check's read is, so they
// see what every previous holder of the locks committed. Each of fn's inserts becomes
// `INSERT … SELECT … WHERE (the condition)`, so the rows are all written or none. On SQLite,
// which has no round trips to save, it answers false without running fn.
func (s *db) WithGuardedTx(ctx context.Context, c order.Check, lim order.Limits, fn func(order.Tx) error) (bool, error) {
	if s.group != nil || s.d.lockExpr == "" {
		return false, nil
	}
	for attempt := 1; ; attempt++ {
		placed, err := s.guardedTx(ctx, c, lim, fn)
		if err == nil || attempt == maxTxAttempts || !s.d.retry(err) || ctx.Err() != nil {
			return placed, err
		}
	}
}

// errGuardedRead: a guarded transaction's fn ran a statement of its own; it may only write.
var errGuardedRead = errors.New("store: a guarded transaction only writes")

func (s *db) guardedTx(ctx context.Context, c order.Check, lim order.Limits, fn func(order.Tx) error) (bool, error) {
	// The rows are gathered and the statement made before a connection is taken: making it may
	// read column types through the pool, which concurrent orders could otherwise hold whole.
	p := &pipe{d: s.d, guarded: true}
	if err := fn(&orderTx{tx: querier{q: s.wdb, d: s.d, p: p}, d: s.d, now: s.now}); err != nil {
		return false, err // nothing was sent
	}
	if p.err != nil {
		return false, p.err
	}
	writes := p.pending
	p.pending, p.guarded = nil, false
	shape, args := guardCondition(c, lim)
	text, err := s.guardedText(ctx, shape, writes)
	if err != nil {
		return false, fmt.Errorf("guarded order: %w", err)
	}
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	p.conn = conn
	for _, w := range writes {
		args = append(args, w.args...)
	}
	var ok bool
	steps := append([]step{{query: `BEGIN`}}, s.d.lockSteps(checkLocks(c)...)...)
	steps = append(steps, step{query: text, args: args, bound: true, row: func(row rowScanner) error { return row.Scan(&ok) }},
		step{query: `COMMIT`})
	if err := p.send(ctx, steps); err != nil {
		p.rollback(ctx)
		return false, err
	}
	return ok, nil
}

// guardShape names the parts of a guard's condition.
type guardShape uint8

const (
	guardKey guardShape = 1 << iota
	guardIP
	guardTrials
	guardTrialsFromIP
)

// guardCondition states Check's refusals as one condition that holds when none applies: no
// order under the key (a replay or a mismatch otherwise), the orders from the IP below the
// fraud limit (held otherwise), the trials of the client and of the e-mail and those from the
// IP below theirs (refused otherwise). It answers the condition's shape (guardText) and its
// arguments in the text's order.
func guardCondition(c order.Check, lim order.Limits) (guardShape, []any) {
	var shape guardShape
	var args []any
	if c.IdempotencyKey != "" {
		shape |= guardKey
		args = append(args, c.ClientID, c.IdempotencyKey)
	}
	if c.CountIP && lim.OrdersFromIP > 0 {
		shape |= guardIP
		args = append(args, c.IP, fmtTime(c.Since), lim.OrdersFromIP)
	}
	if c.Trial && lim.Trials > 0 {
		shape |= guardTrials
		args = append(args, c.ClientID, lim.Trials, c.TrialEmail, lim.Trials)
	}
	if c.Trial && lim.TrialsFromIP > 0 {
		shape |= guardTrialsFromIP
		args = append(args, c.IP, fmtTime(c.TrialSince), lim.TrialsFromIP)
	}
	return shape, args
}

// guardText is the condition of a shape, its arguments as guardCondition gives them.
func guardText(shape guardShape) string {
	var parts []string
	if shape&guardKey != 0 {
		parts = append(parts, `NOT EXISTS (SELECT 1 FROM orders WHERE client_id = ? AND idempotency_key = ?)`)
	}
	if shape&guardIP != 0 {
		parts = append(parts, `(`+ipCountQuery+`) < ?`)
	}
	if shape&guardTrials != 0 {
		parts = append(parts, `(`+trialStarts+`t.client_id = ?) < ?`, `(`+trialStarts+`t.email_key = ?) < ?`)
	}
	if shape&guardTrialsFromIP != 0 {
		parts = append(parts, `(`+trialStarts+`t.ip = ? AND t.created_at >= ?) < ?`)
	}
	if len(parts) == 0 {
		return `TRUE`
	}
	return strings.Join(parts, ` AND `)
}

// guardKeyOf names a guarded statement: its condition's shape and its writes' texts (see
// mergedKey).
type guardKeyOf struct {
	shape guardShape
	run   mergedKey
}

// guards keeps what guarded statements are made of: the column types of the tables written
// (read from PostgreSQL once per table) and the statements made (at most maxMergedTexts).
type guards struct {
	mu    sync.Mutex
	types map[string]map[string]string // table → column → type
	texts map[guardKeyOf]string
}

// guardedText is the statement `WITH g AS (SELECT guardText(shape) AS ok), w1 AS (INSERT … SELECT … WHERE
// (SELECT ok FROM g)), … SELECT ok FROM g` in $n placeholders. Each INSERT … VALUES of writes
// becomes an INSERT … SELECT whose placeholders are cast to their columns' types (a SELECT list
// gives them none).
func (s *db) guardedText(ctx context.Context, shape guardShape, writes []step) (string, error) {
	var key guardKeyOf
	keep := len(writes) <= maxMergedRun
	if keep {
		key.shape = shape
		for k, st := range writes {
			key.run[k].p, key.run[k].n = unsafe.StringData(st.query), len(st.query)
		}
		s.guard.mu.Lock()
		text, ok := s.guard.texts[key]
		s.guard.mu.Unlock()
		if ok {
			return text, nil
		}
	}
	var b strings.Builder
	b.WriteString(`WITH g AS (SELECT ` + guardText(shape) + ` AS ok)`)
	for k, st := range writes {
		ins, err := s.guardedInsert(ctx, st.query)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, `, w%d AS (%s)`, k+1, ins)
	}
	b.WriteString(` SELECT ok FROM g`)
	text := s.d.rebind(b.String())
	if keep {
		s.guard.mu.Lock()
		if s.guard.texts == nil {
			s.guard.texts = map[guardKeyOf]string{}
		}
		if len(s.guard.texts) < maxMergedTexts {
			s.guard.texts[key] = text
		}
		s.guard.mu.Unlock()
	}
	return text, nil
}

// insertValues reads `INSERT INTO table (columns) VALUES (values) rest`.
var insertValues = regexp.MustCompile(`(?s)^\s*INSERT INTO (\w+) \(([^)]*)\)\s*VALUES \(([^)]*)\)(.*)$`)

// guardedInsert turns an INSERT … VALUES of the store's into INSERT … SELECT … WHERE (SELECT ok
// FROM g), each ? cast to its column's type.
func (s *db) guardedInsert(ctx context.Context, query string) (string, error) {
	m := insertValues.FindStringSubmatch(query)
	if m == nil {
		return "", fmt.Errorf("not an INSERT … VALUES: %.60q", query)
	}
	table, rest := m[1], m[4]
	cols, vals := strings.Split(m[2], ","), strings.Split(m[3], ",")
	if len(cols) != len(vals) {
		return "", fmt.Errorf("%s: %d columns, %d values", table, len(cols), len(vals))
	}
	types, err := s.columnTypes(ctx, table)
	if err != nil {
		return "", err
	}
	for i, v := range vals {
		col, v := strings.TrimSpace(cols[i]), strings.TrimSpace(v)
		if v == "?" {
			t, ok := types[col]
			if !ok {
				return "", fmt.Errorf("%s has no column %s", table, col)
			}
			v = "?::" + t
		}
		vals[i] = v
	}
	return `INSERT INTO ` + table + ` (` + m[2] + `) SELECT ` + strings.Join(vals, ", ") + ` WHERE (SELECT ok FROM g)` + rest, nil
}

// columnTypes reads table's column types from PostgreSQL, once.
func (s *db) columnTypes(ctx context.Context, table string) (map[string]string, error) {
	s.guard.mu.Lock()
	types, ok := s.guard.types[table]
	s.guard.mu.Unlock()
	if ok {
		return types, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped`, table)
	if err != nil {
		return nil, fmt.Errorf("column types of %s: %w", table, err)
	}
	defer rows.Close()
	types = map[string]string{}
	for rows.Next() {
		var col, typ string
		if err := rows.Scan(&col, &typ); err != nil {
			return nil, fmt.Errorf("column types of %s: %w", table, err)
		}
		types[col] = typ
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("column types of %s: %w", table, err)
	}
	s.guard.mu.Lock()
	if s.guard.types == nil {
		s.guard.types = map[string]map[string]string{}
	}
	s.guard.types[table] = types
	s.guard.mu.Unlock()
	return types, nil
}

var _ order.GuardedStore = (*db)(nil)
