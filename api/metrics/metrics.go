// Package metrics keeps the shop's Prometheus metrics: what the HTTP layer, the orders, the
// webhooks, the job worker and the mail outbox report, plus what is read at scrape time (job
// queue depth, database pools, the Go runtime and build). Domain packages never import it: the
// app layer hands them small observer functions that call it.
package metrics

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/streamcart/streamcart/api/clock"
)

// JobDepth is the number of jobs of one kind in one state, and the run_at of the earliest of
// them (zero when unknown).
type JobDepth struct {
	Kind, State string
	Count       int
	OldestRunAt time.Time
}

// JobCounter reads the job queue at scrape time (store.JobDepth). It must be cheap: it runs on
// every scrape.
type JobCounter interface {
	JobDepth(ctx context.Context) ([]JobDepth, error)
}

// Options say where the scrape-time metrics come from; every field may be left empty.
type Options struct {
	Jobs JobCounter
	// Pools are the database pools by name ("write", "read"); one pool shared by both is given once.
	Pools map[string]*sql.DB
	// Now is the clock the job ages are measured with; nil: time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Metrics is the shop's registry. A nil *Metrics records nothing, so tests and commands that
// do not serve /metrics pass none.
type Metrics struct {
	reg *prometheus.Registry

	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec
	// httpSeen holds each (route, method, status)'s two series once resolved: the vectors' label
	// hashing, UTF-8 checks and locks cost a tenth of the product list's handler (issue 24).
	httpSeen sync.Map // httpKey → *httpSeries

	ordersCreated *prometheus.CounterVec
	ordersPaid    *prometheus.CounterVec

	webhooksReceived  *prometheus.CounterVec
	webhooksProcessed *prometheus.CounterVec

	jobAttempts *prometheus.CounterVec
	jobFailures *prometheus.CounterVec

	mail *prometheus.CounterVec

	whmcsFailures *prometheus.CounterVec
}

// New registers every family.
func New(o Options) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg}
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
		reg.MustRegister(c)
		return c
	}
	m.httpRequests = counter("streamcart_http_requests_total", "HTTP requests answered, by route template, method and status.", "route", "method", "status")
	m.httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "streamcart_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route template and method.",
		// From a cached product list (well under a millisecond) to a slow gateway call.
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method"})
	reg.MustRegister(m.httpDuration)
	m.ordersCreated = counter("streamcart_orders_created_total", "Orders placed, by gateway and kind (plan, trial, custom).", "gateway", "kind")
	m.ordersPaid = counter("streamcart_orders_paid_total", "Orders paid (settled, or free at creation), by gateway and kind.", "gateway", "kind")
	m.webhooksReceived = counter("streamcart_webhooks_received_total", "Provider webhooks received, by provider and result (stored, duplicate, rejected, unreadable, error).", "provider", "result")
	m.webhooksProcessed = counter("streamcart_webhooks_processed_total", "Stored webhooks acted on, by provider and outcome (paid, processing, failed, held, review, ignored, refused, error).", "provider", "outcome")
	m.jobAttempts = counter("streamcart_job_attempts_total", "Job runs, by kind.", "kind")
	m.jobFailures = counter("streamcart_job_failures_total", "Job runs that failed (retried later or buried), by kind.", "kind")
	m.mail = counter("streamcart_mail_total", "Outgoing mail by status: stored (no SMTP server, kept in the outbox), queued for delivery, and each delivery attempt sent, deferred (retried later) or failed (refused for good).", "status")

	m.whmcsFailures = counter("streamcart_whmcs_call_failures_total", "WHMCS API calls that failed (WHMCS back end), by action and reason (unavailable, refused, not_found, auth, invalid_ip, permission).", "action", "reason")

	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector())
	for name, db := range o.Pools {
		reg.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	if o.Jobs != nil {
		o.Now = clock.OrReal(o.Now)
		if o.Logger == nil {
			o.Logger = slog.Default()
		}
		reg.MustRegister(&jobCollector{jobs: o.Jobs, now: o.Now, log: o.Logger})
	}
	return m
}

// Known creates the series of the job kinds, payment gateways and webhook providers the shop
// runs at zero, so a dashboard shows them and an alert's increase() has a start before the
// first event.
func (m *Metrics) Known(jobKinds, gateways, providers []string) {
	if m == nil {
		return
	}
	for _, k := range jobKinds {
		m.jobAttempts.WithLabelValues(k)
		m.jobFailures.WithLabelValues(k)
	}
	for _, g := range gateways {
		for _, kind := range []string{"plan", "trial", "upsell", "reseller"} {
			m.ordersCreated.WithLabelValues(g, kind)
			m.ordersPaid.WithLabelValues(g, kind)
		}
	}
	for _, p := range providers {
		for _, r := range []string{"stored", "duplicate", "rejected", "unreadable", "error"} {
			m.webhooksReceived.WithLabelValues(p, r)
		}
		for _, o := range []string{"paid", "processing", "failed", "held", "review", "ignored", "refused", "error"} {
			m.webhooksProcessed.WithLabelValues(p, o)
		}
	}
	for _, s := range []string{"stored", "queued", "sent", "deferred", "failed"} {
		m.mail.WithLabelValues(s)
	}
}

