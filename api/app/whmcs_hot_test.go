package app_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/whmcs"
	"github.com/streamcart/streamcart/api/whmcs/whmcsfake"
	genpricing "github.com/streamcart/streamcart/gen/pricing"
	genservices "github.com/streamcart/streamcart/gen/services"
)

// callsWith counts the calls of action the fake answered whose parameter key was value.
func callsWith(f *whmcsfake.Fake, action, key, value string) int {
	n := 0
	for _, c := range f.Calls() {
		if c.Action == action && c.Params.Get(key) == value {
			n++
		}
	}
	return n
}

// TestWHMCSQuotesShareOnePromotionRead: 40 quotes at once carrying one promo code ask WHMCS once
// (GetPromotions), and the answer is kept a few seconds (whmcs.ReadFor): read again after it.
// WHMCS down then: the quotes still answer, from the catalog read last; the failure is not kept.
func TestWHMCSQuotesShareOnePromotionRead(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		clk := newClock()
		s, f := whmcsShop(t, func(c *app.Config) { c.Now = clk.Now })
		quotes := func() {
			t.Helper()
			var wg sync.WaitGroup
			for range 40 {
				wg.Go(func() {
					q, err := s.pricing.Quote(t.Context(), &genpricing.QuoteRequest{Pid: 3, BillingCycle: "monthly", Currency: ptr("EUR"),
						PromoCode: ptr("welcome10")})
					if err != nil || q.Discount == nil || q.Total.Amount != 1439 {
						t.Errorf("quote with WELCOME10: %+v %v", q, err)
					}
				})
			}
			wg.Wait()
		}
		quotes()
		if n := callsWith(f, "GetPromotions", "code", "WELCOME10"); n != 1 {
			t.Fatalf("%d GetPromotions calls for 40 quotes, want 1", n)
		}
		quotes()
		if n := callsWith(f, "GetPromotions", "code", "WELCOME10"); n != 1 {
			t.Fatalf("%d GetPromotions calls within whmcs.ReadFor, want still 1", n)
		}
		clk.Add(whmcs.ReadFor)
		quotes()
		if n := callsWith(f, "GetPromotions", "code", "WELCOME10"); n != 2 {
			t.Fatalf("%d GetPromotions calls after whmcs.ReadFor, want 2", n)
		}
		clk.Add(whmcs.ReadFor)
		f.SetStatus(http.StatusServiceUnavailable)
		quotes()
		f.SetStatus(0)
		// The failure was not kept: WHMCS back, the code is read again.
		quotes()
		if n := callsWith(f, "GetPromotions", "code", "WELCOME10"); n != 3 {
			t.Fatalf("%d GetPromotions calls once WHMCS is back, want 3", n)
		}
	})
}

// TestWHMCSServicesViewOneReadPerClient: the services view of a client with two WHMCS services,
// asked 40 times at once, is one GetClientsProducts; an action through Streamcart (the MAC) is
// shown at once (the client's read is forgotten); WHMCS down: the services as stored.
func TestWHMCSServicesViewOneReadPerClient(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		c, f, _ := whmcsConsole(t)
		paidWHMCSOrder(t, c, "two@example.com")
		paidWHMCSOrder(t, c, "two@example.com")
		owner := c.proven("two@example.com")
		c.clock.Add(whmcs.ReadFor) // what the fulfilment read is over
		before := f.CallCount("GetClientsProducts")
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				list, err := c.services.List(t.Context(), &genservices.ListPayload{Token: ptr(owner.Token)})
				if err != nil || len(list.Services) != 2 || list.Services[0].Status != "Active" || list.Services[1].Username == "" {
					t.Errorf("GET /services: %+v %v", list, err)
				}
			})
		}
		wg.Wait()
		if n := f.CallCount("GetClientsProducts") - before; n != 1 {
			t.Fatalf("%d GetClientsProducts calls for 40 views of two services, want 1", n)
		}
		list, err := c.services.List(t.Context(), &genservices.ListPayload{Token: ptr(owner.Token)})
		if err != nil {
			t.Fatal(err)
		}
		svcID := list.Services[0].ServiceID
		if _, err := c.services.SetMac(t.Context(), &genservices.SetMacPayload{Token: ptr(owner.Token), ServiceID: svcID,
			MacAddress: "00:1A:79:AA:BB:01"}); err != nil {
			t.Fatal(err)
		}
		if svc := c.getService(owner.Token, svcID); svc.MacAddress != "00:1A:79:AA:BB:01" {
			t.Fatalf("service after the MAC change %+v: want it shown at once", svc)
		}
		c.clock.Add(whmcs.ReadFor)
		f.SetStatus(http.StatusServiceUnavailable)
		list, err = c.services.List(t.Context(), &genservices.ListPayload{Token: ptr(owner.Token)})
		f.SetStatus(0)
		if err != nil || len(list.Services) != 2 || list.Services[0].Username == "" {
			t.Fatalf("GET /services with WHMCS down: %+v %v, want the services as stored", list, err)
		}
	})
}
