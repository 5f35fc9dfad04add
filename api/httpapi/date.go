package httpapi

import (
	"net/http"
	"sync/atomic"
	"time"
)

// The Date field of the site's answers, formatted once a second instead of once an answer.
//
// net/http reads the clock and formats the date for every answer that has no Date of its own:
// 2 % of a product-list request's instructions and a clock read (~100 ns on a VM). While a
// CoarseDeadlines watchdog runs, its tick keeps the current second's value here, and the site's
// exchange puts it on each answer as its header goes out, as nginx serves its cached time: at
// most a tick behind the clock, well inside the second the field can say. Without a watchdog
// (a test's server, the metrics listener), net/http writes its own.

// dateValue is one second's Date field value.
type dateValue struct {
	sec int64
	v   []string // shared and read-only, as net/http only reads header values
}

var (
	currentDate atomic.Pointer[dateValue]
	// dateKeepers counts the running watchdogs: the value is dropped when the last one stops,
	// so a stopped tick never leaves a stale date behind.
	dateKeepers atomic.Int32
)

// keepDate notes the second of now as the Date to send.
func keepDate(now time.Time) {
	sec := now.Unix()
	if d := currentDate.Load(); d != nil && d.sec == sec {
		return
	}
	currentDate.Store(&dateValue{sec: sec, v: []string{now.UTC().Format(http.TimeFormat)}})
}

func startKeepingDate(now time.Time) {
	dateKeepers.Add(1)
	keepDate(now)
}

func stopKeepingDate() {
	if dateKeepers.Add(-1) == 0 {
		currentDate.Store(nil)
	}
}

// stampDate puts the kept Date on h unless the answer has one (or a nil one: net/http's way of
// sending none) or no watchdog keeps it.
func stampDate(h http.Header) {
	if d := currentDate.Load(); d != nil {
		if _, ok := h["Date"]; !ok {
			h["Date"] = d.v
		}
	}
}
