package linedrift_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

var t0 = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// shop is a store on one back end with services and their lines on the built-in panel.
type shop struct {
	st      store.Backend
	builtin *panel.Builtin
	mailed  []string
	audited []string
}

func (s *shop) NewCredentials(_ context.Context, o order.Order) error {
	s.mailed = append(s.mailed, o.ID)
	return nil
}

func (s *shop) RecordOperatorParts(_ context.Context, op, action, target, _ string, _ []string, err error) {
	s.audited = append(s.audited, fmt.Sprintf("%s %s %s %v", op, action, target, err == nil))
}

func (s *shop) reconciler() *linedrift.Reconciler {
	return linedrift.New(linedrift.Config{Store: s.st, Lines: s.builtin, Catalog: catalog.Demo, Prefix: "sc", Notify: s, Audit: s,
		Now: func() time.Time { return t0 }})
}

// addService stores an order with one service of status, its line made on the panel as sold.
func (s *shop) addService(t *testing.T, id string, status order.ServiceStatus, mac string) order.Service {
	t.Helper()
	ctx := t.Context()
	c, _, err := s.st.EnsureClient(ctx, "buyer@example.com")
	if err != nil {
		t.Fatal(err)
	}
	o := order.Order{ID: "ord_" + id, ClientID: c.ID, Email: "buyer@example.com", Status: order.StatusActive, Kind: order.KindPlan,
		CreatedAt: t0, UpdatedAt: t0, Invoice: order.Invoice{ID: "inv_" + id, Status: order.InvoicePaid, Amount: money.Money{Amount: 999, Currency: "EUR"}}}
	svc := order.Service{ID: "svc_" + id, ClientID: c.ID, PID: 2, Name: "Standard", BillingCycle: "monthly", Status: status, MaxConnections: 2, CreatedAt: t0}
	if err := s.st.WithTx(ctx, func(tx order.Tx) error { return tx.InsertOrder(ctx, o, []order.Service{svc}) }); err != nil {
		t.Fatal(err)
	}
	svc.OrderID = o.ID
	svc.Username, svc.Password, svc.MACAddress = "sc"+id, "pw"+id, mac
	svc.ExpiresAt, svc.NextDueDate = t0.AddDate(0, 1, 0), t0.AddDate(0, 1, 0)
	if err := s.st.UpdateService(ctx, svc); err != nil {
		t.Fatal(err)
	}
	on := status != order.ServiceSuspended && status != order.ServiceExpired
	if _, err := s.builtin.CreateLine(ctx, panel.Line{Ref: svc.ID, Username: svc.Username, Password: svc.Password,
		MaxConnections: 2, ExpiresAt: svc.ExpiresAt, Enabled: on, MAC: mac}); err != nil {
		t.Fatal(err)
	}
	return svc
}

func newShop(t *testing.T, b storetest.Backend) *shop {
	st := b.Open(t)
	return &shop{st: st, builtin: panel.NewBuiltin(st, "tv.example", func() time.Time { return t0 })}
}

// kinds is the report's drifts as "service kind action", sorted.
func kinds(rep linedrift.Report) []string {
	var out []string
	for _, d := range rep.Drifts {
		out = append(out, d.ServiceID+" "+d.Kind+" "+d.Action)
	}
	sort.Strings(out)
	return out
}

