package contract_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/contract"
	"github.com/streamcart/streamcart/api/httpapi"
)

// reporter keeps what the checking handler reports.
type reporter struct{ errs []string }

func (r *reporter) Helper() {}
func (r *reporter) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const (
	currencies = `{"currencies":[{"code":"EUR","prefix":"€","suffix":"","rate":"1"}],"default":"EUR"}`
	quote      = `{"pid":2,"billingCycle":"monthly","currency":"EUR","extraConnections":0,"proxyProtection":false,` +
		`"lines":[{"key":"plan","label":"Standard","amount":{"amount":1299,"currency":"EUR"}}],` +
		`"subtotal":{"amount":1299,"currency":"EUR"},"total":{"amount":1299,"currency":"EUR"}}`
	goaError = `{"name":"not_found","id":"abc","message":"No such order.","temporary":false,"timeout":false,"fault":false}`
)

// answer is a tiny server that sends status, content type and body whatever it is asked.
func answer(status int, contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			var b bytes.Buffer
			b.ReadFrom(r.Body)
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}

func gzipped(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(status)
		zw := gzip.NewWriter(w)
		zw.Write([]byte(body))
		zw.Close()
	})
}

// TestReportsWhatLeavesTheDocument: the check passes the answers the served
// document allows and reports, with method, path, status and where, every answer that leaves it
// (a field the document does not name included: Goa's schemas are open, the check closes them)
// and every accepted request that does.
func TestReportsWhatLeavesTheDocument(t *testing.T) {
	c, err := contract.New(httpapi.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	orderBody := `{"pid":2,"billingCycle":"monthly"}`
	tests := []struct {
		name         string
		method, path string
		body         string
		server       http.Handler
		want         []string // in the one report, in order; none: no report
	}{
		{name: "as documented", method: "GET", path: "/checkout/api/currencies",
			server: answer(200, "application/json", currencies)},
		{name: "as documented, gzip", method: "GET", path: "/checkout/api/currencies",
			server: gzipped(200, currencies)},
		{name: "a field the document does not name", method: "GET", path: "/checkout/api/currencies",
			server: answer(200, "application/json", strings.Replace(currencies, `"default"`, `"extra":1,"default"`, 1)),
			want:   []string{"GET /checkout/api/currencies → 200", `at /: property "extra" is unsupported`}},
		{name: "a field the document does not name, gzip", method: "GET", path: "/checkout/api/currencies",
			server: gzipped(200, strings.Replace(currencies, `"default"`, `"extra":1,"default"`, 1)),
			want:   []string{`at /: property "extra" is unsupported`}},
		{name: "a field of a nested object", method: "GET", path: "/checkout/api/currencies",
			server: answer(200, "application/json", strings.Replace(currencies, `"rate"`, `"extra":1,"rate"`, 1)),
			want:   []string{`at /currencies/0: property "extra" is unsupported`}},
		{name: "a required field missing", method: "GET", path: "/checkout/api/currencies",
			server: answer(200, "application/json", `{"currencies":[]}`),
			want:   []string{`property "default" is missing`}},
		{name: "null for an object", method: "POST", path: "/checkout/api/quote", body: orderBody,
			server: answer(200, "application/json", strings.Replace(quote, `"subtotal":{"amount":1299,"currency":"EUR"}`, `"subtotal":null`, 1)),
			want:   []string{"POST /checkout/api/quote → 200", "at /subtotal: Value is not nullable"}},
		{name: "an undocumented status", method: "GET", path: "/checkout/api/currencies",
			server: answer(418, "application/json", goaError),
			want:   []string{"→ 418", "status is not supported"}},
		{name: "an error body as documented", method: "GET", path: "/checkout/api/orders/ord_1",
			server: answer(404, "application/json", goaError)},
		{name: "an error body that is not", method: "GET", path: "/checkout/api/orders/ord_1",
			server: answer(404, "text/plain; charset=utf-8", "404 page not found\n"),
			want:   []string{`response header Content-Type has unexpected value: "text/plain; charset=utf-8"`}},
		{name: "the playlist as documented", method: "GET", path: "/checkout/api/services/svc_1/playlist.m3u",
			server: answer(200, "audio/x-mpegurl; charset=utf-8", "#EXTM3U\n")},
		{name: "the playlist as JSON", method: "GET", path: "/checkout/api/services/svc_1/playlist.m3u",
			server: answer(200, "application/json", `"#EXTM3U"`),
			want:   []string{`response header Content-Type has unexpected value: "application/json"`}},
		{name: "an accepted request the document refuses", method: "POST", path: "/checkout/api/quote", body: `{"pid":"two"}`,
			server: answer(200, "application/json", quote),
			want:   []string{"request: body", `at /pid: value must be an integer (value "two")`, `property "billingCycle" is missing`}},
		{name: "a refused request is not the document's business", method: "POST", path: "/checkout/api/quote", body: `{"pid":"two"}`,
			server: answer(400, "application/json", strings.Replace(goaError, "not_found", "invalid_field_type", 1))},
		{name: "an operation the document does not have", method: "POST", path: "/checkout/api/webhooks/stripe", body: `{}`,
			server: answer(200, "text/plain", "ok")},
	}
	// The server's side (Handler, the app tests' shops) and the client's (Transport, a shop in
	// another process) report alike.
	sides := map[string]func(rep *reporter, h http.Handler) (*httptest.Server, *http.Client){
		"handler": func(rep *reporter, h http.Handler) (*httptest.Server, *http.Client) {
			srv := httptest.NewServer(c.Handler(rep, h))
			return srv, srv.Client()
		},
		"transport": func(rep *reporter, h http.Handler) (*httptest.Server, *http.Client) {
			srv := httptest.NewServer(h)
			return srv, &http.Client{Transport: c.Transport(rep, srv.Client().Transport)}
		},
	}
	for _, tt := range tests {
		for side, start := range sides {
			t.Run(tt.name+"/"+side, func(t *testing.T) {
				var rep reporter
				srv, client := start(&rep, tt.server)
				defer srv.Close()
				req, err := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
				if err != nil {
					t.Fatal(err)
				}
				if tt.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if len(tt.want) == 0 {
					if len(rep.errs) > 0 {
						t.Fatalf("reported %q, want nothing", rep.errs)
					}
					return
				}
				if len(rep.errs) != 1 {
					t.Fatalf("reported %q, want one report", rep.errs)
				}
				for _, w := range tt.want {
					if !strings.Contains(rep.errs[0], w) {
						t.Errorf("report %q lacks %q", rep.errs[0], w)
					}
				}
			})
		}
	}
}
