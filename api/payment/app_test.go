package payment_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func appConfig(t *testing.T, b storetest.Backend, p payment.Config) app.Config {
	return app.Config{
		DB: b.NewDB(t), PublicURL: "https://shop.example", ServerHostname: "line.test:8000",
		UsernamePrefix: "tst", JobLease: 30 * time.Second, JobPoll: time.Hour, ShutdownTimeout: time.Second, Payment: p,
	}
}

func TestAppServesStripeWebhooksAndGatewayList(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
		a, err := app.Open(t.Context(), appConfig(t, b, payment.Config{
			Modules: []string{"stripe", "sandbox"}, StripeSecretKey: "sk_test_123", StripeWebhookSecret: stripeWebhookSecret,
			StripeAPIURL: "http://stripe-mock", HTTPClient: stripeMockClient(t),
		}), log)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		srv := httptest.NewServer(a.Handler())
		defer srv.Close()

		res, err := http.Get(srv.URL + "/checkout/api/gateways")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), `"default":"stripe"`) || !strings.Contains(string(body), `"module":"sandbox"`) {
			t.Fatalf("gateways = %s", body)
		}

		event := stripeEvent("evt_app", "checkout.session.completed", "cs_app", "inv_unknown", "paid", 100, "eur")
		post := func(h map[string]string) int {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/checkout/api/payments/stripe/webhook", bytes.NewReader(event))
			for k, v := range h {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if got := post(map[string]string{"Stripe-Signature": "t=1,v1=00"}); got != http.StatusBadRequest {
			t.Fatalf("bad signature = %d, want 400", got)
		}
		if got := post(signed(event, stripeWebhookSecret, time.Now())); got != http.StatusOK {
			t.Fatalf("signed = %d, want 200", got)
		}
		if n, _ := storetest.Inspect(a.Store()).CountWebhooks(t.Context(), "stripe"); n != 1 {
			t.Fatalf("stored = %d, want 1", n)
		}
	})
}

func TestAppRefusesUnconfiguredGateway(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		cases := []struct {
			cfg  payment.Config
			want string
		}{
			{payment.Config{Modules: []string{"stripe"}, StripeSecretKey: "sk"}, "STREAMCART_STRIPE_WEBHOOK_SECRET"},
			{payment.Config{Modules: []string{"coinbase"}, CoinbaseWebhookSecret: "s"}, "STREAMCART_COINBASE_KEY_ID"},
			{payment.Config{Modules: []string{"coinbase"}, CoinbaseKeyID: "id", CoinbaseWebhookSecret: "s"}, "STREAMCART_COINBASE_KEY_SECRET"},
			{payment.Config{CoinbaseCommerceAPIKey: "old"}, "Coinbase Commerce shut down on 31 March 2026"},
			{payment.Config{Modules: []string{"sandbox", "cryptomus"}, CryptomusMerchant: "m"}, "STREAMCART_CRYPTOMUS_API_KEY"},
			{payment.Config{Modules: []string{"paypal"}}, `unknown gateway "paypal"`},
		}
		for _, tc := range cases {
			_, err := app.Open(t.Context(), appConfig(t, b, tc.cfg), slog.New(slog.DiscardHandler))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: err = %v, want it to name %s", tc.cfg.Modules, err, tc.want)
			}
		}
	})
}
