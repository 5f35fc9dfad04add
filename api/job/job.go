// Package job runs durable jobs stored as leased rows. A worker claims the oldest due row, which
// sets a lease; the row stays in the database until its handler succeeds or fails for good, so a
// crash at any point only delays a job: when the lease runs out another worker takes it over.
// Handlers must therefore be idempotent (a job may run again after a crash).
package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// Job is one claimed job. Attempts counts claims, this one included.
type Job struct {
	ID       int64
	Kind     string
	Ref      string
	Attempts int
}

// Store keeps the jobs. The SQLite store implements it; a PostgreSQL one claims with
// FOR UPDATE SKIP LOCKED and keeps the same semantics.
type Store interface {
	// ClaimJob leases the oldest due job: queued with run_at <= due, or running with
	// lease_until < now (its worker died). It sets state running, lease_until = now+lease and
	// attempts+1 atomically; false when nothing is due. due is business time (the shop's test
	// clock moves it), now the leases' clock, which stays on real time.
	ClaimJob(ctx context.Context, due, now time.Time, lease time.Duration) (Job, bool, error)
	// CompleteJob marks a job done.
	CompleteJob(ctx context.Context, id int64) error
	// RetryJob queues a running job again at runAt, recording why it failed.
	RetryJob(ctx context.Context, id int64, runAt time.Time, lastErr string) error
	// BuryJob marks a running job dead: it failed for good and is kept for inspection.
	BuryJob(ctx context.Context, id int64, lastErr string) error
	// ExtendLease pushes a running job's lease to until (heartbeat of a long job).
	ExtendLease(ctx context.Context, id int64, until time.Time) error
}

// Handler runs one job. A nil error completes it, Permanent(err) buries it, any other error
// (or a panic) retries it later, until its kind's Options.MaxAttempts are used up.
type Handler func(ctx context.Context, j Job) error

// ErrUnknownKind buries a job no handler is registered for.
var ErrUnknownKind = errors.New("job: no handler for kind")

type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent marks err as final: the job is buried instead of retried. Use it only when no retry
// can ever succeed (the referenced row is gone, the input is invalid).
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was made by Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// Options tune a worker; zero values take the defaults.
type Options struct {
	Lease       time.Duration    // how long a claim lasts without a heartbeat; 30s
	Poll        time.Duration    // idle wait between claims when not notified; 500ms
	MinBackoff  time.Duration    // first retry delay; 1s
	MaxBackoff  time.Duration    // retry delay cap; 1h
	Concurrency int              // jobs run at once by one worker; 2
	Grace       time.Duration    // on shutdown, how long in-flight jobs may finish; 10s
	Logger      *slog.Logger     // slog.Default()
	Now         func() time.Time // clock for run_at (business time); time.Now
	// LeaseNow is the clock leases are stamped and checked on; Now when nil. A shop's test clock
	// moves Now only: a lease on it would look expired to a replica whose clock moved, and a job
	// still running would be taken over.
	LeaseNow func() time.Time
	// MaxAttempts bounds the claims of a job by kind; a kind not listed gets Attempts.
	// A job failing on its last attempt is buried (dead) like a Permanent failure, never
	// retried forever.
	MaxAttempts map[string]int
	// Attempts bounds the claims of a job whose kind MaxAttempts does not list;
	// DefaultMaxAttempts when 0.
	Attempts int
	// Bell is what wakes the worker (Notify rings it); nil: a bell of its own. A shop makes
	// the bell first and hands its Ring to the services that enqueue, so none of them needs
	// the worker, which is built last from their handlers.
	Bell Bell
}

// Bell wakes an idle worker; ringing it never blocks, and rings made while the worker is busy
// come to one wake-up.
type Bell chan struct{}

// NewBell returns a bell for Options.Bell.
func NewBell() Bell { return make(Bell, 1) }

// Ring wakes the worker listening on b now, typically right after a job was enqueued.
func (b Bell) Ring() {
	select {
	case b <- struct{}{}:
	default:
	}
}

// DefaultMaxAttempts is how many times a job of a kind without its own limit is tried: with the
// default backoff (1 s doubling to the 1 h cap, each delay drawn from its upper half) the retries
// span about three days on average (2 to 4 days), long enough to outlast a weekend outage of a
// panel, a provider or the mail server; then the job is dead and waits for an operator.
const DefaultMaxAttempts = 108

// maxAttempts is the limit of kind's jobs.
func (o Options) maxAttempts(kind string) int {
	if n, ok := o.MaxAttempts[kind]; ok && n > 0 {
		return n
	}
	if o.Attempts > 0 {
		return o.Attempts
	}
	return DefaultMaxAttempts
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Lease, 30*time.Second)
	def(&o.Poll, 500*time.Millisecond)
	def(&o.MinBackoff, time.Second)
	def(&o.MaxBackoff, time.Hour)
	def(&o.Grace, 10*time.Second)
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 2
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	o.Now = clock.OrReal(o.Now)
	if o.LeaseNow == nil {
		o.LeaseNow = o.Now
	}
	return o
}

// Worker claims jobs from a Store and runs their handlers.
type Worker struct {
	store    Store
	handlers map[string]Handler
	o        Options
	wake     Bell
}

// NewWorker returns a worker running handlers by job kind.
func NewWorker(s Store, handlers map[string]Handler, o Options) *Worker {
	hs := make(map[string]Handler, len(handlers))
	for k, h := range handlers {
		hs[k] = h
	}
	wake := o.Bell
	if wake == nil {
		wake = NewBell()
	}
	return &Worker{store: s, handlers: hs, o: o.withDefaults(), wake: wake}
}

