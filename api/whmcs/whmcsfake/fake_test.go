package whmcsfake_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

// day is the fake's fixed time in these tests.
var day = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

func start(t *testing.T) (*whmcsfake.Fake, *httptest.Server) {
	t.Helper()
	f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return day }))
	srv := httptest.NewServer(f.Handler())
	t.Cleanup(srv.Close)
	return f, srv
}

// post calls action with the demo credentials and returns the status and the raw body.
func post(t *testing.T, srv *httptest.Server, action string, params url.Values) (int, string) {
	t.Helper()
	form := url.Values{"action": {action}, "identifier": {"demo-identifier"}, "secret": {"demo-secret"}, "responsetype": {"json"}}
	for k, v := range params {
		form[k] = v
	}
	res, err := http.PostForm(srv.URL+whmcsfake.Path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// php is a PHP-serialised array written by hand (not by the client's encoder).
func php(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestQuirks: the answers carry WHMCS's documented quirks, byte for byte where it matters.
func TestQuirks(t *testing.T) {
	_, srv := start(t)
	_, body := post(t, srv, "AddClient", url.Values{"email": {"a@example.com"}, "password2": {"pw"}, "skipvalidation": {"true"}, "country": {"DE"}})
	if !strings.Contains(body, `"clientid":"1"`) {
		t.Fatalf("AddClient: %s", body)
	}
	_, body = post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"banktransfer"},
		"pid[]": {"2", "3"}, "billingcycle[]": {"monthly", "annually"}, "configoptions[]": {php(`a:2:{i:2;i:2;i:4;i:1;}`), ""}})
	for _, want := range []string{`"orderid":"1"`, `"serviceids":"1,2"`, `"invoiceid":"1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("AddOrder: %s lacks %s", body, want)
		}
	}
	cases := []struct {
		action string
		params url.Values
		want   []string
	}{
		{"GetInvoice", url.Values{"invoiceid": {"1"}}, []string{`"transactions":""`, `"datepaid":"0000-00-00 00:00:00"`,
			`"total":"140.98"`, `"balance":"140.98"`, `"status":"Unpaid"`, `"invoiceid":1`}}, // 12.99+2×3.00+2.00 + 119.99
		{"GetProducts", url.Values{"pid": {"4"}}, []string{`"quarterly":"-1.00"`, `"monthly":"24.99"`, `"totalresults":1`, `"type":"3"`}},
		{"GetCurrencies", nil, []string{`"id":"1"`, `"rate":"1.00000"`}},
		{"GetPromotions", url.Values{"code": {"WELCOME10"}}, []string{`"appliesto":"2,3,4"`, `"expirationdate":"0000-00-00"`}},
		{"GetClientsProducts", url.Values{"clientid": {"1"}}, []string{`"totalresults":"2"`, `"id":"1"`, `"status":"Pending"`, `"billingcycle":"Monthly"`}},
		{"GetTransactions", url.Values{"invoiceid": {"1"}}, []string{`"transactions":""`}},
		{"GetClientsDetails", url.Values{"email": {"nobody@example.com"}}, []string{`{"message":"Client Not Found","result":"error"}`}},
	}
	for _, c := range cases {
		status, body := post(t, srv, c.action, c.params)
		if status != http.StatusOK {
			t.Errorf("%s: HTTP %d", c.action, status)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: %s lacks %s", c.action, body, w)
			}
		}
	}
	// The admin-only custom field is not on the order form, so not in GetProducts.
	if _, body := post(t, srv, "GetProducts", url.Values{"pid": {"2"}}); strings.Contains(body, "Streamcart ref") {
		t.Errorf("GetProducts shows an admin-only field: %s", body)
	}
}

// TestRefusals: credentials, the IP allow-list, maintenance, outages and injected errors.
func TestRefusals(t *testing.T) {
	f, srv := start(t)
	cases := []struct {
		name       string
		setup      func()
		form       url.Values
		wantStatus int
		wantBody   string
	}{
		{"wrong secret", func() {}, url.Values{"action": {"GetCurrencies"}, "identifier": {"demo-identifier"}, "secret": {"nope"}, "responsetype": {"json"}},
			200, `{"message":"Authentication Failed","result":"error"}`},
		{"unknown action", func() {}, nil, 200, `"message":"Command Not Found"`},
		{"invalid ip", func() { f.SetInvalidIP("203.0.113.7") }, nil, 403, `{"message":"Invalid IP 203.0.113.7","result":"error"}`},
		{"maintenance", func() { f.SetMaintenance(true) }, nil, 200, "<h1>Down for Maintenance</h1>"},
		{"outage", func() { f.SetStatus(503) }, nil, 503, ""},
		{"injected", func() { f.Fail("GetCurrencies", "Something broke") }, nil, 200, `{"message":"Something broke","result":"error"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.SetInvalidIP("")
			f.SetMaintenance(false)
			f.SetStatus(0)
			f.Fail("GetCurrencies", "")
			c.setup()
			form := c.form
			if form == nil {
				form = url.Values{"action": {"GetCurrencies"}, "identifier": {"demo-identifier"}, "secret": {"demo-secret"}, "responsetype": {"json"}}
				if c.name == "unknown action" {
					form.Set("action", "DeleteEverything")
				}
			}
			res, err := http.PostForm(srv.URL+whmcsfake.Path, form)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.wantStatus || !strings.Contains(string(b), c.wantBody) {
				t.Fatalf("HTTP %d %s, want %d with %s", res.StatusCode, b, c.wantStatus, c.wantBody)
			}
		})
	}
}

