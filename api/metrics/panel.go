package metrics

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// DriftCounter reads the line drifts recorded so far by kind (store.DriftCounts). Counted from
// the database at scrape time: a drift repaired by any replica, or by `streamcart lines
// reconcile` in a process of its own, counts the same.
type DriftCounter func(ctx context.Context) (map[string]int, error)

// CreditReader answers the panel's credit balance as last read (the shop's cached balance) and
// whether there is one: nothing is read from the panel at scrape time.
type CreditReader func() (float64, bool)

var (
	driftDesc = prometheus.NewDesc("streamcart_line_drift_total", "Line drifts found between the panel and what was paid, by kind (missing, disabled, enabled, expiry, connections, mac, unexplained), each repaired or, unexplained, listed; read from the drift records.",
		[]string{"kind"}, nil)
	creditsDesc = prometheus.NewDesc("streamcart_panel_credits", "The panel's reseller credit balance as last read (absent when the panel reports none).", nil, nil)
)

// panelCollector reports the line drift and the credit balance at scrape time.
type panelCollector struct {
	drift   DriftCounter
	credits CreditReader
	kinds   []string
	log     *slog.Logger
}

func (c *panelCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- driftDesc
	ch <- creditsDesc
}

func (c *panelCollector) Collect(ch chan<- prometheus.Metric) {
	if c.credits != nil {
		if v, ok := c.credits(); ok && !math.IsNaN(v) {
			ch <- prometheus.MustNewConstMetric(creditsDesc, prometheus.GaugeValue, v)
		}
	}
	if c.drift == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	counts, err := c.drift(ctx)
	if err != nil {
		c.log.Warn("metrics: line drift unreadable", "err", err)
		return
	}
	for _, k := range c.kinds {
		if _, ok := counts[k]; !ok {
			counts[k] = 0
		}
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(driftDesc, prometheus.CounterValue, float64(n), k)
	}
}

// Panel registers the panel's metrics: streamcart_line_drift_total from drift (its kinds'
// series start at zero) and streamcart_panel_credits from credits; either may be nil.
func (m *Metrics) Panel(drift DriftCounter, kinds []string, credits CreditReader, log *slog.Logger) {
	if m == nil {
		return
	}
	if log == nil {
		log = slog.Default()
	}
	m.reg.MustRegister(&panelCollector{drift: drift, credits: credits, kinds: kinds, log: log})
}
