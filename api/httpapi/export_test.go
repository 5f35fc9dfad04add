package httpapi

import (
	"net"
	"time"
)

// WithCompression is withCompression for the external tests of its cases no endpoint has (a
// large error answer, 204, 304, a body already encoded).
var WithCompression = withCompression

// AccessJSON, AccessAttrs and AccessMsg are the access line's two writers' parts, for the test
// that compares them.
var (
	AccessJSON = accessJSON
	// AppendSeconds and AppendJSONFloat are the access line's duration, fast and general.
	AppendSeconds   = appendSeconds
	AppendJSONFloat = appendJSONFloat
	// PeerAddr is the connection's address as the access line takes it (cached).
	PeerAddr    = peerAddr
	AccessAttrs = accessAttrs
)

const AccessMsg = accessMsg

// CoarseDeadlinesAt is CoarseDeadlines with the watchdog's clock and its check given to the
// test instead of a ticker: deadlines at least near away from now() are noted, check(at)
// enforces those due at at.
func CoarseDeadlinesAt(ln net.Listener, now func() time.Time, near time.Duration) (net.Listener, func(at time.Time)) {
	w := newWatchdog(now, near)
	return &coarseListener{Listener: ln, w: w, stop: make(chan struct{})}, func(at time.Time) { w.check(at) }
}

// HeldRead reports whether c, a connection CoarseDeadlines accepted, holds a one-byte read off
// its socket; ReadsOnSocket is how many of its reads are on the socket now.
func HeldRead(c net.Conn) bool {
	cc := c.(*coarseConn)
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.held
}

func ReadsOnSocket(c net.Conn) int32 { return c.(*coarseConn).reading.Load() }

// AppendRFC3339Nano is the access line's time stamp.
var AppendRFC3339Nano = appendRFC3339Nano

// KeptDate is the Date field value the running watchdogs keep; "" when none runs.
func KeptDate() string {
	if d := currentDate.Load(); d != nil {
		return d.v[0]
	}
	return ""
}
