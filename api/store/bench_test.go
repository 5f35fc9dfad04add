package store_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/store"
)

// BenchmarkCreateOrder places orders through the order service (idempotency key, fraud check
// and all) from 16 goroutines: go test -run - -bench CreateOrder ./api/store/. sameIP puts every
// buyer behind one address, the worst case for the per-IP count, which queues on that address.
func BenchmarkCreateOrder(b *testing.B) {
	backends := []struct {
		name string
		open func(testing.TB) store.Backend
	}{
		{"sqlite", func(t testing.TB) store.Backend { return openSQLite(t) }},
		{"postgres", func(t testing.TB) store.Backend { return openPostgres(t) }},
	}
	for _, be := range backends {
		for _, sameIP := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/sameIP=%v", be.name, sameIP), func(b *testing.B) {
				s := be.open(b)
				orders := newOrders(b, s, catalog.Demo(), fraud.Rules{MaxOrdersPerIP: fraud.DefaultMaxOrdersPerIP})
				const buyers = 16
				claims := make([]authz.Claims, buyers)
				for i := range claims {
					claims[i] = buyer(b, s, fmt.Sprintf("bench%d@example.com", i))
				}
				var seq atomic.Int64
				b.SetParallelism(max(1, buyers/runtime.GOMAXPROCS(0))) // about 16 goroutines
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						n := seq.Add(1)
						req := standardMonthly(fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
						if sameIP {
							req.IP = "10.255.255.255"
						}
						req.IdempotencyKey = fmt.Sprintf("bench-%d", n)
						if _, err := orders.Create(b.Context(), claims[n%buyers], req); err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
			})
		}
	}
}
