package job

import (
	"context"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// Every runs one job of a kind per period (a quarter hour, say), whatever the number of workers
// and replicas: as Daily does for days, the period's job is enqueued under the unique key
// KIND:START (the period's start, RFC 3339 UTC), which the queue accepts once, and each run queues
// the next period's before doing its work.
type Every struct {
	Kind   string
	Period time.Duration // > 0
	// Enqueue is the queue's (Store.Enqueue): it ignores a unique key already enqueued.
	Enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	// Run does the period's work at now.
	Run func(ctx context.Context, now time.Time) error
	Now func() time.Time // time.Now when nil
}

func (e Every) now() time.Time { return clock.OrReal(e.Now)() }

// Start queues the current period's job, due at once: every replica calls it at start and the
// period still gets one run. A shop that was down for hours runs once on its return.
func (e Every) Start(ctx context.Context) error {
	now := e.now()
	return e.queue(ctx, now.UTC().Truncate(e.Period), now)
}

// Handle is the kind's Handler: it queues the next period's job, due at its start, then runs.
func (e Every) Handle(ctx context.Context, _ Job) error {
	now := e.now()
	next := now.UTC().Truncate(e.Period).Add(e.Period)
	if err := e.queue(ctx, next, next); err != nil {
		return err
	}
	return e.Run(ctx, now)
}

// EveryKey is the unique key of kind's job of the period starting at start.
func EveryKey(kind string, start time.Time) string {
	return kind + ":" + start.UTC().Format(time.RFC3339)
}

func (e Every) queue(ctx context.Context, start, runAt time.Time) error {
	return e.Enqueue(ctx, e.Kind, start.UTC().Format(time.RFC3339), EveryKey(e.Kind, start), runAt)
}
