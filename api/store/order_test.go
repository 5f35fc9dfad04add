package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// The order tests drive the real order service over each back end: what matters is that its
// guarantees (one order per key, promotion limits, one settlement) hold on both.

func newOrders(t testing.TB, s store.Backend, cat *catalog.Catalog, rules fraud.Rules) *order.Orders {
	t.Helper()
	return newOrdersAt(t, s, cat, rules, nil)
}

// newOrdersAt is newOrders on the clock now (nil: real time).
func newOrdersAt(t testing.TB, s store.Backend, cat *catalog.Catalog, rules fraud.Rules, now func() time.Time) *order.Orders {
	t.Helper()
	az, err := authz.NewAuthorizer()
	if err != nil {
		t.Fatal(err)
	}
	return order.New(s, func() *catalog.Catalog { return cat }, []order.Gateway{payment.Sandbox{}}, az,
		order.Config{Fraud: rules}, slog.New(slog.DiscardHandler), now)
}

// buyer signs email in with an email-only session.
func buyer(t testing.TB, s store.Backend, email string) authz.Claims {
	t.Helper()
	c, _, err := s.EnsureClient(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	ses := account.Session{ID: id.New("ses_"), ClientID: c.ID, Scope: authz.ScopeEmail,
		CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
	if err := s.CreateSession(t.Context(), ses); err != nil {
		t.Fatal(err)
	}
	return authz.Claims{ClientID: c.ID, SessionID: ses.ID, Scope: ses.Scope, Email: email}
}

// limitedCatalog is the demo catalog with WELCOME10 limited to uses orders.
func limitedCatalog(t testing.TB, uses int) *catalog.Catalog {
	t.Helper()
	raw := catalog.DemoYAML()
	limited := bytes.Replace(raw, []byte("    maxUses: 0"), fmt.Appendf(nil, "    maxUses: %d", uses), 1)
	if bytes.Equal(raw, limited) {
		t.Fatal("demo catalog: WELCOME10's maxUses line not found")
	}
	c, err := catalog.Parse("limited demo", limited)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func standardMonthly(ip string) order.Request {
	return order.Request{Quote: pricing.Request{PID: 2, Cycle: "monthly", Currency: "EUR"}, IP: ip}
}

// ordersFrom counts the orders stored for ip (all of them: the window starts at zero time).
func ordersFrom(t *testing.T, s store.Backend, ip string) int {
	t.Helper()
	var got order.Checked
	err := s.WithTx(t.Context(), func(tx order.Tx) error {
		var err error
		got, err = tx.Check(t.Context(), order.Check{CountIP: true, IP: ip})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got.FromIP
}

func TestOrderRoundTrips(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrdersAt(t, s, catalog.Demo(), fraud.Rules{}, func() time.Time { return jobT0 }) // the store keeps microseconds
		claims := buyer(t, s, "ana@example.com")
		req := order.Request{
			Quote:          pricing.Request{PID: 3, Cycle: "annually", Currency: "GBP", ExtraConnections: 2, ProxyProtection: true, PromoCode: "welcome10"},
			IdempotencyKey: "key-1", AffiliateID: "aff-7", ReturnURL: "/thanks", IP: "203.0.113.7", Locale: "de-de",
		}
		o, err := orders.Create(t.Context(), claims, req)
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != order.StatusPending || o.Locale != "de-de" || o.Invoice.PaymentURL == "" || o.PromoCode != "WELCOME10" || o.Quote.Discount == nil {
			t.Fatalf("created %+v", o)
		}
		for name, read := range map[string]func() (order.Order, error){
			"Order":        func() (order.Order, error) { return s.Order(t.Context(), o.ID) },
			"InvoiceOrder": func() (order.Order, error) { return s.InvoiceOrder(t.Context(), o.Invoice.ID) },
		} {
			got, err := read()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(got, o) {
				t.Fatalf("%s read back\n got %+v\nwant %+v", name, got, o)
			}
		}
		svc, err := s.Service(t.Context(), o.ServiceIDs[0])
		if err != nil {
			t.Fatal(err)
		}
		want := order.Service{ID: o.ServiceIDs[0], OrderID: o.ID, ClientID: claims.ClientID, SessionID: claims.SessionID, PID: 3,
			Name: "Premium", BillingCycle: "annually", Status: order.ServicePending, MaxConnections: 3, CreatedAt: jobT0, AutoRenew: true}
		if svc != want {
			t.Fatalf("Service\n got %+v\nwant %+v", svc, want)
		}
		svc.Status, svc.Username, svc.Password, svc.ServerHostname = order.ServiceActive, "sc12345678", "123456789012", "tv.example.com"
		svc.MACAddress, svc.ExpiresAt, svc.NextDueDate = "00:1A:79:00:00:01", jobT0.AddDate(1, 0, 0), jobT0.AddDate(1, 0, -1)
		if err := s.UpdateService(t.Context(), svc); err != nil {
			t.Fatal(err)
		}
		all, err := s.OrderServices(t.Context(), o.ID)
		if err != nil || len(all) != 1 || all[0] != svc {
			t.Fatalf("OrderServices = %+v, %v; want [%+v]", all, err, svc)
		}
		if err := s.SetPaymentURL(t.Context(), o.Invoice.ID, "https://pay.example/1"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Order(t.Context(), o.ID); got.Invoice.PaymentURL != "https://pay.example/1" {
			t.Fatalf("payment URL = %q", got.Invoice.PaymentURL)
		}
		if _, err := s.Order(t.Context(), "ord_unknown"); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("Order(unknown) err = %v", err)
		}
		if _, err := s.InvoiceOrder(t.Context(), "inv_unknown"); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("InvoiceOrder(unknown) err = %v", err)
		}
		if _, err := s.Service(t.Context(), "svc_unknown"); !errors.Is(err, order.ErrNotFound) {
			t.Fatalf("Service(unknown) err = %v", err)
		}
		if none, err := s.OrderServices(t.Context(), "ord_unknown"); err != nil || len(none) != 0 {
			t.Fatalf("OrderServices(unknown) = %v, %v", none, err)
		}
	})
}

func TestConcurrentIdenticalOrdersMakeOne(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "ana@example.com")
		req := standardMonthly("203.0.113.20")
		req.IdempotencyKey = "retry-me"
		const n = 20
		ids := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				o, err := orders.Create(context.Background(), claims, req)
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = o.ID
			})
		}
		wg.Wait()
		for i, id := range ids {
			if id == "" || id != ids[0] {
				t.Fatalf("request %d got order %q, request 0 got %q: want one order", i, id, ids[0])
			}
		}
		if got := ordersFrom(t, s, req.IP); got != 1 {
			t.Fatalf("%d orders stored, want 1", got)
		}
	})
}

