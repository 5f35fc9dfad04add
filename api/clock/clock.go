// Package clock is the shop's business time: what payment deadlines, promotion and trial
// windows, session and sign-in link expiry, job schedules and renewals are measured on. It is
// real time plus the test clock's offset (`streamcart clock advance`), which a test shop moves
// forward instead of waiting. Timeouts, leases and latency stay on real time.
package clock

import (
	"sync/atomic"
	"time"
)

// Clock tells business time.
type Clock interface{ Now() time.Time }

// Offset is a base clock moved forward by an offset that can change while the shop runs.
type Offset struct {
	base   func() time.Time
	offset atomic.Int64 // nanoseconds
}

// OrReal is now, or real time (time.Now) when now is nil: the default of every optional clock.
func OrReal(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// NewOffset is base (time.Now when nil) with no offset.
func NewOffset(base func() time.Time) *Offset {
	return &Offset{base: OrReal(base)}
}

// Now is the base clock's time plus the offset.
func (o *Offset) Now() time.Time { return o.base().Add(o.Offset()) }

// Base is the time without the offset: what leases and timeouts are measured on.
func (o *Offset) Base() time.Time { return o.base() }

// Offset is how far the clock is ahead of its base.
func (o *Offset) Offset() time.Duration { return time.Duration(o.offset.Load()) }

// Set moves the clock to d ahead of its base, and reports whether that changed it.
func (o *Offset) Set(d time.Duration) bool { return o.offset.Swap(int64(d)) != int64(d) }
