package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/metrics"
)

// RequestIDHeader carries a request's id: taken from a trusted proxy, else made here, and
// always sent back.
const RequestIDHeader = "X-Request-Id"

// Observe is what Observed needs.
type Observe struct {
	Log *slog.Logger
	// JSON, when set, is the writer under Log's handler, which must then be slog's JSON handler
	// with no ReplaceAttr and no attributes or groups added (streamcart serve's default logger):
	// the access line is written there directly, in the bytes that handler would write, without
	// slog's generic formatting (a tenth of the CPU of a product-list request). nil: through Log.
	JSON    io.Writer
	Metrics *metrics.Metrics // nil: no metrics
	// TrustedProxies are the peers whose X-Forwarded-For and X-Request-Id are believed: the
	// shop's own proxies, which write them themselves.
	TrustedProxies []netip.Prefix
	// Now is the clock durations are measured with; nil: time.Now.
	Now func() time.Time
	// Traced is set when a tracing layer wraps Observed (the request may carry a span): only
	// then are the span's route and trace id looked up, two walks of the request's context.
	Traced bool
}

// Observed wraps the whole site: every request gets an id (echoed in X-Request-Id), one access
// line (method, route, status, bytes, duration, id, client address) and its HTTP metrics. The
// route is the matched route template (see noteRoute), so ids in paths never become labels.
func Observed(next http.Handler, o Observe) http.Handler {
	now := clock.OrReal(o.Now)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := now()
		outer := r.Context() // the access line names the id itself, not through LogRequestID
		peer := peerAddr(r)  // the connection's address, parsed once for both uses
		ex := &exchange{Context: outer, ResponseWriter: w, status: http.StatusOK}
		ex.id = requestID(r, peer, o.TrustedProxies, &ex.idBytes)
		ex.idHeader[0] = ex.id
		w.Header()[RequestIDHeader] = ex.idHeader[:]
		r = r.WithContext(ex)
		defer func() {
			// Recorded even when a handler panics (net/http then drops the connection).
			var d time.Duration
			var end time.Time
			if o.Now == nil {
				// One monotonic read, and the wall time it implies: time.Now reads both clocks.
				d = time.Since(start)
				end = start.Add(d)
			} else {
				end = now()
				d = end.Sub(start)
			}
			route := ex.route
			if route == "" {
				route = r.Pattern // the site's own mux: /checkout/, /widget/, GET /healthz
			}
			route = routeLabel(route)
			o.Metrics.HTTP(route, r.Method, ex.status, d)
			var traceID string
			if o.Traced {
				if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
					// Known only now: the span was named before routing.
					span.SetName(r.Method + " " + route)
					span.SetAttributes(attribute.String("http.route", route))
				}
			}
			if !o.Log.Enabled(outer, slog.LevelInfo) {
				return
			}
			if o.Traced {
				if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
					traceID = sc.TraceID().String()
				}
			}
			ip := peer // ClientIP's answer for a peer that is not a trusted proxy
			if geo.Trusted(o.TrustedProxies, peer) {
				ip = geo.ClientIPFrom(r, peer, o.TrustedProxies)
			}
			if o.JSON != nil {
				at := end // slog stamps its records with time.Now: so does the line, whatever the clock
				if o.Now != nil {
					at = time.Now()
				}
				if accessJSON(o.JSON, at, r.Method, route, ex.status, ex.bytes, d, ex.id, ip, traceID) {
					return
				}
			}
			o.Log.LogAttrs(outer, slog.LevelInfo, accessMsg, accessAttrs(r.Method, route, ex.status, ex.bytes, d, ex.id, ip, traceID)...)
		}()
		next.ServeHTTP(ex, r)
	})
}

// accessMsg is the access line's message.
const accessMsg = "request"

// accessAttrs are the access line's fields, in their order.
func accessAttrs(method, route string, status int, bytes int64, d time.Duration, id string, ip netip.Addr, traceID string) []slog.Attr {
	attrs := []slog.Attr{
		slog.String("method", method), slog.String("route", route), slog.Int("status", status),
		slog.Int64("bytes", bytes), slog.Float64("duration", d.Seconds()),
		slog.String("request_id", id), slog.String("ip", ip.String()),
	}
	if traceID != "" {
		attrs = append(attrs, slog.String("trace_id", traceID))
	}
	return attrs
}

