package payment_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// moneyCatalog is the demo catalog also selling JPY (0 decimals), KWD (3 decimals), and ISK and
// MGA, whose Stripe amounts are not their ISO minor units.
func moneyCatalog(t *testing.T) []byte {
	t.Helper()
	demo := string(catalog.DemoYAML())
	const gbp = "  - {code: GBP, rate: \"0.86\", prefix: \"£\", suffix: \"\"}\n"
	if strings.Count(demo, gbp) != 1 {
		t.Fatalf("the demo catalog no longer says %q", gbp)
	}
	more := "  - {code: JPY, rate: \"160\"}\n  - {code: KWD, rate: \"0.3346\"}\n  - {code: ISK, rate: \"150\"}\n  - {code: MGA, rate: \"4900\"}\n"
	return []byte(strings.Replace(demo, gbp, gbp+more, 1))
}

// moneyCases price plan 3 monthly (15.99 EUR, an explicit 16.99 USD) in a 0-, 2- and 3-decimal
// currency: the invoice in minor units and the decimal text a crypto provider is sent.
var moneyCases = []struct {
	currency string
	minor    int64
	decimal  string
}{
	{"JPY", 2558, "2558"},  // 15.99 × 160 = 2558.4 → 2558 yen, not 255840
	{"EUR", 1599, "15.99"}, // the default currency
	{"USD", 1699, "16.99"}, // an explicit price
	{"KWD", 5350, "5.350"}, // 15.99 × 0.3346 = 5.350254 → 5.350 dinars, not 53.50
}

// checkInvoice fails unless o's quote and invoice are minor units of currency.
func checkInvoice(t *testing.T, o order.Order, currency string, minor int64) {
	t.Helper()
	if o.Quote.Total.Amount != minor || o.Quote.Total.Currency != currency ||
		o.Invoice.Amount.Amount != minor || o.Invoice.Amount.Currency != currency {
		t.Fatalf("quote total %+v, invoice %+v; want %d %s", o.Quote.Total, o.Invoice.Amount, minor, currency)
	}
}

func TestCoinbaseAmountInEveryCurrency(t *testing.T) {
	// Each invoice is converted to USDC at the catalog's USD rate (1.08 per EUR) over its own:
	// 2558 JPY × 1.08/160, 15.99 EUR × 1.08, 16.99 USD × 1, 5.350 KWD × 1.08/0.3346.
	usdc := map[string]string{"JPY": "17.27", "EUR": "17.27", "USD": "16.99", "KWD": "17.27"}
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, tc := range moneyCases {
			t.Run(tc.currency, func(t *testing.T) {
				f := newFakeCoinbase(t, newCDPKey(t, "EdDSA"))
				e := newEnvCatalog(t, b, moneyCatalog(t), coinbaseGateway(t, f, moneyCatalog(t)))
				o := e.mustBuy("coinbase", 3, tc.currency)
				checkInvoice(t, o, tc.currency, tc.minor)
				co := f.checkout("")
				if co["amount"] != usdc[tc.currency] || co["currency"] != "USDC" {
					t.Fatalf("checkout asks %v %v, want %s USDC", co["amount"], co["currency"], usdc[tc.currency])
				}
				// The paid checkout settles the invoice exactly, in its own currency.
				body, h := hook0Signed(co, "checkout.payment.success", coinbaseWebhookSecret, time.Now())
				if got := e.post("coinbase", body, h); got != http.StatusOK {
					t.Fatalf("webhook status = %d", got)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != order.StatusActive {
					t.Fatalf("order = %s, want active", got)
				}
			})
		}
	})
}

