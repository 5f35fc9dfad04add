package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/job"
)

// Job states as stored in jobs.state.
const (
	JobQueued  = "queued"  // waiting for run_at
	JobRunning = "running" // leased until lease_until
	JobDone    = "done"
	JobDead    = "dead" // failed for good, kept for inspection
)

var _ job.Store = (*SQLite)(nil)

// maxJobError bounds last_error: a panic's stack can be long.
const maxJobError = 4000

// enqueue adds a job unless one with the same unique key exists (a job is never queued twice).
// In a pipelined transaction the row goes with the next round trip.
func enqueue(ctx context.Context, q querier, now time.Time, kind, ref, uniqueKey string, runAt time.Time) error {
	err := q.later(ctx, `INSERT INTO jobs (kind, ref, unique_key, state, run_at, created_at, updated_at)
		VALUES (?, ?, ?, 'queued', ?, ?, ?) ON CONFLICT (unique_key) DO NOTHING`,
		kind, ref, uniqueKey, fmtTime(runAt), fmtTime(now), fmtTime(now))
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", uniqueKey, err)
	}
	return nil
}

// Enqueue adds a job due at runAt, unless a job with the same unique key was ever enqueued.
func (s *db) Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error {
	return enqueue(ctx, s.w, s.now(), kind, ref, uniqueKey, runAt)
}

// ClaimJob leases the oldest due job: a queued one whose run_at has come, or a running one whose
// lease expired (its worker died). One statement picks and updates the row, so two workers never
// claim the same lease; on SQLite the single writer connection serialises it, and PostgreSQL
// adds FOR UPDATE SKIP LOCKED to the inner SELECT for the same effect without blocking: a row
// another replica is claiming is skipped, and one whose claim committed no longer matches.
func (s *db) ClaimJob(ctx context.Context, now time.Time, lease time.Duration) (job.Job, bool, error) {
	var j job.Job
	at := fmtTime(now)
	err := s.w.QueryRowContext(ctx, `UPDATE jobs SET state = 'running', lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE id = (SELECT id FROM jobs
			WHERE (state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_until < ?)
			ORDER BY run_at, id LIMIT 1`+s.d.skipLocked+`)
		RETURNING id, kind, ref, attempts`,
		fmtTime(now.Add(lease)), fmtTime(s.now()), at, at).Scan(&j.ID, &j.Kind, &j.Ref, &j.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return job.Job{}, false, nil
	}
	if err != nil {
		return job.Job{}, false, fmt.Errorf("claim job: %w", err)
	}
	return j, true, nil
}

// CompleteJob marks a job done, whatever its state: success wins even over a stale worker's
// earlier verdict. ErrNotFound for an unknown id.
func (s *db) CompleteJob(ctx context.Context, id int64) error {
	res, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'done', lease_until = '', updated_at = ? WHERE id = ?`,
		fmtTime(s.now()), id)
	if err != nil {
		return fmt.Errorf("complete job %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("complete job %d: %w", id, ErrNotFound)
	}
	return nil
}

// RetryJob queues a running job again at runAt. A job no longer running (completed or taken over
// and finished by another worker) is left as it is.
func (s *db) RetryJob(ctx context.Context, id int64, runAt time.Time, lastErr string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'queued', run_at = ?, lease_until = '', last_error = ?, updated_at = ?
		WHERE id = ? AND state = 'running'`, fmtTime(runAt), clip(lastErr), fmtTime(s.now()), id)
	if err != nil {
		return fmt.Errorf("retry job %d: %w", id, err)
	}
	return nil
}

// BuryJob marks a running job dead.
func (s *db) BuryJob(ctx context.Context, id int64, lastErr string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'dead', lease_until = '', last_error = ?, updated_at = ?
		WHERE id = ? AND state = 'running'`, clip(lastErr), fmtTime(s.now()), id)
	if err != nil {
		return fmt.Errorf("bury job %d: %w", id, err)
	}
	return nil
}

// ExtendLease moves a running job's lease to until.
func (s *db) ExtendLease(ctx context.Context, id int64, until time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND state = 'running'`,
		fmtTime(until), fmtTime(s.now()), id)
	if err != nil {
		return fmt.Errorf("extend job %d lease: %w", id, err)
	}
	return nil
}

// JobInfo is a job row as stored, for inspection.
type JobInfo struct {
	job.Job
	UniqueKey  string
	State      string // JobQueued, JobRunning, JobDone or JobDead
	RunAt      time.Time
	LeaseUntil time.Time // zero unless running
	LastError  string
}

// JobByKey reads the job enqueued under uniqueKey; ErrNotFound when none.
func (s *db) JobByKey(ctx context.Context, uniqueKey string) (JobInfo, error) {
	var j JobInfo
	var runAt, lease string
	err := s.r.QueryRowContext(ctx, `SELECT id, kind, ref, attempts, unique_key, state, run_at, lease_until, last_error
		FROM jobs WHERE unique_key = ?`, uniqueKey).Scan(
		&j.ID, &j.Kind, &j.Ref, &j.Attempts, &j.UniqueKey, &j.State, &runAt, &lease, &j.LastError)
	if errors.Is(err, sql.ErrNoRows) {
		return JobInfo{}, fmt.Errorf("read job %s: %w", uniqueKey, ErrNotFound)
	}
	if err != nil {
		return JobInfo{}, fmt.Errorf("read job %s: %w", uniqueKey, err)
	}
	j.RunAt, j.LeaseUntil = parseTime(runAt), parseTime(lease)
	return j, nil
}

// JobCounts counts jobs by state (for health and metrics).
func (s *db) JobCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT state, COUNT(*) FROM jobs GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("count jobs: %w", err)
		}
		out[state] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	return out, nil
}

func clip(s string) string {
	if len(s) > maxJobError {
		return s[:maxJobError]
	}
	return s
}
