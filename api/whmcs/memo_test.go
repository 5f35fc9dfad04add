package whmcs_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/whmcs"
)

// TestMemo: 40 callers of one key at once are one read; its answer is kept for the memo's time
// and read again after it, or at once when forgotten; a failure is not kept; keys are apart.
func TestMemo(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	m := whmcs.NewMemo[string, int](whmcs.ReadFor, clock)
	var calls atomic.Int32
	release := make(chan struct{})
	read := func(context.Context) (int, error) {
		<-release
		return int(calls.Add(1)), nil
	}
	var wg sync.WaitGroup
	got := make([]int, 40)
	for i := range got {
		wg.Go(func() {
			v, err := m.Do(t.Context(), "WELCOME10", read)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	close(release) // callers after the read ended take its kept answer: one read either way
	wg.Wait()
	for i, v := range got {
		if v != 1 {
			t.Fatalf("caller %d got %d, want the one read's 1", i, v)
		}
	}
	if v, _ := m.Do(t.Context(), "WELCOME10", read); v != 1 || calls.Load() != 1 {
		t.Fatalf("within the memo's time: %d after %d reads", v, calls.Load())
	}
	advance(whmcs.ReadFor)
	if v, _ := m.Do(t.Context(), "WELCOME10", read); v != 2 {
		t.Fatalf("after the memo's time: %d, want a second read", v)
	}
	m.Forget("WELCOME10")
	if v, _ := m.Do(t.Context(), "WELCOME10", read); v != 3 {
		t.Fatalf("after Forget: %d, want a third read", v)
	}
	if v, _ := m.Do(t.Context(), "OTHER", read); v != 4 {
		t.Fatalf("another key: %d, want its own read", v)
	}
	failing := func(context.Context) (int, error) { calls.Add(1); return 0, errors.New("down") }
	before := calls.Load()
	for range 2 {
		if _, err := m.Do(t.Context(), "DOWN", failing); err == nil {
			t.Fatal("a failure answered nil")
		}
	}
	if calls.Load()-before != 2 {
		t.Fatalf("%d reads for two calls after a failure, want 2 (a failure is not kept)", calls.Load()-before)
	}
}
