package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/job"
)

// Job states as stored in jobs.state.
const (
	JobQueued    = "queued"  // waiting for run_at
	JobRunning   = "running" // leased until lease_until
	JobDone      = "done"
	JobDead      = "dead"      // failed for good, kept until an operator retries or cancels it
	JobCancelled = "cancelled" // cancelled by an operator (streamcart jobs cancel)
)

// ErrJobState is returned by RequeueJob and CancelJob for a job whose state does not allow it;
// the error names the state.
var ErrJobState = errors.New("job state does not allow it")

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
func (s *db) ClaimJob(ctx context.Context, due, now time.Time, lease time.Duration) (job.Job, bool, error) {
	var j job.Job
	err := s.w.QueryRowContext(ctx, `UPDATE jobs SET state = 'running', lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE id = (SELECT id FROM jobs
			WHERE (state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_until < ?)
			ORDER BY run_at, id LIMIT 1`+s.d.skipLocked+`)
		RETURNING id, kind, ref, attempts`,
		fmtTime(now.Add(lease)), fmtTime(s.now()), fmtTime(due), fmtTime(now)).Scan(&j.ID, &j.Kind, &j.Ref, &j.Attempts)
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
	State      string // JobQueued, JobRunning, JobDone, JobDead or JobCancelled
	RunAt      time.Time
	LeaseUntil time.Time // zero unless running
	LastError  string
	UpdatedAt  time.Time
}

const jobColumns = `id, kind, ref, attempts, unique_key, state, run_at, lease_until, last_error, updated_at`

func scanJob(sc interface{ Scan(...any) error }) (JobInfo, error) {
	var j JobInfo
	var runAt, lease, updated string
	err := sc.Scan(&j.ID, &j.Kind, &j.Ref, &j.Attempts, &j.UniqueKey, &j.State, &runAt, &lease, &j.LastError, &updated)
	j.RunAt, j.LeaseUntil, j.UpdatedAt = parseTime(runAt), parseTime(lease), parseTime(updated)
	return j, err
}

