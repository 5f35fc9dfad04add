package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// JobQueue is the number of jobs of one kind in one state and the earliest run_at among them.
type JobQueue struct {
	Kind, State string
	Count       int
	OldestRunAt time.Time
}

// JobDepth counts the queued, running and dead jobs by kind and state (metrics, read at every
// scrape): finished jobs, which grow until pruned, are left out, and the states listed keep the
// query on the (state, run_at) index.
func (s *db) JobDepth(ctx context.Context) ([]JobQueue, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT kind, state, COUNT(*), MIN(run_at) FROM jobs
		WHERE state IN ('queued', 'running', 'dead') GROUP BY kind, state ORDER BY kind, state`)
	if err != nil {
		return nil, fmt.Errorf("job depth: %w", err)
	}
	defer rows.Close()
	var out []JobQueue
	for rows.Next() {
		var q JobQueue
		var runAt string
		if err := rows.Scan(&q.Kind, &q.State, &q.Count, &runAt); err != nil {
			return nil, fmt.Errorf("job depth: %w", err)
		}
		q.OldestRunAt = parseTime(runAt)
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("job depth: %w", err)
	}
	return out, nil
}

// Pools are the database pools by role, for their statistics: "write" and "read" on SQLite,
// one "main" pool on PostgreSQL.
func (s *db) Pools() map[string]*sql.DB {
	if s.wdb == s.rdb {
		return map[string]*sql.DB{"main": s.wdb}
	}
	return map[string]*sql.DB{"write": s.wdb, "read": s.rdb}
}