// TestLifecycle: an order paid becomes an Active line with credentials (product set up on
// payment), WHMCS's cron invoices the renewal and suspends it when overdue, paying unsuspends.
func TestLifecycle(t *testing.T) {
	now := day
	f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return now }))
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	post(t, srv, "AddClient", url.Values{"email": {"b@example.com"}, "password2": {"pw"}, "skipvalidation": {"1"}})
	_, body := post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"stripe"}, "pid[0]": {"2"},
		"billingcycle[0]": {"monthly"}, "promocode": {"WELCOME10"}, "customfields[0]": {php(`a:1:{i:2;s:17:"00:1A:79:12:34:56";}`)}})
	if !strings.Contains(body, `"invoiceid":"1"`) {
		t.Fatal(body)
	}
	_, body = post(t, srv, "GetInvoice", url.Values{"invoiceid": {"1"}})
	if !strings.Contains(body, `"total":"11.69"`) { // 12.99 − 10 % (1.30)
		t.Fatalf("promo not applied: %s", body)
	}
	_, body = post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"1"}, "transid": {"pi_123"}, "gateway": {"stripe"}})
	if !strings.Contains(body, `"result":"success"`) {
		t.Fatal(body)
	}
	st := f.State()
	s := st.Services[0]
	if s.Status != "Active" || s.Username == "" || s.NextDueDate != "2026-12-28" || s.CustomFields[2] != "00:1A:79:12:34:56" {
		t.Fatalf("service after payment: %+v", s)
	}
	if st.Orders[0].Status != "Pending" || st.Invoices[0].Status != "Paid" || st.Promotions[0].Uses != 1 {
		t.Fatalf("order %+v invoice %+v promo %+v", st.Orders[0], st.Invoices[0], st.Promotions[0])
	}
	if _, body := post(t, srv, "AcceptOrder", url.Values{"orderid": {"1"}, "autosetup": {"false"}}); !strings.Contains(body, "success") {
		t.Fatal(body)
	}
	if _, body := post(t, srv, "AcceptOrder", url.Values{"orderid": {"1"}}); !strings.Contains(body, "Order ID not found or Status not Pending") {
		t.Fatal(body)
	}
	now = time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC)
	if res := f.RunCron(); len(res.Invoices) != 1 {
		t.Fatalf("cron: %+v", res)
	}
	now = time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC)
	if res := f.RunCron(); len(res.Suspended) != 1 {
		t.Fatalf("cron: %+v", res)
	}
	post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"2"}, "transid": {"pi_456"}, "gateway": {"stripe"}})
	s = f.State().Services[0]
	if s.Status != "Active" || s.NextDueDate != "2027-01-28" || s.Recurring != "12.99" {
		t.Fatalf("after the renewal: %+v", s)
	}
	// A cancelled invoice takes no payment.
	post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"stripe"}, "pid": {"3"}, "billingcycle": {"monthly"}})
	post(t, srv, "CancelOrder", url.Values{"orderid": {"2"}})
	if _, body := post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"3"}, "transid": {"x"}, "gateway": {"stripe"}}); !strings.Contains(body, "It is not possible to add a payment to an invoice that is Cancelled") {
		t.Fatal(body)
	}
}

