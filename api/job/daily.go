package job

import (
	"context"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// Daily runs one job of a kind per UTC day, whatever the number of workers and replicas: the day's
// job is enqueued under the unique key KIND:YYYY-MM-DD, which the queue accepts once, and each run
// queues the next day's before doing its work, so a run that fails for good does not stop the
// following days.
type Daily struct {
	Kind string
	// Enqueue is the queue's (Store.Enqueue): it ignores a unique key already enqueued.
	Enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	// Run does the day's work at now.
	Run func(ctx context.Context, now time.Time) error
	Now func() time.Time // time.Now when nil
}

func (d Daily) now() time.Time { return clock.OrReal(d.Now)() }

// Start queues today's job, due at once: every replica calls it at start and the day still gets
// one run. A shop that was down for days runs once on its return, not once per missed day.
func (d Daily) Start(ctx context.Context) error {
	now := d.now()
	return d.queue(ctx, now, now)
}

// Handle is the kind's Handler: it queues tomorrow's job, due at the start of tomorrow (UTC),
// then runs today's work.
func (d Daily) Handle(ctx context.Context, _ Job) error {
	now := d.now()
	tomorrow := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	if err := d.queue(ctx, tomorrow, tomorrow); err != nil {
		return err
	}
	return d.Run(ctx, now)
}

// DailyKey is the unique key of kind's job of day's UTC date.
func DailyKey(kind string, day time.Time) string {
	return kind + ":" + day.UTC().Format(time.DateOnly)
}

func (d Daily) queue(ctx context.Context, day, runAt time.Time) error {
	return d.Enqueue(ctx, d.Kind, day.UTC().Format(time.DateOnly), DailyKey(d.Kind, day), runAt)
}
