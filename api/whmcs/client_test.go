package whmcs_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

var day = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

// fake starts a fake WHMCS with the demo data and a client for it.
func fake(t *testing.T) (*whmcsfake.Fake, *whmcs.Client, string) {
	t.Helper()
	f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return day }))
	srv := httptest.NewServer(f.Handler())
	t.Cleanup(srv.Close)
	c := whmcs.Config{URL: srv.URL + whmcsfake.Path, Identifier: "demo-identifier", Secret: "demo-secret"}
	cl, err := whmcs.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return f, cl, srv.URL
}

// TestErrors: each failure WHMCS (or the way to it) can give maps to its sentinel, with what
// WHMCS said, and no credential in the error.
func TestErrors(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(*whmcsfake.Fake, *whmcs.Config)
		call    func(context.Context, *whmcs.Client) error
		want    error
		wantMsg string
		wantIP  string
	}{
		{name: "invalid ip", setup: func(f *whmcsfake.Fake, _ *whmcs.Config) { f.SetInvalidIP("203.0.113.7") },
			want: whmcs.ErrInvalidIP, wantMsg: "Invalid IP 203.0.113.7", wantIP: "203.0.113.7"},
		{name: "wrong secret", setup: func(_ *whmcsfake.Fake, c *whmcs.Config) { c.Secret = "wrong-secret-value" },
			want: whmcs.ErrAuth, wantMsg: "Authentication Failed"},
		{name: "wrong access key", setup: func(_ *whmcsfake.Fake, c *whmcs.Config) { c.AccessKey = "not-the-key" },
			want: nil}, // the demo sets no access key: WHMCS ignores one sent
		{name: "maintenance", setup: func(f *whmcsfake.Fake, _ *whmcs.Config) { f.SetMaintenance(true) },
			want: whmcs.ErrUnavailable, wantMsg: "HTML page"},
		{name: "outage", setup: func(f *whmcsfake.Fake, _ *whmcs.Config) { f.SetStatus(503) },
			want: whmcs.ErrUnavailable, wantMsg: "HTTP 503"},
		{name: "rate limited", setup: func(f *whmcsfake.Fake, _ *whmcs.Config) { f.SetStatus(429) },
			want: whmcs.ErrUnavailable, wantMsg: "HTTP 429"},
		{name: "timeout", setup: func(f *whmcsfake.Fake, c *whmcs.Config) {
			f.SetDelay(300 * time.Millisecond)
			c.Timeout = 50 * time.Millisecond
		},
			want: whmcs.ErrUnavailable, wantMsg: "no answer in time"},
		{name: "role lacks the action", setup: func(f *whmcsfake.Fake, _ *whmcs.Config) {
			f.Fail("GetCurrencies", `Invalid Permissions: API action "getcurrencies" is not allowed`)
		}, want: whmcs.ErrPermission, wantMsg: "Invalid Permissions"},
		{name: "not found", call: func(ctx context.Context, c *whmcs.Client) error { _, err := c.GetInvoice(ctx, 99); return err },
			want: whmcs.ErrNotFound, wantMsg: "Invoice ID Not Found"},
		{name: "client not found", call: func(ctx context.Context, c *whmcs.Client) error {
			_, err := c.GetClientByEmail(ctx, "nobody@example.com")
			return err
		}, want: whmcs.ErrNotFound},
		{name: "refused", call: func(ctx context.Context, c *whmcs.Client) error {
			_, err := c.AddClient(ctx, whmcs.NewClient{Email: "a@example.com"})
			return err
		}, want: whmcs.ErrRefused, wantMsg: "A password is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return day }))
			srv := httptest.NewServer(f.Handler())
			defer srv.Close()
			cfg := whmcs.Config{URL: srv.URL + whmcsfake.Path, Identifier: "demo-identifier", Secret: "demo-secret"}
			if tc.setup != nil {
				tc.setup(f, &cfg)
			}
			cl, err := whmcs.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			call := tc.call
			if call == nil {
				call = func(ctx context.Context, c *whmcs.Client) error { _, err := c.GetCurrencies(ctx); return err }
			}
			err = call(context.Background(), cl)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var we *whmcs.Error
			if !errors.As(err, &we) || !strings.Contains(err.Error(), tc.wantMsg) || we.IP != tc.wantIP {
				t.Fatalf("error %#v, want message with %q and IP %q", err, tc.wantMsg, tc.wantIP)
			}
			for _, secret := range []string{"demo-secret", "wrong-secret-value", "demo-identifier"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error shows a credential: %v", err)
				}
			}
		})
	}
}

