package logbuf_test

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/logbuf"
)

// out is an output that records each write it gets.
type out struct {
	mu     sync.Mutex
	writes []string
}

func (o *out) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writes = append(o.writes, string(p))
	return len(p), nil
}

func (o *out) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.writes, "")
}

func (o *out) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.writes)
}

func TestLinesWaitThenGoOutTogether(t *testing.T) {
	o := &out{}
	w := logbuf.New(o)
	defer w.Close()
	w.Write([]byte("a\n"))
	w.Write([]byte("b\n"))
	if o.count() != 0 {
		t.Fatalf("written at once: %q", o.writes)
	}
	deadline := time.Now().Add(5 * time.Second)
	for o.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if o.count() != 1 || o.text() != "a\nb\n" {
		t.Fatalf("after the delay: %q, want one write of both lines", o.writes)
	}
}

func TestFullBufferIsWritten(t *testing.T) {
	o := &out{}
	w := logbuf.New(o)
	defer w.Close()
	line := strings.Repeat("x", 1000) + "\n"
	n := logbuf.Size/len(line) + 1
	for range n {
		w.Write([]byte(line))
	}
	if o.count() != 1 || len(o.text()) != (n-1)*len(line) {
		t.Fatalf("%d writes of %d bytes, want one of the %d lines that fitted", o.count(), len(o.text()), n-1)
	}
	big := strings.Repeat("y", logbuf.Size+1)
	w.Write([]byte(big))
	if o.count() != 3 || !strings.HasSuffix(o.text(), big) {
		t.Fatalf("a line larger than the buffer: %d writes, want what waited then the line", o.count())
	}
}

func TestWarningGoesOutAtOnceAfterWhatWaited(t *testing.T) {
	o := &out{}
	w := logbuf.New(o)
	defer w.Close()
	log := slog.New(logbuf.Urgent(slog.NewTextHandler(w, nil), w)).With("app", "shop")
	log.Info("first")
	if o.count() != 0 {
		t.Fatalf("info written at once: %q", o.writes)
	}
	log.Warn("second")
	text := o.text()
	if o.count() != 1 || !strings.Contains(text, "msg=first app=shop") || strings.Index(text, "first") > strings.Index(text, "second") {
		t.Fatalf("after a warning: %q, want both lines in order in one write", o.writes)
	}
}

func TestCloseWritesWhatWaitsAndLaterLines(t *testing.T) {
	o := &out{}
	w := logbuf.New(o)
	w.Write([]byte("before\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("after\n"))
	if got := o.text(); got != "before\nafter\n" {
		t.Fatalf("written %q", got)
	}
}

// TestConcurrentLinesStayWhole: lines written at once from many goroutines come out whole, each
// once.
func TestConcurrentLinesStayWhole(t *testing.T) {
	o := &out{}
	w := logbuf.New(o)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				fmt.Fprintf(w, "goroutine %d line %d %s\n", g, i, strings.Repeat("z", i%300))
			}
		})
	}
	wg.Wait()
	w.Close()
	seen := map[string]bool{}
	for line := range strings.Lines(o.text()) {
		var g, i int
		if _, err := fmt.Sscanf(line, "goroutine %d line %d ", &g, &i); err != nil {
			t.Fatalf("broken line %q: %v", line, err)
		}
		if want := fmt.Sprintf("goroutine %d line %d %s\n", g, i, strings.Repeat("z", i%300)); line != want || seen[line] {
			t.Fatalf("line %q cut or repeated", line)
		}
		seen[line] = true
	}
	if len(seen) != 8*2000 {
		t.Fatalf("%d lines, want %d", len(seen), 8*2000)
	}
}

// gated is an output whose writes wait until its gate is closed; each write says it started.
type gated struct {
	out
	started chan struct{}
	gate    chan struct{}
}

func (g *gated) Write(p []byte) (int, error) {
	select {
	case g.started <- struct{}{}:
	default: // only the first start is waited for
	}
	<-g.gate
	return g.out.Write(p)
}

// TestSlowOutputHoldsOnlyItsWriter: while a full buffer goes out to an output that does not
// answer, other goroutines' lines go into the second buffer without waiting; only a line that
// finds both buffers full waits. When the output answers, every line comes out once, whole, and
// the first write is the first buffer's lines.
func TestSlowOutputHoldsOnlyItsWriter(t *testing.T) {
	g := &gated{started: make(chan struct{}, 1), gate: make(chan struct{})}
	w := logbuf.New(g)
	line := func(who string, i int) string { return fmt.Sprintf("%s %04d %s\n", who, i, strings.Repeat("x", 990)) }
	perBuffer := logbuf.Size / len(line("one", 0))
	var wg sync.WaitGroup
	wg.Go(func() { // fills the first buffer and, with one line more, sends it out: stuck there
		for i := range perBuffer + 1 {
			w.Write([]byte(line("one", i)))
		}
	})
	<-g.started

	wrote := make(chan struct{})
	go func() {
		w.Write([]byte(line("two", 0)))
		close(wrote)
	}()
	select {
	case <-wrote:
	case <-time.After(30 * time.Second):
		t.Fatal("a line waited for the other buffer's write to a stuck output")
	}

	// The second buffer full too: now a writer waits for the output, and nothing is dropped.
	filled := make(chan struct{})
	wg.Go(func() {
		for i := 1; i <= perBuffer; i++ {
			w.Write([]byte(line("two", i)))
		}
		close(filled)
	})
	select {
	case <-filled:
		t.Fatal("wrote past both buffers while the output was stuck")
	case <-time.After(300 * time.Millisecond):
	}
	close(g.gate)
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	g.mu.Lock()
	first := g.writes[0]
	g.mu.Unlock()
	if want := perBuffer * len(line("one", 0)); len(first) != want || !strings.HasPrefix(first, line("one", 0)) {
		t.Fatalf("first write %d bytes, want the first buffer's %d", len(first), want)
	}
	seen := map[string]bool{}
	for l := range strings.Lines(g.text()) {
		if seen[l] {
			t.Fatalf("line %.12q twice", l)
		}
		seen[l] = true
	}
	if len(seen) != 2*(perBuffer+1) {
		t.Fatalf("%d lines, want %d", len(seen), 2*(perBuffer+1))
	}
	for i := range perBuffer + 1 {
		for _, who := range []string{"one", "two"} {
			if l := line(who, i); !seen[l] {
				t.Fatalf("line %.12q lost", l)
			}
		}
	}
}
