package orderwatch_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/orderwatch"
)

// fakeSource is a store whose listener the test drives: each ListenOrders run hands its changed
// function to the test, and ends with failWith when the test fails it.
type fakeSource struct {
	mu       sync.Mutex
	versions map[string]int64
	runs     chan func(string) // one per ListenOrders run
	fail     chan error
}

func newFakeSource() *fakeSource {
	return &fakeSource{versions: map[string]int64{}, runs: make(chan func(string), 8), fail: make(chan error, 1)}
}

func (f *fakeSource) ListenOrders(ctx context.Context, changed func(string)) error {
	f.runs <- changed
	select {
	case <-ctx.Done():
		return nil
	case err := <-f.fail:
		return err
	}
}

func (f *fakeSource) OrderVersions(_ context.Context, ids []string) (map[string]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int64{}
	for _, id := range ids {
		if v, ok := f.versions[id]; ok {
			out[id] = v
		}
	}
	return out, nil
}

func (f *fakeSource) set(id string, v int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.versions[id] = v
}

func woken(t *testing.T, w *orderwatch.Watch, want bool, what string) {
	t.Helper()
	wait := 100 * time.Millisecond
	if want {
		wait = 5 * time.Second
	}
	select {
	case <-w.C:
		if !want {
			t.Fatalf("%s: woken, want not", what)
		}
	case <-time.After(wait):
		if want {
			t.Fatalf("%s: not woken", what)
		}
	}
}

func TestHub(t *testing.T) {
	src := newFakeSource()
	src.set("ord_a", 1)
	src.set("ord_b", 1)
	h := orderwatch.New(src, time.Hour, slog.New(slog.DiscardHandler)) // no safety tick during the test
	defer h.Close()

	a := h.Watch("ord_a")
	woken(t, a, true, "a new watch") // starts signalled
	changed := <-src.runs            // the first watch started the listener
	b := h.Watch("ord_b")
	woken(t, b, true, "a second new watch")
	if n := h.Watching(); n != 2 {
		t.Fatalf("Watching = %d, want 2", n)
	}

	// A notification names its order: only that order's watches wake.
	changed("ord_a")
	woken(t, a, true, "a, notified")
	woken(t, b, false, "b, when a is notified")

	// "Something changed": the versions are read, and only an order whose version moved wakes
	// (every watched order wakes at its first read: its version was not known yet).
	changed("")
	woken(t, a, true, "a, at the first version read")
	woken(t, b, true, "b, at the first version read")
	src.set("ord_b", 2)
	changed("")
	woken(t, b, true, "b, whose version moved")
	woken(t, a, false, "a, whose version did not")

	// A failed listener is run again, and the versions are read for what it missed.
	src.set("ord_a", 5)
	src.fail <- errors.New("connection lost")
	woken(t, a, true, "a, changed while the listener was down")
	select {
	case <-src.runs:
	case <-time.After(5 * time.Second):
		t.Fatal("the listener was not started again")
	}

	// The last watch closed stops the listener; the next starts it again.
	a.Close()
	b.Close()
	a.Close() // twice is harmless
	if n := h.Watching(); n != 0 {
		t.Fatalf("Watching = %d after closing all, want 0", n)
	}
	c := h.Watch("ord_a")
	defer c.Close()
	select {
	case <-src.runs:
	case <-time.After(5 * time.Second):
		t.Fatal("a watch after the last one closed did not start the listener again")
	}
}

// TestHubSafetyTick: without any notification, the tick reads the versions and wakes a watch
// whose order changed.
func TestHubSafetyTick(t *testing.T) {
	src := newFakeSource()
	src.set("ord_a", 1)
	h := orderwatch.New(src, 20*time.Millisecond, slog.New(slog.DiscardHandler))
	defer h.Close()
	a := h.Watch("ord_a")
	defer a.Close()
	<-src.runs
	woken(t, a, true, "a new watch")
	woken(t, a, true, "the first tick's read")
	woken(t, a, false, "ticks without a change")
	src.set("ord_a", 2)
	woken(t, a, true, "the tick after a change nobody notified")
}
