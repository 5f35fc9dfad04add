package job_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// clock is a settable clock for the worker.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func enqueue(t *testing.T, s store.Backend, kind, ref string, at time.Time) {
	t.Helper()
	if err := s.Enqueue(t.Context(), kind, ref, kind+":"+ref, at); err != nil {
		t.Fatal(err)
	}
}

func info(t *testing.T, s store.Backend, key string) store.JobInfo {
	t.Helper()
	j, err := storetest.Inspect(s).JobByKey(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func runOnce(t *testing.T, w *job.Worker) bool {
	t.Helper()
	ran, err := w.RunOnce(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return ran
}

func TestRunOnceCompletes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		var got []job.Job
		w := job.NewWorker(s, map[string]job.Handler{
			"provision": func(_ context.Context, j job.Job) error { got = append(got, j); return nil },
		}, job.Options{Now: c.Now, Logger: quiet})
		if runOnce(t, w) {
			t.Fatal("ran a job from an empty queue")
		}
		enqueue(t, s, "provision", "ord_1", t0.Add(time.Second))
		if runOnce(t, w) {
			t.Fatal("ran a job before its run_at")
		}
		c.Set(t0.Add(time.Second))
		if !runOnce(t, w) {
			t.Fatal("due job not run")
		}
		if len(got) != 1 || got[0].Kind != "provision" || got[0].Ref != "ord_1" || got[0].Attempts != 1 {
			t.Fatalf("handler saw %+v", got)
		}
		if st := info(t, s, "provision:ord_1").State; st != store.JobDone {
			t.Fatalf("state = %s, want done", st)
		}
		if runOnce(t, w) {
			t.Fatal("a done job ran again")
		}
	})
}

func TestRetryWithBackoff(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		const failures = 5
		calls := 0
		w := job.NewWorker(s, map[string]job.Handler{
			"k": func(_ context.Context, j job.Job) error {
				calls++
				if j.Attempts != calls {
					t.Errorf("attempt %d reported as %d", calls, j.Attempts)
				}
				if calls <= failures {
					return fmt.Errorf("panel down (call %d)", calls)
				}
				return nil
			},
		}, job.Options{Now: c.Now, MinBackoff: time.Second, MaxBackoff: 4 * time.Second, Logger: quiet})
		enqueue(t, s, "k", "r", t0)
		// Delay after failure n is 1s·2^(n-1) capped at 4s, jittered into its upper half.
		wantMax := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
		for i, max := range wantMax {
			now := c.Now()
			if !runOnce(t, w) {
				t.Fatalf("attempt %d did not run", i+1)
			}
			j := info(t, s, "k:r")
			delay := j.RunAt.Sub(now)
			if j.State != store.JobQueued || delay < max/2 || delay > max {
				t.Fatalf("after failure %d: state %s, delay %v, want queued within [%v, %v]", i+1, j.State, delay, max/2, max)
			}
			if want := fmt.Sprintf("panel down (call %d)", i+1); j.LastError != want {
				t.Fatalf("last error %q, want %q", j.LastError, want)
			}
			c.Set(j.RunAt.Add(-time.Millisecond))
			if runOnce(t, w) {
				t.Fatalf("retry %d ran before its backoff", i+1)
			}
			c.Set(j.RunAt)
		}
		if !runOnce(t, w) {
			t.Fatal("final attempt did not run")
		}
		if j := info(t, s, "k:r"); j.State != store.JobDone || j.Attempts != failures+1 {
			t.Fatalf("job = %+v, want done after %d attempts", j, failures+1)
		}
	})
}

func TestBackoff(t *testing.T) {
	min, max := 100*time.Millisecond, time.Minute
	for attempts := 1; attempts <= 100; attempts++ {
		full := min << min64(attempts-1, 20)
		if full > max {
			full = max
		}
		for range 20 {
			d := job.Backoff(attempts, min, max)
			if d < full/2 || d > full {
				t.Fatalf("Backoff(%d) = %v, want within [%v, %v]", attempts, d, full/2, full)
			}
		}
	}
}