// Lines deleted, disabled, enabled against a suspension, shortened, with the wrong connections
// or MAC are each repaired toward the service and recorded (drift rows, audit); a line no order
// explains is listed and kept; the next run finds nothing more, and lists the unexplained line
// again without recording it twice.
func TestReconcileRepairsDriftTowardWhatWasPaid(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		s := newShop(t, b)
		deleted := s.addService(t, "del", order.ServiceActive, "")
		disabled := s.addService(t, "off", order.ServiceActive, "")
		suspended := s.addService(t, "sus", order.ServiceSuspended, "")
		short := s.addService(t, "short", order.ServiceActive, "")
		conns := s.addService(t, "conn", order.ServiceActive, "")
		mac := s.addService(t, "mac", order.ServiceActive, "00:1A:79:00:00:01")
		fine := s.addService(t, "fine", order.ServiceOverdue, "")
		if _, err := s.builtin.CreateLine(ctx, panel.Line{Ref: "seller_own", Username: "friend", Password: "x", MaxConnections: 1, Enabled: true}); err != nil {
			t.Fatal(err)
		}
		must(t, s.builtin.Delete(ctx, deleted.ID))
		must(t, s.builtin.SetEnabled(ctx, disabled.ID, false))
		must(t, s.builtin.SetEnabled(ctx, suspended.ID, true))
		must(t, s.builtin.Extend(ctx, short.ID, t0.AddDate(0, 0, 1)))
		must(t, s.builtin.SetMaxConnections(ctx, conns.ID, 9))
		must(t, s.builtin.SetMAC(ctx, mac.ID, "00:1A:79:66:66:66"))

		rep, err := s.reconciler().Run(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			" unexplained listed",
			"svc_conn connections connections-set",
			"svc_del missing recreated",
			"svc_mac mac mac-set",
			"svc_off disabled enabled",
			"svc_short expiry expiry-set",
			"svc_sus enabled disabled",
		}
		if got := kinds(rep); !slices.Equal(got, want) {
			t.Fatalf("drifts\n got %q\nwant %q", got, want)
		}
		if rep.Checked != 7 {
			t.Fatalf("checked %d services, want 7", rep.Checked)
		}
		for _, svc := range []order.Service{deleted, disabled, suspended, short, conns, mac, fine} {
			l, err := s.builtin.Line(ctx, svc.ID)
			if err != nil {
				t.Fatalf("%s: %v", svc.ID, err)
			}
			on := svc.Status != order.ServiceSuspended
			if l.Username != svc.Username || l.Password != svc.Password || l.Enabled != on || !l.ExpiresAt.Equal(svc.ExpiresAt) ||
				l.MaxConnections != svc.MaxConnections || l.MAC != svc.MACAddress {
				t.Errorf("%s after the run: %+v, want the service %+v", svc.ID, l, svc)
			}
		}
		if _, err := s.builtin.Line(ctx, "seller_own"); err != nil {
			t.Fatalf("the unexplained line was touched: %v", err)
		}
		if len(s.audited) != 6 || len(s.mailed) != 0 {
			t.Fatalf("audited %q, mailed %q; want six repairs, no mail", s.audited, s.mailed)
		}
		counts, err := s.st.DriftCounts(ctx)
		if err != nil || counts[linedrift.KindUnexplained] != 1 || counts[linedrift.KindMissing] != 1 || len(counts) != 7 {
			t.Fatalf("drift counts %v, %v", counts, err)
		}

		again, err := s.reconciler().Run(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(again); !slices.Equal(got, []string{" unexplained listed"}) {
			t.Fatalf("second run: %q, want only the unexplained line listed again", got)
		}
		page, err := s.st.DriftPage(ctx, 0, 50)
		if err != nil || len(page) != 7 {
			t.Fatalf("drift records: %d, %v; want 7 (no drift recorded twice)", len(page), err)
		}
	})
}

// A deleted line whose username another line took meanwhile gets new credentials, stored on the
// service, and the buyer is mailed (a link to the credentials page).
func TestReconcileGivesNewCredentialsWhenTheUsernameIsTaken(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		s := newShop(t, b)
		svc := s.addService(t, "gone", order.ServiceActive, "")
		must(t, s.builtin.Delete(ctx, svc.ID))
		if _, err := s.builtin.CreateLine(ctx, panel.Line{Ref: "squatter", Username: svc.Username, Password: "x", MaxConnections: 1, Enabled: true}); err != nil {
			t.Fatal(err)
		}
		rep, err := s.reconciler().Run(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(rep); !slices.Equal(got, []string{" unexplained listed", "svc_gone missing new-credentials"}) {
			t.Fatalf("drifts %q", got)
		}
		stored, err := s.st.Service(ctx, svc.ID)
		if err != nil {
			t.Fatal(err)
		}
		l, err := s.builtin.Line(ctx, svc.ID)
		if err != nil || stored.Username == svc.Username || l.Username != stored.Username || l.Password != stored.Password {
			t.Fatalf("service %s/%s, line %+v, %v; want a new line under the service's new credentials", stored.Username, stored.Password, l, err)
		}
		if !slices.Equal(s.mailed, []string{svc.OrderID}) {
			t.Fatalf("mailed %q, want the order's buyer once", s.mailed)
		}
	})
}

