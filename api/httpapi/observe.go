package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

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
	Log     *slog.Logger
	Metrics *metrics.Metrics // nil: no metrics
	// TrustedProxies are the peers whose X-Forwarded-For and X-Request-Id are believed: the
	// shop's own proxies, which write them themselves.
	TrustedProxies []netip.Prefix
	// Now is the clock durations are measured with; nil: time.Now.
	Now func() time.Time
}

// Observed wraps the whole site: every request gets an id (echoed in X-Request-Id), one access
// line (method, route, status, bytes, duration, id, client address) and its HTTP metrics. The
// route is the matched route template (see noteRoute), so ids in paths never become labels.
func Observed(next http.Handler, o Observe) http.Handler {
	now := clock.OrReal(o.Now)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := now()
		ex := &exchange{ResponseWriter: w, status: http.StatusOK, id: requestID(r, o.TrustedProxies)}
		w.Header().Set(RequestIDHeader, ex.id)
		outer := r.Context() // the access line names the id itself, not through LogRequestID
		r = r.WithContext(context.WithValue(outer, exchangeKey{}, ex))
		defer func() {
			// Recorded even when a handler panics (net/http then drops the connection).
			d := now().Sub(start)
			route := ex.route
			if route == "" {
				route = r.Pattern // the site's own mux: /checkout/, /widget/, GET /healthz
			}
			route = routeLabel(route)
			o.Metrics.HTTP(route, r.Method, ex.status, d)
			if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
				// Known only now: the span was named before routing.
				span.SetName(r.Method + " " + route)
				span.SetAttributes(attribute.String("http.route", route))
			}
			if o.Log.Enabled(outer, slog.LevelInfo) {
				attrs := []slog.Attr{
					slog.String("method", r.Method), slog.String("route", route), slog.Int("status", ex.status),
					slog.Int64("bytes", ex.bytes), slog.Float64("duration", d.Seconds()),
					slog.String("request_id", ex.id), slog.String("ip", geo.ClientIP(r, o.TrustedProxies).String()),
				}
				if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
					attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
				}
				o.Log.LogAttrs(outer, slog.LevelInfo, "request", attrs...)
			}
		}()
		next.ServeHTTP(ex, r)
	})
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
type exchange struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
	route       string
	id          string
}

func (e *exchange) WriteHeader(code int) {
	if !e.wroteHeader && code >= 200 {
		e.status, e.wroteHeader = code, true
	}
	e.ResponseWriter.WriteHeader(code)
}

func (e *exchange) Write(b []byte) (int, error) {
	e.wroteHeader = true
	n, err := e.ResponseWriter.Write(b)
	e.bytes += int64(n)
	return n, err
}

// Flush keeps streaming answers streaming through the wrapper.
func (e *exchange) Flush() {
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		e.wroteHeader = true
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

// routeLabel is a pattern without its method (a label of its own); no pattern at all is a
// path nothing serves, all of them one label.
func routeLabel(pattern string) string {
	if pattern == "" {
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

func requestID(r *http.Request, trusted []netip.Prefix) string {
	if geo.Trusted(trusted, geo.ClientIP(r, nil)) {
		if id := r.Header.Get(RequestIDHeader); id != "" && validRequestID(id) {
			return id
		}
	}
	return newRequestID()
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

func newRequestID() string {
	var buf [48]byte
	b := append(buf[:0], idPrefix...)
	b = append(b, '-')
	return string(strconv.AppendUint(b, idSeq.Add(1), 36))
}
