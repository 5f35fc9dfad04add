package app_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/openapidoc"
	gencatalog "github.com/streamcart/streamcart/gen/catalog"
	genorder "github.com/streamcart/streamcart/gen/order"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genpromotion "github.com/streamcart/streamcart/gen/promotion"
	gensession "github.com/streamcart/streamcart/gen/session"
)

func TestProducts(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		cases := []struct {
			name     string
			currency *string
			want     string        // currency of every amount
			monthly  map[int]int64 // pid → monthly price
			err      string        // design error name
		}{
			{name: "default currency", want: "EUR", monthly: map[int]int64{2: 1299, 3: 1599}},
			{name: "explicit USD, converted where the catalog has no USD price", currency: ptr("USD"), want: "USD",
				monthly: map[int]int64{2: 1403, 3: 1699}},
			{name: "lower-case code", currency: ptr("gbp"), want: "GBP", monthly: map[int]int64{2: 1099, 3: 1349}},
			{name: "unknown currency", currency: ptr("XYZ"), err: "bad_request"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res, err := s.catalog.ListProducts(t.Context(), &gencatalog.ListProductsPayload{Currency: tc.currency})
				if tc.err != "" {
					wantErr(t, err, tc.err, "")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				var pids []int
				for _, p := range res.Products {
					pids = append(pids, p.Pid)
				}
				// The demo has four plans; the storefront lists the first three (spec §9).
				if !slices.Equal(pids, []int{1, 2, 3}) {
					t.Fatalf("pids = %v, want the first three plans [1 2 3]", pids)
				}
				for _, p := range res.Products {
					if p.Name == "" || p.Group != "plan" || len(p.Cycles) == 0 || p.Currency != tc.want {
						t.Errorf("pid %d: name %q group %q cycles %v currency %q", p.Pid, p.Name, p.Group, p.Cycles, p.Currency)
					}
					if p.ConfigOptions == nil || p.CustomFields == nil || p.Features == nil {
						t.Errorf("pid %d: configOptions, customFields and features must be lists", p.Pid)
					}
					for _, c := range p.Cycles {
						m := p.Pricing[c]
						if m == nil || m.Currency != tc.want {
							t.Errorf("pid %d cycle %s: price %+v, want one in %s", p.Pid, c, m, tc.want)
						}
					}
					if want, ok := tc.monthly[p.Pid]; ok && p.Pricing["monthly"].Amount != want {
						t.Errorf("pid %d monthly = %d, want %d", p.Pid, p.Pricing["monthly"].Amount, want)
					}
				}
				trial, premium := res.Products[0], res.Products[2]
				if !trial.Trial || !slices.Equal(trial.Cycles, []string{"onetime"}) || trial.Pricing["onetime"].Amount != 0 {
					t.Errorf("trial: trial %v cycles %v pricing %+v", trial.Trial, trial.Cycles, trial.Pricing["onetime"])
				}
				if premium.SoldBadge != "Best seller" || premium.SaveBadge != "Save 40%" || premium.Guarantee == "" {
					t.Errorf("premium badges: save %q sold %q guarantee %q", premium.SaveBadge, premium.SoldBadge, premium.Guarantee)
				}
				var ids []int
				for _, o := range premium.ConfigOptions {
					ids = append(ids, o.ID)
				}
				if !slices.Equal(ids, []int{2, 4}) || len(premium.CustomFields) != 2 {
					t.Errorf("premium: config options %v, custom fields %d", ids, len(premium.CustomFields))
				}
				// Biennially is disabled (-1) for Standard: never offered.
				if slices.Contains(res.Products[1].Cycles, "biennially") {
					t.Errorf("standard cycles %v offer the disabled biennially", res.Products[1].Cycles)
				}
			})
		}
	})
}

func TestGetProduct(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		cases := []struct {
			name string
			pid  int
			want string // product name, or the error name
			err  bool
		}{
			{name: "listed plan", pid: 2, want: "Standard"},
			{name: "fourth plan: not listed, still there by pid", pid: 4, want: "Ultimate 4K"},
			{name: "reseller plan", pid: 10, want: "Reseller Starter"},
			{name: "unknown pid", pid: 999, want: "not_found", err: true},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res, err := s.catalog.GetProduct(t.Context(), &gencatalog.GetProductPayload{Pid: tc.pid})
				if tc.err {
					wantErr(t, err, tc.want, "Product not found.")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Pid != tc.pid || res.Name != tc.want {
					t.Fatalf("got pid %d %q, want %d %q", res.Pid, res.Name, tc.pid, tc.want)
				}
			})
		}
	})
}