func TestIdempotencyKeyBelongsToOneClientAndBody(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		ana, bo := buyer(t, s, "ana@example.com"), buyer(t, s, "bo@example.com")
		req := standardMonthly("203.0.113.30")
		req.IdempotencyKey = "k"
		first, err := orders.Create(t.Context(), ana, req)
		if err != nil {
			t.Fatal(err)
		}
		changed := req
		changed.Quote.Cycle = "annually"
		if _, err := orders.Create(t.Context(), ana, changed); !errors.Is(err, order.ErrIdempotencyMismatch) {
			t.Fatalf("same key, other body: err = %v, want ErrIdempotencyMismatch", err)
		}
		other, err := orders.Create(t.Context(), bo, req)
		if err != nil || other.ID == first.ID {
			t.Fatalf("another client's same key = %+v, %v; want an order of its own", other, err)
		}
		// Without a key every request is a new order.
		req.IdempotencyKey = ""
		a, err1 := orders.Create(t.Context(), ana, req)
		b, err2 := orders.Create(t.Context(), ana, req)
		if err1 != nil || err2 != nil || a.ID == b.ID {
			t.Fatalf("keyless orders = %s, %s (%v, %v); want two", a.ID, b.ID, err1, err2)
		}
		if got := ordersFrom(t, s, req.IP); got != 4 {
			t.Fatalf("%d orders stored, want 4", got)
		}
	})
}

func TestPriceChangedStoresNothing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		req := standardMonthly("203.0.113.40")
		req.IdempotencyKey = "k"
		req.ExpectedTotal = &money.Money{Amount: 1, Currency: "EUR"}
		var changed *order.PriceChangedError
		if _, err := orders.Create(t.Context(), buyer(t, s, "ana@example.com"), req); !errors.As(err, &changed) {
			t.Fatalf("err = %v, want PriceChangedError", err)
		}
		if got := ordersFrom(t, s, req.IP); got != 0 {
			t.Fatalf("%d orders stored, want none", got)
		}
	})
}

