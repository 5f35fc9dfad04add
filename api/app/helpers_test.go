package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"
	"golang.org/x/crypto/bcrypt"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/contract"
	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/store/storetest"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	gengeo "github.com/streamcart/streamcart/gen/geo"
	catalogcli "github.com/streamcart/streamcart/gen/http/catalog/client"
	geocli "github.com/streamcart/streamcart/gen/http/geo/client"
	ordercli "github.com/streamcart/streamcart/gen/http/order/client"
	pricingcli "github.com/streamcart/streamcart/gen/http/pricing/client"
	promotioncli "github.com/streamcart/streamcart/gen/http/promotion/client"
	servicescli "github.com/streamcart/streamcart/gen/http/services/client"
	sessioncli "github.com/streamcart/streamcart/gen/http/session/client"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
	genservices "github.com/streamcart/streamcart/gen/services"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// TestMain lowers the password hashing cost: sign-in tests hash dozens of passwords on each back
// end, and at the default cost the race detector makes each hash take about a second.
func TestMain(m *testing.M) {
	account.PasswordCost = bcrypt.MinCost
	os.Exit(m.Run())
}

// forEachBackend runs test once per back end, as the parallel subtests sqlite and postgres:
// every test of this package goes through it, and newShop opens its shop on a fresh database of
// the subtest's back end.
func forEachBackend(t *testing.T, test func(t *testing.T)) {
	t.Helper()
	storetest.Run(t, func(t *testing.T, _ storetest.Backend) { test(t) })
}

// backendOf is the back end t (or its parent) runs on: the name forEachBackend gave its subtest.
func backendOf(t *testing.T) storetest.Backend {
	t.Helper()
	if parts := strings.Split(t.Name(), "/"); len(parts) > 1 {
		for _, b := range storetest.Backends {
			if b.Name == parts[1] {
				return b
			}
		}
	}
	t.Fatalf("%s runs on no back end: wrap the test in forEachBackend(t, func(t *testing.T) {…})", t.Name())
	return storetest.Backend{}
}

// shop is a running Streamcart over a fresh database of the test's back end, with the
// Goa-generated clients pointed at it. The job worker does not run on its own: tests drive it
// with drain, so every wait is explicit.
type shop struct {
	t      *testing.T
	cfg    app.Config
	app    *app.App
	srv    *httptest.Server
	base   string // http://127.0.0.1:port
	http   *http.Client
	noJump *http.Client // does not follow redirects

	catalog   *gencatalog.Client
	promotion *genpromotion.Client
	pricing   *genpricing.Client
	session   *gensession.Client
	order     *genorder.Client
	services  *genservices.Client
	geo       *gengeo.Client
	after     afterClients
}

// testConfig is the configuration every shop starts from: fraud and rate limits off, so tests
// that place many orders from 127.0.0.1 are not held or refused, unless a test turns them on.
// Its database is already migrated (a copy of the test binary's template): the shop's first
// start does everything else a first start does (demo catalog, signing key). TestProcess starts
// the binary on an empty database.
func testConfig(t *testing.T) app.Config {
	return app.Config{
		DB:              backendOf(t).Migrated(t),
		ServerHostname:  "line.test:8000",
		UsernamePrefix:  "tst",
		StoreName:       "Test Shop",
		DashboardURL:    "/checkout/",
		SupportURL:      "https://support.test/",
		FraudMaxPerIP:   0,
		JobLease:        30 * time.Second,
		JobPoll:         time.Hour,
		ShutdownTimeout: 5 * time.Second,

		// Per-address rate limits off likewise: their tests (limits_test.go) turn them on.
		RateLimits: httpapi.RateLimits{Off: true},
	}
}

// newShop opens a shop on testConfig changed by opts.
func newShop(t *testing.T, opts ...func(*app.Config)) *shop {
	t.Helper()
	cfg := testConfig(t)
	for _, o := range opts {
		o(&cfg)
	}
	return openShop(t, cfg)
}