// TestUnreachable: nothing listening is ErrUnavailable.
func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(nil)
	u := srv.URL
	srv.Close()
	cl, err := whmcs.New(whmcs.Config{URL: u + whmcsfake.Path, Identifier: "i", Secret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.GetCurrencies(context.Background()); !errors.Is(err, whmcs.ErrUnavailable) {
		t.Fatalf("error %v, want ErrUnavailable", err)
	}
}

// TestURL: https only, except on this machine; the API's own address; no credentials in it.
func TestURL(t *testing.T) {
	cases := []struct {
		url string
		ok  bool
	}{
		{"https://billing.example.com/includes/api.php", true},
		{"https://billing.example.com/whmcs/includes/api.php", true},
		{"http://127.0.0.1:8090/includes/api.php", true},
		{"http://localhost/includes/api.php", true},
		{"http://[::1]:9/includes/api.php", true},
		{"http://billing.example.com/includes/api.php", false},
		{"https://billing.example.com/", false},
		{"https://user:pw@billing.example.com/includes/api.php", false},
		{"https://billing.example.com/includes/api.php?accesskey=x", false},
		{"billing.example.com/includes/api.php", false},
		{"ftp://billing.example.com/includes/api.php", false},
	}
	for _, c := range cases {
		if err := whmcs.CheckURL(c.url); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.url, err, c.ok)
		}
	}
}

// TestDecoding: the quirks become typed values.
func TestDecoding(t *testing.T) {
	f, cl, _ := fake(t)
	ctx := context.Background()
	prods, err := cl.GetProducts(ctx, whmcs.ProductQuery{GID: 1})
	if err != nil || len(prods) != 4 {
		t.Fatalf("%d products, %v", len(prods), err)
	}
	u := prods[3]
	if eur := u.Pricing["EUR"]; u.PID != 4 || eur.Cycles["quarterly"].Sold || !eur.Cycles["monthly"].Sold || eur.Cycles["monthly"].Amount != "24.99" ||
		eur.Prefix != "€" || eur.SetupFee["monthly"] != "0.00" {
		t.Fatalf("product 4: %+v", u)
	}
	if len(u.ConfigOptions) != 1 || u.ConfigOptions[0].Type != whmcs.OptionYesNo || u.ConfigOptions[0].Options[0].Pricing["GBP"].Cycles["annually"].Amount != "12.90" {
		t.Fatalf("options of product 4: %+v", u.ConfigOptions)
	}
	if prods[0].PayType != "free" || len(prods[0].Pricing) != 0 || prods[0].CustomFields[0].Name != "MAC Address" {
		t.Fatalf("trial: %+v", prods[0])
	}
	for _, flat := range []bool{false, true} {
		f.SetFlatCurrencies(flat)
		curs, err := cl.GetCurrencies(ctx)
		if err != nil || len(curs) != 3 || curs[1].Code != "USD" || curs[1].ID != 2 || curs[1].Rate != "1.08000" || curs[1].Suffix != " USD" {
			t.Fatalf("flat=%v: %+v %v", flat, curs, err)
		}
	}
	promos, err := cl.GetPromotions(ctx, "")
	if err != nil || len(promos) != 3 {
		t.Fatal(promos, err)
	}
	if w := promos[0]; w.Code != "WELCOME10" || !w.StartDate.IsZero() || !w.ExpirationDate.IsZero() || len(w.AppliesTo) != 3 || w.Value != "10.00" {
		t.Fatalf("WELCOME10: %+v", w)
	}
	if s := promos[2]; s.ExpirationDate.Format(time.DateOnly) != "2020-08-31" {
		t.Fatalf("SUMMER2020: %+v", s)
	}
	methods, err := cl.GetPaymentMethods(ctx)
	if err != nil || len(methods) != 4 || methods[0].Module != "banktransfer" {
		t.Fatal(methods, err)
	}
}