func TestLimitedPromotionIsNeverOverused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const limit, buyers = 3, 10
		orders := newOrders(t, s, limitedCatalog(t, limit), fraud.Rules{})
		claims := make([]authz.Claims, buyers)
		for i := range claims {
			claims[i] = buyer(t, s, fmt.Sprintf("b%d@example.com", i))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var placed []order.Order
		for i := range buyers {
			wg.Go(func() {
				req := standardMonthly(fmt.Sprintf("198.51.100.%d", i))
				// Every spelling of the code is the one code, counted together.
				req.Quote.PromoCode = []string{"welcome10", " WELCOME10 ", "ＷＥＬＣＯＭＥ１０"}[i%3]
				o, err := orders.Create(context.Background(), claims[i], req)
				if errors.Is(err, pricing.ErrPromoNotFound) {
					return // used up
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				placed = append(placed, o)
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(placed) != limit {
			t.Fatalf("%d orders used a promotion limited to %d", len(placed), limit)
		}
		if n, err := s.PromoUses(t.Context(), "WELCOME10", time.Now()); err != nil || n != limit {
			t.Fatalf("PromoUses = %d, %v; want %d", n, err, limit)
		}
		// A cancelled order gives its use back.
		if _, err := orders.Cancel(t.Context(), claimsOf(claims, placed[0]), placed[0].ID); err != nil {
			t.Fatal(err)
		}
		if n, err := s.PromoUses(t.Context(), "WELCOME10", time.Now()); err != nil || n != limit-1 {
			t.Fatalf("PromoUses after a cancel = %d, %v; want %d", n, err, limit-1)
		}
		var txUses int
		err := s.WithTx(t.Context(), func(tx order.Tx) error {
			var err error
			txUses, err = tx.PromoUses(t.Context(), "WELCOME10", time.Now())
			return err
		})
		if err != nil || txUses != limit-1 {
			t.Fatalf("Tx.PromoUses = %d, %v; want %d", txUses, err, limit-1)
		}
	})
}

func claimsOf(all []authz.Claims, o order.Order) authz.Claims {
	for _, c := range all {
		if c.ClientID == o.ClientID {
			return c
		}
	}
	return authz.Claims{}
}

func TestOrdersPerIPCountedUnderConcurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const limit, n = 3, 8
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{MaxOrdersPerIP: limit})
		claims := make([]authz.Claims, n)
		for i := range claims {
			claims[i] = buyer(t, s, fmt.Sprintf("ip%d@example.com", i))
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		held := 0
		for i := range n {
			wg.Go(func() {
				o, err := orders.Create(context.Background(), claims[i], standardMonthly("192.0.2.1"))
				if err != nil {
					t.Error(err)
					return
				}
				if o.Fraud != (o.Status == order.StatusFraud) {
					t.Errorf("order %s: fraud %v with status %s", o.ID, o.Fraud, o.Status)
				}
				if o.Fraud {
					mu.Lock()
					held++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if held != n-limit {
			t.Fatalf("%d of %d orders from one IP held, want %d (limit %d)", held, n, n-limit, limit)
		}
	})
}

func TestFraudOrderIsHeld(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{BannedDomains: []string{"spam.example"}})
		o, err := orders.Create(t.Context(), buyer(t, s, "x@spam.example"), standardMonthly("192.0.2.9"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Order(t.Context(), o.ID)
		if err != nil || !got.Fraud || got.Status != order.StatusFraud || got.Invoice.Status != order.InvoiceCancelled || got.Invoice.PaymentURL != "" {
			t.Fatalf("fraud order read back %+v, %v", got, err)
		}
	})
}

func TestFreeTrialQueuesProvisioningOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "trial@example.com")
		req := order.Request{Quote: pricing.Request{PID: 1}, IdempotencyKey: "trial", IP: "192.0.2.50"}
		o, err := orders.Create(t.Context(), claims, req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := orders.Create(t.Context(), claims, req); err != nil {
			t.Fatal(err)
		}
		got, err := s.Order(t.Context(), o.ID)
		if err != nil || got.Status != order.StatusPaid || got.Invoice.Status != order.InvoicePaid ||
			got.Invoice.TransactionID != "free:"+o.Invoice.ID || got.Invoice.PaymentURL != "" || got.Invoice.PaidAt.IsZero() {
			t.Fatalf("trial order read back %+v, %v", got, err)
		}
		j := mustJob(t, s, order.JobProvision+":"+o.ID)
		if j.Kind != order.JobProvision || j.Ref != o.ID || j.State != store.JobQueued {
			t.Fatalf("provisioning job = %+v", j)
		}
	})
}