func TestResellerProducts(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		res, err := s.catalog.ListResellerProducts(t.Context(), &gencatalog.ListResellerProductsPayload{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]int{}
		for _, p := range res.Products {
			if p.Group != "reseller" {
				t.Errorf("pid %d group %q", p.Pid, p.Group)
			}
			got[p.Pid] = p.Credits
		}
		if len(got) != 2 || got[10] != 100 || got[11] != 500 {
			t.Fatalf("reseller plans (pid → credits) = %v, want 10→100, 11→500", got)
		}
	})
}

func TestCurrenciesAndConvert(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		cur, err := s.catalog.ListCurrencies(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		rates := map[string]string{}
		for _, c := range cur.Currencies {
			rates[c.Code] = c.Rate
		}
		if cur.Default != "EUR" || len(rates) != 3 || rates["EUR"] != "1" || rates["USD"] != "1.08" || rates["GBP"] != "0.86" {
			t.Fatalf("currencies = %v default %q", rates, cur.Default)
		}
		if cur.Currencies[0].Prefix != "€" {
			t.Errorf("EUR prefix = %q", cur.Currencies[0].Prefix)
		}

		cases := []struct {
			name       string
			amount     int64
			from, to   string
			want       int64
			wantCur    string
			wantRate   string
			badRequest bool
		}{
			{name: "default to USD", amount: 1000, from: "EUR", to: "USD", want: 1080, wantCur: "USD", wantRate: "1.08"},
			{name: "same currency", amount: 1299, from: "EUR", to: "EUR", want: 1299, wantCur: "EUR", wantRate: "1"},
			{name: "to the default", amount: 860, from: "GBP", to: "EUR", want: 1000, wantCur: "EUR"},
			{name: "lower case", amount: 1000, from: "eur", to: "gbp", want: 860, wantCur: "GBP", wantRate: "0.86"},
			{name: "unknown source", amount: 1000, from: "XYZ", to: "EUR", badRequest: true},
			{name: "unknown target", amount: 1000, from: "EUR", to: "ABC", badRequest: true},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res, err := s.catalog.Convert(t.Context(), &gencatalog.ConvertPayload{Amount: tc.amount, From: tc.from, To: tc.to})
				if tc.badRequest {
					wantErr(t, err, "bad_request", "")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Amount != tc.want || res.Currency != tc.wantCur || (tc.wantRate != "" && res.Rate != tc.wantRate) {
					t.Fatalf("got %d %s rate %s, want %d %s rate %s", res.Amount, res.Currency, res.Rate, tc.want, tc.wantCur, tc.wantRate)
				}
			})
		}
	})
}

func TestGatewaysAndStorefront(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		gw, err := s.catalog.ListGateways(t.Context(), &gencatalog.ListGatewaysPayload{})
		if err != nil {
			t.Fatal(err)
		}
		if gw.Default != "sandbox" || len(gw.Gateways) != 1 || gw.Gateways[0].Module != "sandbox" || gw.Gateways[0].DisplayName != "Card (sandbox)" {
			t.Fatalf("gateways = %+v default %q", gw.Gateways, gw.Default)
		}
		sf, err := s.catalog.Storefront(t.Context(), &gencatalog.StorefrontPayload{})
		if err != nil {
			t.Fatal(err)
		}
		if sf.Name != "Test Shop" || sf.DefaultCurrency != "EUR" || sf.DashboardURL != "/checkout/" || sf.SupportURL != "https://support.test/" {
			t.Errorf("storefront settings = %+v", sf)
		}
		if len(sf.Apps) != 5 || len(sf.Cards) != 4 {
			t.Errorf("storefront has %d apps and %d cards, want the demo's 5 and 4", len(sf.Apps), len(sf.Cards))
		}
	})
}

