package app_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
)

// recurringCatalog is the demo catalog with a one-time paid cycle on the Sports plan (pid 4) and
// a promotion that keeps applying to renewals (FOREVER5).
func recurringCatalog(t *testing.T) string {
	t.Helper()
	demo, err := os.ReadFile(filepath.Join("..", "catalog", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	custom := strings.Replace(string(demo), "promotions:\n", `promotions:
  - code: FOREVER5
    type: Percentage
    value: "5"
    appliesTo: [3]
    recurring: true
`, 1)
	custom = strings.Replace(custom, `      annually: {EUR: "199.99", GBP: "169.99"}
`, `      annually: {EUR: "199.99", GBP: "169.99"}
      onetime: {EUR: "49.00", GBP: "42.00"}
`, 1)
	if !strings.Contains(custom, "FOREVER5") || !strings.Contains(custom, `onetime: {EUR: "49.00"`) {
		t.Fatal("demo catalog changed: the test's edits did not apply")
	}
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := os.WriteFile(file, []byte(custom), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestRecurring: POST /quote and POST /orders say what renews after the period paid now: the
// full price after a one-time promotion, the discounted one after a recurring promotion, null for
// a one-time plan, a free trial and a reseller credit plan. The order keeps it (GET /orders/{id}).
func TestRecurring(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		file := recurringCatalog(t)
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		type want struct {
			total     int64
			recurring int64 // -1: null
			currency  string
			cycle     string
		}
		cases := []struct {
			name string
			req  genpricing.QuoteRequest
			want want
		}{
			// The purchase: Premium quarterly 39.99 + 2 × 8.00 + 5.00 = 60.99, 10 % off once.
			{"one-time promo renews at the full price",
				genpricing.QuoteRequest{Pid: 3, BillingCycle: "quarterly", ExtraConnections: 2, ProxyProtection: true, PromoCode: ptr("WELCOME10")},
				want{5489, 6099, "EUR", "quarterly"}},
			{"no promo", genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly"}, want{1299, 1299, "EUR", "monthly"}},
			{"recurring promo renews discounted", genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", PromoCode: ptr("FOREVER5")},
				want{1519, 1519, "EUR", "monthly"}},
			{"in the chosen currency", genpricing.QuoteRequest{Pid: 2, BillingCycle: "annually", Currency: ptr("GBP"), ProxyProtection: true},
				want{9789, 9789, "GBP", "annually"}},
			{"one-time plan does not renew", genpricing.QuoteRequest{Pid: 4, BillingCycle: "onetime"}, want{4900, -1, "EUR", ""}},
			{"trial does not renew", genpricing.QuoteRequest{Pid: 1, BillingCycle: "onetime"}, want{0, -1, "EUR", ""}},
			{"reseller credits do not renew", genpricing.QuoteRequest{Pid: 10, BillingCycle: "monthly"}, want{14900, -1, "EUR", ""}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				req := tc.req
				q, err := s.pricing.Quote(t.Context(), &req)
				if err != nil {
					t.Fatal(err)
				}
				if q.Total.Amount != tc.want.total {
					t.Fatalf("total %d, want %d", q.Total.Amount, tc.want.total)
				}
				rc := q.Recurring
				switch {
				case tc.want.recurring < 0 && rc != nil:
					t.Fatalf("recurring %+v, want null", rc)
				case tc.want.recurring >= 0 && (rc == nil || rc.Amount != tc.want.recurring || rc.Currency != tc.want.currency || rc.BillingCycle != tc.want.cycle):
					t.Fatalf("recurring %+v, want %d %s %s", rc, tc.want.recurring, tc.want.currency, tc.want.cycle)
				}
			})
		}

		// The order answers the same, at its top level and in its quote, and keeps it.
		buyer := s.identify("renews@example.com", "")
		p := genorder.CreatePayload{Pid: 3, BillingCycle: "quarterly", ExtraConnections: 2, ProxyProtection: true, PromoCode: ptr("WELCOME10")}
		o := s.buy(buyer.Token, p)
		if o.Total.Amount != 5489 || o.Recurring == nil || o.Recurring.Amount != 6099 || o.Recurring.BillingCycle != "quarterly" ||
			o.Quote.Recurring == nil || *o.Quote.Recurring != *o.Recurring {
			t.Fatalf("POST /orders: total %+v recurring %+v quote.recurring %+v, want 5489 then 6099 quarterly", o.Total, o.Recurring, o.Quote.Recurring)
		}
		got := s.getOrder(buyer.Token, o.OrderID)
		if got.Recurring == nil || *got.Recurring != *o.Recurring {
			t.Fatalf("GET /orders/%s recurring %+v, want %+v", o.OrderID, got.Recurring, o.Recurring)
		}
		one := s.buy(buyer.Token, genorder.CreatePayload{Pid: 4, BillingCycle: "onetime"})
		if one.Recurring != nil || one.Quote.Recurring != nil {
			t.Fatalf("one-time order recurring %+v, want null", one.Recurring)
		}

		// On the wire: always present, an object of exactly amount, currency and billingCycle, or null.
		status, _, body := s.raw(http.MethodPost, "/checkout/api/quote", "", strings.NewReader(`{"pid":3,"billingCycle":"quarterly","extraConnections":2,"proxyProtection":true,"promoCode":"WELCOME10"}`))
		var answer struct {
			Recurring map[string]any `json:"recurring"`
		}
		if err := json.Unmarshal(body, &answer); status != http.StatusOK || err != nil {
			t.Fatalf("POST /quote = %d %s (%v)", status, body, err)
		}
		if len(answer.Recurring) != 3 || answer.Recurring["amount"] != float64(6099) || answer.Recurring["currency"] != "EUR" ||
			answer.Recurring["billingCycle"] != "quarterly" {
			t.Fatalf("recurring = %v, want {amount: 6099, currency: EUR, billingCycle: quarterly}", answer.Recurring)
		}
		status, _, body = s.raw(http.MethodPost, "/checkout/api/quote", "", strings.NewReader(`{"pid":1,"billingCycle":"onetime"}`))
		if status != http.StatusOK || !bytes.Contains(body, []byte(`"recurring":null`)) {
			t.Fatalf("POST /quote (trial) = %d %s, want \"recurring\":null", status, body)
		}
		status, _, body = s.raw(http.MethodPost, "/checkout/api/orders", buyer.Token,
			strings.NewReader(`{"pid":2,"billingCycle":"monthly","idempotencyKey":"wire-1"}`))
		if status != http.StatusCreated && status != http.StatusOK {
			t.Fatalf("POST /orders = %d %s", status, body)
		}
		if !bytes.Contains(body, []byte(`"recurring":{"amount":1299,"currency":"EUR","billingCycle":"monthly"}`)) {
			t.Fatalf("POST /orders = %s, want a top-level recurring of 1299 EUR monthly", body)
		}
	})
}