func min64(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func TestLeaseExpiryTakeover(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		lease := 30 * time.Second
		enqueue(t, s, "k", "r", t0)
		// A worker claims the job and dies without a word.
		if _, ok, err := s.ClaimJob(t.Context(), t0, t0, lease); err != nil || !ok {
			t.Fatal(ok, err)
		}
		var attempts []int
		w := job.NewWorker(s, map[string]job.Handler{
			"k": func(_ context.Context, j job.Job) error { attempts = append(attempts, j.Attempts); return nil },
		}, job.Options{Now: c.Now, Lease: lease, Logger: quiet})
		c.Set(t0.Add(lease))
		if runOnce(t, w) {
			t.Fatal("took over a job whose lease is still valid")
		}
		c.Set(t0.Add(lease + time.Millisecond))
		if !runOnce(t, w) {
			t.Fatal("expired lease not taken over")
		}
		if len(attempts) != 1 || attempts[0] != 2 {
			t.Fatalf("attempts seen %v, want [2]", attempts)
		}
		if st := info(t, s, "k:r").State; st != store.JobDone {
			t.Fatalf("state = %s, want done", st)
		}
	})
}

func TestEnqueueDedupe(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		runs := 0
		w := job.NewWorker(s, map[string]job.Handler{"provision": func(context.Context, job.Job) error { runs++; return nil }},
			job.Options{Now: c.Now, Logger: quiet})
		// A settled invoice may be reported twice (webhook and redirect): the key keeps one job.
		for range 3 {
			if err := s.Enqueue(t.Context(), "provision", "ord_1", "provision:ord_1", t0); err != nil {
				t.Fatal(err)
			}
		}
		for runOnce(t, w) {
		}
		// Even after the job is done, the key still refuses a second provisioning.
		if err := s.Enqueue(t.Context(), "provision", "ord_1", "provision:ord_1", t0); err != nil {
			t.Fatal(err)
		}
		for runOnce(t, w) {
		}
		if runs != 1 {
			t.Fatalf("handler ran %d times, want 1", runs)
		}
	})
}

