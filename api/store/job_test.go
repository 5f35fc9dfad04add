package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/store"
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
	j, err := s.JobByKey(t.Context(), key)
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
		counts, err := s.JobCounts(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(counts) != 1 || counts[store.JobQueued] != 1 {
			t.Fatalf("counts = %v, want one queued job", counts)
		}
		if _, err := s.JobByKey(t.Context(), "nope"); !errors.Is(err, store.ErrNotFound) {
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
			j, ok, err := s.ClaimJob(t.Context(), jobT0, lease)
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
		if j, ok, err := s.ClaimJob(t.Context(), jobT0, lease); err != nil || ok {
			t.Fatalf("claim with nothing due = %+v, %v, %v", j, ok, err)
		}
	})
}

func TestClaimJobTakesOverExpiredLease(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		lease := time.Minute
		dead, ok, err := s.ClaimJob(t.Context(), jobT0, lease)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		// The lease is held up to and including lease_until.
		if _, ok, err := s.ClaimJob(t.Context(), jobT0.Add(lease), lease); err != nil || ok {
			t.Fatalf("claimed at lease end: ok=%v err=%v", ok, err)
		}
		j, ok, err := s.ClaimJob(t.Context(), jobT0.Add(lease+time.Microsecond), lease)
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
		j, _, err := s.ClaimJob(t.Context(), jobT0, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ExtendLease(t.Context(), j.ID, jobT0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.ClaimJob(t.Context(), jobT0.Add(30*time.Minute), time.Minute); err != nil || ok {
			t.Fatalf("claimed an extended lease: ok=%v err=%v", ok, err)
		}
	})
}

func TestRetryJobRequeuesAtRunAt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, err := s.ClaimJob(t.Context(), jobT0, time.Minute)
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
		if _, ok, _ := s.ClaimJob(t.Context(), at.Add(-time.Microsecond), time.Minute); ok {
			t.Fatal("claimed before run_at")
		}
		j2, ok, err := s.ClaimJob(t.Context(), at, time.Minute)
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
				j, _, err := s.ClaimJob(t.Context(), jobT0, time.Minute)
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
				if _, ok, _ := s.ClaimJob(t.Context(), jobT0.Add(24*time.Hour), time.Minute); ok {
					t.Fatal("a finished job was claimed again")
				}
			})
		})
	}
}

func TestCompleteJobWinsOverStaleBurial(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		mustEnqueue(t, s, "k", "r", "r", jobT0)
		j, _, _ := s.ClaimJob(t.Context(), jobT0, time.Minute)
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
		j, _, _ := s.ClaimJob(t.Context(), jobT0, time.Minute)
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
					j, ok, err := s.ClaimJob(context.Background(), jobT0, time.Hour)
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
