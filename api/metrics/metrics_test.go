package metrics_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/streamcart/streamcart/api/metrics"
)

// series is the HTTP request counter's series: "route method status" → count.
func series(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "streamcart_http_requests_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			out[label(s, "route")+" "+label(s, "method")+" "+label(s, "status")] = s.GetCounter().GetValue()
		}
	}
	return out
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

func TestHTTPCountsEachRequestOnce(t *testing.T) {
	m := metrics.New(metrics.Options{})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status := 200
			if i%4 == 0 {
				status = 404
			}
			m.HTTP("/checkout/api/products", "GET", status, time.Millisecond)
		}()
	}
	wg.Wait()
	got := series(t, m)
	want := map[string]float64{"/checkout/api/products GET 200": 30, "/checkout/api/products GET 404": 10}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("series %v, want %v", got, want)
	}
}

// A client may send any token as its method: each must not become a series of its own.
func TestHTTPMethodsOutsideTheStandardAreOther(t *testing.T) {
	m := metrics.New(metrics.Options{})
	for i := range 500 {
		m.HTTP("unmatched", fmt.Sprintf("X%d", i), 405, time.Millisecond)
	}
	m.HTTP("unmatched", "DELETE", 405, time.Millisecond)
	got := series(t, m)
	want := map[string]float64{"unmatched OTHER 405": 500, "unmatched DELETE 405": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("series %v, want %v", got, want)
	}
	for _, c := range []struct{ in, want string }{{"GET", "GET"}, {"get", "OTHER"}, {"PROPFIND", "OTHER"}, {"", "OTHER"}} {
		if got := metrics.MethodLabel(c.in); got != c.want {
			t.Errorf("MethodLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
