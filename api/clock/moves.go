package clock

import "time"

// Move is one move of the test clock: from At (real time) on, business time is Offset ahead.
type Move struct {
	At     time.Time
	Offset time.Duration
}

// Moves is the test clock's history, oldest first. Rows that are stamped in real time (the
// outbox, the webhook inbox, the job queue: their retries, leases and retention run on real
// time) are read in business time through it, by the offset in force when they were written,
// not the one in force now: a mail sent before `clock advance 30d` stays where it was.
type Moves []Move

// OffsetAt is the offset in force at the real time t: the last move at or before t (zero
// before any).
func (m Moves) OffsetAt(t time.Time) time.Duration {
	var d time.Duration
	for _, mv := range m {
		if mv.At.After(t) {
			break
		}
		d = mv.Offset
	}
	return d
}

// Business is the business time of the real time t.
func (m Moves) Business(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(m.OffsetAt(t))
}

// Real is the earliest real time whose business time is b (the clock can go back with a reset,
// so more than one may be), or b less the largest offset when none is exact: a lower bound for
// searching rows stamped in real time from a business time on.
func (m Moves) Real(b time.Time) time.Time {
	// Segments [start, end) of real time, each with its offset.
	start, offset := time.Time{}, time.Duration(0)
	var largest time.Duration
	for i := 0; i <= len(m); i++ {
		end := time.Time{} // open
		if i < len(m) {
			end = m[i].At
		}
		if r := b.Add(-offset); (start.IsZero() || !r.Before(start)) && (end.IsZero() || r.Before(end)) {
			return r
		}
		if i < len(m) {
			start, offset = m[i].At, m[i].Offset
			largest = max(largest, offset)
		}
	}
	return b.Add(-largest)
}