func TestConcurrentSettlementsOfOneInvoiceSettleOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		o, err := orders.Create(t.Context(), buyer(t, s, "ana@example.com"), standardMonthly("192.0.2.60"))
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		var won []string
		reviewed := 0
		for i := range n {
			wg.Go(func() {
				txn := fmt.Sprintf("txn-%d", i)
				_, err := orders.Settle(context.Background(), o.Invoice.ID, txn)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won = append(won, txn)
				case errors.Is(err, order.ErrNeedsReview): // a second payment of a paid invoice
					reviewed++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if len(won) != 1 || reviewed != n-1 {
			t.Fatalf("settlements that won: %v, reviewed %d; want exactly one, the others reviewed", won, reviewed)
		}
		got, err := s.Order(t.Context(), o.ID)
		if err != nil || got.Status != order.StatusPaid || got.Invoice.Status != order.InvoicePaid || got.Invoice.TransactionID != won[0] {
			t.Fatalf("settled order %+v, %v; want paid by %s", got, err, won[0])
		}
		if j := mustJob(t, s, order.JobProvision+":"+o.ID); j.State != store.JobQueued {
			t.Fatalf("provisioning job %+v", j)
		}
	})
}

func TestATransactionIDSettlesOneInvoice(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "ana@example.com")
		const n = 6
		invoices := make([]string, n)
		for i := range invoices {
			o, err := orders.Create(t.Context(), claims, standardMonthly("192.0.2.70"))
			if err != nil {
				t.Fatal(err)
			}
			invoices[i] = o.Invoice.ID
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		settled := 0
		for _, inv := range invoices {
			wg.Go(func() {
				_, err := orders.Settle(context.Background(), inv, "txn-shared")
				switch {
				case err == nil:
					mu.Lock()
					settled++
					mu.Unlock()
				case !errors.Is(err, order.ErrAlreadySettled):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if settled != 1 {
			t.Fatalf("one transaction id settled %d invoices, want 1", settled)
		}
		unpaid := 0
		for _, inv := range invoices {
			o, err := s.InvoiceOrder(t.Context(), inv)
			if err != nil {
				t.Fatal(err)
			}
			if o.Invoice.Status == order.InvoiceUnpaid && o.Status == order.StatusPending && o.Invoice.TransactionID == "" {
				unpaid++
			}
		}
		if unpaid != n-1 {
			t.Fatalf("%d invoices left unpaid and untouched, want %d", unpaid, n-1)
		}
	})
}

func TestCancelRacingSettlementOneWins(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		claims := buyer(t, s, "ana@example.com")
		const n = 5
		for i := range n {
			o, err := orders.Create(t.Context(), claims, standardMonthly("192.0.2.80"))
			if err != nil {
				t.Fatal(err)
			}
			var cancelErr, settleErr error
			var wg sync.WaitGroup
			wg.Go(func() { _, cancelErr = orders.Cancel(context.Background(), claims, o.ID) })
			wg.Go(func() { _, settleErr = orders.Settle(context.Background(), o.Invoice.ID, fmt.Sprintf("txn-%d", i)) })
			wg.Wait()
			got, err := s.Order(t.Context(), o.ID)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case cancelErr == nil && errors.Is(settleErr, order.ErrNeedsReview):
				// The money of a cancelled order is set aside for a refund, never kept.
				if got.Status != order.StatusNeedsReview || got.Invoice.Status != order.InvoiceCancelled {
					t.Fatalf("cancel won but order is %s, invoice %s", got.Status, got.Invoice.Status)
				}
			case settleErr == nil && errors.Is(cancelErr, order.ErrNotPending):
				if got.Status != order.StatusPaid || got.Invoice.Status != order.InvoicePaid {
					t.Fatalf("settlement won but order is %s, invoice %s", got.Status, got.Invoice.Status)
				}
			default:
				t.Fatalf("cancel err %v, settle err %v: want exactly one to win", cancelErr, settleErr)
			}
		}
	})
}

