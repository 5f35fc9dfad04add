package store_test

import (
	"errors"
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/upsell"
)

// concurrently runs fn n times at once and returns how many calls returned nil.
func concurrently(n int, fn func() error) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range n {
		wg.Go(func() {
			if fn() == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return ok
}

func TestSigninLinkSingleUse(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		c := buyer(t, s, "link@example.com")
		now := time.Now().UTC()
		if err := s.InsertSigninLink(t.Context(), "hash-1", c.ClientID, now, now.Add(15*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.InsertSigninLink(t.Context(), "hash-old", c.ClientID, now.Add(-time.Hour), now.Add(-45*time.Minute)); err != nil {
			t.Fatal(err)
		}
		used := concurrently(10, func() error { _, err := s.UseSigninLink(t.Context(), "hash-1", now); return err })
		if used != 1 {
			t.Fatalf("%d concurrent uses succeeded, want 1", used)
		}
		for _, h := range []string{"hash-1", "hash-old", "hash-unknown"} {
			if _, err := s.UseSigninLink(t.Context(), h, now); !errors.Is(err, signin.ErrNotFound) {
				t.Errorf("%s: err %v, want signin.ErrNotFound", h, err)
			}
		}
		if n, err := s.CountSigninLinks(t.Context(), c.ClientID, now.Add(-15*time.Minute)); err != nil || n != 1 {
			t.Fatalf("links in the window: %d %v, want 1", n, err)
		}
		for range 3 {
			if err := s.AddAttempt(t.Context(), "password-email", "link@example.com", now); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := s.CountAttempts(t.Context(), "password-email", "link@example.com", now.Add(-time.Minute)); n != 3 {
			t.Fatalf("attempts %d, want 3", n)
		}
		if n, _ := s.CountAttempts(t.Context(), "password-email", "link@example.com", now.Add(time.Minute)); n != 0 {
			t.Fatalf("attempts after the window %d, want 0", n)
		}
	})
}

func TestMailOutbox(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		now := time.Now().UTC()
		stored, err := s.QueueMail(t.Context(), mail.Message{To: "a@example.com", Subject: "One", Body: "1"}, mail.StatusStored, false, now)
		if err != nil {
			t.Fatal(err)
		}
		sent, err := s.QueueMail(t.Context(), mail.Message{To: "b@example.com", Subject: "Two", Body: "2", HTML: "<p>2</p>"}, mail.StatusPending, true, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.JobByKey(t.Context(), mail.JobSend+":"+itoa(sent)); err != nil {
			t.Fatalf("send job of a pending mail: %v", err)
		}
		if _, err := s.JobByKey(t.Context(), mail.JobSend+":"+itoa(stored)); err == nil {
			t.Fatal("a stored-only mail has a send job")
		}
		if err := s.MarkMail(t.Context(), sent, mail.StatusSent, "", now); err != nil {
			t.Fatal(err)
		}
		list, err := s.ListMail(t.Context(), 10)
		if err != nil || len(list) != 2 || list[0].ID != sent || list[0].Status != mail.StatusSent || list[0].SentAt.IsZero() || list[0].HTML != "<p>2</p>" || list[1].Subject != "One" || list[1].HTML != "" {
			t.Fatalf("outbox %+v %v", list, err)
		}
		if _, err := s.Mail(t.Context(), 999999); !errors.Is(err, mail.ErrNotFound) {
			t.Fatalf("unknown mail: %v", err)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestApplyUpsellOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		o, err := orders.Create(t.Context(), buyer(t, s, "ups@example.com"), order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly"}})
		if err != nil {
			t.Fatal(err)
		}
		svcID := o.ServiceIDs[0]
		svc, err := s.Service(t.Context(), svcID)
		if err != nil {
			t.Fatal(err)
		}
		svc.Status = order.ServiceActive
		if err := s.UpdateService(t.Context(), svc); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ord_up1", "ord_up2"} {
			if err := s.ReserveUpsell(t.Context(), upsell.Upsell{OrderID: id, ServiceID: svcID, ExtraQuantity: 2, CreatedAt: time.Now()}, 4, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		// The plan's cap (4 extra) is reserved: a third upsell does not fit.
		err = s.ReserveUpsell(t.Context(), upsell.Upsell{OrderID: "ord_up3", ServiceID: svcID, ExtraQuantity: 1, CreatedAt: time.Now()}, 4, time.Now())
		if !errors.Is(err, upsell.ErrQuantity) {
			t.Fatalf("third upsell over the cap: %v, want ErrQuantity", err)
		}
		ok := concurrently(8, func() error { _, err := s.ApplyUpsell(t.Context(), "ord_up1", time.Now()); return err })
		if ok != 8 {
			t.Fatalf("%d of 8 applications answered without error", ok)
		}
		if svc, _ := s.Service(t.Context(), svcID); svc.MaxConnections != 3 {
			t.Fatalf("max connections %d after 8 applications of one upsell, want 3", svc.MaxConnections)
		}
		svc, err = s.ApplyUpsell(t.Context(), "ord_up2", time.Now())
		if err != nil || svc.MaxConnections != 5 {
			t.Fatalf("second upsell: %d %v, want 5", svc.MaxConnections, err)
		}
		if _, err := s.Upsell(t.Context(), o.ID); !errors.Is(err, upsell.ErrNotFound) {
			t.Fatalf("a plan order read as an upsell: %v", err)
		}
	})
}

func TestResellerCredits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		now := time.Now().UTC()
		ok := concurrently(8, func() error {
			_, err := s.CreditReseller(t.Context(), "ord_a", "r@example.com", "", 100, now)
			return err
		})
		if ok != 8 {
			t.Fatalf("%d of 8 credits answered without error", ok)
		}
		a, err := s.CreditReseller(t.Context(), "ord_b", "r@example.com", "", 500, now)
		if err != nil || a.Credits != 600 {
			t.Fatalf("account %+v %v, want 600 credits", a, err)
		}
		if _, err := s.ResellerAccount(t.Context(), "none@example.com"); !errors.Is(err, reseller.ErrNotFound) {
			t.Fatalf("unknown account: %v", err)
		}
	})
}

func TestLineEdits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		b := panel.NewBuiltin(s, "line.example:80")
		l := panel.Line{Ref: "svc_1", Username: "u1", Password: "p1", MaxConnections: 1, Enabled: true}
		if _, err := b.CreateLine(t.Context(), l); err != nil {
			t.Fatal(err)
		}
		steps := []func() error{
			func() error { return b.SetMaxConnections(t.Context(), "svc_1", 3) },
			func() error { return b.SetMAC(t.Context(), "svc_1", "00:1A:79:12:34:56") },
			func() error { return panel.Restart(t.Context(), b, "svc_1") },
		}
		for _, st := range steps {
			if err := st(); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Line(t.Context(), "svc_1")
		if err != nil || got.MaxConnections != 3 || got.MAC != "00:1A:79:12:34:56" || !got.Enabled {
			t.Fatalf("line %+v %v", got, err)
		}
		if err := b.SetMaxConnections(t.Context(), "svc_none", 2); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("unknown line: %v", err)
		}
		if err := b.Delete(t.Context(), "svc_1"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Line(t.Context(), "svc_1"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("deleted line: %v", err)
		}
		if got, err := b.Recreate(t.Context(), l); err != nil || got.Username != "u1" {
			t.Fatalf("recreate: %+v %v", got, err)
		}
	})
}

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
		rows, err := affiliate.New(s).Report(t.Context(), time.Time{})
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