// JobByKey reads the job enqueued under uniqueKey; ErrNotFound when none.
func (s *db) JobByKey(ctx context.Context, uniqueKey string) (JobInfo, error) {
	j, err := scanJob(s.r.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE unique_key = ?`, uniqueKey))
	if errors.Is(err, sql.ErrNoRows) {
		return JobInfo{}, fmt.Errorf("read job %s: %w", uniqueKey, ErrNotFound)
	}
	if err != nil {
		return JobInfo{}, fmt.Errorf("read job %s: %w", uniqueKey, err)
	}
	return j, nil
}

// Job reads a job by id; ErrNotFound when none.
func (s *db) Job(ctx context.Context, id int64) (JobInfo, error) {
	return s.jobByID(ctx, s.r, id)
}

func (s *db) jobByID(ctx context.Context, q querier, id int64) (JobInfo, error) {
	j, err := scanJob(q.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return JobInfo{}, fmt.Errorf("job %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return JobInfo{}, fmt.Errorf("read job %d: %w", id, err)
	}
	return j, nil
}

// JobFilter selects jobs for ListJobs; empty fields select all.
type JobFilter struct {
	State, Kind string
	Limit       int // at most this many, newest first; 0: 50
}

// ListJobs lists jobs, newest first (streamcart jobs list).
func (s *db) ListJobs(ctx context.Context, f JobFilter) ([]JobInfo, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.State != "" {
		where, args = append(where, "state = ?"), append(args, f.State)
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE `+strings.Join(where, " AND ")+
		` ORDER BY id DESC LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var out []JobInfo
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	return out, nil
}

// RequeueJob gives a dead, cancelled or queued (failed, waiting for its retry) job a fresh start:
// queued, due now, attempts back to 0, so its kind's whole number of attempts lies ahead. The
// last error stays until the next attempt replaces it. A running or done job is left alone:
// ErrJobState.
func (s *db) RequeueJob(ctx context.Context, id int64) (JobInfo, error) {
	return s.operate(ctx, id, `UPDATE jobs SET state = 'queued', attempts = 0, run_at = ?, lease_until = '', updated_at = ?
		WHERE id = ? AND state IN ('queued', 'dead', 'cancelled')`, fmtTime(s.now()), fmtTime(s.now()), id)
}

// CancelJob cancels a queued or dead job: no worker claims it again. A running job is refused
// (its handler may be half-way; cancelling under it would not stop it), as is a done one:
// ErrJobState, and so is a job already cancelled.
func (s *db) CancelJob(ctx context.Context, id int64) (JobInfo, error) {
	return s.operate(ctx, id, `UPDATE jobs SET state = 'cancelled', lease_until = '', updated_at = ?
		WHERE id = ? AND state IN ('queued', 'dead')`, fmtTime(s.now()), id)
}

// operate runs an operator's update of job id, conditional on its state, and reads the job back;
// when the update matched nothing it says whether the job is unknown or in the wrong state.
// The state condition is in the UPDATE itself, so a worker's claim and the operator's change
// never both apply: whichever commits first wins, and the other sees the new state.
func (s *db) operate(ctx context.Context, id int64, update string, args ...any) (JobInfo, error) {
	var j JobInfo
	err := s.tx(ctx, func(tx querier) error {
		res, err := tx.ExecContext(ctx, update, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if j, err = s.jobByID(ctx, tx, id); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("job %d is %s: %w", id, j.State, ErrJobState)
		}
		return nil
	})
	return j, err
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

// Jobs is the operator's hold on the queue (streamcart jobs).
type Jobs interface {
	Job(ctx context.Context, id int64) (JobInfo, error)
	ListJobs(ctx context.Context, f JobFilter) ([]JobInfo, error)
	RequeueJob(ctx context.Context, id int64) (JobInfo, error)
	CancelJob(ctx context.Context, id int64) (JobInfo, error)
}

func consoleJob(j JobInfo) console.Job {
	return console.Job{ID: j.ID, Kind: j.Kind, Ref: j.Ref, State: j.State, Attempts: j.Attempts, RunAt: j.RunAt,
		UpdatedAt: j.UpdatedAt, LastError: j.LastError, UniqueKey: j.UniqueKey}
}

func (s *db) consoleJobs(ctx context.Context, where string, args ...any) ([]console.Job, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	out := []console.Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		out = append(out, consoleJob(j))
	}
	return out, rows.Err()
}

// JobsByRefs lists the jobs working on any of refs, oldest first.
func (s *db) JobsByRefs(ctx context.Context, refs []string) ([]console.Job, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	args := make([]any, len(refs))
	for i, r := range refs {
		args[i] = r
	}
	return s.consoleJobs(ctx, `ref IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(refs)), ", ")+`) ORDER BY id`, args...)
}

// ConsoleJobs lists jobs newest first: queued, failed (queued again after a failure), dead, or all.
func (s *db) ConsoleJobs(ctx context.Context, state string, limit int) ([]console.Job, error) {
	if limit <= 0 {
		limit = 100
	}
	switch state {
	case "":
		return s.consoleJobs(ctx, `1 = 1 ORDER BY id DESC LIMIT ?`, limit)
	case "failed":
		return s.consoleJobs(ctx, `state = ? AND last_error <> '' ORDER BY id DESC LIMIT ?`, JobQueued, limit)
	}
	return s.consoleJobs(ctx, `state = ? ORDER BY id DESC LIMIT ?`, state, limit)
}

func consoleJobError(j JobInfo, err error) (console.Job, error) {
	switch {
	case errors.Is(err, ErrNotFound):
		return console.Job{}, console.ErrNotFound
	case errors.Is(err, ErrJobState):
		return consoleJob(j), fmt.Errorf("job %d is %s: %w", j.ID, j.State, console.ErrJobState)
	case err != nil:
		return console.Job{}, err
	}
	return consoleJob(j), nil
}

// RetryConsoleJob is RequeueJob for the console.
func (s *db) RetryConsoleJob(ctx context.Context, id int64) (console.Job, error) {
	return consoleJobError(s.RequeueJob(ctx, id))
}

// CancelConsoleJob is CancelJob for the console.
func (s *db) CancelConsoleJob(ctx context.Context, id int64) (console.Job, error) {
	return consoleJobError(s.CancelJob(ctx, id))
}