// A dry run reports the drift and changes nothing: not the panel, not the records.
func TestReconcileDryRunChangesNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		s := newShop(t, b)
		svc := s.addService(t, "del", order.ServiceActive, "")
		off := s.addService(t, "off", order.ServiceActive, "")
		must(t, s.builtin.Delete(ctx, svc.ID))
		must(t, s.builtin.SetEnabled(ctx, off.ID, false))
		rep, err := s.reconciler().Run(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(rep); !slices.Equal(got, []string{"svc_del missing none", "svc_off disabled none"}) || !rep.DryRun {
			t.Fatalf("dry run: %q", got)
		}
		if _, err := s.builtin.Line(ctx, svc.ID); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("the dry run recreated the line: %v", err)
		}
		if l, _ := s.builtin.Line(ctx, off.ID); l.Enabled {
			t.Fatal("the dry run enabled the line")
		}
		if page, _ := s.st.DriftPage(ctx, 0, 50); len(page) != 0 || len(s.audited) != 0 {
			t.Fatalf("the dry run recorded %d drifts and %d audit entries", len(page), len(s.audited))
		}
	})
}

// Concurrent runs (replicas, the CLI) do one run: the others answer ErrRunning and change
// nothing, so one drift is repaired and recorded once; after it the lease is free again.
func TestConcurrentReconcilesDoOneRun(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		s := newShop(t, b)
		var svcs []order.Service
		for i := range 10 {
			svc := s.addService(t, fmt.Sprint(i), order.ServiceActive, "")
			must(t, s.builtin.SetMaxConnections(ctx, svc.ID, 7))
			svcs = append(svcs, svc)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ran, busy := 0, 0
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := linedrift.New(linedrift.Config{Store: s.st, Lines: s.builtin, Now: func() time.Time { return t0 }})
				_, err := r.Run(ctx, false)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ran++
				case errors.Is(err, linedrift.ErrRunning):
					busy++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		page, err := s.st.DriftPage(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) != len(svcs) {
			t.Fatalf("%d runs, %d refused: %d drifts recorded for %d drifted lines; want each once", ran, busy, len(page), len(svcs))
		}
		if _, err := s.reconciler().Run(ctx, false); err != nil {
			t.Fatalf("a run after the others: %v", err)
		}
	})
}

// A lease held by a run that died runs out and the next run takes it.
func TestLeaseOfADeadRunRunsOut(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		ctx := t.Context()
		st := b.Open(t)
		if ok, err := st.TakeLease(ctx, "x", "dead", t0, t0.Add(time.Minute)); err != nil || !ok {
			t.Fatalf("first take: %v, %v", ok, err)
		}
		if ok, _ := st.TakeLease(ctx, "x", "other", t0.Add(30*time.Second), t0.Add(2*time.Minute)); ok {
			t.Fatal("a held lease was taken")
		}
		if ok, _ := st.TakeLease(ctx, "x", "dead", t0.Add(30*time.Second), t0.Add(2*time.Minute)); !ok {
			t.Fatal("the holder could not renew its lease")
		}
		if ok, _ := st.TakeLease(ctx, "x", "other", t0.Add(3*time.Minute), t0.Add(4*time.Minute)); !ok {
			t.Fatal("a lease that ran out was not taken")
		}
		must(t, st.DropLease(ctx, "x", "dead")) // no longer its: nothing happens
		if ok, _ := st.TakeLease(ctx, "x", "third", t0.Add(3*time.Minute), t0.Add(4*time.Minute)); ok {
			t.Fatal("the former holder's drop freed the new holder's lease")
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
