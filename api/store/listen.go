package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// OrderChannel is the PostgreSQL channel migration 0028's trigger notifies of each order change,
// with the payload "<schema> <order id>": shops sharing a database in separate schemas hear each
// other's notifications and keep their own.
const OrderChannel = "streamcart_orders"

// SQLiteChangePoll is how often ListenOrders asks SQLite whether anything was committed
// (PRAGMA data_version: a read of one integer in the connection's own memory, no table read).
var SQLiteChangePoll = 100 * time.Millisecond

// OrderVersions reads the version of each order of ids that exists (migration 0028): what an
// order stream compares to the last event it sent.
func (s *db) OrderVersions(ctx context.Context, ids []string) (map[string]int64, error) {
	out := make(map[string]int64, len(ids))
	// In slices, so that no query passes SQLite's or PostgreSQL's parameter limits.
	const batch = 500
	for len(ids) > 0 {
		n := min(len(ids), batch)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		rows, err := s.r.QueryContext(ctx, `SELECT id, version FROM orders WHERE id IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("order versions: %w", err)
		}
		for rows.Next() {
			var id string
			var v int64
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, fmt.Errorf("order versions: %w", err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("order versions: %w", err)
		}
		ids = ids[n:]
	}
	return out, nil
}

// ListenOrders tells changed of order changes until ctx ends or the database fails: on SQLite
// (one machine, every writer on this file) with "" — some order may have changed — each time a
// commit happened, found by PRAGMA data_version every SQLiteChangePoll on a connection of its
// own, whoever wrote (this process or a command beside it). It calls changed("") once when it
// starts. It returns nil when ctx ends, else the error that stopped it.
func (s *SQLite) ListenOrders(ctx context.Context, changed func(orderID string)) error {
	conn, err := sql.Open("sqlite", s.dsn)
	if err != nil {
		return fmt.Errorf("listen orders: %w", err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	c, err := conn.Conn(ctx)
	if err != nil {
		return listenEnd(ctx, err)
	}
	defer c.Close()
	version := func() (int64, error) {
		var v int64
		err := c.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v)
		return v, err
	}
	last, err := version()
	if err != nil {
		return listenEnd(ctx, err)
	}
	changed("")
	tick := time.NewTicker(SQLiteChangePoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		v, err := version()
		if err != nil {
			return listenEnd(ctx, err)
		}
		if v != last {
			last = v
			changed("")
		}
	}
}

// ListenOrders tells changed of each order change until ctx ends or the connection fails: on
// PostgreSQL with the order's id, as its transaction commits on any replica, by LISTEN on
// OrderChannel over one connection of its own (outside the pool; a PgBouncer in transaction mode
// cannot hold it: point STREAMCART_DB at the server, or rely on the streams' safety tick). It
// calls changed("") once it listens, for whatever happened before. It returns nil when ctx ends,
// else the error that stopped it.
func (p *Postgres) ListenOrders(ctx context.Context, changed func(orderID string)) error {
	conn, err := pgx.ConnectConfig(ctx, p.cfg)
	if err != nil {
		return listenEnd(ctx, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return listenEnd(ctx, err)
	}
	if _, err := conn.Exec(ctx, `LISTEN `+OrderChannel); err != nil {
		return listenEnd(ctx, err)
	}
	changed("")
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return listenEnd(ctx, err)
		}
		if sch, id, ok := strings.Cut(n.Payload, " "); ok && sch == schema {
			changed(id)
		}
	}
}

// listenEnd is ListenOrders' answer: nil once ctx has ended (the caller stopped it), else err.
func listenEnd(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("listen orders: %w", err)
}