func TestSetOrderStatusMovesOnlyFromGivenStates(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		o, err := orders.Create(t.Context(), buyer(t, s, "ana@example.com"), standardMonthly("192.0.2.90"))
		if err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			to   order.Status
			from []order.Status
			want bool
		}{
			{order.StatusActive, []order.Status{order.StatusPaid}, false},
			{order.StatusActive, nil, false},
			{order.StatusPaid, []order.Status{order.StatusFailed, order.StatusPending}, true},
			{order.StatusPaid, []order.Status{order.StatusPending}, false},
			{order.StatusProvisioning, []order.Status{order.StatusPaid}, true},
		}
		for _, st := range steps {
			moved, err := s.SetOrderStatus(t.Context(), o.ID, st.to, st.from...)
			if err != nil || moved != st.want {
				t.Fatalf("SetOrderStatus(%s from %v) = %v, %v; want %v", st.to, st.from, moved, err, st.want)
			}
		}
		got, _ := s.Order(t.Context(), o.ID)
		if got.Status != order.StatusProvisioning || !got.UpdatedAt.After(o.CreatedAt.Add(-time.Second)) {
			t.Fatalf("order %+v, want provisioning", got)
		}
		err = s.WithTx(t.Context(), func(tx order.Tx) error {
			moved, err := tx.SetOrderStatus(t.Context(), o.ID, order.StatusActive, order.StatusProvisioning)
			if err == nil && !moved {
				err = errors.New("did not move")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Order(t.Context(), o.ID); got.Status != order.StatusActive {
			t.Fatalf("status %s, want active", got.Status)
		}
	})
}

func TestFailedPaymentFailsOrderOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, limitedCatalog(t, 1), fraud.Rules{})
		req := standardMonthly("192.0.2.100")
		req.Quote.PromoCode = "WELCOME10"
		o, err := orders.Create(t.Context(), buyer(t, s, "ana@example.com"), req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := orders.Fail(t.Context(), o.Invoice.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := orders.Fail(t.Context(), o.Invoice.ID); !errors.Is(err, order.ErrAlreadySettled) {
			t.Fatalf("second Fail err = %v", err)
		}
		if _, err := orders.Settle(t.Context(), o.Invoice.ID, "late"); !errors.Is(err, order.ErrNeedsReview) {
			t.Fatalf("Settle after Fail err = %v, want the payment set aside for review", err)
		}
		got, _ := s.Order(t.Context(), o.ID)
		if got.Status != order.StatusNeedsReview || got.Invoice.Status != order.InvoiceFailed || got.Invoice.TransactionID != "" {
			t.Fatalf("failed order %+v", got)
		}
		// A failed order does not hold the promotion's only use.
		if n, err := s.PromoUses(t.Context(), "WELCOME10", time.Now()); err != nil || n != 0 {
			t.Fatalf("PromoUses = %d, %v; want 0", n, err)
		}
	})
}

func TestEnqueueInsideAnOrderTransactionRollsBack(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		boom := errors.New("boom")
		err := s.WithTx(t.Context(), func(tx order.Tx) error {
			if err := tx.Enqueue(t.Context(), "k", "r", "rolled-back", jobT0); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("WithTx err = %v, want the callback's", err)
		}
		if _, err := storetest.Inspect(s).JobByKey(t.Context(), "rolled-back"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("job of a rolled-back transaction: err = %v, want ErrNotFound", err)
		}
		err = s.WithTx(t.Context(), func(tx order.Tx) error { return tx.Enqueue(t.Context(), "k", "r", "kept", jobT0) })
		if err != nil {
			t.Fatal(err)
		}
		mustJob(t, s, "kept")
	})
}

