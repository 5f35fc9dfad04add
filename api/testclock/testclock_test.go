package testclock_test

import (
	"bytes"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store/storetest"
	"github.com/streamcart/streamcart/api/testclock"
)

var (
	testMode = payment.Config{TestMode: true}
	live     = payment.Config{StripeSecretKey: "sk_live_clock"}
)

// The offset starts at zero, only moves forward, is refused where real money moves, and reset
// puts it back to zero; each step is read back from the database.
func TestAdvanceAndReset(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st, ctx := b.Open(t), t.Context()
		if got, err := testclock.Offset(ctx, st); err != nil || got != 0 {
			t.Fatalf("never advanced: offset %s, %v; want 0", got, err)
		}
		steps := []struct {
			name    string
			reset   bool
			pay     payment.Config
			by      time.Duration
			want    time.Duration // the offset after the step
			wantErr error         // nil: any error fails; errAny: some error, offset unchanged
		}{
			{name: "first advance", pay: testMode, by: 25 * time.Hour, want: 25 * time.Hour},
			{name: "advances add up", pay: testMode, by: 29 * 24 * time.Hour, want: 25*time.Hour + 29*24*time.Hour},
			{name: "live key refused", pay: live, by: time.Hour, want: 25*time.Hour + 29*24*time.Hour, wantErr: payment.ErrTestClockLive},
			{name: "zero refused", pay: testMode, by: 0, want: 25*time.Hour + 29*24*time.Hour, wantErr: errAny},
			{name: "backwards refused", pay: testMode, by: -time.Hour, want: 25*time.Hour + 29*24*time.Hour, wantErr: errAny},
			{name: "reset", reset: true, want: 0},
			{name: "advance after reset", pay: testMode, by: 36 * time.Hour, want: 36 * time.Hour},
		}
		for _, s := range steps {
			var err error
			switch {
			case s.reset:
				err = testclock.Reset(ctx, st)
			default:
				var got time.Duration
				got, err = testclock.Advance(ctx, s.pay, st, s.by)
				if err == nil && got != s.want {
					t.Errorf("%s: Advance returned %s, want %s", s.name, got, s.want)
				}
			}
			switch {
			case s.wantErr == nil && err != nil:
				t.Fatalf("%s: %v", s.name, err)
			case s.wantErr == errAny && err == nil, s.wantErr != nil && s.wantErr != errAny && !errors.Is(err, s.wantErr):
				t.Fatalf("%s: error %v, want %v", s.name, err, s.wantErr)
			}
			if got, err := testclock.Offset(ctx, st); err != nil || got != s.want {
				t.Fatalf("%s: stored offset %s, %v; want %s", s.name, got, err, s.want)
			}
		}
	})
}

// Forty `clock advance 1h` at once move the clock forty hours: each advance adds to the one
// before it, and each returns a different offset.
func TestConcurrentAdvancesAllCount(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st, ctx := b.Open(t), t.Context()
		const n = 40
		got := make([]time.Duration, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				var err error
				if got[i], err = testclock.Advance(ctx, testMode, st, time.Hour); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if offset, err := testclock.Offset(ctx, st); err != nil || offset != n*time.Hour {
			t.Fatalf("after %d advances of 1h: offset %s, %v; want %s", n, offset, err, n*time.Hour)
		}
		slices.Sort(got)
		for i, d := range got {
			if d != time.Duration(i+1)*time.Hour {
				t.Fatalf("the advances returned %v; want 1h…%dh, each once", got, n)
			}
		}
	})
}

// errAny stands for any error in the table above.
var errAny = errors.New("any error")

// An offset the database holds but that is no duration (or a negative one) is an error, not zero.
func TestOffsetRefusesAStoredNonDuration(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st, ctx := b.Open(t), t.Context()
		for _, raw := range []string{"soon", "-1h", ""} {
			if err := st.PutSetting(ctx, "test_clock_offset", []byte(raw)); err != nil {
				t.Fatal(err)
			}
			if got, err := testclock.Offset(ctx, st); err == nil || !strings.Contains(err.Error(), "is not a duration") {
				t.Errorf("stored %q: offset %s, %v; want a 'not a duration' error", raw, got, err)
			}
		}
	})
}

// A follower puts its clock where the database says and reports moves; one on a shop that takes
// real money stays on real time and says so once, however often it refreshes.
func TestFollowerRefresh(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		st, ctx := b.Open(t), t.Context()
		t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		test, kept := clock.NewOffset(func() time.Time { return t0 }), clock.NewOffset(func() time.Time { return t0 })
		followers := []struct {
			name  string
			clock *clock.Offset
			f     *testclock.Follower
			moves bool
		}{
			{"test mode", test, testclock.NewFollower(test, st, testMode, log), true},
			{"live", kept, testclock.NewFollower(kept, st, live, log), false},
		}
		for _, step := range []struct {
			advance   time.Duration // 0: reset
			wantMoved bool          // for the test-mode follower
		}{{26 * 24 * time.Hour, true}, {0, true}, {time.Hour, true}} {
			if step.advance > 0 {
				if _, err := testclock.Advance(ctx, testMode, st, step.advance); err != nil {
					t.Fatal(err)
				}
			} else if err := testclock.Reset(ctx, st); err != nil {
				t.Fatal(err)
			}
			want, _ := testclock.Offset(ctx, st)
			for _, fl := range followers {
				for refresh := range 2 { // a second refresh finds nothing new
					moved, err := fl.f.Refresh(ctx)
					if err != nil {
						t.Fatalf("%s: %v", fl.name, err)
					}
					wantOffset, wantMoved := want, step.wantMoved && refresh == 0
					if !fl.moves {
						wantOffset, wantMoved = 0, false
					}
					if moved != wantMoved || !fl.clock.Now().Equal(t0.Add(wantOffset)) {
						t.Fatalf("%s at offset %s, refresh %d: moved %v, now %s; want %v, %s",
							fl.name, want, refresh, moved, fl.clock.Now(), wantMoved, t0.Add(wantOffset))
					}
				}
			}
		}
		if n := strings.Count(logs.String(), "this shop keeps real time"); n != 1 {
			t.Fatalf("the live shop said it keeps real time %d times, want once:\n%s", n, logs.String())
		}
	})
}
