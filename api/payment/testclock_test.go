package payment_test

import (
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/payment"
)

// The test clock runs only where no real money moves: no live gateway set up, each set up with
// test credentials (Stripe's sk_test_/rk_test_ keys; Coinbase and Cryptomus have none), or
// STREAMCART_TEST_MODE.
func TestCheckTestClock(t *testing.T) {
	tests := []struct {
		name    string
		cfg     payment.Config
		refused bool
	}{
		{"sandbox only", payment.Config{Modules: []string{"sandbox"}}, false},
		{"nothing set up", payment.Config{}, false},
		{"stripe test key", payment.Config{StripeSecretKey: "sk_test_1"}, false},
		{"stripe restricted test key", payment.Config{Modules: []string{"stripe"}, StripeSecretKey: "rk_test_1"}, false},
		{"stripe live key", payment.Config{StripeSecretKey: "sk_live_1"}, true},
		{"stripe listed without a key", payment.Config{Modules: []string{"sandbox", "stripe"}}, true},
		{"coinbase key", payment.Config{CoinbaseKeyID: "organizations/o/apiKeys/k"}, true},
		{"cryptomus merchant", payment.Config{CryptomusMerchant: "m"}, true},
		{"cryptomus listed", payment.Config{Modules: []string{"cryptomus"}}, true},
		{"test mode beside live", payment.Config{TestMode: true, StripeSecretKey: "sk_live_1", CryptomusAPIKey: "k"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := payment.CheckTestClock(tc.cfg)
			if refused := errors.Is(err, payment.ErrTestClockLive); refused != tc.refused || (!tc.refused && err != nil) {
				t.Fatalf("CheckTestClock = %v, want refused %v", err, tc.refused)
			}
		})
	}
}