func TestOpenAPIServed(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		goa, err := os.ReadFile(filepath.Join("..", "..", "gen", "http", "openapi3.json"))
		if err != nil {
			t.Fatal(err)
		}
		// The served document is Goa's, completed by make gen (nullable properties, errors, headers).
		want, err := openapidoc.Build(goa)
		if err != nil {
			t.Fatal(err)
		}
		status, h, body := s.raw(http.MethodGet, "/checkout/api/openapi.json", "", nil)
		if status != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
			t.Fatalf("GET /checkout/api/openapi.json: %d %s", status, h.Get("Content-Type"))
		}
		if !bytes.Equal(bytes.TrimSpace(body), bytes.TrimSpace(want)) {
			t.Fatal("served OpenAPI document differs from gen/http/openapi3.json completed by api/openapidoc (run make gen)")
		}
		var doc struct {
			OpenAPI string         `json:"openapi"`
			Paths   map[string]any `json:"paths"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/checkout/api/products", "/checkout/api/orders", "/checkout/api/session", "/checkout/api/quote"} {
			if _, ok := doc.Paths[p]; !ok {
				t.Errorf("OpenAPI document lacks %s", p)
			}
		}
	})
}

func TestHealth(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		for _, path := range []string{"/healthz", "/readyz"} {
			if status, _, body := s.raw(http.MethodGet, path, "", nil); status != http.StatusOK {
				t.Errorf("GET %s = %d %s", path, status, body)
			}
		}
	})
}

func TestGeo(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		// No country database is configured: loopback is skipped (MA), a public address fails (XX).
		s := newShop(t, func(c *app.Config) { c.TrustedProxies = prefixes("127.0.0.0/8") })
		cases := []struct{ name, ip, wantIP, want string }{
			{name: "loopback is skipped", wantIP: "127.0.0.1", want: "MA"},
			{name: "private is skipped", ip: "10.1.2.3", wantIP: "10.1.2.3", want: "MA"},
			{name: "public without a database", ip: "8.8.8.8", wantIP: "8.8.8.8", want: "XX"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c := s
				if tc.ip != "" {
					c = s.from(tc.ip)
				}
				res, err := c.geo.Lookup(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if res.IP != tc.wantIP || res.Country != tc.want {
					t.Fatalf("geo = %+v, want ip %s country %s", res, tc.wantIP, tc.want)
				}
			})
		}
	})
}

const msgNotApplicable = "This Coupon is not available for this product."

func TestPromotions(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		cases := []struct {
			name    string
			code    string
			pid     *int
			err     string
			message string
			want    genpromotion.PromotionResult
		}{
			{name: "percentage for a listed pid", code: "WELCOME10", pid: ptr(2),
				want: genpromotion.PromotionResult{Code: "WELCOME10", Type: "Percentage", Value: "10", AppliesTo: []int{2, 3, 4}}},
			{name: "any case", code: "welcome10", pid: ptr(3),
				want: genpromotion.PromotionResult{Code: "WELCOME10", Type: "Percentage", Value: "10", AppliesTo: []int{2, 3, 4}}},
			{name: "without pid", code: "WELCOME10",
				want: genpromotion.PromotionResult{Code: "WELCOME10", Type: "Percentage", Value: "10", AppliesTo: []int{2, 3, 4}}},
			{name: "fixed amount", code: "SAVE5", pid: ptr(3),
				want: genpromotion.PromotionResult{Code: "SAVE5", Type: "Fixed Amount", Value: "5.00", AppliesTo: []int{3}}},
			{name: "unknown", code: "NOPE", pid: ptr(2), err: "not_found"},
			{name: "expired", code: "SUMMER2020", pid: ptr(2), err: "not_found"},
			{name: "not for this product", code: "SAVE5", pid: ptr(2), err: "not_applicable", message: msgNotApplicable},
			{name: "not for the trial", code: "WELCOME10", pid: ptr(1), err: "not_applicable", message: msgNotApplicable},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res, err := s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: tc.code, Pid: tc.pid})
				if tc.err != "" {
					wantErr(t, err, tc.err, tc.message)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Code != tc.want.Code || res.Type != tc.want.Type || res.Value != tc.want.Value || !slices.Equal(res.AppliesTo, tc.want.AppliesTo) {
					t.Fatalf("got %+v, want %+v", res, tc.want)
				}
			})
		}
		// The exact status codes of the contract.
		for path, want := range map[string]int{
			"/checkout/api/promotions/NOPE?pid=2":       http.StatusNotFound,
			"/checkout/api/promotions/SUMMER2020?pid=2": http.StatusNotFound,
			"/checkout/api/promotions/SAVE5?pid=2":      http.StatusUnprocessableEntity,
			"/checkout/api/promotions/WELCOME10?pid=2":  http.StatusOK,
		} {
			if status, _, body := s.raw(http.MethodGet, path, "", nil); status != want {
				t.Errorf("GET %s = %d %s, want %d", path, status, body, want)
			}
		}
	})
}

func TestQuote(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		type line struct {
			key    string
			amount int64
		}
		cases := []struct {
			name     string
			req      genpricing.QuoteRequest
			lines    []line
			discount int64 // -1: no discount (null)
			total    int64
			currency string
			err      string
			message  string
		}{
			{name: "plan only", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly"},
				lines: []line{{"plan", 1299}}, discount: -1, total: 1299, currency: "EUR"},
			{name: "extras", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", ExtraConnections: 2, ProxyProtection: true},
				lines: []line{{"plan", 1299}, {"extraConnections", 600}, {"proxyProtection", 200}}, discount: -1, total: 2099, currency: "EUR"},
			{name: "percentage promo on the whole subtotal", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", ExtraConnections: 2, ProxyProtection: true, PromoCode: ptr("WELCOME10")},
				lines: []line{{"plan", 1299}, {"extraConnections", 600}, {"proxyProtection", 200}}, discount: 210, total: 1889, currency: "EUR"},
			{name: "percentage rounds half up", req: genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", PromoCode: ptr("welcome10")},
				lines: []line{{"plan", 1599}}, discount: 160, total: 1439, currency: "EUR"},
			{name: "fixed promo converted to USD", req: genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", Currency: ptr("USD"), PromoCode: ptr("SAVE5")},
				lines: []line{{"plan", 1699}}, discount: 540, total: 1159, currency: "USD"},
			{name: "trial is free", req: genpricing.QuoteRequest{Pid: 1, BillingCycle: "onetime"},
				lines: []line{{"plan", 0}}, discount: -1, total: 0, currency: "EUR"},
			{name: "promo not for this product", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", PromoCode: ptr("SAVE5")},
				err: "not_applicable", message: msgNotApplicable},
			{name: "expired promo", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", PromoCode: ptr("SUMMER2020")}, err: "not_found"},
			{name: "unknown product", req: genpricing.QuoteRequest{Pid: 999, BillingCycle: "monthly"}, err: "not_found"},
			{name: "disabled cycle", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "biennially"}, err: "bad_request"},
			{name: "unknown currency", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", Currency: ptr("XYZ")}, err: "bad_request"},
			{name: "too many extra connections", req: genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", ExtraConnections: 5}, err: "bad_request"},
			{name: "option the product does not offer", req: genpricing.QuoteRequest{Pid: 4, BillingCycle: "monthly", ExtraConnections: 1}, err: "bad_request"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				req := tc.req
				res, err := s.pricing.Quote(t.Context(), &req)
				if tc.err != "" {
					wantErr(t, err, tc.err, tc.message)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				var got []line
				for _, l := range res.Lines {
					got = append(got, line{l.Key, l.Amount.Amount})
					if l.Label == "" || l.Amount.Currency != tc.currency {
						t.Errorf("line %+v: empty label or currency %s", l, l.Amount.Currency)
					}
				}
				if !slices.Equal(got, tc.lines) {
					t.Errorf("lines = %v, want %v", got, tc.lines)
				}
				switch {
				case tc.discount < 0 && res.Discount != nil:
					t.Errorf("discount = %+v, want none", res.Discount)
				case tc.discount >= 0 && (res.Discount == nil || res.Discount.Amount.Amount != tc.discount):
					t.Errorf("discount = %+v, want %d", res.Discount, tc.discount)
				}
				if res.Total.Amount != tc.total || res.Total.Currency != tc.currency {
					t.Errorf("total = %+v, want %d %s", res.Total, tc.total, tc.currency)
				}
			})
		}
		// discount is always present in the JSON, null when no code applies.
		status, _, body := s.raw(http.MethodPost, "/checkout/api/quote", "", strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`))
		if status != http.StatusOK || !bytes.Contains(body, []byte(`"discount":null`)) {
			t.Errorf("POST /quote = %d %s, want 200 with \"discount\":null", status, body)
		}
	})
}

