package whmcs_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

// TestSettingsRefusals: settings that cannot work stop the start, naming the setting.
func TestSettingsRefusals(t *testing.T) {
	ok := settings("https://billing.example.com")
	cases := []struct {
		name   string
		change func(*whmcs.Settings)
		want   string
	}{
		{"no url", func(s *whmcs.Settings) { s.URL = "" }, "STREAMCART_WHMCS_URL is required with STREAMCART_BACKEND=whmcs"},
		{"plain http", func(s *whmcs.Settings) { s.URL = "http://billing.example.com/includes/api.php" }, "STREAMCART_WHMCS_URL is invalid (value not shown): want https://"},
		{"not the api", func(s *whmcs.Settings) { s.URL = "https://billing.example.com/" }, "STREAMCART_WHMCS_URL is invalid (value not shown): want the API's address, ending in /includes/api.php"},
		{"no identifier", func(s *whmcs.Settings) { s.Identifier = "" }, "STREAMCART_WHMCS_IDENTIFIER (or STREAMCART_WHMCS_IDENTIFIER_FILE) is required"},
		{"no secret", func(s *whmcs.Settings) { s.Secret = "" }, "STREAMCART_WHMCS_SECRET (or STREAMCART_WHMCS_SECRET_FILE) is required"},
		{"no plans group", func(s *whmcs.Settings) { s.PlansGroup = 0 }, "STREAMCART_WHMCS_PLANS_GROUP is required"},
		{"reseller group = plans group", func(s *whmcs.Settings) { s.ResellerGroup = 1 }, "STREAMCART_WHMCS_RESELLER_GROUP: the reseller plans need a product group of their own"},
		{"negative reseller group", func(s *whmcs.Settings) { s.ResellerGroup = -1 }, "STREAMCART_WHMCS_RESELLER_GROUP: want a product group id"},
		{"negative extra option", func(s *whmcs.Settings) { s.ExtraOption = -2 }, "STREAMCART_WHMCS_EXTRA_OPTION: want a config option id"},
		{"negative proxy option", func(s *whmcs.Settings) { s.ProxyOption = -4 }, "STREAMCART_WHMCS_PROXY_OPTION: want a config option id"},
		{"same option", func(s *whmcs.Settings) { s.ProxyOption = 2 }, "STREAMCART_WHMCS_EXTRA_OPTION and STREAMCART_WHMCS_PROXY_OPTION name the same config option"},
		{"no mac field", func(s *whmcs.Settings) { s.MACField = " " }, "STREAMCART_WHMCS_MAC_FIELD: want the name of the custom field"},
		{"gateway unmapped", func(s *whmcs.Settings) { delete(s.Gateways, "stripe") }, "STREAMCART_WHMCS_GATEWAYS has no WHMCS payment module for gateway stripe: add stripe=<module>"},
	}
	if err := ok.Check([]string{"sandbox", "stripe"}); err != nil {
		t.Fatalf("good settings refused: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ok
			s.Gateways = map[string]string{"sandbox": "banktransfer", "stripe": "stripe"}
			c.change(&s)
			err := s.Check([]string{"sandbox", "stripe"})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want %q…", err, c.want)
			}
			if strings.Contains(err.Error(), "billing.example.com") || strings.Contains(err.Error(), "demo-secret") {
				t.Fatalf("error shows a setting's value: %v", err)
			}
		})
	}
}

