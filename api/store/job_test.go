package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// jobT0 is a fixed instant with the store's microsecond precision.
var jobT0 = time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)

func mustEnqueue(t *testing.T, s store.Backend, kind, ref, key string, runAt time.Time) {
	t.Helper()
	if err := s.Enqueue(t.Context(), kind, ref, key, runAt); err != nil {
		t.Fatal(err)
	}
}

func mustJob(t *testing.T, s store.Backend, key string) store.JobInfo {
	t.Helper()
	j, err := storetest.Inspect(s).JobByKey(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestEnqueueDedupesByUniqueKey(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "provision", "ord_1", "provision:ord_1", jobT0)
		mustEnqueue(t, s, "provision", "ord_2", "provision:ord_1", jobT0.Add(time.Hour))
		j := mustJob(t, s, "provision:ord_1")
		if j.Ref != "ord_1" || j.State != store.JobQueued || !j.RunAt.Equal(jobT0) || j.Attempts != 0 {
			t.Fatalf("job = %+v, want the first enqueue untouched", j)
		}
		counts, err := storetest.Inspect(s).JobCounts(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(counts) != 1 || counts[store.JobQueued] != 1 {
			t.Fatalf("counts = %v, want one queued job", counts)
		}
		if _, err := storetest.Inspect(s).JobByKey(t.Context(), "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("JobByKey(unknown) err = %v, want ErrNotFound", err)
		}
	})
}

func TestClaimJobPicksOldestDue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "later", "later", jobT0.Add(time.Minute))
		mustEnqueue(t, s, "k", "second", "second", jobT0)
		mustEnqueue(t, s, "k", "first", "first", jobT0.Add(-time.Second))
		mustEnqueue(t, s, "k", "third", "third", jobT0) // same run_at as "second": id breaks the tie
		lease := 30 * time.Second
		for _, want := range []string{"first", "second", "third"} {
			j, ok, err := s.ClaimJob(t.Context(), jobT0, jobT0, lease)
			if err != nil || !ok {
				t.Fatalf("claim: ok=%v err=%v, want %s", ok, err, want)
			}
			if j.Ref != want || j.Kind != "k" || j.Attempts != 1 {
				t.Fatalf("claimed %+v, want ref %s attempt 1", j, want)
			}
			info := mustJob(t, s, want)
			if info.State != store.JobRunning || !info.LeaseUntil.Equal(jobT0.Add(lease)) {
				t.Fatalf("after claim %+v, want running until %v", info, jobT0.Add(lease))
			}
		}
		if j, ok, err := s.ClaimJob(t.Context(), jobT0, jobT0, lease); err != nil || ok {
			t.Fatalf("claim with nothing due = %+v, %v, %v", j, ok, err)
		}
	})
}

func TestClaimJobTakesOverExpiredLease(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		lease := time.Minute
		dead, ok, err := s.ClaimJob(t.Context(), jobT0, jobT0, lease)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		// The lease is held up to and including lease_until.
		if _, ok, err := s.ClaimJob(t.Context(), jobT0.Add(lease), jobT0.Add(lease), lease); err != nil || ok {
			t.Fatalf("claimed at lease end: ok=%v err=%v", ok, err)
		}
		j, ok, err := s.ClaimJob(t.Context(), jobT0.Add(lease+time.Microsecond), jobT0.Add(lease+time.Microsecond), lease)
		if err != nil || !ok {
			t.Fatalf("takeover: ok=%v err=%v", ok, err)
		}
		if j.ID != dead.ID || j.Attempts != 2 {
			t.Fatalf("takeover = %+v, want job %d attempt 2", j, dead.ID)
		}
	})
}

func TestExtendLeaseKeepsJob(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, err := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ExtendLease(t.Context(), j.ID, jobT0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.ClaimJob(t.Context(), jobT0.Add(30*time.Minute), jobT0.Add(30*time.Minute), time.Minute); err != nil || ok {
			t.Fatalf("claimed an extended lease: ok=%v err=%v", ok, err)
		}
	})
}