func TestCryptomusAmountInEveryCurrency(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		for _, tc := range moneyCases {
			t.Run(tc.currency, func(t *testing.T) {
				f := newFakeCryptomus(t)
				e := newEnvCatalog(t, b, moneyCatalog(t), cryptomusGateway(f))
				o := e.mustBuy("cryptomus", 3, tc.currency)
				checkInvoice(t, o, tc.currency, tc.minor)
				f.mu.Lock()
				req := f.requests[0]
				f.mu.Unlock()
				if req["amount"] != tc.decimal || req["currency"] != tc.currency {
					t.Fatalf("invoice sent for %v %v, want %s %s", req["amount"], req["currency"], tc.decimal, tc.currency)
				}
				if got := e.post("cryptomus", cryptomusWebhook(t, o, "paid", tc.decimal), nil); got != http.StatusOK {
					t.Fatalf("webhook status = %d", got)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != order.StatusActive {
					t.Fatalf("order = %s, want active", got)
				}
			})
		}
	})
}

func TestStripeUnitAmountInEveryCurrency(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			currency string
			pid      int
			minor    int64 // the invoice, ISO minor units
			unit     int64 // Stripe's unit_amount; 0: Stripe cannot take it
		}{
			{"JPY", 3, 2558, 2558},
			{"EUR", 3, 1599, 1599},
			{"USD", 3, 1699, 1699},
			{"KWD", 3, 5350, 5350},
			{"ISK", 3, 2399, 239900},   // 15.99 × 150 = 2398.5 → 2399 krónur; Stripe takes ISK in hundredths
			{"MGA", 3, 7835100, 78351}, // 15.99 × 4900 = 78351.00 ariary; Stripe takes whole ariary
			{"KWD", 2, 4346, 0},        // 12.99 × 0.3346 = 4.346454 → 4.346: Stripe takes KWD in tens of fils
		}
		for _, tc := range cases {
			t.Run(tc.currency+"/"+strconv.Itoa(tc.pid), func(t *testing.T) {
				rec := &recorder{next: stripeMockClient(t).Transport}
				gw := func(st store.Backend) order.Gateway {
					return payment.NewStripe(payment.StripeConfig{
						SecretKey: "sk_test_123", WebhookSecret: stripeWebhookSecret, APIURL: "http://stripe-mock",
						PublicURL: "https://shop.example", HTTPClient: &http.Client{Transport: rec},
					}, st)
				}
				e := newEnvCatalog(t, b, moneyCatalog(t), gw)
				o, err := e.buy("stripe", tc.pid, tc.currency)
				if tc.unit == 0 {
					if !errors.Is(err, order.ErrGatewayUnavailable) || len(rec.sent()) != 0 {
						t.Fatalf("buy = %v with %d Stripe requests; want refused before asking Stripe", err, len(rec.sent()))
					}
					return
				}
				if err != nil {
					t.Fatalf("buy: %v", err)
				}
				checkInvoice(t, o, tc.currency, tc.minor)
				forms := rec.sent()
				if len(forms) != 1 {
					t.Fatalf("%d Checkout Session requests, want 1", len(forms))
				}
				unit := forms[0].Get("line_items[0][price_data][unit_amount]")
				cur := forms[0].Get("line_items[0][price_data][currency]")
				if unit != strconv.FormatInt(tc.unit, 10) || cur != strings.ToLower(tc.currency) {
					t.Fatalf("unit_amount %s %s, want %d %s", unit, cur, tc.unit, strings.ToLower(tc.currency))
				}
				// Stripe reports amount_total in its own units: it settles the invoice exactly.
				ref, err := e.st.Ref(t.Context(), "stripe", o.Invoice.ID)
				if err != nil {
					t.Fatal(err)
				}
				body := stripeEvent("evt_"+tc.currency, "checkout.session.completed", ref, o.Invoice.ID, "paid", tc.unit, strings.ToLower(tc.currency))
				if got := e.post("stripe", body, signed(body, stripeWebhookSecret, time.Now())); got != http.StatusOK {
					t.Fatalf("webhook status = %d", got)
				}
				e.drain()
				if got := e.order(o.ID).Status; got != order.StatusActive {
					t.Fatalf("order = %s, want active", got)
				}
			})
		}
	})
}
