package pricing_test

import (
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/pricing"
)

func BenchmarkQuoteFor(b *testing.B) {
	cat := catalog.Demo()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	req := pricing.Request{PID: 3, Cycle: catalog.Annually, Currency: "USD", ExtraConnections: 2, ProxyProtection: true, PromoCode: "WELCOME10"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pricing.QuoteFor(cat, req, now); err != nil {
			b.Fatal(err)
		}
	}
}