// TestSeedRefusals: a seed file with a mistake is refused with the mistake named.
func TestSeedRefusals(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"credentials: {identifier: a}\n", "credentials need an identifier and a secret"},
		{"nonsense: 1\n", "field nonsense not found"},
		{`credentials: {identifier: a, secret: b}
currencies: [{id: 1, code: EUR, rate: "1", default: true}, {id: 2, code: USD, rate: "1.1"}]
products: [{pid: 1, gid: 1, name: X, paytype: recurring, pricing: {EUR: {monthly: "1.00"}}}]
paymentmethods: [{module: banktransfer}]
`, "product 1: no USD prices"},
	}
	for _, c := range cases {
		if _, err := whmcsfake.ParseSeed([]byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}

// TestRefundTransaction: AddTransaction records money paid out on an invoice (a refund): it
// refuses what WHMCS refuses (an unknown module, invoice or client, credit with an invoice, no
// amount, a transaction id it holds unless allowduplicatetransid), and a paid invoice all of
// whose money went back is Refunded. GetClientsProducts finds a service by the domain AddOrder
// wrote.
func TestRefundTransaction(t *testing.T) {
	f, srv := start(t)
	post(t, srv, "AddClient", url.Values{"email": {"r@example.com"}, "password2": {"pw"}, "skipvalidation": {"true"}, "currency": {"1"}})
	post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"banktransfer"}, "pid[0]": {"2"},
		"billingcycle[0]": {"monthly"}, "domain[0]": {"streamcart-ref-1"}})
	if _, body := post(t, srv, "GetClientsProducts", url.Values{"clientid": {"1"}, "domain": {"streamcart-ref-1"}}); !strings.Contains(body, `"totalresults":"1"`) ||
		!strings.Contains(body, `"domain":"streamcart-ref-1"`) {
		t.Fatalf("GetClientsProducts by domain: %s", body)
	}
	if _, body := post(t, srv, "GetClientsProducts", url.Values{"clientid": {"1"}, "domain": {"other"}}); !strings.Contains(body, `"totalresults":"0"`) {
		t.Fatalf("GetClientsProducts by another domain: %s", body)
	}
	total := f.State().Invoices[0].Total
	post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"1"}, "transid": {"pay-1"}, "gateway": {"banktransfer"}, "date": {"2026-11-28 10:00:00"}})
	refund := url.Values{"paymentmethod": {"banktransfer"}, "userid": {"1"}, "invoiceid": {"1"}, "transid": {"refund-1"}, "amountout": {total}}
	with := func(k, v string) url.Values {
		p := url.Values{}
		for key, vs := range refund {
			p[key] = vs
		}
		if v == "" {
			p.Del(k)
		} else {
			p.Set(k, v)
		}
		return p
	}
	for _, tc := range []struct {
		name   string
		params url.Values
		want   string
	}{
		{"unknown module", with("paymentmethod", "nope"), "Invalid Payment Method"},
		{"unknown invoice", with("invoiceid", "99"), "Invoice ID Not Found"},
		{"unknown client", with("userid", "99"), "Client ID Not Found"},
		{"credit with an invoice", with("credit", "true"), "Invoice ID must not be provided"},
		{"no amount", with("amountout", ""), "Invalid amount"},
		{"the payment's transaction id", with("transid", "pay-1"), "Transaction ID must be unique"},
	} {
		if _, body := post(t, srv, "AddTransaction", tc.params); !strings.Contains(body, `"result":"error"`) || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %s, want %q", tc.name, body, tc.want)
		}
	}
	if _, body := post(t, srv, "AddTransaction", refund); !strings.Contains(body, `"result":"success"`) {
		t.Fatalf("AddTransaction: %s", body)
	}
	if _, body := post(t, srv, "AddTransaction", refund); !strings.Contains(body, "Transaction ID must be unique") {
		t.Fatalf("a repeated refund: %s", body)
	}
	if _, body := post(t, srv, "GetTransactions", url.Values{"transid": {"refund-1"}}); !strings.Contains(body, `"amountout":"`+total+`"`) {
		t.Fatalf("GetTransactions: %s", body)
	}
	st := f.State()
	if st.Invoices[0].Status != "Refunded" || len(st.Transactions) != 2 || st.Transactions[1].Refunded != total {
		t.Fatalf("state %+v: want the invoice Refunded, the refund recorded once", st)
	}
}

