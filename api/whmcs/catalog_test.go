package whmcs_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
)

// settings are the settings of a shop in front of the fake at url.
func settings(url string) whmcs.Settings {
	return whmcs.Settings{URL: url + whmcsfake.Path, Identifier: "demo-identifier", Secret: "demo-secret", PlansGroup: 1, ResellerGroup: 2,
		Gateways: map[string]string{"sandbox": "banktransfer", "stripe": "stripe"}, ExtraOption: 2, ProxyOption: 4, MACField: "MAC Address"}
}

// TestDemoCatalogFromWHMCS: the fake's demo data, read as a shop in WHMCS mode reads it and
// dressed by the demo catalog file, sells what the demo catalog sells at the same prices.
func TestDemoCatalogFromWHMCS(t *testing.T) {
	f := whmcsfake.New(whmcsfake.Demo(), whmcsfake.WithClock(func() time.Time { return day }))
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	started, err := whmcs.Start(context.Background(), settings(srv.URL), []string{"sandbox"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sold, version := started.Catalog.Sold()
	if sold == nil || version != 1 {
		t.Fatalf("sold %v version %d", sold, version)
	}
	demo := catalog.Demo()
	got := whmcs.Merge(demo, *sold)
	if got.DefaultCurrency != "EUR" || len(got.Currencies) != 3 || got.Currencies[1].Rate != "1.08000" {
		t.Fatalf("currencies %s %+v", got.DefaultCurrency, got.Currencies)
	}
	var pids, plans []int
	for _, p := range got.Products {
		pids = append(pids, p.PID)
	}
	for _, p := range got.Plans() {
		plans = append(plans, p.PID)
	}
	if !slices.Equal(pids, []int{1, 2, 3, 4, 10, 11}) || !slices.Equal(plans, []int{1, 2, 3}) {
		t.Fatalf("pids %v, plans listed %v", pids, plans)
	}
	for _, want := range demo.Products {
		p, ok := got.Product(want.PID)
		if !ok {
			t.Fatalf("pid %d missing", want.PID)
		}
		if !slices.Equal(p.EnabledCycles(), want.EnabledCycles()) || p.Trial != want.Trial || p.Group != want.Group {
			t.Errorf("pid %d: cycles %v trial %v group %s, want %v %v %s", p.PID, p.EnabledCycles(), p.Trial, p.Group, want.EnabledCycles(), want.Trial, want.Group)
		}
		for _, cy := range want.EnabledCycles() {
			for _, cur := range []string{"EUR", "USD", "GBP"} {
				a, err1 := pricing.PriceIn(got, p.Cycles[cy], cur)
				b, err2 := pricing.PriceIn(demo, want.Cycles[cy], cur)
				if err1 != nil || err2 != nil || a != b {
					t.Errorf("pid %d %s %s: %d (%v), want %d (%v)", p.PID, cy, cur, a, err1, b, err2)
				}
			}
		}
		var ids, wantIDs []int
		for _, o := range p.ConfigOptions {
			ids = append(ids, o.ID)
		}
		for _, o := range want.ConfigOptions {
			wantIDs = append(wantIDs, o.ID)
		}
		if !slices.Equal(ids, wantIDs) {
			t.Errorf("pid %d: options %v, want %v", p.PID, ids, wantIDs)
		}
		// The file still dresses the product: features, badges and translations.
		if !slices.Equal(p.Features, want.Features) || p.SoldBadge != want.SoldBadge || len(p.I18n) != len(want.I18n) {
			t.Errorf("pid %d: not dressed by the catalog file: %+v", p.PID, p)
		}
	}
	if o, _ := mustProduct(t, got, 3).Option(catalog.ExtraConnectionsOption); o.MaxQty != 4 || o.Pricing[catalog.Annually]["GBP"] != 2150 || o.I18n["de-de"].Name != "Zusätzliche Verbindungen" {
		t.Errorf("extras of pid 3: %+v", o)
	}
	if f := mustProduct(t, got, 2).CustomFields; len(f) != 2 || f[0].Name != "MAC Address" || f[0].I18n["de-de"].Name != "MAC-Adresse" || f[1].Type != "textarea" {
		t.Errorf("custom fields of pid 2: %+v", f)
	}
	for _, code := range []string{"WELCOME10", "SAVE5", "SUMMER2020"} {
		p, ok := got.Promotion(code)
		w, _ := demo.Promotion(code)
		if !ok || !slices.Equal(p.AppliesTo, w.AppliesTo) || p.StartDate != w.StartDate || p.ExpirationDate != w.ExpirationDate || p.Type != w.Type {
			t.Errorf("%s: %+v, want %+v", code, p, w)
		}
	}
	// The storefront's own settings stay the file's.
	if len(got.Storefronts) != len(demo.Storefronts) || len(got.Apps) != len(demo.Apps) || len(got.Legal) != len(demo.Legal) {
		t.Error("the file's storefronts, apps or legal pages were lost")
	}
	if len(started.Notes) != 0 {
		t.Errorf("notes on the demo data: %q", started.Notes)
	}
	// A second read of unchanged data is no change; a price change in WHMCS is.
	if changed, err := started.Catalog.Refresh(context.Background()); changed || err != nil {
		t.Fatalf("refresh of the same data: changed %v, %v", changed, err)
	}
}

func mustProduct(t *testing.T, c *catalog.Catalog, pid int) catalog.Product {
	t.Helper()
	p, ok := c.Product(pid)
	if !ok {
		t.Fatalf("pid %d missing", pid)
	}
	return p
}

// answers decodes WHMCS-shaped JSON, as the client does.
func products(t *testing.T, js string) []whmcs.Product {
	t.Helper()
	var v struct {
		Products whmcs.List[whmcs.Product] `json:"products"`
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v.Products
}

func promos(t *testing.T, js string) []whmcs.Promotion {
	t.Helper()
	var v whmcs.List[whmcs.Promotion]
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

var eurUSD = []whmcs.Currency{{ID: 1, Code: "EUR", Rate: "1.00000"}, {ID: 2, Code: "USD", Rate: "1.10000"}}

// TestConvert: each WHMCS rule becomes the catalog's, or is left out with a note saying why.
func TestConvert(t *testing.T) {
	plan := func(pricing string) string {
		return `{"products":{"product":[{"pid":5,"gid":1,"name":"P","paytype":"recurring","pricing":` + pricing + `}]}}`
	}
	cases := []struct {
		name     string
		answers  func(t *testing.T) whmcs.Answers
		opts     whmcs.Options
		wantErr  string
		wantNote string
		check    func(t *testing.T, s whmcs.Sold)
	}{
		{name: "-1.00 is a cycle not sold", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, plan(`{"EUR":{"monthly":"9.99","annually":"-1.00","msetupfee":"0.00"},"USD":{"monthly":"-1.00","annually":"-1.00"}}`))}
		}, check: func(t *testing.T, s whmcs.Sold) {
			c := s.Products[0].Cycles
			if len(c) != 1 || c[catalog.Monthly]["EUR"] != 999 {
				t.Fatalf("%+v", c)
			}
			if _, has := c[catalog.Monthly]["USD"]; has {
				t.Fatalf("USD not sold but priced: %+v", c)
			}
		}},
		{name: "setup fee leaves the cycle out", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, plan(`{"EUR":{"monthly":"9.99","msetupfee":"5.00","quarterly":"25.00"}}`))}
		}, wantNote: "monthly has a setup fee of 5.00 EUR", check: func(t *testing.T, s whmcs.Sold) {
			if c := s.Products[0].Cycles; len(c) != 1 || c[catalog.Quarterly]["EUR"] != 2500 {
				t.Fatalf("%+v", c)
			}
		}},
		{name: "no default currency", answers: func(*testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: []whmcs.Currency{{Code: "USD", Rate: "1.1"}}}
		}, wantErr: "no currency at rate 1"},
		{name: "unknown currency left out", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: append([]whmcs.Currency{{Code: "BTC", Rate: "0.00001"}}, eurUSD...), Plans: products(t, plan(`{"EUR":{"monthly":"1.00"}}`))}
		}, wantNote: `currency "BTC": not an ISO 4217 code`},
		{name: "no plan sold", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, plan(`{"EUR":{"monthly":"-1.00"}}`))}
		}, wantErr: "no plan can be sold"},
		{name: "free product is the trial", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, `{"products":{"product":[{"pid":1,"name":"T","paytype":"free","pricing":[]}]}}`)}
		}, check: func(t *testing.T, s whmcs.Sold) {
			if p := s.Products[0]; !p.Trial || p.Cycles[catalog.OneTime]["USD"] != 0 || len(p.Cycles) != 1 {
				t.Fatalf("%+v", p)
			}
		}},
		{name: "one-time price is in monthly", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, `{"products":{"product":[{"pid":1,"name":"O","paytype":"onetime","pricing":{"EUR":{"monthly":"30.00"}}}]}}`)}
		}, check: func(t *testing.T, s whmcs.Sold) {
			if c := s.Products[0].Cycles; c[catalog.OneTime]["EUR"] != 3000 || len(c) != 1 {
				t.Fatalf("%+v", c)
			}
		}},
		{name: "extras and proxy by their ids, others not sold", opts: whmcs.Options{ExtraOption: 7, ProxyOption: 8}, answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, `{"products":{"product":[{"pid":5,"name":"P","paytype":"recurring",
				"pricing":{"EUR":{"monthly":"10.00","annually":"100.00"}},
				"configoptions":{"configoption":[
					{"id":7,"name":"Extra","type":"4","minqty":0,"maxqty":3,"options":{"option":[{"id":70,"name":"x","pricing":{"EUR":{"monthly":"2.00","annually":"20.00"}}}]}},
					{"id":8,"name":"Proxy","type":"3","minqty":0,"maxqty":0,"options":{"option":[{"id":80,"name":"y","pricing":{"EUR":{"monthly":"1.50","annually":"-1.00"}}}]}},
					{"id":9,"name":"Region","type":"1","options":{"option":[{"id":90,"name":"EU","pricing":{"EUR":{"monthly":"0.00"}}}]}}]}}]}}`)}
		}, wantNote: "config option 9 (Region): not sold through the storefront", check: func(t *testing.T, s whmcs.Sold) {
			p := s.Products[0]
			extra, ok1 := p.Option(catalog.ExtraConnectionsOption)
			proxy, ok2 := p.Option(catalog.ProxyProtectionOption)
			if !ok1 || !ok2 || len(p.ConfigOptions) != 2 || extra.MaxQty != 3 || extra.Pricing[catalog.Annually]["EUR"] != 2000 ||
				proxy.Type != catalog.OptionYesNo || proxy.Pricing[catalog.Monthly]["EUR"] != 150 || len(proxy.Pricing) != 1 {
				t.Fatalf("%+v", p.ConfigOptions)
			}
		}},
		{name: "extras of the wrong type", opts: whmcs.Options{ExtraOption: 7}, answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, `{"products":{"product":[{"pid":5,"name":"P","paytype":"recurring","pricing":{"EUR":{"monthly":"10.00"}},
				"configoptions":{"configoption":[{"id":7,"name":"Extra","type":"1","options":{"option":[{"id":70,"name":"x","pricing":{"EUR":{"monthly":"2.00"}}}]}}]}}]}}`)}
		}, wantNote: "must be a quantity (type 4), not type 1"},
		{name: "promotions: WHMCS's rules", answers: func(t *testing.T) whmcs.Answers {
			return whmcs.Answers{Currencies: eurUSD, Plans: products(t, plan(`{"EUR":{"monthly":"10.00"}}`)), Promotions: promos(t, `{"promotion":[
				{"code":"spring","type":"Percentage","value":15,"recurring":1,"appliesto":"5,99","startdate":"2026-03-01","expirationdate":"0000-00-00","maxuses":0,"uses":3},
				{"code":"GONE","type":"Fixed Amount","value":"2.00","appliesto":"5","maxuses":10,"uses":10},
				{"code":"OVER","type":"Price Override","value":"1.00","appliesto":"5"},
				{"code":"ELSEWHERE","type":"Percentage","value":"10","appliesto":"99"},
				{"code":"NEWONLY","type":"Percentage","value":"10","appliesto":"5","newsignups":1}]}`)}
		}, wantNote: `promotion "OVER": type "Price Override" is not one Streamcart applies`, check: func(t *testing.T, s whmcs.Sold) {
			var codes []string
			for _, p := range s.Promotions {
				codes = append(codes, p.Code)
			}
			if !slices.Equal(codes, []string{"SPRING", "GONE", "NEWONLY"}) {
				t.Fatalf("codes %v", codes)
			}
			sp, gone := s.Promotions[0], s.Promotions[1]
			if !sp.Recurring || sp.Value != "15" || !slices.Equal(sp.AppliesTo, []int{5}) || sp.StartDate != "2026-03-01" || sp.ExpirationDate != catalog.NoDate || sp.MaxUses != 0 || sp.Disabled {
				t.Fatalf("SPRING %+v", sp)
			}
			if !gone.Disabled {
				t.Fatalf("a used-up code is sold: %+v", gone)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, notes, err := whmcs.Convert(tc.answers(t), tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNote != "" && !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, tc.wantNote) }) {
				t.Fatalf("notes %q, want one with %q", notes, tc.wantNote)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}
