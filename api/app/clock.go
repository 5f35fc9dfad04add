package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
)

// settingClock names the settings row holding the test clock's offset, a Go duration ("624h0m0s").
const settingClock = "test_clock_offset"

// ClockOffset is how far the test clock of the shops on st is ahead of real time; zero when it
// was never advanced.
func ClockOffset(ctx context.Context, st store.Backend) (time.Duration, error) {
	raw, err := st.Setting(ctx, settingClock)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the test clock: %w", err)
	}
	d, err := time.ParseDuration(string(raw))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("read the test clock: stored offset %q is not a duration", raw)
	}
	return d, nil
}

// AdvanceClock moves the test clock of every shop on st forward by d and returns its new offset.
// Refused unless cfg takes no real money (payment.CheckTestClock). The clock only moves forward,
// as Stripe's test clocks do: ResetClock goes back to real time.
func AdvanceClock(ctx context.Context, cfg Config, st store.Backend, d time.Duration) (time.Duration, error) {
	if err := payment.CheckTestClock(cfg.Payment); err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, fmt.Errorf("advance the test clock by %s: want a positive duration", d)
	}
	offset, err := ClockOffset(ctx, st)
	if err != nil {
		return 0, err
	}
	offset += d
	if err := st.PutSetting(ctx, settingClock, []byte(offset.String())); err != nil {
		return 0, fmt.Errorf("advance the test clock: %w", err)
	}
	return offset, nil
}

// ResetClock puts the shops on st back on real time. Always allowed: it can only undo a test.
func ResetClock(ctx context.Context, st store.Backend) error {
	if err := st.PutSetting(ctx, settingClock, []byte(time.Duration(0).String())); err != nil {
		return fmt.Errorf("reset the test clock: %w", err)
	}
	return nil
}

// Now is the shop's business time: its clock (Config.Now, else real time) plus the test clock.
func (a *App) Now() time.Time { return a.clock.Now() }

// RefreshClock reads the test clock's offset and reports whether it changed. Run calls it with
// every catalog poll, so an advance made through any process reaches every replica within one
// poll interval. A shop with a live gateway (payment.CheckTestClock) stays on real time whatever
// the database says, and says so once.
func (a *App) RefreshClock(ctx context.Context) (bool, error) {
	offset, err := ClockOffset(ctx, a.store)
	if err != nil {
		return false, err
	}
	if offset != 0 {
		if refused := payment.CheckTestClock(a.cfg.Payment); refused != nil {
			if !a.clockRefused.Swap(true) {
				a.log.Error("the test clock is advanced in the database but this shop keeps real time", "offset", offset, "err", refused)
			}
			offset = 0
		}
	}
	return a.clock.Set(offset), nil
}
