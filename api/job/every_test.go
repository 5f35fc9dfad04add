package job_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// TestEveryRunsOncePerPeriodOnAnyNumberOfWorkers: two replicas, each with its worker and its
// quarter-hourly job, over two hours of a moved clock: one run per quarter hour, never two.
func TestEveryRunsOncePerPeriodOnAnyNumberOfWorkers(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		s := b.Open(t)
		c := &clock{t: time.Date(2030, 3, 4, 10, 7, 0, 0, time.UTC)}
		var runs []string
		var workers []*job.Worker
		for range 2 {
			e := job.Every{Kind: "lines", Period: 15 * time.Minute, Enqueue: s.Enqueue, Now: c.Now, Run: func(_ context.Context, now time.Time) error {
				runs = append(runs, now.Format("15:04"))
				return nil
			}}
			if err := e.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			workers = append(workers, job.NewWorker(s, map[string]job.Handler{"lines": e.Handle}, job.Options{Now: c.Now, Logger: quiet}))
		}
		for range 24 { // every 5 minutes for two hours
			for runOnce(t, workers[0]) || runOnce(t, workers[1]) {
			}
			c.Set(c.Now().Add(5 * time.Minute))
		}
		want := "10:07,10:17,10:32,10:47,11:02,11:17,11:32,11:47,12:02"
		if got := strings.Join(runs, ","); got != want {
			t.Fatalf("runs at %s, want %s", got, want)
		}
	})
}
