package store_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestWebhookStoredOnceWithItsJob(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		w := payment.Webhook{Provider: "stripe", EventID: "evt_1", Body: []byte("{\"id\":\"evt_1\"}\x00"), ReceivedAt: jobT0}
		const n = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		created := 0
		ids := map[int64]bool{}
		for range n {
			wg.Go(func() {
				got, isNew, err := s.InsertWebhook(context.Background(), w)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				ids[got.ID] = true
				if isNew {
					created++
				}
			})
		}
		wg.Wait()
		if created != 1 || len(ids) != 1 {
			t.Fatalf("%d concurrent deliveries: %d stored, ids %v; want one", n, created, ids)
		}
		var id int64
		for id = range ids {
		}
		want := w
		want.ID = id
		got, err := s.Webhook(t.Context(), id)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Webhook = %+v, %v; want %+v", got, err, want)
		}
		if byEvent, err := storetest.Inspect(s).WebhookByEvent(t.Context(), "stripe", "evt_1"); err != nil || byEvent.ID != id {
			t.Fatalf("WebhookByEvent = %+v, %v", byEvent, err)
		}
		j := mustJob(t, s, payment.JobWebhook+":"+strconv.FormatInt(id, 10))
		if j.Kind != payment.JobWebhook || j.Ref != strconv.FormatInt(id, 10) || j.State != store.JobQueued {
			t.Fatalf("webhook job = %+v", j)
		}
		// The same event id of another provider is another webhook.
		if _, isNew, err := s.InsertWebhook(t.Context(), payment.Webhook{Provider: "coinbase", EventID: "evt_1", Body: []byte("{}"), ReceivedAt: jobT0}); err != nil || !isNew {
			t.Fatalf("other provider's event = %v, %v", isNew, err)
		}
		if c, err := storetest.Inspect(s).CountWebhooks(t.Context(), "stripe"); err != nil || c != 1 {
			t.Fatalf("CountWebhooks = %d, %v", c, err)
		}
		at := jobT0.Add(time.Second)
		if err := s.FinishWebhook(t.Context(), id, "settled", at); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Webhook(t.Context(), id); got.Outcome != "settled" || !got.ProcessedAt.Equal(at) {
			t.Fatalf("finished webhook = %+v", got)
		}
		if _, err := s.Webhook(t.Context(), 9999); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("Webhook(unknown) err = %v", err)
		}
		if _, err := storetest.Inspect(s).WebhookByEvent(t.Context(), "stripe", "evt_unknown"); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("WebhookByEvent(unknown) err = %v", err)
		}
	})
}

func TestExternalRefs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		if _, err := s.Ref(t.Context(), "stripe:session", "inv_1"); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("Ref(absent) err = %v", err)
		}
		for _, ref := range []string{"cs_1", "cs_2"} {
			if err := s.PutRef(t.Context(), "stripe:session", "inv_1", ref); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Ref(t.Context(), "stripe:session", "inv_1"); err != nil || got != ref {
				t.Fatalf("Ref = %q, %v; want %q", got, err, ref)
			}
		}
		if _, err := s.Ref(t.Context(), "panel:line", "inv_1"); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("another scope's key err = %v", err)
		}
	})
}

func TestPendingInvoicesOldestDeadlineFirst(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		at := jobT0
		orders := newOrdersAt(t, s, catalog.Demo(), fraud.Rules{}, func() time.Time { return at })
		claims := buyer(t, s, "ana@example.com")
		var invoices []string
		for i := range 3 {
			at = jobT0.Add(time.Duration(i) * time.Minute)
			o, err := orders.Create(t.Context(), claims, standardMonthly("192.0.2.210"))
			if err != nil {
				t.Fatal(err)
			}
			invoices = append(invoices, o.Invoice.ID)
		}
		if _, err := orders.Settle(t.Context(), invoices[1], "txn-paid"); err != nil {
			t.Fatal(err)
		}
		late := jobT0.Add(48 * time.Hour)
		tests := []struct {
			name     string
			before   time.Time
			gateways []string
			limit    int
			want     []string
		}{
			{"unpaid, oldest first", late, []string{"stripe", "sandbox"}, 10, []string{invoices[0], invoices[2]}},
			{"limit", late, []string{"sandbox"}, 1, []string{invoices[0]}},
			{"deadline not reached", jobT0, []string{"sandbox"}, 10, nil},
			{"other gateways", late, []string{"stripe"}, 10, nil},
			{"no gateways", late, nil, 10, nil},
		}
		for _, tt := range tests {
			got, err := s.PendingInvoices(t.Context(), tt.before, tt.gateways, tt.limit)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("%s: PendingInvoices = %v, %v; want %v", tt.name, got, err, tt.want)
			}
		}
	})
}