// openShop opens a shop on cfg (a reopened database keeps its data).
func openShop(t *testing.T, cfg app.Config) *shop {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Links are built on the listen address when no public URL is set: the test server's own.
	srv := httptest.NewUnstartedServer(nil)
	open := cfg
	if open.Addr == "" {
		open.Addr = srv.Listener.Addr().String()
	}
	a, err := app.Open(t.Context(), open, log)
	if err != nil {
		srv.Close()
		t.Fatalf("app.Open: %v", err)
	}
	srv.Config.Handler = checkContract(t, a.Handler())
	srv.Start()
	// The listener is 127.0.0.1's, whose links the shop builds on localhost (the README's address):
	// the tests use that name too.
	base := strings.Replace(srv.URL, "://127.0.0.1:", "://localhost:", 1)
	s := &shop{t: t, cfg: cfg, app: a, srv: srv, base: base, http: srv.Client()}
	s.noJump = &http.Client{
		Transport:     srv.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	s.clients(srv.Client())
	t.Cleanup(s.close)
	return s
}

// contractChecker holds the served document, loaded once for every shop of the package.
var contractChecker = sync.OnceValues(func() (*contract.Checker, error) { return contract.New(httpapi.OpenAPI) })

// checkContract wraps a shop's handler: every request the server accepts and every answer it
// sends, whichever client a test uses, must be what the served OpenAPI document says, or t fails.
func checkContract(t *testing.T, h http.Handler) http.Handler {
	t.Helper()
	c, err := contractChecker()
	if err != nil {
		t.Fatalf("served OpenAPI document: %v", err)
	}
	return c.Handler(t, h)
}

// clients points the generated clients at the shop through doer.
func (s *shop) clients(doer goahttp.Doer) {
	u, _ := url.Parse(s.base)
	enc, dec := goahttp.RequestEncoder, goahttp.ResponseDecoder
	cc := catalogcli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.catalog = gencatalog.NewClient(cc.ListProducts(), cc.GetProduct(), cc.ListResellerProducts(), cc.ListCurrencies(),
		cc.Convert(), cc.ListGateways(), cc.Storefront(), cc.Devices())
	pc := promotioncli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.promotion = genpromotion.NewClient(pc.Get())
	qc := pricingcli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.pricing = genpricing.NewClient(qc.Quote())
	sc := sessioncli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.session = gensession.NewClient(sc.Create(), sc.Delete(), sc.RequestLink(), sc.RedeemLink(), sc.SetPassword())
	oc := ordercli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.order = genorder.NewClient(oc.Create(), oc.Get(), oc.Events(), oc.List(), oc.Cancel())
	vc := servicescli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.services = genservices.NewClient(vc.List(), vc.Get(), vc.Playlist(), vc.Qr(), vc.Restart(), vc.Recreate(), vc.Terminate(), vc.SetMac(), vc.Renew(), vc.Cancel(), vc.Resume())
	gc := geocli.NewClient(u.Scheme, u.Host, doer, enc, dec, false)
	s.geo = gengeo.NewClient(gc.Lookup())
	s.after = newAfterClients(u, doer)
}

// close stops the server and closes the app; safe to call twice (a test may "crash" it early).
func (s *shop) close() {
	if s.app == nil {
		return
	}
	s.srv.Close()
	if err := s.app.Close(); err != nil {
		s.t.Errorf("app.Close: %v", err)
	}
	s.app = nil
}

// from returns a copy of the shop's clients whose requests claim to come from ip (the shop must
// trust the proxy headers).
func (s *shop) from(ip string) *shop {
	c := *s
	c.clients(headerDoer{next: s.http, header: "X-Forwarded-For", value: ip})
	return &c
}

type headerDoer struct {
	next          goahttp.Doer
	header, value string
}

func (d headerDoer) Do(r *http.Request) (*http.Response, error) {
	r.Header.Set(d.header, d.value)
	return d.next.Do(r)
}

// drain runs due jobs until none is left and returns how many ran.
func (s *shop) drain() int {
	s.t.Helper()
	n := 0
	for {
		ran, err := s.app.Worker().RunOnce(s.t.Context())
		if err != nil {
			s.t.Fatalf("worker: %v", err)
		}
		if !ran {
			return n
		}
		n++
		if n > 100 {
			s.t.Fatal("worker: more than 100 jobs in a row; a job keeps coming back")
		}
	}
}

// count runs a COUNT query (? placeholders) on the shop's database from the outside.
func (s *shop) count(query string, args ...any) int {
	s.t.Helper()
	return storetest.Count(s.t, s.cfg.DB, query, args...)
}

// identify opens a session (proven when password is set).
func (s *shop) identify(email, password string) *gensession.SessionResult {
	s.t.Helper()
	p := &gensession.CreatePayload{Email: email}
	if password != "" {
		p.Password = &password
	}
	res, err := s.session.Create(s.t.Context(), p)
	if err != nil {
		s.t.Fatalf("POST /session %s: %v", email, err)
	}
	return res
}

// buy places an order with token.
func (s *shop) buy(token string, p genorder.CreatePayload) *genorder.OrderResult {
	s.t.Helper()
	p.Token = ptr(token)
	res, err := s.order.Create(s.t.Context(), &p)
	if err != nil {
		s.t.Fatalf("POST /orders %+v: %v", p, err)
	}
	return res
}

// standard is a paid monthly Standard plan (12.99 EUR).
func standard() genorder.CreatePayload {
	return genorder.CreatePayload{Pid: 2, BillingCycle: "monthly"}
}

// trial is the free trial.
func trial() genorder.CreatePayload {
	return genorder.CreatePayload{Pid: 1, BillingCycle: "onetime"}
}

// getOrder reads an order that must be readable.
func (s *shop) getOrder(token, id string) *genorder.OrderResult {
	s.t.Helper()
	res, err := s.order.Get(s.t.Context(), &genorder.GetPayload{Token: ptr(token), OrderID: id})
	if err != nil {
		s.t.Fatalf("GET /orders/%s: %v", id, err)
	}
	return res
}

// getService reads a service that must be readable.
func (s *shop) getService(token, id string) *genservices.ServiceResult {
	s.t.Helper()
	res, err := s.services.Get(s.t.Context(), &genservices.GetPayload{Token: ptr(token), ServiceID: id})
	if err != nil {
		s.t.Fatalf("GET /services/%s: %v", id, err)
	}
	return res
}

// sandbox posts the sandbox payment form of an order's payment URL and returns the response.
func (s *shop) sandbox(paymentURL, action string) *http.Response {
	s.t.Helper()
	u := paymentURL
	if strings.HasPrefix(u, "/") {
		u = s.base + u
	}
	resp, err := s.noJump.PostForm(u, url.Values{"action": {action}})
	if err != nil {
		s.t.Fatalf("POST %s: %v", u, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// raw sends a request outside the generated clients and returns the status and body.
func (s *shop) raw(method, path, token string, body io.Reader) (int, http.Header, []byte) {
	s.t.Helper()
	return s.rawWith(method, path, token, body, nil)
}

// rawWith is raw with further request headers.
func (s *shop) rawWith(method, path, token string, body io.Reader, header http.Header) (int, http.Header, []byte) {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), method, s.base+strings.TrimPrefix(path, s.base), body)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := s.noJump.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// wantErr checks that err is the design error name, and, when message is set, its message.
func wantErr(t *testing.T, err error, name, message string) *goa.ServiceError {
	t.Helper()
	var se *goa.ServiceError
	if !errors.As(err, &se) {
		t.Fatalf("error = %v (%T), want design error %q", err, err, name)
	}
	if se.Name != name {
		t.Fatalf("error name = %q (message %q), want %q", se.Name, se.Message, name)
	}
	if message != "" && se.Message != message {
		t.Fatalf("error message = %q, want %q", se.Message, message)
	}
	return se
}

// eventually polls cond every 50 ms until it holds or a generous deadline passes. No test asserts
// how long anything takes: the deadline only keeps a broken build from hanging.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting: %s", what)
		case <-tick.C:
		}
	}
}

func ptr[T any](v T) *T { return &v }

// prefixes parses a comma list of CIDRs, as STREAMCART_TRUSTED_PROXIES; "" is none.
func prefixes(list string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range strings.Split(list, ",") {
		if s != "" {
			out = append(out, netip.MustParsePrefix(s))
		}
	}
	return out
}
