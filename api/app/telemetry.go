package app

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/metrics"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/store"
)

// newMetrics builds the registry over the store's job queue and pools.
func (a *App) newMetrics() *metrics.Metrics {
	o := metrics.Options{Logger: a.log, Now: a.cfg.Now}
	if s, ok := a.store.(interface {
		JobDepth(ctx context.Context) ([]store.JobQueue, error)
	}); ok {
		o.Jobs = jobDepth(s.JobDepth)
	}
	if s, ok := a.store.(interface{ Pools() map[string]*sql.DB }); ok {
		o.Pools = s.Pools()
	}
	return metrics.New(o)
}

type jobDepth func(ctx context.Context) ([]store.JobQueue, error)

func (f jobDepth) JobDepth(ctx context.Context) ([]metrics.JobDepth, error) {
	qs, err := f(ctx)
	out := make([]metrics.JobDepth, len(qs))
	for i, q := range qs {
		out[i] = metrics.JobDepth{Kind: q.Kind, State: q.State, Count: q.Count, OldestRunAt: q.OldestRunAt}
	}
	return out, err
}

// observeOrder counts orders placed and paid by gateway and kind: the order's kind (plan,
// upsell, reseller), with trial for a plan order of one of the catalog's trial products.
func (a *App) observeOrder(event string, o order.Order) {
	kind := string(o.Kind)
	if p, ok := a.Catalog().Product(o.Quote.PID); o.Kind == order.KindPlan && ok && p.Trial {
		kind = "trial"
	}
	switch event {
	case order.EventCreated:
		a.metrics.OrderCreated(o.Gateway, kind)
	case order.EventPaid:
		a.metrics.OrderPaid(o.Gateway, kind)
	}
}

func gatewayModules(gs []order.Gateway) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Module()
	}
	return out
}

// countJobs wraps every job handler to count its runs and failures.
func (a *App) countJobs(handlers map[string]job.Handler) map[string]job.Handler {
	kinds := make([]string, 0, len(handlers))
	for kind, h := range handlers {
		kinds = append(kinds, kind)
		handlers[kind] = func(ctx context.Context, j job.Job) error {
			err := h(ctx, j)
			a.metrics.JobRun(kind, err != nil)
			return err
		}
	}
	a.metrics.Known(kinds, nil, nil)
	return handlers
}

// countedMail is the outbox's store, counting each message as it is queued and as each delivery
// attempt is recorded: stored (no SMTP server: kept in the outbox), queued, sent, deferred (to be
// retried), failed.
type countedMail struct {
	mail.Store
	m *metrics.Metrics
}

func (c countedMail) QueueMail(ctx context.Context, m mail.Message, status string, send bool, at time.Time) (int64, error) {
	id, err := c.Store.QueueMail(ctx, m, status, send, at)
	if err == nil {
		c.m.Mail(map[bool]string{true: "queued", false: status}[send])
	}
	return id, err
}

// countedReminders counts the renewal and trial mails as countedMail counts the others.
type countedReminders struct {
	renewal.MailStore
	m *metrics.Metrics
}

func (c countedReminders) QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error) {
	queued, err := c.MailStore.QueueReminder(ctx, orderID, kind, sentAt, m, status, send, at)
	if queued {
		c.m.Mail(map[bool]string{true: "queued", false: status}[send])
	}
	return queued, err
}

func (c countedMail) MarkMail(ctx context.Context, id int64, status, lastErr string, at time.Time) error {
	err := c.Store.MarkMail(ctx, id, status, lastErr, at)
	if err == nil {
		c.m.Mail(map[bool]string{true: "deferred", false: status}[status == mail.StatusPending])
	}
	return err
}

// metricsRoute serves /metrics on the main listener unless it has its own address: with a
// token to bearers of it, without one to callers on this host only, and to nobody then when a
// proxy runs in front (every request would come from it).
func (a *App) metricsRoute(mux *http.ServeMux) {
	if a.cfg.MetricsAddr != "" {
		return
	}
	// A proxy on this host connects from loopback for everyone: then loopback proves nothing.
	proxied := geo.Trusted(a.cfg.TrustedProxies, netip.IPv6Loopback()) || geo.Trusted(a.cfg.TrustedProxies, netip.AddrFrom4([4]byte{127, 0, 0, 1}))
	mux.Handle("GET /metrics", metrics.Guard(a.metrics.Handler(), metrics.Access{Token: a.cfg.MetricsToken, Loopback: !proxied}))
	if a.cfg.MetricsToken == "" && proxied {
		a.log.Warn("metrics not served: behind a proxy, set STREAMCART_METRICS_TOKEN or STREAMCART_METRICS_ADDR")
	}
}

// metricsServer is the listener of STREAMCART_METRICS_ADDR; nil without one.
func (a *App) metricsServer() *http.Server {
	if a.cfg.MetricsAddr == "" {
		return nil
	}
	var h http.Handler = a.metrics.Handler()
	if a.cfg.MetricsToken != "" {
		h = metrics.Guard(h, metrics.Access{Token: a.cfg.MetricsToken})
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	return &http.Server{Addr: a.cfg.MetricsAddr, Handler: httpapi.RefuseControl(mux), ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
}

// observed wraps the site in the access log and HTTP metrics, and in tracing when an OTLP
// endpoint is set; without one no exporter or tracer exists.
func (a *App) observed(ctx context.Context, h http.Handler) (http.Handler, error) {
	h = httpapi.Observed(h, httpapi.Observe{Log: a.log, JSON: a.cfg.LogJSON, Metrics: a.metrics, TrustedProxies: a.cfg.TrustedProxies, Now: a.cfg.Now, Traced: a.cfg.OTLPEndpoint != ""})
	if a.cfg.OTLPEndpoint == "" {
		return h, nil
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimRight(a.cfg.OTLPEndpoint, "/")+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT=%q: %w", a.cfg.OTLPEndpoint, err)
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "streamcart")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	a.tracing = tp
	a.log.Info("tracing on", "endpoint", a.cfg.OTLPEndpoint)
	traced := otelhttp.NewHandler(h, "streamcart", otelhttp.WithTracerProvider(tp), otelhttp.WithPropagators(propagation.TraceContext{}),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
	// A caller's traceparent is followed only from a trusted proxy: anyone else could pick the
	// trace ids (and the sampling) of the shop's spans.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !geo.Trusted(a.cfg.TrustedProxies, geo.ClientIP(r, nil)) {
			r.Header.Del("Traceparent")
			r.Header.Del("Tracestate")
		}
		traced.ServeHTTP(w, r)
	}), nil
}

// FlushTraces sends the spans still buffered (Close does it too); nothing without tracing.
func (a *App) FlushTraces(ctx context.Context) error {
	if a.tracing == nil {
		return nil
	}
	return a.tracing.ForceFlush(ctx)
}

// Tracing reports whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT set).
func (a *App) Tracing() bool { return a.tracing != nil }

// Metrics is the shop's registry (tests read it).
func (a *App) Metrics() *metrics.Metrics { return a.metrics }
