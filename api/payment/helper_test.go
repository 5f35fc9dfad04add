package payment_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// env is a shop without its HTTP API: store, orders with the given gateways, the webhook
// receiver served by srv, and a job worker the test drains by hand.
type env struct {
	t         *testing.T
	st        storetest.Inspector
	orders    *order.Orders
	webhooks  *payment.Webhooks
	worker    *job.Worker
	claims    authz.Claims
	srv       *httptest.Server
	log       *slog.Logger
	provision job.Handler
}

// gatewayFactory builds a gateway over the env's store (for its references).
type gatewayFactory func(st store.Backend) order.Gateway

func newEnv(t *testing.T, b storetest.Backend, factories ...gatewayFactory) *env {
	t.Helper()
	return newEnvCatalog(t, b, catalog.DemoYAML(), factories...)
}

// newEnvCatalog is newEnv selling the catalog src (YAML).
func newEnvCatalog(t *testing.T, b storetest.Backend, src []byte, factories ...gatewayFactory) *env {
	t.Helper()
	ctx := t.Context()
	st := b.Open(t)
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	var gws []order.Gateway
	var providers []payment.Provider
	var modules []string
	for _, f := range factories {
		g := f(st)
		gws = append(gws, g)
		modules = append(modules, g.Module())
		if p, ok := g.(payment.Provider); ok {
			providers = append(providers, p)
		}
	}
	// A catalog of the env's own: catalog.Demo is shared, and tests in parallel enable other gateways.
	cat, err := catalog.Parse("catalog.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	cat.Gateways = cat.GatewaysFor(modules)
	catFn := func() *catalog.Catalog { return cat }
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	key, _ := authz.NewKey()
	signer, err := authz.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	id, err := account.New(st, signer, nil).Identify(ctx, "buyer@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, claims: id.Claims, log: log}
	e.orders = order.New(st, catFn, gws, az, order.Config{}, log, nil)
	e.webhooks = payment.NewWebhooks(st, e.orders, providers, nil, log)
	e.webhooks.TrackProgress(payment.NewProgress(st))
	prov := provision.New(st, panel.NewBuiltin(st, "line.test:8000", nil), catFn, "tst", nil, log, nil)
	e.provision = prov.Handle
	e.worker = job.NewWorker(st, map[string]job.Handler{
		payment.JobWebhook: e.webhooks.Handle, order.JobProvision: prov.Handle,
		order.JobRefund: func(ctx context.Context, j job.Job) error { return e.orders.Refund(ctx, j.Ref) },
	}, job.Options{Logger: log, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond})
	mux := http.NewServeMux()
	for _, m := range e.webhooks.Modules() {
		mux.Handle("POST "+payment.WebhookPath(m), e.webhooks.Handler(m))
	}
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	return e
}

// buy places an order of pid's monthly cycle in currency through gateway.
func (e *env) buy(gateway string, pid int, currency string) (order.Order, error) {
	return e.orders.Create(e.t.Context(), e.claims, order.Request{
		Quote:   pricing.Request{PID: pid, Cycle: catalog.Monthly, Currency: currency},
		Gateway: gateway, IP: "203.0.113.7", Origin: "https://shop.example",
	})
}

// mustBuy is buy that fails the test on an error.
func (e *env) mustBuy(gateway string, pid int, currency string) order.Order {
	e.t.Helper()
	o, err := e.buy(gateway, pid, currency)
	if err != nil {
		e.t.Fatalf("create order: %v", err)
	}
	return o
}

// post sends a webhook body with headers to the provider's webhook and answers the status.
func (e *env) post(module string, body []byte, header map[string]string) int {
	e.t.Helper()
	req, _ := http.NewRequestWithContext(e.t.Context(), http.MethodPost, e.srv.URL+payment.WebhookPath(module), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("post webhook: %v", err)
	}
	res.Body.Close()
	return res.StatusCode
}

// drain runs due jobs until none is left.
func (e *env) drain() int {
	e.t.Helper()
	n := 0
	for {
		ran, err := e.worker.RunOnce(e.t.Context())
		if err != nil {
			e.t.Fatalf("worker: %v", err)
		}
		if !ran {
			return n
		}
		if n++; n > 100 {
			e.t.Fatal("more than 100 jobs in a row")
		}
	}
}

// order reads an order again.
func (e *env) order(id string) order.Order {
	e.t.Helper()
	o, err := e.st.Order(e.t.Context(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return o
}

// webhooks counts a provider's stored webhooks.
func (e *env) webhookCount(provider string) int {
	e.t.Helper()
	n, err := e.st.CountWebhooks(e.t.Context(), provider)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// outcome is what processing recorded for a provider's event.
func (e *env) outcome(provider, eventID string) string {
	e.t.Helper()
	w, err := e.st.WebhookByEvent(e.t.Context(), provider, eventID)
	if err != nil {
		e.t.Fatal(err)
	}
	return w.Outcome
}

// provisionJobs counts provisioning jobs of an order (one at most, ever).
func (e *env) provisionJobs(orderID string) int {
	e.t.Helper()
	_, err := e.st.JobByKey(e.t.Context(), order.JobProvision+":"+orderID)
	if errors.Is(err, store.ErrNotFound) {
		return 0
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return 1
}