// TestPromotionMaxUses loads a catalog file whose promotion may be used once.
func TestPromotionMaxUses(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		demo, err := os.ReadFile(filepath.Join("..", "catalog", "demo.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		custom := strings.Replace(string(demo), "promotions:\n", `promotions:
  - code: ONCE
    type: Fixed Amount
    value: "1.00"
    appliesTo: [2]
    maxUses: 1
`, 1)
		if custom == string(demo) {
			t.Fatal("demo catalog has no promotions section to extend")
		}
		file := filepath.Join(t.TempDir(), "catalog.yaml")
		if err := os.WriteFile(file, []byte(custom), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := catalog.WriteDemoLegal(filepath.Dir(file)); err != nil {
			t.Fatal(err)
		}
		s := newShop(t, func(c *app.Config) { c.CatalogFile = file })
		lookup := func() error {
			_, err := s.promotion.Get(t.Context(), &genpromotion.GetPayload{Code: "ONCE", Pid: ptr(2)})
			return err
		}
		if err := lookup(); err != nil {
			t.Fatalf("ONCE before any use: %v", err)
		}
		buyer := s.identify("once@example.com", "")
		withPromo := standard()
		withPromo.PromoCode = ptr("ONCE")
		first := s.buy(buyer.Token, withPromo)
		if first.Total.Amount != 1199 || first.Quote.Discount == nil || first.Quote.Discount.Code != "ONCE" {
			t.Fatalf("first order total %+v discount %+v, want 1199 with ONCE", first.Total, first.Quote.Discount)
		}

		wantErr(t, lookup(), "not_found", "")
		_, err = s.pricing.Quote(t.Context(), &genpricing.QuoteRequest{Pid: 2, BillingCycle: "monthly", PromoCode: ptr("ONCE")})
		wantErr(t, err, "not_found", "")
		p := withPromo
		p.Token = ptr(s.identify("twice@example.com", "").Token)
		_, err = s.order.Create(t.Context(), &p)
		wantErr(t, err, "not_found", "")
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 1 {
			t.Fatalf("orders = %d, want 1 (the used-up code stored nothing)", n)
		}

		// A cancelled order gives its use back.
		if _, err := s.order.Cancel(t.Context(), &genorder.CancelPayload{Token: ptr(buyer.Token), OrderID: first.OrderID}); err != nil {
			t.Fatal(err)
		}
		if err := lookup(); err != nil {
			t.Fatalf("ONCE after its order was cancelled: %v", err)
		}
	})
}

func TestSessionEmailRule(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		const msg = "Please enter a Valid Email."
		cases := []struct {
			email string
			valid bool
			want  string // stored email when valid
		}{
			{email: "buyer@example.com", valid: true, want: "buyer@example.com"},
			{email: "a@b.co", valid: true, want: "a@b.co"},
			{email: "Mixed.Case@Example.COM", valid: true, want: "mixed.case@example.com"},
			{email: "  padded@example.com ", valid: true, want: "padded@example.com"},
			{email: "first.last+tag@sub.example.org", valid: true, want: "first.last+tag@sub.example.org"},
			{email: "a@b@c.d", valid: true, want: "a@b@c.d"}, // \S matches "@": the spec's rule is that loose
			{email: "a@b.c.", valid: true, want: "a@b.c."},
			{email: ""},
			{email: "plainaddress"},
			{email: "no-dot@example"},
			{email: "@example.com"},
			{email: "user@"},
			{email: "user@.com"},
			{email: "user@example."},
			{email: "two words@example.com"},
			{email: "user@exa mple.com"},
			// A newline is a control character: 400 bad_request (TestControlCharacters).
		}
		for _, tc := range cases {
			t.Run(tc.email, func(t *testing.T) {
				res, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: tc.email})
				if !tc.valid {
					wantErr(t, err, "invalid_email", msg)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Token == "" || res.UserID == "" || res.Email != tc.want || res.Scope != "email" || res.ExpiresAt == "" {
					t.Fatalf("session = %+v, want token, userId, email %q, scope email", res, tc.want)
				}
			})
		}
		// The raw contract: 400, name invalid_email, the spec's message.
		status, _, body := s.raw(http.MethodPost, "/checkout/api/session", "", strings.NewReader(`{"email":"nope"}`))
		var e struct{ Name, Message string }
		if err := json.Unmarshal(body, &e); err != nil || status != http.StatusBadRequest || e.Name != "invalid_email" || e.Message != msg {
			t.Fatalf("POST /session bad email = %d %s", status, body)
		}
	})
}

func TestSession(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		status, _, body := s.raw(http.MethodPost, "/checkout/api/session", "", strings.NewReader(`{"email":"shape@example.com"}`))
		var created map[string]any
		if err := json.Unmarshal(body, &created); err != nil || status != http.StatusCreated {
			t.Fatalf("POST /session = %d %s", status, body)
		}
		for _, k := range []string{"token", "userId", "email", "scope", "expiresAt"} {
			if _, ok := created[k]; !ok {
				t.Errorf("session reply lacks %q: %s", k, body)
			}
		}

		a1, a2 := s.identify("same@example.com", ""), s.identify("SAME@example.com", "")
		if a1.UserID != a2.UserID || a1.Token == a2.Token {
			t.Errorf("same email twice: users %s/%s, tokens equal %v; want one client, two sessions", a1.UserID, a2.UserID, a1.Token == a2.Token)
		}
		if b := s.identify("other@example.com", ""); b.UserID == a1.UserID {
			t.Error("two emails share a client")
		}

		t.Run("password", func(t *testing.T) {
			p := s.register("secret@example.com", "correct horse")
			if again := s.identify("secret@example.com", "correct horse"); again.Scope != "proven" || again.UserID != p.UserID {
				t.Fatalf("second proven session = %+v", again)
			}
			if e := s.identify("secret@example.com", ""); e.Scope != "email" || e.UserID != p.UserID {
				t.Fatalf("email-only session of a client with a password = %+v", e)
			}
			_, err := s.session.Create(t.Context(), &gensession.CreatePayload{Email: "secret@example.com", Password: ptr("wrong")})
			wantErr(t, err, "invalid_credentials", "")
			// A client without a password has none to prove.
			_, err = s.session.Create(t.Context(), &gensession.CreatePayload{Email: "same@example.com", Password: ptr("anything")})
			wantErr(t, err, "invalid_credentials", "")
			if !strings.HasPrefix(p.UserID, "usr_") || len(p.UserID) != 30 || !strings.HasPrefix(a1.UserID, "usr_") {
				t.Fatalf("user ids %q, %q: want usr_ and 26 characters", p.UserID, a1.UserID)
			}
		})

		t.Run("sign out", func(t *testing.T) {
			a := s.identify("leaving@example.com", "")
			o := s.buy(a.Token, standard())
			if err := s.session.Delete(t.Context(), &gensession.DeletePayload{Token: ptr(a.Token)}); err != nil {
				t.Fatalf("DELETE /session: %v", err)
			}
			_, err := s.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(a.Token), OrderID: o.OrderID})
			wantErr(t, err, "unauthorized", "")
			p := standard()
			p.Token = ptr(a.Token)
			_, err = s.order.Create(t.Context(), &p)
			wantErr(t, err, "unauthorized", "")
			wantErr(t, s.session.Delete(t.Context(), &gensession.DeletePayload{Token: ptr(a.Token)}), "unauthorized", "")
			if status, _, body := s.raw(http.MethodGet, "/checkout/api/orders/"+o.OrderID, a.Token, nil); status != http.StatusUnauthorized {
				t.Fatalf("GET order with a signed-out token = %d %s, want 401", status, body)
			}
		})

		t.Run("bad tokens", func(t *testing.T) {
			a := s.identify("tamper@example.com", "")
			for name, token := range map[string]string{
				"garbage":  "not-a-token",
				"tampered": a.Token[:len(a.Token)-2] + flip(a.Token[len(a.Token)-2:]),
			} {
				_, err := s.order.Get(t.Context(), &genorder.GetPayload{Token: ptr(token), OrderID: "ord_x"})
				if err == nil {
					t.Fatalf("%s token accepted", name)
				}
				wantErr(t, err, "unauthorized", "")
			}
		})
	})
}

// flip changes a token's tail so its signature no longer matches.
func flip(tail string) string {
	if tail == "AA" {
		return "BB"
	}
	return "AA"
}