func TestRetryJobRequeuesAtRunAt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, err := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		at := jobT0.Add(5 * time.Second)
		if err := s.RetryJob(t.Context(), j.ID, at, "panel down"); err != nil {
			t.Fatal(err)
		}
		info := mustJob(t, s, "r")
		if info.State != store.JobQueued || !info.RunAt.Equal(at) || info.LastError != "panel down" || !info.LeaseUntil.IsZero() {
			t.Fatalf("after retry %+v", info)
		}
		if _, ok, _ := s.ClaimJob(t.Context(), at.Add(-time.Microsecond), at.Add(-time.Microsecond), time.Minute); ok {
			t.Fatal("claimed before run_at")
		}
		j2, ok, err := s.ClaimJob(t.Context(), at, at, time.Minute)
		if err != nil || !ok || j2.Attempts != 2 {
			t.Fatalf("claim at run_at = %+v, %v, %v", j2, ok, err)
		}
	})
}

func TestFinishingVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		finish func(s store.Backend, id int64) error
		state  string
		errMsg string
	}{
		{"complete", func(s store.Backend, id int64) error { return s.CompleteJob(context.Background(), id) }, store.JobDone, ""},
		{"bury", func(s store.Backend, id int64) error { return s.BuryJob(context.Background(), id, "bad input") }, store.JobDead, "bad input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s store.Backend) {
				mustEnqueue(t, s, "k", "r", "r", jobT0)
				j, _, err := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if err := tt.finish(s, j.ID); err != nil {
					t.Fatal(err)
				}
				// A stale worker's late retry or burial does not reopen a finished job.
				if err := s.RetryJob(t.Context(), j.ID, jobT0, "stale"); err != nil {
					t.Fatal(err)
				}
				if err := s.BuryJob(t.Context(), j.ID, "stale"); err != nil {
					t.Fatal(err)
				}
				info := mustJob(t, s, "r")
				if info.State != tt.state || info.LastError != tt.errMsg {
					t.Fatalf("job = %+v, want state %s error %q", info, tt.state, tt.errMsg)
				}
				if _, ok, _ := s.ClaimJob(t.Context(), jobT0.Add(24*time.Hour), jobT0.Add(24*time.Hour), time.Minute); ok {
					t.Fatal("a finished job was claimed again")
				}
			})
		})
	}
}

func TestCompleteJobWinsOverStaleBurial(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, _ := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		if err := s.BuryJob(t.Context(), j.ID, "stale worker gave up"); err != nil {
			t.Fatal(err)
		}
		if err := s.CompleteJob(t.Context(), j.ID); err != nil {
			t.Fatal(err)
		}
		if info := mustJob(t, s, "r"); info.State != store.JobDone {
			t.Fatalf("state = %s, want done", info.State)
		}
		if err := s.CompleteJob(t.Context(), 9999); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("CompleteJob(unknown) err = %v, want ErrNotFound", err)
		}
	})
}

func TestLongLastErrorIsClipped(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, _ := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		long := make([]byte, 10000)
		for i := range long {
			long[i] = 'x'
		}
		if err := s.RetryJob(t.Context(), j.ID, jobT0, string(long)); err != nil {
			t.Fatal(err)
		}
		if got := len(mustJob(t, s, "r").LastError); got == 0 || got >= len(long) {
			t.Fatalf("last error length %d, want clipped", got)
		}
	})
}