// accessBufs holds the buffers access lines are formatted in.
var accessBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// accessJSON writes the access line to w as slog's JSON handler writes the record of
// Log.LogAttrs(ctx, LevelInfo, accessMsg, accessAttrs(…)...) stamped at, byte for byte (a test
// compares the two). It reports false, having written nothing, when a value would need more
// than plain characters (JSON escapes, a year outside 0–9999): the caller then logs through slog.
func accessJSON(w io.Writer, at time.Time, method, route string, status int, bytes int64, d time.Duration, id string, ip netip.Addr, traceID string) bool {
	// The id is plain by construction (requestID: validRequestID's characters or a made one).
	if y := at.Year(); y < 0 || y >= 10000 || !plainJSON(method) || !plainJSON(route) || !plainJSON(traceID) {
		return false
	}
	bp := accessBufs.Get().(*[]byte)
	defer accessBufs.Put(bp)
	b := append((*bp)[:0], `{"time":"`...)
	b = appendRFC3339Nano(b, at)
	b = append(b, `","level":"INFO","msg":"`+accessMsg+`","method":"`...)
	b = append(b, method...)
	b = append(b, `","route":"`...)
	b = append(b, route...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, bytes, 10)
	b = append(b, `,"duration":`...)
	b = appendSeconds(b, d)
	b = append(b, `,"request_id":"`...)
	b = append(b, id...)
	b = append(b, `","ip":"`...)
	if n := len(b); ip.IsValid() {
		if b = ip.AppendTo(b); !plainJSON(b[n:]) { // an IPv6 zone is the peer's text
			return false
		}
	} else {
		b = append(b, ip.String()...) // "invalid IP": AppendTo writes nothing for it
	}
	if traceID != "" {
		b = append(b, `","trace_id":"`...)
		b = append(b, traceID...)
	}
	b = append(b, "\"}\n"...)
	*bp = b
	w.Write(b)
	return true
}

// stamp is the RFC 3339 text of one second in one location, cut around where the fraction goes.
type stamp struct {
	sec        int64
	loc        *time.Location
	head, zone []byte // "2006-01-02T15:04:05", "Z07:00"
}

// lastStamp is the second the last access line was stamped in.
var lastStamp atomic.Pointer[stamp]