// On PostgreSQL an order's rows go to the server with COMMIT (pipelined): a row that fails there
// must fail the whole transaction, and nothing of it may stay, as when it fails at once (SQLite).
func TestFailedOrderWriteFailsItsTransaction(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrders(t, s, catalog.Demo(), fraud.Rules{})
		o, err := orders.Create(t.Context(), buyer(t, s, "ana@example.com"), standardMonthly("203.0.113.30"))
		if err != nil {
			t.Fatal(err)
		}
		svc, err := s.Service(t.Context(), o.ServiceIDs[0])
		if err != nil {
			t.Fatal(err)
		}
		err = s.WithTx(t.Context(), func(tx order.Tx) error {
			if err := tx.Enqueue(t.Context(), "k", "r", "with-a-duplicate-order", jobT0); err != nil {
				return err
			}
			return tx.InsertOrder(t.Context(), o, []order.Service{svc}) // the same ids again
		})
		if err == nil {
			t.Fatal("inserting an order twice committed")
		}
		if _, err := storetest.Inspect(s).JobByKey(t.Context(), "with-a-duplicate-order"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("job of the failed transaction: err = %v, want ErrNotFound", err)
		}
		if got := ordersFrom(t, s, "203.0.113.30"); got != 1 {
			t.Fatalf("%d orders stored, want 1", got)
		}
	})
}

// Check reads, under its locks, the key's order with its services, the promotion's uses and the
// IP's orders, each only when asked.
func TestCheckReadsWhatItIsAskedFor(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		orders := newOrdersAt(t, s, catalog.Demo(), fraud.Rules{}, func() time.Time { return jobT0 }) // the store keeps microseconds
		claims := buyer(t, s, "ana@example.com")
		req := standardMonthly("203.0.113.40")
		req.IdempotencyKey, req.Quote.PromoCode = "check-me", "WELCOME10"
		o, err := orders.Create(t.Context(), claims, req)
		if err != nil {
			t.Fatal(err)
		}
		check := func(c order.Check) order.Checked {
			t.Helper()
			var got order.Checked
			if err := s.WithTx(t.Context(), func(tx order.Tx) error {
				var err error
				got, err = tx.Check(t.Context(), c)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}
		got := check(order.Check{ClientID: claims.ClientID, IdempotencyKey: "check-me", PromoCode: "WELCOME10", Now: jobT0,
			CountIP: true, IP: "203.0.113.40", Since: jobT0.Add(-time.Hour)})
		if got.Prev == nil || !reflect.DeepEqual(*got.Prev, o) || got.PromoUses != 1 || got.FromIP != 1 {
			t.Fatalf("Check = %+v (prev %+v), want the order, 1 use, 1 order from the IP", got, got.Prev)
		}
		// At its invoice's deadline the unpaid order no longer holds its use.
		if got = check(order.Check{ClientID: claims.ClientID, PromoCode: "WELCOME10", Now: o.Invoice.Deadline}); got.PromoUses != 0 {
			t.Fatalf("Check at the deadline = %+v, want 0 uses", got)
		}
		// The trials of the client and of the IP: a paid order is no trial.
		if got = check(order.Check{ClientID: claims.ClientID, Trial: true, IP: "203.0.113.40", TrialSince: jobT0.Add(-time.Hour)}); got.Trials != 0 || got.TrialsFromIP != 0 {
			t.Fatalf("Check of trials before one = %+v", got)
		}
		trialReq := order.Request{Quote: pricing.Request{PID: 1, Cycle: catalog.OneTime}, IP: "203.0.113.40"}
		if _, err := orders.Create(t.Context(), claims, trialReq); err != nil {
			t.Fatal(err)
		}
		if got = check(order.Check{ClientID: claims.ClientID, Trial: true, IP: "203.0.113.40", TrialSince: jobT0.Add(-time.Hour),
			TrialEmail: order.CanonicalEmail("Ana+again@Example.com")}); got.Trials != 1 || got.TrialsFromIP != 1 || got.TrialsOfEmail != 1 {
			t.Fatalf("Check of trials after one = %+v, want 1, 1 and 1", got)
		}
		if got = check(order.Check{ClientID: claims.ClientID, Trial: true, IP: "203.0.113.41", TrialSince: jobT0.Add(time.Hour)}); got.Trials != 1 || got.TrialsFromIP != 0 {
			t.Fatalf("Check of trials from another IP, after the window = %+v, want 1 and 0", got)
		}
		got = check(order.Check{ClientID: claims.ClientID, IdempotencyKey: "other-key", CountIP: true, IP: "203.0.113.40",
			Since: jobT0.Add(time.Hour)})
		if got.Prev != nil || got.PromoUses != 0 || got.FromIP != 0 {
			t.Fatalf("Check of an unused key, no promotion, a window after the order = %+v", got)
		}
	})
}