// Notify wakes an idle worker now, typically right after a job was enqueued. It never blocks.
func (w *Worker) Notify() { w.wake.Ring() }

// Run claims and runs jobs until ctx is done. On shutdown it stops claiming and gives in-flight
// jobs Options.Grace to finish; then their context is cancelled and a job interrupted that way
// keeps its lease, so it runs again once the lease expires. A handler that ignores its context
// gets one more grace period before Run returns without it; no job's row is ever dropped.
func (w *Worker) Run(ctx context.Context) error {
	// Handlers get a context that outlives ctx by the grace period.
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	var wg sync.WaitGroup
	for range w.o.Concurrency {
		wg.Go(func() { w.loop(ctx, hctx) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	grace := time.NewTimer(w.o.Grace)
	defer grace.Stop()
	select {
	case <-done:
		return nil
	case <-grace.C:
	}
	w.o.Logger.Warn("job: shutdown grace over, interrupting running jobs", "grace", w.o.Grace)
	hcancel()
	grace.Reset(w.o.Grace)
	select {
	case <-done:
	case <-grace.C:
		// A handler ignoring its context: leave it; its job keeps its lease and runs again later.
		w.o.Logger.Error("job: handlers still running after interruption, abandoning them")
	}
	return nil
}

// loop is one slot of Run: claim, run, and when idle wait for a notification or the poll tick.
func (w *Worker) loop(ctx, hctx context.Context) {
	idle := time.NewTimer(w.o.Poll)
	defer idle.Stop()
	for ctx.Err() == nil {
		ran, err := w.runOne(ctx, hctx)
		if err != nil && ctx.Err() == nil {
			w.o.Logger.Error("job: store", "err", err)
		}
		if ran && err == nil {
			// More may be due: let an idle sibling look too, and look again at once.
			w.Notify()
			continue
		}
		idle.Reset(w.o.Poll) // timers are synchronous since Go 1.23: no stale tick to drain
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-idle.C:
		}
	}
}

// RunOnce claims one due job and runs it with ctx. ran is false when nothing was due; err reports
// a store failure only (a handler's failure is recorded on the job).
func (w *Worker) RunOnce(ctx context.Context) (ran bool, err error) {
	return w.runOne(ctx, ctx)
}

// runOne claims with ctx and runs the handler with hctx.
func (w *Worker) runOne(ctx, hctx context.Context) (bool, error) {
	j, ok, err := w.store.ClaimJob(ctx, w.o.Now(), w.o.LeaseNow(), w.o.Lease)
	if err != nil {
		return false, fmt.Errorf("claim job: %w", err)
	}
	if !ok {
		return false, nil
	}
	log := w.o.Logger.With("job", j.ID, "kind", j.Kind, "ref", j.Ref, "attempt", j.Attempts)
	herr := w.run(hctx, j)
	// Book-keeping must land even when shutdown cancelled the caller's context.
	bctx, cancel := context.WithTimeout(context.WithoutCancel(hctx), 10*time.Second)
	defer cancel()
	switch {
	case herr == nil:
		err = w.store.CompleteJob(bctx, j.ID)
	case hctx.Err() != nil:
		// Interrupted by shutdown: keep the lease; the job runs again after it expires.
		log.Warn("job interrupted, will run again after its lease", "err", herr)
		return true, nil
	case IsPermanent(herr):
		log.Error("job failed for good", "err", herr)
		err = w.store.BuryJob(bctx, j.ID, herr.Error())
	case j.Attempts >= w.o.maxAttempts(j.Kind):
		log.Error("job failed for good: no attempts left", "err", herr, "max_attempts", w.o.maxAttempts(j.Kind))
		err = w.store.BuryJob(bctx, j.ID, fmt.Sprintf("gave up after %d attempts: %s", j.Attempts, herr))
	default:
		delay := Backoff(j.Attempts, w.o.MinBackoff, w.o.MaxBackoff)
		log.Warn("job failed, retrying", "err", herr, "in", delay)
		err = w.store.RetryJob(bctx, j.ID, w.o.Now().Add(delay), herr.Error())
	}
	if err != nil {
		return true, fmt.Errorf("record job %d: %w", j.ID, err)
	}
	return true, nil
}

// run calls the job's handler, turning a panic into an ordinary (retried) error and keeping the
// lease alive while the handler works.
func (w *Worker) run(ctx context.Context, j Job) (err error) {
	h, ok := w.handlers[j.Kind]
	if !ok {
		return Permanent(fmt.Errorf("%w %q", ErrUnknownKind, j.Kind))
	}
	stop := w.heartbeat(ctx, j)
	defer stop()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("job: handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return h(ctx, j)
}

// heartbeat extends the job's lease every third of it until stop is called, so only a dead
// worker's job is ever taken over.
func (w *Worker) heartbeat(ctx context.Context, j Job) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(w.o.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if err := w.store.ExtendLease(ctx, j.ID, w.o.LeaseNow().Add(w.o.Lease)); err != nil {
					w.o.Logger.Warn("job: extend lease", "job", j.ID, "err", err)
				}
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// Backoff is the delay before retry number attempts (1 for the first failure): min doubled per
// attempt, capped at max, with jitter drawn from its upper half so retries of many jobs failing
// together spread out.
func Backoff(attempts int, min, max time.Duration) time.Duration {
	d := min
	for i := 1; i < attempts && d < max; i++ {
		d *= 2
	}
	if d > max || d <= 0 {
		d = max
	}
	half := d / 2
	return half + rand.N(d-half+1)
}
