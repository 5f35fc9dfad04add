// Package logbuf buffers the process log: lines wait in memory and go out in large writes — when
// Size bytes wait, Delay after the first of them, at once after a line at warning level or above
// (Urgent), and on Close — so a request's access line costs no write system call of its own.
// Nothing is dropped: when the output is slower than the lines for long enough to fill both
// buffers, a writer waits for it, as it would unbuffered. A process
// killed outright (SIGKILL, a crash outside any request) loses at most Delay's worth of lines
// below warning level.
package logbuf

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

const (
	// Size is how many bytes wait at most before they are written.
	Size = 64 << 10
	// Delay is how long a line waits at most before it is written.
	Delay = 100 * time.Millisecond
)

// Writer buffers whole writes (the log handlers write one line per call) for out; safe for
// concurrent use. A write is never split across two writes to out.
//
// Two buffers: while one goes out (a write to out, made without the lock), lines fill the other,
// so a slow output holds up only the goroutine writing to it, and the others only once the second
// buffer is full too. One write to out at a time keeps the lines in order.
type Writer struct {
	mu      sync.Mutex
	written sync.Cond // broadcast when a write to out ends; L is &mu
	out     io.Writer
	buf     []byte      // the lines waiting
	spare   []byte      // the other buffer; nil while it is going out
	writing bool        // a write to out is under way, outside mu
	timer   *time.Timer // runs Flush Delay after the buffer stopped being empty
	closed  bool
}

// New returns a Writer for out; Close it to write what waits.
func New(out io.Writer) *Writer {
	w := &Writer{out: out, buf: make([]byte, 0, Size), spare: make([]byte, 0, Size)}
	w.written.L = &w.mu
	w.timer = time.AfterFunc(time.Hour, func() { w.Flush() })
	w.timer.Stop()
	return w
}

// Write queues p, writing what waits first when p does not fit; after Close it writes p at once.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.closed && len(w.buf) > 0 && len(w.buf)+len(p) > Size {
		if err := w.flush(); err != nil {
			return 0, err
		}
	}
	if w.closed || len(p) > Size {
		// After Close, or a line larger than a buffer: it goes out by itself, after what waits.
		if err := w.flush(); err != nil {
			return 0, err
		}
		return w.out.Write(p)
	}
	if len(w.buf) == 0 {
		w.timer.Reset(Delay)
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// Flush writes what waits.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush()
}

// waitWritten waits, with mu held, until no write to out is under way.
func (w *Writer) waitWritten() {
	for w.writing {
		w.written.Wait()
	}
}

// flush writes, with mu held, every line written before the call: after the write under way, if
// any, what waits, through out without the lock while the other buffer takes new lines.
func (w *Writer) flush() error {
	w.waitWritten()
	if len(w.buf) == 0 {
		return nil
	}
	w.timer.Stop() // the next line into the empty buffer starts it again
	full := w.buf
	w.buf, w.spare, w.writing = w.spare, nil, true
	w.mu.Unlock()
	_, err := w.out.Write(full)
	w.mu.Lock()
	w.spare, w.writing = full[:0], false // a failed write's lines are lost either way: out refuses them
	w.written.Broadcast()
	return err
}

// Close writes what waits; later writes go straight to out (lines logged while shutting down
// are not lost).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return w.flush()
}

// Urgent wraps h, which writes to w, so that a record at warning level or above is written
// at once, with every line before it.
func Urgent(h slog.Handler, w *Writer) slog.Handler { return urgent{h, w} }

type urgent struct {
	slog.Handler
	w *Writer
}

func (u urgent) Handle(ctx context.Context, r slog.Record) error {
	err := u.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := u.w.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (u urgent) WithAttrs(attrs []slog.Attr) slog.Handler {
	return urgent{u.Handler.WithAttrs(attrs), u.w}
}

func (u urgent) WithGroup(name string) slog.Handler {
	return urgent{u.Handler.WithGroup(name), u.w}
}