func TestReplicasShareIdempotencyAndJobs(t *testing.T) {
	// Two processes on one PostgreSQL database: each has its own pool and order service, as
	// two `streamcart serve` replicas behind a load balancer would.
	t.Parallel()
	db := storetest.PostgresDB(t)
	replicas := make([]store.Backend, 2)
	for i := range replicas {
		s, err := store.OpenPostgres(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		replicas[i] = s
	}
	claims := buyer(t, replicas[0], "ana@example.com")
	services := []*order.Orders{
		newOrders(t, replicas[0], catalog.Demo(), fraud.Rules{}),
		newOrders(t, replicas[1], catalog.Demo(), fraud.Rules{}),
	}
	req := standardMonthly("192.0.2.200")
	req.IdempotencyKey = "shared"
	const n = 20
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			o, err := services[i%2].Create(context.Background(), claims, req)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = o.ID
		})
	}
	wg.Wait()
	for i, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("request %d got order %q, request 0 got %q: want one order across replicas", i, id, ids[0])
		}
	}
	if got := ordersFrom(t, replicas[1], req.IP); got != 1 {
		t.Fatalf("%d orders stored, want 1", got)
	}

	const jobs = 60
	for i := range jobs {
		mustEnqueue(t, replicas[i%2], "k", fmt.Sprint(i), fmt.Sprintf("replica-job-%d", i), jobT0)
	}
	var mu sync.Mutex
	seen := map[int64]int{}
	for w := range 8 {
		wg.Go(func() {
			for {
				j, ok, err := replicas[w%2].ClaimJob(context.Background(), jobT0, jobT0, time.Hour)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				if j.Kind != "k" {
					continue // the order's own jobs
				}
				mu.Lock()
				seen[j.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != jobs {
		t.Fatalf("claimed %d distinct jobs across replicas, want %d", len(seen), jobs)
	}
	for id, c := range seen {
		if c != 1 {
			t.Fatalf("job %d claimed %d times", id, c)
		}
	}
	// A replica that dies holding a lease loses it to the other once it expires.
	mustEnqueue(t, replicas[0], "k", "orphan", "orphan", jobT0)
	dead, ok, err := replicas[0].ClaimJob(t.Context(), jobT0, jobT0, time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	replicas[0].Close()
	j, ok, err := replicas[1].ClaimJob(t.Context(), jobT0.Add(time.Minute+time.Microsecond), jobT0.Add(time.Minute+time.Microsecond), time.Minute)
	if err != nil || !ok || j.ID != dead.ID || j.Attempts != 2 {
		t.Fatalf("takeover by the other replica = %+v, %v, %v; want job %d attempt 2", j, ok, err, dead.ID)
	}
}

// Free trials are counted under a lock per client and per address: of concurrent trial orders
// one client gets one, and one address gets TrialsPerIP across its clients.
func TestTrialLimitsHoldUnderConcurrency(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		az, err := authz.NewAuthorizer()
		if err != nil {
			t.Fatal(err)
		}
		cat := catalog.Demo()
		orders := order.New(s, func() *catalog.Catalog { return cat }, []order.Gateway{payment.Sandbox{}}, az,
			order.Config{TrialsPerClient: 1, TrialsPerIP: 3}, slog.New(slog.DiscardHandler), nil)
		place := func(claims []authz.Claims, ip string, n int) (placed, refused int) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for i := range n {
				wg.Go(func() {
					_, err := orders.Create(context.Background(), claims[i%len(claims)],
						order.Request{Quote: pricing.Request{PID: 1, Cycle: catalog.OneTime}, IP: ip})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						placed++
					case errors.Is(err, order.ErrTrialUsed):
						refused++
					default:
						t.Error(err)
					}
				})
			}
			wg.Wait()
			return placed, refused
		}
		one := []authz.Claims{buyer(t, s, "one@example.com")}
		if placed, refused := place(one, "198.51.100.1", 8); placed != 1 || refused != 7 {
			t.Fatalf("one client, 8 concurrent trials: %d placed, %d refused; want 1 and 7", placed, refused)
		}
		many := make([]authz.Claims, 6)
		for i := range many {
			many[i] = buyer(t, s, fmt.Sprintf("ip%d@example.com", i))
		}
		if placed, refused := place(many, "198.51.100.2", 6); placed != 3 || refused != 3 {
			t.Fatalf("6 clients on one address: %d placed, %d refused; want 3 and 3", placed, refused)
		}
	})
}