func TestFailuresThatBury(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		tests := []struct {
			name    string
			kind    string
			handler job.Handler
			errHas  string
		}{
			{"permanent", "k", func(context.Context, job.Job) error {
				return fmt.Errorf("provision: %w", job.Permanent(errors.New("order gone")))
			}, "order gone"},
			{"unknown kind", "mystery", nil, `no handler for kind "mystery"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := b.Open(t)
				c := &clock{t: t0}
				w := job.NewWorker(s, map[string]job.Handler{"k": tt.handler}, job.Options{Now: c.Now, Logger: quiet})
				enqueue(t, s, tt.kind, "r", t0)
				if !runOnce(t, w) {
					t.Fatal("job did not run")
				}
				j := info(t, s, tt.kind+":r")
				if j.State != store.JobDead || !strings.Contains(j.LastError, tt.errHas) {
					t.Fatalf("job = %+v, want dead with error containing %q", j, tt.errHas)
				}
				c.Set(t0.Add(24 * time.Hour))
				if runOnce(t, w) {
					t.Fatal("a dead job ran again")
				}
			})
		}
	})
}

func TestPermanent(t *testing.T) {
	base := errors.New("bad")
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{base, false},
		{job.Permanent(base), true},
		{fmt.Errorf("wrapped: %w", job.Permanent(base)), true},
	}
	for _, tt := range tests {
		if got := job.IsPermanent(tt.err); got != tt.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
	if job.Permanent(nil) != nil {
		t.Error("Permanent(nil) != nil")
	}
	if !errors.Is(job.Permanent(base), base) {
		t.Error("Permanent hides the cause from errors.Is")
	}
}

func TestPanicIsRetried(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		calls := 0
		w := job.NewWorker(s, map[string]job.Handler{"k": func(context.Context, job.Job) error {
			calls++
			if calls == 1 {
				panic("nil map")
			}
			return nil
		}}, job.Options{Now: c.Now, Logger: quiet})
		enqueue(t, s, "k", "r", t0)
		if !runOnce(t, w) {
			t.Fatal("job did not run")
		}
		j := info(t, s, "k:r")
		if j.State != store.JobQueued || !strings.Contains(j.LastError, "panicked: nil map") {
			t.Fatalf("after panic %+v, want queued with the panic recorded", j)
		}
		c.Set(j.RunAt)
		if !runOnce(t, w) || info(t, s, "k:r").State != store.JobDone {
			t.Fatal("job not done after the retry")
		}
	})
}

func TestWorkersRunEachJobExactlyOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		const workers, jobs = 4, 200
		var mu sync.Mutex
		runs := map[string]int{}
		total := 0
		all := make(chan struct{})
		handler := func(_ context.Context, j job.Job) error {
			mu.Lock()
			defer mu.Unlock()
			runs[j.Ref]++
			if total++; total == jobs {
				close(all)
			}
			return nil
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		var ws []*job.Worker
		for range workers {
			w := job.NewWorker(s, map[string]job.Handler{"k": handler}, job.Options{Poll: 5 * time.Millisecond, Logger: quiet})
			ws = append(ws, w)
			wg.Go(func() {
				if err := w.Run(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		for i := range jobs {
			enqueue(t, s, "k", fmt.Sprintf("ord_%03d", i), time.Now())
			ws[i%workers].Notify()
		}
		<-all
		cancel()
		wg.Wait()
		if len(runs) != jobs {
			t.Fatalf("%d distinct jobs ran, want %d", len(runs), jobs)
		}
		for ref, n := range runs {
			if n != 1 {
				t.Errorf("%s ran %d times", ref, n)
			}
		}
		counts, err := storetest.Inspect(s).JobCounts(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(counts) != 1 || counts[store.JobDone] != jobs {
			t.Fatalf("counts = %v, want %d done", counts, jobs)
		}
	})
}

// spy reports the worker's store calls to the test.
type spy struct {
	job.Store
	emptyClaim chan struct{}
	extended   chan struct{}
}

func (s *spy) ClaimJob(ctx context.Context, due, now time.Time, lease time.Duration) (job.Job, bool, error) {
	j, ok, err := s.Store.ClaimJob(ctx, due, now, lease)
	if err == nil && !ok && s.emptyClaim != nil {
		select {
		case s.emptyClaim <- struct{}{}:
		default:
		}
	}
	return j, ok, err
}

func (s *spy) ExtendLease(ctx context.Context, id int64, until time.Time) error {
	err := s.Store.ExtendLease(ctx, id, until)
	if s.extended != nil {
		select {
		case s.extended <- struct{}{}:
		default:
		}
	}
	return err
}

func TestNotifyWakesIdleWorker(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		sp := &spy{Store: s, emptyClaim: make(chan struct{}, 1)}
		ran := make(chan string, 1)
		w := job.NewWorker(sp, map[string]job.Handler{"k": func(_ context.Context, j job.Job) error { ran <- j.Ref; return nil }},
			job.Options{Poll: time.Hour, Concurrency: 1, Logger: quiet}) // only Notify can wake it
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		<-sp.emptyClaim // the worker found nothing and went idle
		enqueue(t, s, "k", "r", time.Now())
		w.Notify()
		if ref := <-ran; ref != "r" {
			t.Fatalf("ran %q", ref)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

func TestHeartbeatKeepsLongJobLeased(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		sp := &spy{Store: s, extended: make(chan struct{})}
		lease := 30 * time.Millisecond
		w := job.NewWorker(sp, map[string]job.Handler{"k": func(context.Context, job.Job) error {
			// Outlive the lease several times over, measured by heartbeats rather than by sleeping.
			for range 4 {
				<-sp.extended
			}
			return nil
		}}, job.Options{Lease: lease, Logger: quiet})
		enqueue(t, s, "k", "r", time.Now())
		if !runOnce(t, w) {
			t.Fatal("job did not run")
		}
		if j := info(t, s, "k:r"); j.State != store.JobDone || j.Attempts != 1 {
			t.Fatalf("job = %+v, want done on its first attempt", j)
		}
	})
}

func TestShutdownFinishesInFlightJob(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		started, release := make(chan struct{}), make(chan struct{})
		w := job.NewWorker(s, map[string]job.Handler{"k": func(ctx context.Context, _ job.Job) error {
			close(started)
			<-release
			return ctx.Err() // the handler's context is still alive during the grace period
		}}, job.Options{Concurrency: 1, Grace: time.Hour, Logger: quiet})
		enqueue(t, s, "k", "r", time.Now())
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		<-started
		cancel()
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if st := info(t, s, "k:r").State; st != store.JobDone {
			t.Fatalf("state = %s, want done", st)
		}
	})
}

func TestShutdownInterruptKeepsLease(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		lease := time.Minute
		started := make(chan struct{})
		w := job.NewWorker(s, map[string]job.Handler{"k": func(ctx context.Context, _ job.Job) error {
			close(started)
			<-ctx.Done() // a long job that only stops when interrupted
			return ctx.Err()
		}}, job.Options{Concurrency: 1, Grace: time.Millisecond, Lease: lease, Now: c.Now, Logger: quiet})
		enqueue(t, s, "k", "r", t0)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		<-started
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		j := info(t, s, "k:r")
		if j.State != store.JobRunning || !j.LeaseUntil.Equal(t0.Add(lease)) || j.Attempts != 1 {
			t.Fatalf("after interruption %+v, want still leased until %v", j, t0.Add(lease))
		}
		// After a restart, the job runs again once the lease has expired.
		next := job.NewWorker(s, map[string]job.Handler{"k": func(context.Context, job.Job) error { return nil }},
			job.Options{Now: c.Now, Lease: lease, Logger: quiet})
		if runOnce(t, next) {
			t.Fatal("interrupted job re-run while its lease holds")
		}
		c.Set(t0.Add(lease + time.Second))
		if !runOnce(t, next) || info(t, s, "k:r").State != store.JobDone {
			t.Fatal("interrupted job not re-run after its lease")
		}
	})
}

func TestShutdownIsBoundedWhenHandlerIgnoresContext(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		started, release := make(chan struct{}), make(chan struct{})
		defer close(release)
		w := job.NewWorker(s, map[string]job.Handler{"k": func(context.Context, job.Job) error {
			close(started)
			<-release // deaf to cancellation
			return nil
		}}, job.Options{Concurrency: 1, Grace: time.Millisecond, Logger: quiet})
		enqueue(t, s, "k", "r", time.Now())
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		<-started
		cancel()
		if err := <-done; err != nil { // returns although the handler is still blocked
			t.Fatal(err)
		}
		if j := info(t, s, "k:r"); j.State != store.JobRunning {
			t.Fatalf("state = %s, want the abandoned job still leased", j.State)
		}
	})
}

// A job that cannot succeed is tried its kind's number of times, then buried (dead) with the
// reason; a kind without a limit of its own stops at DefaultMaxAttempts. Nothing retries forever.
func TestFailingJobStopsAfterMaxAttempts(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			kind     string
			max      map[string]int
			attempts int // Options.Attempts: the shop's STREAMCART_JOB_ATTEMPTS
			want     int
		}{
			{"provision", map[string]int{"provision": 3}, 0, 3},
			{"other", map[string]int{"provision": 3}, 0, job.DefaultMaxAttempts},
			{"other", map[string]int{"provision": 3}, 4, 4},
			{"provision", map[string]int{"provision": 3}, 4, 3},
		}
		for _, tc := range cases {
			s := b.Open(t)
			c := &clock{t: t0}
			calls := 0
			w := job.NewWorker(s, map[string]job.Handler{
				tc.kind: func(context.Context, job.Job) error { calls++; return errors.New("line is gone") },
			}, job.Options{Now: c.Now, MinBackoff: time.Second, MaxBackoff: time.Second, Logger: quiet, MaxAttempts: tc.max, Attempts: tc.attempts})
			enqueue(t, s, tc.kind, "ord_1", t0)
			for runOnce(t, w) {
				c.Set(c.Now().Add(time.Hour)) // past any backoff
			}
			j := info(t, s, tc.kind+":ord_1")
			if calls != tc.want || j.State != store.JobDead || j.Attempts != tc.want || !strings.Contains(j.LastError, "line is gone") {
				t.Fatalf("%s: %d calls, job %+v; want dead after %d attempts", tc.kind, calls, j, tc.want)
			}
		}
	})
}

// TestDefaultAttemptsSpanAboutThreeDays: with the default backoff, a job failing every time is
// retried for about three days before it is dead: each delay is drawn from the upper half of its
// step, so the span lies between half the sum of the steps and the whole sum, three days on average.
func TestDefaultAttemptsSpanAboutThreeDays(t *testing.T) {
	min, max := time.Second, time.Hour // the defaults
	var steps time.Duration
	for attempt := 1; attempt < job.DefaultMaxAttempts; attempt++ {
		full := min << min64(attempt-1, 20)
		if full > max {
			full = max
		}
		steps += full
	}
	if mean := steps * 3 / 4; mean < 70*time.Hour || mean > 74*time.Hour {
		t.Fatalf("mean span of %d attempts = %v, want about 72h", job.DefaultMaxAttempts, mean)
	}
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: t0}
		w := job.NewWorker(s, map[string]job.Handler{
			"k": func(context.Context, job.Job) error { return errors.New("down") },
		}, job.Options{Now: c.Now, Logger: quiet})
		enqueue(t, s, "k", "r", t0)
		for runOnce(t, w) || info(t, s, "k:r").State == store.JobQueued {
			c.Set(info(t, s, "k:r").RunAt)
		}
		span := c.Now().Sub(t0)
		if j := info(t, s, "k:r"); j.State != store.JobDead || j.Attempts != job.DefaultMaxAttempts {
			t.Fatalf("job = %+v, want dead after %d attempts", j, job.DefaultMaxAttempts)
		}
		if span < steps/2 || span > steps {
			t.Fatalf("dead after %v, want within [%v, %v]", span, steps/2, steps)
		}
	})
}

// TestRequeuedDeadJobRunsAgain: a job dead after its attempts, requeued by an operator (streamcart
// jobs retry), runs at once with all its attempts ahead and completes; a cancelled one never runs.
func TestRequeuedDeadJobRunsAgain(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: time.Now()}
		up := false
		calls := 0
		w := job.NewWorker(s, map[string]job.Handler{"provision": func(context.Context, job.Job) error {
			calls++
			if !up {
				return errors.New("panel unavailable")
			}
			return nil
		}}, job.Options{Now: c.Now, MaxBackoff: time.Second, Logger: quiet, MaxAttempts: map[string]int{"provision": 3}})
		enqueue(t, s, "provision", "ord_1", c.Now())
		enqueue(t, s, "provision", "ord_2", c.Now().Add(time.Hour))
		for runOnce(t, w) {
			c.Set(c.Now().Add(2 * time.Second))
		}
		dead := info(t, s, "provision:ord_1")
		if dead.State != store.JobDead || dead.Attempts != 3 || !strings.Contains(dead.LastError, "panel unavailable") {
			t.Fatalf("job = %+v, want dead after 3 attempts with the last error", dead)
		}
		if _, err := s.CancelJob(t.Context(), info(t, s, "provision:ord_2").ID); err != nil {
			t.Fatal(err)
		}
		up = true
		if _, err := s.RequeueJob(t.Context(), dead.ID); err != nil {
			t.Fatal(err)
		}
		c.Set(c.Now().Add(2 * time.Hour)) // past the cancelled job's run_at too
		for runOnce(t, w) {
		}
		if j := info(t, s, "provision:ord_1"); j.State != store.JobDone || j.Attempts != 1 || calls != 4 {
			t.Fatalf("after retry: job %+v, %d calls; want done at its first new attempt", j, calls)
		}
		if j := info(t, s, "provision:ord_2"); j.State != store.JobCancelled || j.Attempts != 0 {
			t.Fatalf("cancelled job = %+v, want never run", j)
		}
	})
}