// appendRFC3339Nano appends t.AppendFormat(b, time.RFC3339Nano), formatting the date, time and
// zone once per second (AppendFormat was 4 % of a product-list request's CPU). t's year must be
// within 0–9999.
func appendRFC3339Nano(b []byte, t time.Time) []byte {
	sec, loc := t.Unix(), t.Location()
	s := lastStamp.Load()
	if s == nil || s.sec != sec || s.loc != loc {
		whole := t.Truncate(time.Second).AppendFormat(nil, time.RFC3339Nano) // no fraction
		const headLen = len("2006-01-02T15:04:05")
		s = &stamp{sec: sec, loc: loc, head: whole[:headLen], zone: whole[headLen:]}
		lastStamp.Store(s)
	}
	b = append(b, s.head...)
	if ns := t.Nanosecond(); ns != 0 {
		// Nine digits, trailing zeros trimmed, as RFC3339Nano's ".999999999".
		var digits [10]byte
		digits[0] = '.'
		for i := 9; i >= 1; i-- {
			digits[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for digits[n-1] == '0' {
			n--
		}
		b = append(b, digits[:n]...)
	}
	return append(b, s.zone...)
}

// plainJSON reports whether s has only printable ASCII other than the quote and the backslash:
// what a JSON string carries as it is.
func plainJSON[T string | []byte](s T) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendJSONFloat appends f as encoding/json writes a float64 (which slog's JSON handler uses).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendSeconds appends appendJSONFloat(b, d.Seconds()) without the float formatting (a
// twentieth of a product-list request's handler CPU) for the durations of nearly every request,
// 1 µs to 1 s: there d.Seconds() is the double nearest to the decimal of d's nanoseconds, at
// most nine significant digits, and no shorter decimal lies within its rounding interval (half
// an ulp, a relative 1e-16, against 1e-9 between such decimals), so the shortest form
// encoding/json writes is that decimal. Other durations go through the float.
func appendSeconds(b []byte, d time.Duration) []byte {
	if d < time.Microsecond || d >= time.Second {
		return appendJSONFloat(b, d.Seconds())
	}
	var digits [11]byte // "0." and nine digits
	digits[0], digits[1] = '0', '.'
	ns := int64(d)
	for i := 10; i >= 2; i-- {
		digits[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := len(digits)
	for digits[n-1] == '0' {
		n--
	}
	return append(b, digits[:n]...)
}

// peerCache holds the parsed addresses of recent connections: net/http gives every request of a
// connection the same RemoteAddr, and parsing it was a tenth of a product-list request's handler
// CPU. Direct-mapped by the address's last bytes (the port's), an entry replaced on a collision.
var peerCache [1024]atomic.Pointer[peerEntry]

type peerEntry struct {
	remote string
	addr   netip.Addr
}

// peerAddr is geo.ClientIP(r, nil), the connection's own address, which depends on RemoteAddr
// alone.
func peerAddr(r *http.Request) netip.Addr {
	s := r.RemoteAddr
	var h uint32
	for i := max(0, len(s)-8); i < len(s); i++ {
		h = h*31 + uint32(s[i])
	}
	slot := &peerCache[h%uint32(len(peerCache))]
	if e := slot.Load(); e != nil && e.remote == s {
		return e.addr
	}
	addr := geo.ClientIP(r, nil)
	slot.Store(&peerEntry{remote: s, addr: addr})
	return addr
}

// RequestID is the id of the request ctx belongs to; "" outside one.
func RequestID(ctx context.Context) string {
	if ex, ok := ctx.Value(exchangeKey{}).(*exchange); ok {
		return ex.id
	}
	return ""
}

// LogRequestID wraps a log handler to add request_id to every line logged with the context of a
// request (ErrorContext and the like), so an error line leads to its access line.
func LogRequestID(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

type exchangeKey struct{}

// exchange is one request's answer as the access line reports it. Not pooled: a context
// detached from the request (work that outlives it) may still read its id.
//
// The exchange is also the request's context (the one it arrived with, plus itself under
// exchangeKey): one allocation instead of a context.WithValue on top of it.
type exchange struct {
	context.Context
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
	route       string
	id          string
	idHeader    [1]string   // the X-Request-Id header's value slice
	idBytes     [idLen]byte // a made id's bytes: id points into them, one allocation fewer
	// One value a layer of the site keeps in the request's own context (Keep) instead of
	// wrapping it in another and copying the request: the storefront.
	keptKey, kept any
}

func (e *exchange) Value(key any) any {
	if key == (exchangeKey{}) {
		return e
	}
	if e.keptKey != nil && key == e.keptKey {
		return e.kept
	}
	return e.Context.Value(key)
}

// Keep makes val the context's value for key, as context.WithValue would, when no value was
// kept yet; it reports whether it did. Only for a layer in front of every handler of the
// request, before any of them reads key: contexts are otherwise immutable.
func (e *exchange) Keep(key, val any) bool {
	if e.keptKey != nil {
		return false
	}
	e.keptKey, e.kept = key, val
	return true
}

func (e *exchange) WriteHeader(code int) {
	if !e.wroteHeader && code >= 200 {
		stampDate(e.ResponseWriter.Header())
		e.status, e.wroteHeader = code, true
	}
	e.ResponseWriter.WriteHeader(code)
}

func (e *exchange) Write(b []byte) (int, error) {
	if !e.wroteHeader {
		stampDate(e.ResponseWriter.Header())
		e.wroteHeader = true
	}
	n, err := e.ResponseWriter.Write(b)
	e.bytes += int64(n)
	return n, err
}

// Flush keeps streaming answers streaming through the wrapper.
func (e *exchange) Flush() {
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		if !e.wroteHeader {
			stampDate(e.ResponseWriter.Header())
			e.wroteHeader = true
		}
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (e *exchange) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// noteRoute records r's matched route template on its exchange. Only a pattern naming its
// method counts (Goa's mux and the method routes of a ServeMux write "GET /path/{id}"): a
// catch-all pattern left on the request by an outer mux says nothing about the route.
func noteRoute(r *http.Request) {
	if !strings.Contains(r.Pattern, " ") {
		return
	}
	if ex, ok := r.Context().Value(exchangeKey{}).(*exchange); ok {
		ex.route = r.Pattern
	}
}

// withRoute notes the route its mux matched before handing the request on.
func withRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noteRoute(r)
		next.ServeHTTP(w, r)
	})
}

// routeLabel is a pattern without its method (a label of its own); no pattern at all, or the
// site's catch-all "/" (which only answers the branded 404), is a path nothing serves, all of
// them one label.
func routeLabel(pattern string) string {
	if pattern == "" || pattern == "/" {
		return "unmatched"
	}
	if _, p, ok := strings.Cut(pattern, " "); ok {
		return p
	}
	return pattern
}

// maxRequestID bounds an id taken from a proxy; longer ones, or ones with other characters
// than these, are replaced: the id goes into every log line about the request.
const maxRequestID = 128

// requestID is a trusted proxy's id for r, else a new one made in buf.
func requestID(r *http.Request, peer netip.Addr, trusted []netip.Prefix, buf *[idLen]byte) string {
	if geo.Trusted(trusted, peer) {
		// The map itself, not Header.Get: the key is canonical already.
		if v := r.Header[RequestIDHeader]; len(v) > 0 && v[0] != "" && validRequestID(v[0]) {
			return v[0]
		}
	}
	return newRequestID(buf)
}

func validRequestID(id string) bool {
	if len(id) > maxRequestID {
		return false
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}

// Ids are a random prefix per process and a counter: unique across replicas and restarts
// without a random read per request.
var (
	idPrefix = func() string {
		b := make([]byte, 10)
		rand.Read(b)
		return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
	}()
	idSeq atomic.Uint64
)

// idLen holds a made id: the prefix (16 base32 characters), '-' and a counter (at most 13
// base-36 digits).
const idLen = 32

// newRequestID makes an id in buf and returns it as a string sharing buf's bytes, which are
// never written again: buf is the exchange's, which the string then keeps alive.
func newRequestID(buf *[idLen]byte) string {
	b := append(buf[:0], idPrefix...)
	b = append(b, '-')
	b = strconv.AppendUint(b, idSeq.Add(1), 36)
	return unsafe.String(&b[0], len(b))
}