// TestOrderFlow: AddOrder's encoded options and fields reach WHMCS, the invoice reads back with
// no transactions (""), a payment recorded is found by its transaction id, the line is Active.
func TestOrderFlow(t *testing.T) {
	f, cl, _ := fake(t)
	ctx := context.Background()
	id, err := cl.AddClient(ctx, whmcs.NewClient{FirstName: "Ana", LastName: "Ruiz", Email: "ana@example.com", Password: "pw",
		Country: "ES", Language: "spanish", CurrencyID: 1})
	if err != nil || id != 1 {
		t.Fatal(id, err)
	}
	if _, err := cl.AddClient(ctx, whmcs.NewClient{Email: "ana@example.com", Password: "pw"}); !errors.Is(err, whmcs.ErrRefused) {
		t.Fatalf("second AddClient: %v", err)
	}
	c, err := cl.GetClientByEmail(ctx, "ana@example.com")
	if err != nil || c.ID != 1 || c.CurrencyCode != "EUR" {
		t.Fatal(c, err)
	}
	if _, _, err := cl.ValidateLogin(ctx, "ana@example.com", "bad"); !errors.Is(err, whmcs.ErrRefused) {
		t.Fatalf("bad password: %v", err)
	}
	if uid, twoFA, err := cl.ValidateLogin(ctx, "ana@example.com", "pw"); err != nil || uid != 1 || twoFA {
		t.Fatal(uid, twoFA, err)
	}
	placed, err := cl.AddOrder(ctx, whmcs.Order{ClientID: 1, PaymentMethod: "stripe", PromoCode: "WELCOME10", ClientIP: "198.51.100.4",
		Items: []whmcs.OrderItem{
			{PID: 3, Cycle: "monthly", ConfigOptions: map[int]int{2: 2, 4: 1}, CustomFields: map[int]string{5: "00:1A:79:12:34:56", 6: "Fire TV, «4K»"}},
			{PID: 2, Cycle: "annually"},
		}})
	if err != nil || placed.OrderID != 1 || len(placed.ServiceIDs) != 2 || placed.ServiceIDs[1] != 2 || placed.InvoiceID != 1 {
		t.Fatal(placed, err)
	}
	inv, err := cl.GetInvoice(ctx, placed.InvoiceID)
	// Premium 15.99 + 2×3.00 + 2.00 = 23.99, −10 % = 21.59; Standard annually 99.99, −10 % = 89.99
	if err != nil || inv.Total != "111.58" || inv.Balance != "111.58" || inv.Status != "Unpaid" || len(inv.Transactions) != 0 || !inv.DatePaid.IsZero() || len(inv.Items) != 4 {
		t.Fatalf("%+v %v", inv, err)
	}
	st := f.State()
	if s := st.Services[0]; s.ConfigOptions[2] != 2 || s.ConfigOptions[4] != 1 || s.CustomFields[6] != "Fire TV, «4K»" || st.Orders[0].PriceOverride {
		t.Fatalf("what WHMCS got: %+v %+v", s, st.Orders[0])
	}
	if txs, err := cl.GetTransactions(ctx, "pi_1"); err != nil || len(txs) != 0 {
		t.Fatal(txs, err)
	}
	if err := cl.AddInvoicePayment(ctx, whmcs.Payment{InvoiceID: 1, TransID: "pi_1", Gateway: "stripe", Date: day}); err != nil {
		t.Fatal(err)
	}
	txs, err := cl.GetTransactions(ctx, "pi_1")
	if err != nil || len(txs) != 1 || txs[0].InvoiceID != 1 || txs[0].AmountIn != "111.58" || txs[0].Date.IsZero() {
		t.Fatal(txs, err)
	}
	inv, _ = cl.GetInvoice(ctx, 1)
	if inv.Status != "Paid" || inv.Balance != "0.00" || len(inv.Transactions) != 1 || inv.DatePaid.IsZero() {
		t.Fatalf("%+v", inv)
	}
	svc, err := cl.GetClientService(ctx, 1, 1)
	if err != nil || svc.Status != "Active" || svc.Username == "" || svc.Password == "" || svc.ServerHostname == "" ||
		svc.NextDueDate.Format(time.DateOnly) != "2026-12-28" || svc.BillingCycle != "Monthly" || svc.RecurringAmount != "23.99" {
		t.Fatalf("%+v %v", svc, err)
	}
	// Another client's service is not found through this client.
	if _, err := cl.GetClientService(ctx, 2, 1); !errors.Is(err, whmcs.ErrNotFound) {
		t.Fatalf("foreign service: %v", err)
	}
	if err := cl.AcceptOrder(ctx, 1, nil, false); err != nil {
		t.Fatal(err)
	}
	if err := cl.CancelOrder(ctx, 1); !errors.Is(err, whmcs.ErrRefused) {
		t.Fatalf("cancel an accepted order: %v", err)
	}
	if err := cl.Module(ctx, "ModuleSuspend", 1); err != nil {
		t.Fatal(err)
	}
	if svc, _ := cl.GetClientService(ctx, 1, 1); svc.Status != "Suspended" {
		t.Fatalf("after ModuleSuspend: %+v", svc)
	}
}

// TestSerialize: PHP's serialize() of the arrays AddOrder and UpdateClientProduct take (golden strings).
func TestSerialize(t *testing.T) {
	dec := func(s string) string { b, _ := base64.StdEncoding.DecodeString(s); return string(b) }
	cases := []struct{ got, want string }{
		{dec(whmcs.SerializeInts(map[int]int{4: 1, 2: 3})), `a:2:{i:2;i:3;i:4;i:1;}`},
		{dec(whmcs.SerializeInts(map[int]int{})), `a:0:{}`},
		{dec(whmcs.SerializeStrings(map[int]string{1: "00:1A:79:12:34:56"})), `a:1:{i:1;s:17:"00:1A:79:12:34:56";}`},
		{dec(whmcs.SerializeStrings(map[int]string{7: `é"x`})), `a:1:{i:7;s:4:"é"x";}`},
		{dec(whmcs.SerializeOptionQtys(map[int]whmcs.OptionQty{4: {Choice: 9, Qty: 1}, 2: {Choice: 7, Qty: 3}})),
			`a:2:{i:2;a:2:{s:8:"optionid";i:7;s:3:"qty";i:3;}i:4;a:2:{s:8:"optionid";i:9;s:3:"qty";i:1;}}`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestConfigHidesCredentials: printing a Config shows no credential.
func TestConfigHidesCredentials(t *testing.T) {
	s := whmcs.Config{URL: "https://b.example/includes/api.php", Identifier: "ident-123", Secret: "secret-456", AccessKey: "key-789"}.String()
	for _, v := range []string{"ident-123", "secret-456", "key-789"} {
		if strings.Contains(s, v) {
			t.Fatalf("%s shows %s", s, v)
		}
	}
}