// TestParseGateways: gateway=module pairs.
func TestParseGateways(t *testing.T) {
	m, err := whmcs.ParseGateways("stripe=stripe, coinbase=coinbase,cryptomus=cryptomus,sandbox=banktransfer")
	if err != nil || len(m) != 4 || m["sandbox"] != "banktransfer" || whmcs.FormatGateways(m) != "coinbase=coinbase,cryptomus=cryptomus,sandbox=banktransfer,stripe=stripe" {
		t.Fatal(m, err)
	}
	for _, bad := range []string{"stripe", "stripe=", "=stripe", "stripe=a,stripe=b", "Stripe=stripe", "stripe=str ipe"} {
		if _, err := whmcs.ParseGateways(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestStartRefusals: the start asks WHMCS once and says what WHMCS answered and what to change.
func TestStartRefusals(t *testing.T) {
	cases := []struct {
		name   string
		fault  func(*whmcsfake.Fake)
		change func(*whmcs.Settings)
		want   []string
	}{
		{name: "invalid ip", fault: func(f *whmcsfake.Fake) { f.SetInvalidIP("1.2.3.4") },
			want: []string{`WHMCS answered "Invalid IP 1.2.3.4"`, "add this shop's address (1.2.3.4) to WHMCS's API IP allow-list"}},
		{name: "credentials", change: func(s *whmcs.Settings) { s.Secret = "wrong-secret" },
			want: []string{`WHMCS answered "Authentication Failed"`, "check STREAMCART_WHMCS_IDENTIFIER and STREAMCART_WHMCS_SECRET"}},
		{name: "role", fault: func(f *whmcsfake.Fake) {
			f.Fail("GetPaymentMethods", "Invalid Permissions: API action \"getpaymentmethods\" is not allowed")
		},
			want: []string{"give the API credential's role the actions docs/whmcs.md lists"}},
		{name: "maintenance", fault: func(f *whmcsfake.Fake) { f.SetMaintenance(true) },
			want: []string{"WHMCS at STREAMCART_WHMCS_URL did not answer as its API does", "HTML page"}},
		{name: "down", fault: func(f *whmcsfake.Fake) { f.SetStatus(502) }, want: []string{"did not answer as its API does (HTTP 502)"}},
		{name: "empty plans group", change: func(s *whmcs.Settings) { s.PlansGroup = 9 },
			want: []string{"STREAMCART_WHMCS_PLANS_GROUP=9: WHMCS has no product in that group"}},
		{name: "empty reseller group", change: func(s *whmcs.Settings) { s.ResellerGroup = 9 },
			want: []string{"STREAMCART_WHMCS_RESELLER_GROUP=9: WHMCS has no product in that group"}},
		{name: "unknown extra option", change: func(s *whmcs.Settings) { s.ExtraOption = 7 },
			want: []string{"STREAMCART_WHMCS_EXTRA_OPTION=7: no product of the plans group has config option 7"}},
		{name: "extra option of the wrong type", change: func(s *whmcs.Settings) { s.ExtraOption, s.ProxyOption = 4, 0 },
			want: []string{"STREAMCART_WHMCS_EXTRA_OPTION=4: config option 4 is of type 3; want a quantity (type 4) option"}},
		{name: "proxy option of the wrong type", change: func(s *whmcs.Settings) { s.ExtraOption, s.ProxyOption = 0, 2 },
			want: []string{"STREAMCART_WHMCS_PROXY_OPTION=2: config option 2 is of type 4; want a yes/no (type 3) option"}},
		{name: "module not active", change: func(s *whmcs.Settings) { s.Gateways["stripe"] = "stripe_v2" },
			want: []string{"STREAMCART_WHMCS_GATEWAYS maps gateway stripe to stripe_v2, which is not an active payment module in WHMCS (active: banktransfer, stripe, coinbase, cryptomus"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return day }))
			srv := httptest.NewServer(f.Handler())
			defer srv.Close()
			s := settings(srv.URL)
			if c.fault != nil {
				c.fault(f)
			}
			if c.change != nil {
				c.change(&s)
			}
			_, err := whmcs.Start(context.Background(), s, []string{"sandbox", "stripe"}, nil)
			if err == nil {
				t.Fatal("started")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "demo-secret") || strings.Contains(err.Error(), "wrong-secret") {
				t.Errorf("error shows a credential: %v", err)
			}
			if n := f.CallCount("GetCurrencies"); c.name == "invalid ip" && n != 0 {
				t.Errorf("the refused calls were counted: %d", n) // the fake counts answered calls only
			}
		})
	}
	// A MAC field no plan has is a warning, not a refusal.
	f := whmcsfake.New(whmcsfake.Demo())
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	s := settings(srv.URL)
	s.MACField = "Device MAC"
	started, err := whmcs.Start(context.Background(), s, []string{"sandbox"}, nil)
	if err != nil || len(started.Notes) != 1 || !strings.Contains(started.Notes[0], `STREAMCART_WHMCS_MAC_FIELD="Device MAC": no plan has a custom field of that name`) {
		t.Fatalf("%v %+v", err, started)
	}
}
