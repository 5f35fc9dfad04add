package job_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// TestDailyRunsOncePerDayOnAnyNumberOfWorkers starts two replicas on one queue, each with its
// worker and daily job, over four days of a moved clock: the day's work runs exactly once a day,
// never twice, and a failing day does not stop the next.
func TestDailyRunsOncePerDayOnAnyNumberOfWorkers(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: time.Date(2030, 3, 4, 22, 0, 0, 0, time.UTC)}
		var runs []time.Time
		failOn := time.Date(2030, 3, 6, 0, 0, 0, 0, time.UTC)
		var workers []*job.Worker
		for range 2 {
			d := job.Daily{Kind: "prune", Enqueue: s.Enqueue, Now: c.Now, Run: func(_ context.Context, now time.Time) error {
				runs = append(runs, now)
				if now.Truncate(24 * time.Hour).Equal(failOn) {
					return job.Permanent(errors.New("disk full"))
				}
				return nil
			}}
			if err := d.Start(t.Context()); err != nil { // each replica at its start
				t.Fatal(err)
			}
			workers = append(workers, job.NewWorker(s, map[string]job.Handler{"prune": d.Handle}, job.Options{Now: c.Now, Logger: quiet}))
		}
		drainAll := func() {
			for runOnce(t, workers[0]) || runOnce(t, workers[1]) {
			}
		}
		// Every hour for four days, both workers look for due jobs.
		for range 4 * 24 {
			drainAll()
			c.Set(c.Now().Add(time.Hour))
		}
		want := []string{"2030-03-04 22:00", "2030-03-05 00:00", "2030-03-06 00:00", "2030-03-07 00:00", "2030-03-08 00:00"}
		var got []string
		for _, r := range runs {
			got = append(got, r.Format("2006-01-02 15:04"))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("runs at %v, want %v", got, want)
		}
		if j := info(t, s, job.DailyKey("prune", failOn)); j.State != store.JobDead || j.Ref != "2030-03-06" {
			t.Fatalf("failed day's job = %+v, want dead", j)
		}
		if j := info(t, s, "prune:2030-03-09"); j.State != store.JobQueued || !j.RunAt.Equal(time.Date(2030, 3, 9, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("next day's job = %+v, want queued at midnight", j)
		}
	})
}

// TestDailyCatchesUpOnce: a shop down for a week runs the overdue job once on its return, and
// the next one the following midnight, not once per missed day.
func TestDailyCatchesUpOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: time.Date(2030, 3, 4, 12, 0, 0, 0, time.UTC)}
		runs := 0
		d := job.Daily{Kind: "prune", Enqueue: s.Enqueue, Now: c.Now, Run: func(context.Context, time.Time) error { runs++; return nil }}
		w := job.NewWorker(s, map[string]job.Handler{"prune": d.Handle}, job.Options{Now: c.Now, Logger: quiet})
		if err := d.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		for runOnce(t, w) {
		}
		c.Set(c.Now().Add(7 * 24 * time.Hour))
		if err := d.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		for runOnce(t, w) {
		}
		if runs != 3 { // the first day, the overdue 5 March job, today's (11 March) from Start
			t.Fatalf("%d runs, want 3", runs)
		}
		c.Set(c.Now().Add(24 * time.Hour))
		for runOnce(t, w) {
		}
		if runs != 4 {
			t.Fatalf("%d runs after another day, want 4", runs)
		}
	})
}