func TestConcurrentClaimsNeverShareAJob(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const jobs, claimers = 100, 8
		for i := range jobs {
			ref := string(rune('A'+i/26)) + string(rune('a'+i%26))
			mustEnqueue(t, s, "k", ref, ref, jobT0)
		}
		var mu sync.Mutex
		seen := map[int64]int{}
		var wg sync.WaitGroup
		for range claimers {
			wg.Go(func() {
				for {
					j, ok, err := s.ClaimJob(context.Background(), jobT0, jobT0, time.Hour)
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					seen[j.ID]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(seen) != jobs {
			t.Fatalf("claimed %d distinct jobs, want %d", len(seen), jobs)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("job %d claimed %d times", id, n)
			}
		}
	})
}

// claimed enqueues a job under key and claims it: the job is running.
func claimed(t *testing.T, s store.Backend, key string) store.JobInfo {
	t.Helper()
	mustEnqueue(t, s, "k", key, key, jobT0)
	for {
		j, ok, err := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		if err != nil || !ok {
			t.Fatalf("claim %s: %v %v", key, ok, err)
		}
		if j.Ref == key {
			return mustJob(t, s, key)
		}
	}
}

// TestOperatorRequeueAndCancel drives RequeueJob and CancelJob from every state: dead, cancelled
// and queued jobs come back queued, due now, with all their attempts ahead; queued and dead jobs
// can be cancelled; a running job is never touched, nor a done one.
func TestOperatorRequeueAndCancel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		dead := claimed(t, s, "dead")
		if err := s.BuryJob(ctx, dead.ID, "gave up after 1 attempts: line is gone"); err != nil {
			t.Fatal(err)
		}
		running := claimed(t, s, "running")
		done := claimed(t, s, "done")
		if err := s.CompleteJob(ctx, done.ID); err != nil {
			t.Fatal(err)
		}
		failed := claimed(t, s, "failed")
		if err := s.RetryJob(ctx, failed.ID, jobT0.Add(time.Hour), "timeout"); err != nil {
			t.Fatal(err)
		}

		before := time.Now().Add(-time.Second)
		j, err := s.RequeueJob(ctx, dead.ID)
		if err != nil {
			t.Fatal(err)
		}
		if j.State != store.JobQueued || j.Attempts != 0 || j.RunAt.Before(before) || j.RunAt.After(time.Now()) || j.LastError == "" {
			t.Fatalf("requeued dead job = %+v, want queued now, 0 attempts, last error kept", j)
		}
		if j, err = s.RequeueJob(ctx, failed.ID); err != nil || j.State != store.JobQueued || j.Attempts != 0 || j.RunAt.After(time.Now()) {
			t.Fatalf("requeued failed job = %+v, %v; want queued now", j, err)
		}
		for _, id := range []int64{running.ID, done.ID} {
			if _, err := s.RequeueJob(ctx, id); !errors.Is(err, store.ErrJobState) {
				t.Errorf("requeue job %d: err = %v, want ErrJobState", id, err)
			}
			if _, err := s.CancelJob(ctx, id); !errors.Is(err, store.ErrJobState) {
				t.Errorf("cancel job %d: err = %v, want ErrJobState", id, err)
			}
		}
		if j := mustJob(t, s, "running"); j.State != store.JobRunning || j.Attempts != 1 {
			t.Fatalf("running job after refused operations = %+v", j)
		}

		if j, err = s.CancelJob(ctx, dead.ID); err != nil || j.State != store.JobCancelled {
			t.Fatalf("cancel queued job = %+v, %v", j, err)
		}
		if _, err := s.CancelJob(ctx, dead.ID); !errors.Is(err, store.ErrJobState) {
			t.Fatalf("cancel twice: err = %v, want ErrJobState", err)
		}
		// A cancelled job is never claimed; requeued, it runs again.
		if j, ok, err := s.ClaimJob(ctx, time.Now().Add(time.Minute), time.Now().Add(time.Minute), time.Minute); err != nil || !ok || j.ID != failed.ID {
			t.Fatalf("claim = %+v %v %v, want the requeued failed job only", j, ok, err)
		}
		if _, ok, err := s.ClaimJob(ctx, time.Now().Add(time.Minute), time.Now().Add(time.Minute), time.Minute); err != nil || ok {
			t.Fatalf("claim after: ok=%v err=%v, want nothing due (the other is cancelled)", ok, err)
		}
		if j, err = s.RequeueJob(ctx, dead.ID); err != nil || j.State != store.JobQueued {
			t.Fatalf("requeue cancelled job = %+v, %v", j, err)
		}
		for _, op := range []func(context.Context, int64) (store.JobInfo, error){s.RequeueJob, s.CancelJob, s.Job} {
			if _, err := op(ctx, 999999); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("unknown job: err = %v, want ErrNotFound", err)
			}
		}
	})
}

