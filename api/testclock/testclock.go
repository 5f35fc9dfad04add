// Package testclock is the test clock as the database keeps it: an offset, shared by every
// process on the database, that `streamcart clock advance|show|reset` moves and each running
// shop follows (Follower) to put its business time (clock.Offset) ahead of real time. It lives
// apart from package clock because it reads the store, which depends on clock.
package testclock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
)

// setting names the settings row holding the offset, a Go duration ("624h0m0s").
const setting = "test_clock_offset"

// Settings is where the offset is kept.
type Settings interface {
	Setting(ctx context.Context, key string) ([]byte, error)
	PutSetting(ctx context.Context, key string, value []byte) error
	UpdateSetting(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error)
	// MoveTestClock is UpdateSetting that also keeps the move with the real time it took
	// effect (the console reads rows stamped in real time by the offset then in force).
	MoveTestClock(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error)
}

// Offset is how far the test clock of the shops on st is ahead of real time; zero when it was
// never advanced.
func Offset(ctx context.Context, st Settings) (time.Duration, error) {
	raw, err := st.Setting(ctx, setting)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the test clock: %w", err)
	}
	return parseOffset(raw)
}

// parseOffset reads a stored offset.
func parseOffset(raw []byte) (time.Duration, error) {
	d, err := time.ParseDuration(string(raw))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("read the test clock: stored offset %q is not a duration", raw)
	}
	return d, nil
}

// Advance moves the test clock of every shop on st forward by d and returns its new offset.
// Refused unless pay takes no real money (payment.CheckTestClock). The clock only moves forward,
// as Stripe's test clocks do: Reset goes back to real time.
func Advance(ctx context.Context, pay payment.Config, st Settings, d time.Duration) (time.Duration, error) {
	if err := payment.CheckTestClock(pay); err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, fmt.Errorf("advance the test clock by %s: want a positive duration", d)
	}
	// One read-and-write: two advances at once both count.
	var offset time.Duration
	_, err := st.MoveTestClock(ctx, setting, func(old []byte, ok bool) ([]byte, error) {
		var was time.Duration // zero when never advanced
		if ok {
			var err error
			if was, err = parseOffset(old); err != nil {
				return nil, err
			}
		}
		offset = was + d
		return []byte(offset.String()), nil
	})
	if err != nil {
		return 0, fmt.Errorf("advance the test clock: %w", err)
	}
	return offset, nil
}

// Reset puts the shops on st back on real time. Always allowed: it can only undo a test.
func Reset(ctx context.Context, st Settings) error {
	zero := func([]byte, bool) ([]byte, error) { return []byte(time.Duration(0).String()), nil }
	if _, err := st.MoveTestClock(ctx, setting, zero); err != nil {
		return fmt.Errorf("reset the test clock: %w", err)
	}
	return nil
}

// Follower keeps a running shop's business time on the test clock.
type Follower struct {
	clock *clock.Offset
	st    Settings
	pay   payment.Config
	log   *slog.Logger
	// refused records that a live gateway kept this shop off the test clock (reported once).
	refused atomic.Bool
}

// NewFollower moves c with the test clock on st, unless pay takes real money.
func NewFollower(c *clock.Offset, st Settings, pay payment.Config, log *slog.Logger) *Follower {
	return &Follower{clock: c, st: st, pay: pay, log: log}
}

// Refresh reads the test clock's offset, sets the clock to it and reports whether that changed
// it. A shop with a live gateway (payment.CheckTestClock) stays on real time whatever the
// database says, and says so once.
func (f *Follower) Refresh(ctx context.Context) (bool, error) {
	offset, err := Offset(ctx, f.st)
	if err != nil {
		return false, err
	}
	if offset != 0 {
		if refused := payment.CheckTestClock(f.pay); refused != nil {
			if !f.refused.Swap(true) {
				f.log.Error("the test clock is advanced in the database but this shop keeps real time", "offset", offset, "err", refused)
			}
			offset = 0
		}
	}
	return f.clock.Set(offset), nil
}