// Handler serves the registry in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: nil, Registry: m.reg})
}

// Registry is the registry itself (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// statusText avoids an allocation for the usual statuses.
var statusText = func() map[int]string {
	t := map[int]string{}
	for code := 100; code < 600; code++ {
		t[code] = strconv.Itoa(code)
	}
	return t
}()

// HTTP counts one answered request. route is the matched route template, never a raw path.
func (m *Metrics) HTTP(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	key := httpKey{route, MethodLabel(method), status}
	s, ok := m.httpSeen.Load(key)
	if !ok {
		code, known := statusText[status]
		if !known {
			code = strconv.Itoa(status)
		}
		s, _ = m.httpSeen.LoadOrStore(key, &httpSeries{
			requests: m.httpRequests.WithLabelValues(key.route, key.method, code),
			duration: m.httpDuration.WithLabelValues(key.route, key.method),
		})
	}
	series := s.(*httpSeries)
	series.requests.Inc()
	series.duration.Observe(d.Seconds())
}

type httpKey struct {
	route, method string
	status        int
}

type httpSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// MethodLabel is method as the HTTP metrics name it: a standard method as it is, anything else
// "OTHER". A client may send any token as its method; as a label each would be a new series
// kept for the life of the process.
func MethodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// OrderCreated counts an order placed.
func (m *Metrics) OrderCreated(gateway, kind string) {
	if m != nil {
		m.ordersCreated.WithLabelValues(gateway, kind).Inc()
	}
}

// OrderPaid counts an order paid.
func (m *Metrics) OrderPaid(gateway, kind string) {
	if m != nil {
		m.ordersPaid.WithLabelValues(gateway, kind).Inc()
	}
}

// WebhookReceived counts a webhook request by what became of it.
func (m *Metrics) WebhookReceived(provider, result string) {
	if m != nil {
		m.webhooksReceived.WithLabelValues(provider, result).Inc()
	}
}

// WebhookProcessed counts a stored webhook acted on.
func (m *Metrics) WebhookProcessed(provider, outcome string) {
	if m != nil {
		m.webhooksProcessed.WithLabelValues(provider, outcome).Inc()
	}
}

// JobRun counts one run of a job and whether it failed.
func (m *Metrics) JobRun(kind string, failed bool) {
	if m == nil {
		return
	}
	m.jobAttempts.WithLabelValues(kind).Inc()
	if failed {
		m.jobFailures.WithLabelValues(kind).Inc()
	}
}

// WHMCSFailed counts a failed WHMCS API call by its action and reason.
func (m *Metrics) WHMCSFailed(action, reason string) {
	if m != nil {
		m.whmcsFailures.WithLabelValues(action, reason).Inc()
	}
}

// Mail counts a delivery attempt by its status.
func (m *Metrics) Mail(status string) {
	if m != nil {
		m.mail.WithLabelValues(status).Inc()
	}
}

var (
	jobsDesc = prometheus.NewDesc("streamcart_jobs", "Jobs waiting, running or dead, by kind and state (read from the database at scrape time; done jobs are not counted).",
		[]string{"kind", "state"}, nil)
	jobDueDesc = prometheus.NewDesc("streamcart_job_oldest_due_seconds", "How long the oldest due job of a kind (queued and due, or running) has waited since it was due; 0 when none.",
		[]string{"kind"}, nil)
	scrapeErrDesc = prometheus.NewDesc("streamcart_jobs_scrape_error", "1 when the job queue could not be read at this scrape.", nil, nil)
)

// jobCollector reads the queue on each scrape: one grouped query on the (state, run_at) index.
type jobCollector struct {
	jobs JobCounter
	now  func() time.Time
	log  *slog.Logger
}

func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- jobsDesc
	ch <- jobDueDesc
	ch <- scrapeErrDesc
}

func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	depth, err := c.jobs.JobDepth(ctx)
	if err != nil {
		c.log.Warn("metrics: job queue unreadable", "err", err)
		ch <- prometheus.MustNewConstMetric(scrapeErrDesc, prometheus.GaugeValue, 1)
		return
	}
	ch <- prometheus.MustNewConstMetric(scrapeErrDesc, prometheus.GaugeValue, 0)
	now := c.now()
	due := map[string]float64{}
	for _, d := range depth {
		ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(d.Count), d.Kind, d.State)
		if _, ok := due[d.Kind]; !ok {
			due[d.Kind] = 0
		}
		// A queued job's run_at may lie ahead (an expiry at the payment deadline): not late yet.
		if (d.State == "queued" || d.State == "running") && !d.OldestRunAt.IsZero() && now.After(d.OldestRunAt) {
			due[d.Kind] = max(due[d.Kind], now.Sub(d.OldestRunAt).Seconds())
		}
	}
	for kind, s := range due {
		ch <- prometheus.MustNewConstMetric(jobDueDesc, prometheus.GaugeValue, s, kind)
	}
}