// TestListJobsFilters lists newest first, by state and kind, up to the limit.
func TestListJobsFilters(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		mustEnqueue(t, s, "mail", "1", "mail:1", jobT0)
		mustEnqueue(t, s, "provision", "ord_1", "provision:ord_1", jobT0)
		mustEnqueue(t, s, "provision", "ord_2", "provision:ord_2", jobT0)
		mustEnqueue(t, s, "mail", "2", "mail:2", jobT0)
		// BuryJob buries running jobs only: claim the two oldest first.
		for range 2 {
			if _, _, err := s.ClaimJob(ctx, jobT0, jobT0, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		for _, key := range []string{"mail:1", "provision:ord_1"} {
			if err := s.BuryJob(ctx, mustJob(t, s, key).ID, "x"); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			f    store.JobFilter
			want []string
		}{
			{store.JobFilter{}, []string{"mail:2", "provision:ord_2", "provision:ord_1", "mail:1"}},
			{store.JobFilter{State: store.JobDead}, []string{"provision:ord_1", "mail:1"}},
			{store.JobFilter{Kind: "provision"}, []string{"provision:ord_2", "provision:ord_1"}},
			{store.JobFilter{State: store.JobDead, Kind: "mail"}, []string{"mail:1"}},
			{store.JobFilter{State: store.JobQueued, Kind: "mail"}, []string{"mail:2"}},
			{store.JobFilter{State: store.JobDone}, nil},
			{store.JobFilter{Limit: 1}, []string{"mail:2"}},
		}
		for _, c := range cases {
			jobs, err := s.ListJobs(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, j := range jobs {
				got = append(got, j.UniqueKey)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("ListJobs(%+v) = %v, want %v", c.f, got, c.want)
			}
		}
	})
}

// A claim is due on business time (the test clock) and leased on real time: with the business
// clock 26 days ahead, a job queued for a business date claims, and a running job whose lease
// has not run out in real time is not taken over.
func TestClaimJobDueOnBusinessTimeLeasedOnRealTime(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ahead := jobT0.Add(26 * 24 * time.Hour)
		mustEnqueue(t, s, "k", "running", "running", jobT0)
		running, ok, err := s.ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
		if err != nil || !ok || running.Ref != "running" {
			t.Fatalf("first claim = %+v, %v, %v", running, ok, err)
		}
		mustEnqueue(t, s, "k", "expire", "expire", ahead.Add(-time.Hour))
		j, ok, err := s.ClaimJob(t.Context(), ahead, jobT0.Add(time.Second), time.Minute)
		if err != nil || !ok || j.Ref != "expire" {
			t.Fatalf("claim at business +26d = %+v, %v, %v; want the job due then", j, ok, err)
		}
		if _, ok, err := s.ClaimJob(t.Context(), ahead, jobT0.Add(2*time.Second), time.Minute); err != nil || ok {
			t.Fatalf("claim with nothing due = %v, %v; the running job's real-time lease is not over", ok, err)
		}
		if j, ok, err := s.ClaimJob(t.Context(), ahead, jobT0.Add(time.Minute+time.Microsecond), time.Minute); err != nil || !ok || j.ID != running.ID {
			t.Fatalf("claim after the real-time lease = %+v, %v, %v; want the running job taken over", j, ok, err)
		}
	})
}
