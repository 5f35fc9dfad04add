package store_test

import (
	"maps"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
)

// TestAffiliateClickOncePerDay: a click counts once per address, affiliate and UTC day.
func TestAffiliateClickOncePerDay(t *testing.T) {
	day := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		clicks []affiliate.Click
		want   map[string]int
	}{
		{"repeat the same day", []affiliate.Click{{AffID: "5", IP: "192.0.2.1", At: day}, {AffID: "5", IP: "192.0.2.1", At: day.Add(23*time.Hour + 59*time.Minute)}}, map[string]int{"5": 1}},
		{"next day", []affiliate.Click{{AffID: "5", IP: "192.0.2.1", At: day.Add(23 * time.Hour)}, {AffID: "5", IP: "192.0.2.1", At: day.Add(25 * time.Hour)}}, map[string]int{"5": 2}},
		{"two addresses", []affiliate.Click{{AffID: "5", IP: "192.0.2.1", At: day}, {AffID: "5", IP: "2001:db8::1", At: day}}, map[string]int{"5": 2}},
		{"two affiliates", []affiliate.Click{{AffID: "5", IP: "192.0.2.1", At: day}, {AffID: "9", IP: "192.0.2.1", At: day}}, map[string]int{"5": 1, "9": 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s store.Backend) {
				for _, c := range tc.clicks {
					if err := s.InsertClick(t.Context(), c); err != nil {
						t.Fatal(err)
					}
				}
				clicks, _, _, _, err := s.AffiliateCounts(t.Context(), time.Time{})
				if err != nil || !maps.Equal(clicks, tc.want) {
					t.Fatalf("clicks %v (%v), want %v", clicks, err, tc.want)
				}
			})
		})
	}
}

func TestAffiliateCounts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		at := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
		for _, c := range []affiliate.Click{
			{AffID: "5", IP: "192.0.2.1", At: at}, {AffID: "5", IP: "192.0.2.2", At: at}, {AffID: "9", IP: "192.0.2.1", At: at},
			{AffID: "5", IP: "192.0.2.1", At: at.Add(time.Hour)}, // the same address the same day: counted once
		} {
			if err := s.InsertClick(t.Context(), c); err != nil {
				t.Fatal(err)
			}
		}
		c := buyer(t, s, "aff@example.com")
		for i, aff := range []string{"5", "5", "9"} {
			o, err := orders.Create(t.Context(), c, order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly"}, AffiliateID: aff})
			if err != nil {
				t.Fatal(err)
			}
			if i < 2 {
				if _, err := orders.Settle(t.Context(), o.Invoice.ID, "txn-"+o.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		rows, err := affiliate.New(s, nil).Report(t.Context(), time.Time{})
		if err != nil || len(rows) != 2 {
			t.Fatalf("report %+v %v", rows, err)
		}
		if r := rows[0]; r.AffID != "5" || r.Clicks != 2 || r.Orders != 2 || r.PaidOrders != 2 || len(r.Revenue) != 1 || r.Revenue[0].Amount != 2598 {
			t.Fatalf("affiliate 5: %+v", r)
		}
		if r := rows[1]; r.AffID != "9" || r.Clicks != 1 || r.Orders != 1 || r.PaidOrders != 0 || r.Revenue != nil {
			t.Fatalf("affiliate 9: %+v", r)
		}
	})
}