// TestControlCronAtDate: `POST /_fake/cron?date=` runs WHMCS's cron as on that day, as a seller
// trying renewals by hand runs it (make run-whmcs runs on the real clock): the renewal invoice is
// made and dated that day, a second run makes none, a date before the invoice window makes none,
// and a malformed date is refused with nothing made.
func TestControlCronAtDate(t *testing.T) {
	f, srv := start(t)
	ctl := httptest.NewServer(f.Control())
	defer ctl.Close()
	post(t, srv, "AddClient", url.Values{"email": {"b@example.com"}, "password2": {"pw"}, "skipvalidation": {"1"}})
	post(t, srv, "AddOrder", url.Values{"clientid": {"1"}, "paymentmethod": {"stripe"}, "pid[0]": {"2"}, "billingcycle[0]": {"monthly"}})
	post(t, srv, "AddInvoicePayment", url.Values{"invoiceid": {"1"}, "transid": {"pi_1"}, "gateway": {"stripe"}})
	cron := func(q string) (int, string) {
		t.Helper()
		res, err := http.Post(ctl.URL+whmcsfake.ControlPath+"cron"+q, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, q := range []string{"?date=2026-12-32", "?date=tomorrow"} {
		if code, _ := cron(q); code != http.StatusBadRequest {
			t.Fatalf("%s: HTTP %d, want 400", q, code)
		}
	}
	if code, body := cron(""); code != http.StatusOK || !strings.Contains(body, `"invoices":null`) { // the fake's day: due in 30 days
		t.Fatalf("cron today: %d %s", code, body)
	}
	if code, body := cron("?date=2026-12-13"); code != http.StatusOK || !strings.Contains(body, `"invoices":null`) { // 15 days ahead
		t.Fatalf("cron 15 days ahead: %d %s", code, body)
	}
	if code, body := cron("?date=2026-12-14"); code != http.StatusOK || !strings.Contains(body, `"invoices":[2]`) {
		t.Fatalf("cron 14 days ahead: %d %s", code, body)
	}
	if code, body := cron("?date=2026-12-15"); code != http.StatusOK || !strings.Contains(body, `"invoices":null`) {
		t.Fatalf("cron again: %d %s", code, body)
	}
	st := f.State()
	if len(st.Invoices) != 2 || st.Invoices[1].DueDate != "2026-12-28" || st.Invoices[1].Status != "Unpaid" {
		t.Fatalf("renewal invoice: %+v", st.Invoices)
	}
	if _, body := post(t, srv, "GetInvoice", url.Values{"invoiceid": {"2"}}); !strings.Contains(body, `"date":"2026-12-14"`) {
		t.Fatalf("renewal invoice not dated the cron's day: %s", body)
	}
}
