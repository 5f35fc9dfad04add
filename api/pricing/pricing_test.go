package pricing_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
)

var now = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

func eur(a int64) money.Money { return money.Money{Amount: a, Currency: "EUR"} }
func usd(a int64) money.Money { return money.Money{Amount: a, Currency: "USD"} }
func gbp(a int64) money.Money { return money.Money{Amount: a, Currency: "GBP"} }

func mustParse(t *testing.T, src string) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func line(key, label string, m money.Money) pricing.Line {
	return pricing.Line{Key: key, Label: label, Amount: m}
}

func TestQuoteDemo(t *testing.T) {
	c := catalog.Demo()
	tests := []struct {
		name string
		req  pricing.Request
		want pricing.Quote
	}{
		{
			name: "plan in default currency",
			req:  pricing.Request{PID: 2, Cycle: catalog.Monthly, Currency: "EUR"},
			want: pricing.Quote{PID: 2, Cycle: catalog.Monthly, Currency: "EUR",
				Lines:    []pricing.Line{line("plan", "Standard — Monthly", eur(1299))},
				Subtotal: eur(1299), Total: eur(1299)},
		},
		{
			name: "empty currency means default, empty cycle the first enabled one",
			req:  pricing.Request{PID: 3},
			want: pricing.Quote{PID: 3, Cycle: catalog.Monthly, Currency: "EUR",
				Lines:    []pricing.Line{line("plan", "Premium — Monthly", eur(1599))},
				Subtotal: eur(1599), Total: eur(1599)},
		},
		{
			name: "explicit GBP price, currency code case-insensitive",
			req:  pricing.Request{PID: 2, Cycle: catalog.Semiannually, Currency: "gbp"},
			want: pricing.Quote{PID: 2, Cycle: catalog.Semiannually, Currency: "GBP",
				Lines:    []pricing.Line{line("plan", "Standard — Semi-Annually", gbp(4999))},
				Subtotal: gbp(4999), Total: gbp(4999)},
		},
		{
			name: "USD converted from EUR: 12.99 × 1.08 = 14.0292 → 14.03",
			req:  pricing.Request{PID: 2, Cycle: catalog.Monthly, Currency: "USD"},
			want: pricing.Quote{PID: 2, Cycle: catalog.Monthly, Currency: "USD",
				Lines:    []pricing.Line{line("plan", "Standard — Monthly", usd(1403))},
				Subtotal: usd(1403), Total: usd(1403)},
		},
		{
			name: "explicit USD price wins over conversion",
			req:  pricing.Request{PID: 3, Cycle: catalog.Annually, Currency: "USD"},
			want: pricing.Quote{PID: 3, Cycle: catalog.Annually, Currency: "USD",
				Lines:    []pricing.Line{line("plan", "Premium — Annually", usd(12999))},
				Subtotal: usd(12999), Total: usd(12999)},
		},
		{
			name: "extras and proxy for the cycle",
			req:  pricing.Request{PID: 2, Cycle: catalog.Annually, ExtraConnections: 2, ProxyProtection: true},
			want: pricing.Quote{PID: 2, Cycle: catalog.Annually, Currency: "EUR", ExtraConnections: 2, ProxyProtection: true,
				Lines: []pricing.Line{
					line("plan", "Standard — Annually", eur(9999)),
					line("extraConnections", "2 extra connections", eur(5000)),
					line("proxyProtection", "Proxy protection", eur(1500)),
				},
				Subtotal: eur(16499), Total: eur(16499)},
		},
		{
			name: "one extra connection, singular label, converted unit price 3.00 × 1.08",
			req:  pricing.Request{PID: 3, Cycle: catalog.Monthly, Currency: "USD", ExtraConnections: 1},
			want: pricing.Quote{PID: 3, Cycle: catalog.Monthly, Currency: "USD", ExtraConnections: 1,
				Lines: []pricing.Line{
					line("plan", "Premium — Monthly", usd(1699)),
					line("extraConnections", "1 extra connection", usd(324)),
				},
				Subtotal: usd(2023), Total: usd(2023)},
		},
		{
			name: "maximum extras, explicit GBP unit price",
			req:  pricing.Request{PID: 3, Cycle: catalog.Quarterly, Currency: "GBP", ExtraConnections: 4},
			want: pricing.Quote{PID: 3, Cycle: catalog.Quarterly, Currency: "GBP", ExtraConnections: 4,
				Lines: []pricing.Line{
					line("plan", "Premium — Quarterly", gbp(3399)),
					line("extraConnections", "4 extra connections", gbp(2760)),
				},
				Subtotal: gbp(6159), Total: gbp(6159)},
		},
		{
			name: "percentage promotion on the whole subtotal: 10% of 164.99 = 16.499 → 16.50",
			req: pricing.Request{PID: 2, Cycle: catalog.Annually, ExtraConnections: 2, ProxyProtection: true,
				PromoCode: "welcome10"},
			want: pricing.Quote{PID: 2, Cycle: catalog.Annually, Currency: "EUR", ExtraConnections: 2, ProxyProtection: true,
				Lines: []pricing.Line{
					line("plan", "Standard — Annually", eur(9999)),
					line("extraConnections", "2 extra connections", eur(5000)),
					line("proxyProtection", "Proxy protection", eur(1500)),
				},
				Subtotal: eur(16499),
				Discount: &pricing.Discount{Code: "WELCOME10", Type: "Percentage", Value: "10", Amount: eur(1650)},
				Total:    eur(14849)},
		},
		{
			name: "percentage rounds half up: 10% of 12.99 = 1.299 → 1.30",
			req:  pricing.Request{PID: 2, Cycle: catalog.Monthly, PromoCode: "WELCOME10"},
			want: pricing.Quote{PID: 2, Cycle: catalog.Monthly, Currency: "EUR",
				Lines:    []pricing.Line{line("plan", "Standard — Monthly", eur(1299))},
				Subtotal: eur(1299),
				Discount: &pricing.Discount{Code: "WELCOME10", Type: "Percentage", Value: "10", Amount: eur(130)},
				Total:    eur(1169)},
		},
		{
			name: "fixed promotion in the default currency",
			req:  pricing.Request{PID: 3, Cycle: catalog.Monthly, PromoCode: " SAVE5 "},
			want: pricing.Quote{PID: 3, Cycle: catalog.Monthly, Currency: "EUR",
				Lines:    []pricing.Line{line("plan", "Premium — Monthly", eur(1599))},
				Subtotal: eur(1599),
				Discount: &pricing.Discount{Code: "SAVE5", Type: "Fixed Amount", Value: "5.00", Amount: eur(500)},
				Total:    eur(1099)},
		},
		{
			name: "fixed promotion converted to GBP: 5.00 × 0.86",
			req:  pricing.Request{PID: 3, Cycle: catalog.Monthly, Currency: "GBP", PromoCode: "SAVE5"},
			want: pricing.Quote{PID: 3, Cycle: catalog.Monthly, Currency: "GBP",
				Lines:    []pricing.Line{line("plan", "Premium — Monthly", gbp(1349))},
				Subtotal: gbp(1349),
				Discount: &pricing.Discount{Code: "SAVE5", Type: "Fixed Amount", Value: "5.00", Amount: gbp(430)},
				Total:    gbp(919)},
		},
		{
			name: "fixed promotion converted to USD: 5.00 × 1.08",
			req:  pricing.Request{PID: 3, Cycle: catalog.Monthly, Currency: "USD", PromoCode: "SAVE5", PromoUses: 1000},
			want: pricing.Quote{PID: 3, Cycle: catalog.Monthly, Currency: "USD",
				Lines:    []pricing.Line{line("plan", "Premium — Monthly", usd(1699))},
				Subtotal: usd(1699),
				Discount: &pricing.Discount{Code: "SAVE5", Type: "Fixed Amount", Value: "5.00", Amount: usd(540)},
				Total:    usd(1159)},
		},
		{
			name: "trial quotes zero in any currency",
			req:  pricing.Request{PID: 1, Currency: "USD"},
			want: pricing.Quote{PID: 1, Cycle: catalog.OneTime, Currency: "USD",
				Lines:    []pricing.Line{line("plan", "Free Trial — One Time", usd(0))},
				Subtotal: usd(0), Total: usd(0)},
		},
		{
			name: "hidden-by-position fourth plan is still orderable by pid",
			req:  pricing.Request{PID: 4, Cycle: catalog.Annually, ProxyProtection: true},
			want: pricing.Quote{PID: 4, Cycle: catalog.Annually, Currency: "EUR", ProxyProtection: true,
				Lines: []pricing.Line{
					line("plan", "Ultimate 4K — Annually", eur(19999)),
					line("proxyProtection", "Proxy protection", eur(1500)),
				},
				Subtotal: eur(21499), Total: eur(21499)},
		},
		{
			name: "reseller plan monthly",
			req:  pricing.Request{PID: 11, Cycle: catalog.Monthly, Currency: "USD"},
			want: pricing.Quote{PID: 11, Cycle: catalog.Monthly, Currency: "USD",
				Lines:    []pricing.Line{line("plan", "Reseller Pro — Monthly", usd(64900))},
				Subtotal: usd(64900), Total: usd(64900)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pricing.QuoteFor(c, tt.req, now)
			if err != nil {
				t.Fatal(err)
			}
			got.Recurring = nil // TestQuoteRecurring's
			if got.Net != got.Total || got.Tax != nil {
				t.Errorf("without a tax block: net %+v, total %+v, tax %+v", got.Net, got.Total, got.Tax)
			}
			got.Net = money.Money{} // TestQuoteTax's
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("quote:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// partner is a storefront selling plans 2 and 3 only.
var partner = &catalog.Storefront{Key: "pk_test_partner", Plans: []int{2, 3}}

// A storefront's plans are quoted as in the shop; a storefront without a plan list sells all.
func TestQuoteInStorefront(t *testing.T) {
	c := catalog.Demo()
	for _, req := range []pricing.Request{{PID: 2, Storefront: partner}, {PID: 1, Storefront: &catalog.Storefront{Key: "pk_all"}}} {
		want, err := pricing.QuoteFor(c, pricing.Request{PID: req.PID}, now)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pricing.QuoteFor(c, req, now)
		if err != nil || got.Total != want.Total {
			t.Errorf("pid %d in %s: %+v, %v; want the shop's quote %+v", req.PID, req.Storefront.Key, got.Total, err, want.Total)
		}
	}
}

func TestQuoteErrors(t *testing.T) {
	c := catalog.Demo()
	tests := []struct {
		name string
		req  pricing.Request
		want error
	}{
		{"unknown product", pricing.Request{PID: 99}, pricing.ErrUnknownProduct},
		{"zero pid", pricing.Request{}, pricing.ErrUnknownProduct},
		{"disabled cycle", pricing.Request{PID: 2, Cycle: catalog.Biennially}, pricing.ErrCycleUnavailable},
		{"unknown cycle", pricing.Request{PID: 2, Cycle: "weekly"}, pricing.ErrCycleUnavailable},
		{"cycle the plan lacks", pricing.Request{PID: 4, Cycle: catalog.Quarterly}, pricing.ErrCycleUnavailable},
		{"trial is onetime only", pricing.Request{PID: 1, Cycle: catalog.Monthly}, pricing.ErrCycleUnavailable},
		{"unknown currency", pricing.Request{PID: 2, Currency: "JPY"}, pricing.ErrUnknownCurrency},
		{"negative extras", pricing.Request{PID: 2, ExtraConnections: -1}, pricing.ErrInvalidExtras},
		{"extras above max", pricing.Request{PID: 2, ExtraConnections: 5}, pricing.ErrInvalidExtras},
		{"extras not offered with the plan", pricing.Request{PID: 4, ExtraConnections: 1}, pricing.ErrInvalidExtras},
		{"extras on a trial", pricing.Request{PID: 1, ExtraConnections: 1}, pricing.ErrInvalidExtras},
		{"proxy on a trial", pricing.Request{PID: 1, ProxyProtection: true}, pricing.ErrInvalidExtras},
		{"proxy on a reseller plan", pricing.Request{PID: 10, ProxyProtection: true}, pricing.ErrInvalidExtras},
		{"unknown promotion", pricing.Request{PID: 2, PromoCode: "NOPE"}, pricing.ErrPromoNotFound},
		{"expired promotion", pricing.Request{PID: 2, PromoCode: "SUMMER2020"}, pricing.ErrPromoNotFound},
		{"promotion for another plan", pricing.Request{PID: 2, PromoCode: "SAVE5"}, pricing.ErrPromoNotApplicable},
		{"promotion on the trial", pricing.Request{PID: 1, PromoCode: "WELCOME10"}, pricing.ErrPromoNotApplicable},
		{"a plan the storefront does not sell", pricing.Request{PID: 1, Storefront: partner}, pricing.ErrUnknownProduct},
		{"unknown product in a storefront", pricing.Request{PID: 99, Storefront: partner}, pricing.ErrUnknownProduct},
		{"not sold comes before a bad promotion", pricing.Request{PID: 1, PromoCode: "NOPE", Storefront: partner}, pricing.ErrUnknownProduct},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := pricing.QuoteFor(c, tt.req, now)
			if !errors.Is(err, tt.want) {
				t.Fatalf("QuoteFor = %+v, %v; want %v", q, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "quote: ") {
				t.Errorf("error %q lacks the op prefix", err)
			}
		})
	}
}

// edge is a catalog built for rounding and floor cases.
const edge = `defaultCurrency: EUR
currencies:
  - {code: EUR, rate: "1"}
  - {code: CHF, rate: "1.5"}
  - {code: GBP, rate: "0.5"}
  - {code: DKK, rate: "0.333"}
configOptions:
  - id: 2
    name: Extra connections
    type: quantity
    minQty: 2
    maxQty: 3
    pricing: {monthly: {EUR: "0.01"}}
products:
  - {pid: 1, group: plan, name: Cent, cycles: {monthly: {EUR: "0.01"}}, configOptions: [2]}
  - {pid: 2, group: plan, name: Three, cycles: {monthly: {EUR: "0.03"}}}
  - {pid: 3, group: plan, name: Cheap, cycles: {monthly: {EUR: "9.99"}}}
  - {pid: 4, group: plan, name: Four, cycles: {monthly: {EUR: "0.04"}}}
  - {pid: 5, group: plan, name: Odd, cycles: {monthly: {EUR: "12.94"}}}
promotions:
  - {code: BIG, type: Fixed Amount, value: "50", appliesTo: [3]}
  - {code: ALL, type: Percentage, value: "100", appliesTo: [3]}
  - {code: HALF, type: Percentage, value: "12.5", appliesTo: [4, 5]}
  - {code: TINY, type: Fixed Amount, value: "0.01", appliesTo: [1, 2, 4]}
gateways: sandbox
`

func TestQuoteEdges(t *testing.T) {
	c := mustParse(t, edge)
	tests := []struct {
		name                      string
		req                       pricing.Request
		subtotal, discount, total int64
	}{
		{"0.01 × 1.5 = 0.015 rounds half up to 0.02", pricing.Request{PID: 1, Currency: "CHF"}, 2, 0, 2},
		{"0.01 × 0.5 = 0.005 rounds half up to 0.01", pricing.Request{PID: 1, Currency: "GBP"}, 1, 0, 1},
		{"0.03 × 0.5 = 0.015 → 0.02", pricing.Request{PID: 2, Currency: "GBP"}, 2, 0, 2},
		{"0.01 × 0.333 = 0.00333 → 0.00", pricing.Request{PID: 1, Currency: "DKK"}, 0, 0, 0},
		{"unit rounded before × count: 0.02 + 3 × 0.02", pricing.Request{PID: 1, Currency: "CHF", ExtraConnections: 3}, 8, 0, 8},
		{"fixed above subtotal floors at zero", pricing.Request{PID: 3, PromoCode: "BIG"}, 999, 999, 0},
		{"fixed above subtotal after conversion", pricing.Request{PID: 3, Currency: "GBP", PromoCode: "BIG"}, 500, 500, 0},
		{"100 percent", pricing.Request{PID: 3, PromoCode: "ALL"}, 999, 999, 0},
		{"12.5% of 0.04 = 0.005 → 0.01", pricing.Request{PID: 4, PromoCode: "HALF"}, 4, 1, 3},
		{"12.5% of 12.94 = 1.6175 → 1.62", pricing.Request{PID: 5, PromoCode: "HALF"}, 1294, 162, 1132},
		{"fixed 0.01 × 0.333 → 0.00 off", pricing.Request{PID: 2, Currency: "DKK", PromoCode: "TINY"}, 1, 0, 1},
		{"fixed 0.01 × 1.5 = 0.015 → 0.02 off", pricing.Request{PID: 4, Currency: "CHF", PromoCode: "TINY"}, 6, 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := pricing.QuoteFor(c, tt.req, now)
			if err != nil {
				t.Fatal(err)
			}
			var off int64
			if q.Discount != nil {
				off = q.Discount.Amount.Amount
			}
			if q.Subtotal.Amount != tt.subtotal || off != tt.discount || q.Total.Amount != tt.total {
				t.Errorf("subtotal %d discount %d total %d; want %d %d %d",
					q.Subtotal.Amount, off, q.Total.Amount, tt.subtotal, tt.discount, tt.total)
			}
			var sum int64
			for _, l := range q.Lines {
				sum += l.Amount.Amount
			}
			if sum != q.Subtotal.Amount || q.Total.Amount != q.Subtotal.Amount-off || q.Total.Amount < 0 {
				t.Errorf("inconsistent quote %+v", q)
			}
		})
	}
	// Below the option's minimum quantity.
	if _, err := pricing.QuoteFor(c, pricing.Request{PID: 1, ExtraConnections: 1}, now); !errors.Is(err, pricing.ErrInvalidExtras) {
		t.Errorf("extras below minQty: err = %v, want ErrInvalidExtras", err)
	}
	// A percentage on a zero subtotal stays zero.
	if q, err := pricing.QuoteFor(catalog.Demo(), pricing.Request{PID: 1}, now); err != nil || q.Total.Amount != 0 || q.Discount != nil {
		t.Errorf("trial quote = %+v, %v", q, err)
	}
}

func TestConvert(t *testing.T) {
	c := catalog.Demo()
	tests := []struct {
		amount   int64
		from, to string
		want     money.Money
		rate     string
		err      error
	}{
		{1000, "EUR", "USD", usd(1080), "1.08", nil},
		{1000, "eur", "gbp", gbp(860), "0.86", nil},
		{1080, "USD", "EUR", eur(1000), "0.925926", nil},
		{1000, "USD", "GBP", gbp(796), "0.796296", nil}, // 796.296… → 796
		{1, "USD", "GBP", gbp(1), "0.796296", nil},      // 0.796 → 1
		{999, "EUR", "EUR", eur(999), "1", nil},
		{0, "GBP", "USD", usd(0), "1.255814", nil},
		{100, "", "USD", usd(108), "1.08", nil}, // empty means the default currency
		{100, "EUR", "JPY", money.Money{}, "", pricing.ErrUnknownCurrency},
		{100, "XXX", "EUR", money.Money{}, "", pricing.ErrUnknownCurrency},
	}
	for _, tt := range tests {
		got, rate, err := pricing.Convert(c, tt.amount, tt.from, tt.to)
		if !errors.Is(err, tt.err) || got != tt.want || rate != tt.rate {
			t.Errorf("Convert(%d, %s, %s) = %+v, %q, %v; want %+v, %q, %v",
				tt.amount, tt.from, tt.to, got, rate, err, tt.want, tt.rate, tt.err)
		}
	}
}

func TestPriceIn(t *testing.T) {
	c := catalog.Demo()
	tests := []struct {
		name     string
		price    catalog.Price
		currency string
		want     int64
		err      error
	}{
		{"explicit", catalog.Price{"EUR": 1000, "GBP": 850}, "GBP", 850, nil},
		{"explicit lower case", catalog.Price{"EUR": 1000, "GBP": 850}, "gbp", 850, nil},
		{"converted", catalog.Price{"EUR": 1000, "GBP": 850}, "USD", 1080, nil},
		{"default", catalog.Price{"EUR": 1000}, "", 1000, nil},
		{"explicit zero is kept", catalog.Price{"EUR": 1000, "USD": 0}, "USD", 0, nil},
		{"unknown currency", catalog.Price{"EUR": 1000}, "JPY", 0, pricing.ErrUnknownCurrency},
		{"nothing to convert from", catalog.Price{"GBP": 850}, "USD", 0, pricing.ErrCycleUnavailable},
	}
	for _, tt := range tests {
		got, err := pricing.PriceIn(c, tt.price, tt.currency)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("%s: PriceIn = %d, %v; want %d, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

const promos = `defaultCurrency: EUR
currencies: [{code: EUR, rate: "1"}]
products:
  - {pid: 1, group: plan, name: A, cycles: {monthly: {EUR: 10}}}
  - {pid: 2, group: plan, name: B, cycles: {monthly: {EUR: 10}}}
promotions:
  - {code: JAN, type: Percentage, value: "10", appliesTo: [1], startDate: "2025-01-01", expirationDate: "2025-01-31"}
  - {code: ONEDAY, type: Percentage, value: "10", appliesTo: [1], startDate: "2025-03-10", expirationDate: "2025-03-10"}
  - {code: FROM, type: Percentage, value: "10", appliesTo: [1], startDate: "2025-05-01"}
  - {code: UNTIL, type: Percentage, value: "10", appliesTo: [1], expirationDate: "2025-05-01"}
  - {code: THREE, type: Fixed Amount, value: "1", appliesTo: [1, 2], maxUses: 3}
  - {code: FREE4ALL, type: Fixed Amount, value: "1", appliesTo: [2], maxUses: 0}
gateways: sandbox
`

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCheckPromotion(t *testing.T) {
	c := mustParse(t, promos)
	tests := []struct {
		name string
		code string
		pid  int
		uses int
		now  time.Time
		want error
	}{
		{"day before start", "JAN", 1, 0, at("2024-12-31T23:59:59Z"), pricing.ErrPromoNotFound},
		{"first instant of the start day", "JAN", 1, 0, at("2025-01-01T00:00:00Z"), nil},
		{"mid period", "JAN", 1, 0, at("2025-01-15T10:00:00Z"), nil},
		{"last instant of the expiration day", "JAN", 1, 0, at("2025-01-31T23:59:59Z"), nil},
		{"day after expiration", "JAN", 1, 0, at("2025-02-01T00:00:00Z"), pricing.ErrPromoNotFound},
		{"dates are UTC days: 00:30+02:00 is still the 31st", "JAN", 1, 0, at("2025-02-01T00:30:00+02:00"), nil},
		{"dates are UTC days: 23:30-02:00 is already the 1st of Feb", "JAN", 1, 0, at("2025-01-31T23:30:00-02:00"), pricing.ErrPromoNotFound},
		{"single-day promotion on its day", "ONEDAY", 1, 0, at("2025-03-10T18:00:00Z"), nil},
		{"single-day promotion the day after", "ONEDAY", 1, 0, at("2025-03-11T00:00:00Z"), pricing.ErrPromoNotFound},
		{"no expiration, not started", "FROM", 1, 0, at("2025-04-30T23:59:59Z"), pricing.ErrPromoNotFound},
		{"no expiration, started long ago", "FROM", 1, 0, at("2099-01-01T00:00:00Z"), nil},
		{"no start, before expiry", "UNTIL", 1, 0, at("2000-01-01T00:00:00Z"), nil},
		{"no start, expired", "UNTIL", 1, 0, at("2025-05-02T00:00:00Z"), pricing.ErrPromoNotFound},
		{"uses below max", "THREE", 2, 2, now, nil},
		{"uses at max", "THREE", 2, 3, now, pricing.ErrPromoNotFound},
		{"uses above max", "THREE", 1, 9, now, pricing.ErrPromoNotFound},
		{"unlimited uses", "FREE4ALL", 2, 1_000_000, now, nil},
		{"case-insensitive", "three", 1, 0, now, nil},
		{"unknown", "NOPE", 1, 0, now, pricing.ErrPromoNotFound},
		{"empty code", "", 1, 0, now, pricing.ErrPromoNotFound},
		{"not applicable", "FREE4ALL", 1, 0, now, pricing.ErrPromoNotApplicable},
		{"not applicable to an unknown pid", "FREE4ALL", 99, 0, now, pricing.ErrPromoNotApplicable},
		{"pid 0 skips the product check", "FREE4ALL", 0, 0, now, nil},
		{"not found wins over not applicable", "JAN", 2, 0, now, pricing.ErrPromoNotFound},
		{"used up wins over not applicable", "THREE", 99, 3, now, pricing.ErrPromoNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := pricing.CheckPromotion(c, tt.code, tt.pid, tt.uses, tt.now)
			if !errors.Is(err, tt.want) {
				t.Fatalf("CheckPromotion = %+v, %v; want %v", p, err, tt.want)
			}
			if err == nil && !strings.EqualFold(p.Code, tt.code) {
				t.Errorf("returned promotion %+v for %q", p, tt.code)
			}
			if err != nil && p.Code != "" {
				t.Errorf("failed check returned a promotion: %+v", p)
			}
		})
	}
	// The store's use count reaches QuoteFor through the request.
	_, err := pricing.QuoteFor(c, pricing.Request{PID: 1, PromoCode: "THREE", PromoUses: 3}, now)
	if !errors.Is(err, pricing.ErrPromoNotFound) {
		t.Errorf("QuoteFor with a used-up promotion: %v", err)
	}
}

func TestDemoPromotionsAtAnyDate(t *testing.T) {
	c := catalog.Demo()
	for _, when := range []time.Time{at("2000-01-01T00:00:00Z"), now, at("2100-12-31T23:59:59Z")} {
		for _, code := range []string{"WELCOME10", "SAVE5"} {
			if _, err := pricing.CheckPromotion(c, code, 3, 0, when); err != nil {
				t.Errorf("%s at %s: %v", code, when, err)
			}
		}
	}
	if _, err := pricing.CheckPromotion(c, "SUMMER2020", 2, 0, at("2020-07-01T00:00:00Z")); err != nil {
		t.Errorf("SUMMER2020 during summer 2020: %v", err)
	}
}

func TestExtraFromCount(t *testing.T) {
	for count, want := range map[int]int{-3: 0, 0: 0, 1: 0, 2: 2, 3: 3, 4: 4} {
		if got := pricing.ExtraFromCount(count); got != want {
			t.Errorf("ExtraFromCount(%d) = %d, want %d", count, got, want)
		}
	}
}

func TestQuoteJSON(t *testing.T) {
	q, err := pricing.QuoteFor(catalog.Demo(), pricing.Request{PID: 2, Cycle: catalog.Monthly}, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"pid":2,"billingCycle":"monthly","currency":"EUR",` +
		`"lines":[{"key":"plan","label":"Standard — Monthly","amount":{"amount":1299,"currency":"EUR"}}],` +
		`"subtotal":{"amount":1299,"currency":"EUR"},"discount":null,"total":{"amount":1299,"currency":"EUR"},` +
		`"extraConnections":0,"proxyProtection":false,"recurring":{"amount":1299,"currency":"EUR","billingCycle":"monthly"},"net":{"amount":1299,"currency":"EUR"}}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
}

// TestQuoteRecurring: what renews is each next period at today's prices: the subtotal after a
// one-time promotion, the total after a recurring one; nothing for a one-time plan, a free trial
// or a reseller credit plan.
func TestQuoteRecurring(t *testing.T) {
	c := mustParse(t, `defaultCurrency: EUR
currencies:
  - {code: EUR, rate: "1"}
  - {code: GBP, rate: "0.86"}
configOptions:
  - {id: 2, name: Extra connections, type: quantity, minQty: 0, maxQty: 4, pricing: {quarterly: {EUR: "8.00"}, monthly: {EUR: "3.00"}}}
  - {id: 4, name: Proxy protection, type: yesno, pricing: {quarterly: {EUR: "5.00"}, monthly: {EUR: "2.00"}}}
products:
  - {pid: 1, group: plan, name: Trial, trial: true, cycles: {onetime: {EUR: 0}}}
  - {pid: 3, group: plan, name: Premium, cycles: {monthly: {EUR: "15.99"}, quarterly: {EUR: "39.99"}}, configOptions: [2, 4]}
  - {pid: 5, group: plan, name: Lifetime, cycles: {onetime: {EUR: "49.00"}, monthly: {EUR: "5.00"}}}
  - {pid: 10, group: reseller, name: Credits, cycles: {monthly: {EUR: "149.00"}}, credits: 100}
promotions:
  - {code: ONCE10, type: Percentage, value: "10", appliesTo: [3]}
  - {code: ALWAYS10, type: Percentage, value: "10", appliesTo: [3], recurring: true}
gateways: sandbox
`)
	none := int64(-1)
	for _, tc := range []struct {
		name             string
		req              pricing.Request
		total, recurring int64
		cycle            catalog.Cycle
		currency         string
	}{
		{"one-time promo: then the full price", pricing.Request{PID: 3, Cycle: catalog.Quarterly, ExtraConnections: 2, ProxyProtection: true, PromoCode: "ONCE10"},
			5489, 6099, catalog.Quarterly, "EUR"},
		{"recurring promo: then the discounted price", pricing.Request{PID: 3, Cycle: catalog.Quarterly, ExtraConnections: 2, ProxyProtection: true, PromoCode: "ALWAYS10"},
			5489, 5489, catalog.Quarterly, "EUR"},
		{"converted", pricing.Request{PID: 3, Cycle: catalog.Monthly, Currency: "GBP"}, 1375, 1375, catalog.Monthly, "GBP"},
		{"one-time plan", pricing.Request{PID: 5, Cycle: catalog.OneTime}, 4900, none, "", ""},
		{"the same plan monthly renews", pricing.Request{PID: 5, Cycle: catalog.Monthly}, 500, 500, catalog.Monthly, "EUR"},
		{"trial", pricing.Request{PID: 1, Cycle: catalog.OneTime}, 0, none, "", ""},
		{"reseller credits", pricing.Request{PID: 10, Cycle: catalog.Monthly}, 14900, none, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := pricing.QuoteFor(c, tc.req, now)
			if err != nil {
				t.Fatal(err)
			}
			if q.Total.Amount != tc.total {
				t.Fatalf("total %d, want %d", q.Total.Amount, tc.total)
			}
			if tc.recurring == none {
				if q.Recurring != nil {
					t.Fatalf("recurring %+v, want nil", *q.Recurring)
				}
				return
			}
			want := pricing.Recurring{Amount: tc.recurring, Currency: tc.currency, Cycle: tc.cycle}
			if q.Recurring == nil || *q.Recurring != want {
				t.Fatalf("recurring %+v, want %+v", q.Recurring, want)
			}
		})
	}
}

// yen is a catalog whose default currency has no decimals, selling also in 2- and 3-decimal
// currencies.
const yen = `defaultCurrency: JPY
currencies:
  - {code: JPY, rate: "1"}
  - {code: EUR, rate: "0.00625"}
  - {code: KWD, rate: "0.0021"}
products:
  - {pid: 1, group: plan, name: A, cycles: {monthly: {JPY: 2078}}}
  - {pid: 2, group: plan, name: B, cycles: {monthly: {JPY: 999, KWD: "2.105"}}}
promotions:
  - {code: YEN500, type: Fixed Amount, value: "500", appliesTo: [1, 2]}
  - {code: THIRD, type: Percentage, value: "33.33", appliesTo: [1, 2]}
gateways: sandbox
`

// TestMinorUnitsPerCurrency: every amount is in its currency's own minor units and each
// conversion or percentage is rounded once, to the target's minor unit.
func TestMinorUnitsPerCurrency(t *testing.T) {
	c := mustParse(t, yen)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name                      string
		req                       pricing.Request
		subtotal, discount, total int64
	}{
		{"default JPY", pricing.Request{PID: 1}, 2078, 0, 2078},
		{"JPY → EUR: 2078 × 0.00625 = 12.9875 → 12.99", pricing.Request{PID: 1, Currency: "EUR"}, 1299, 0, 1299},
		{"JPY → KWD: 2078 × 0.0021 = 4.3638 → 4.364", pricing.Request{PID: 1, Currency: "KWD"}, 4364, 0, 4364},
		{"explicit KWD price with 3 decimals", pricing.Request{PID: 2, Currency: "KWD"}, 2105, 0, 2105},
		{"fixed 500 yen", pricing.Request{PID: 1, PromoCode: "YEN500"}, 2078, 500, 1578},
		{"fixed 500 yen in EUR: 3.125 → 3.13", pricing.Request{PID: 1, Currency: "EUR", PromoCode: "YEN500"}, 1299, 313, 986},
		{"fixed 500 yen in KWD: 1.05 → 1.050", pricing.Request{PID: 1, Currency: "KWD", PromoCode: "YEN500"}, 4364, 1050, 3314},
		{"33.33 % of 2078 yen = 692.6 → 693", pricing.Request{PID: 1, PromoCode: "THIRD"}, 2078, 693, 1385},
		{"33.33 % of 2.105 KWD = 0.70160 → 0.702", pricing.Request{PID: 2, Currency: "KWD", PromoCode: "THIRD"}, 2105, 702, 1403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := pricing.QuoteFor(c, tt.req, now)
			if err != nil {
				t.Fatal(err)
			}
			var off int64
			if q.Discount != nil {
				off = q.Discount.Amount.Amount
			}
			if q.Subtotal.Amount != tt.subtotal || off != tt.discount || q.Total.Amount != tt.total {
				t.Errorf("quote = %d − %d = %d; want %d − %d = %d", q.Subtotal.Amount, off, q.Total.Amount, tt.subtotal, tt.discount, tt.total)
			}
		})
	}
	convert := []struct {
		amount   int64
		from, to string
		want     int64
	}{
		{1299, "EUR", "JPY", 2078}, // 12.99 / 0.00625 = 2078.4 → 2078
		{2078, "JPY", "KWD", 4364}, // 4.3638 → 4.364
		{4364, "KWD", "EUR", 1299}, // 4.364 / 0.0021 × 0.00625 = 12.988… → 12.99
		{1, "KWD", "JPY", 0},       // 0.001 / 0.0021 = 0.476 → 0
		{5, "EUR", "KWD", 17},      // 0.05 × 0.336 = 0.0168 → 0.017
	}
	for _, tt := range convert {
		got, _, err := pricing.Convert(c, tt.amount, tt.from, tt.to)
		if err != nil || got.Amount != tt.want || got.Currency != tt.to {
			t.Errorf("Convert(%d %s → %s) = %+v, %v; want %d", tt.amount, tt.from, tt.to, got, err, tt.want)
		}
	}
}
