package provision_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/provision"
)

// memStore holds orders and their services in memory.
type memStore struct {
	orders   map[string]order.Order
	services map[string][]order.Service
}

func (s *memStore) Order(_ context.Context, id string) (order.Order, error) {
	o, ok := s.orders[id]
	if !ok {
		return order.Order{}, order.ErrNotFound
	}
	return o, nil
}

func (s *memStore) OrderServices(_ context.Context, orderID string) ([]order.Service, error) {
	return slices.Clone(s.services[orderID]), nil
}

func (s *memStore) UpdateService(_ context.Context, svc order.Service) error {
	list := s.services[svc.OrderID]
	i := slices.IndexFunc(list, func(v order.Service) bool { return v.ID == svc.ID })
	if i < 0 {
		return order.ErrNotFound
	}
	list[i] = svc
	return nil
}

func (s *memStore) SetOrderStatus(_ context.Context, id string, to order.Status, from ...order.Status) (bool, error) {
	o := s.orders[id]
	if !slices.Contains(from, o.Status) {
		return false, nil
	}
	o.Status = to
	s.orders[id] = o
	return true, nil
}

func (s *memStore) FinishFulfilment(ctx context.Context, id string) (bool, error) {
	return s.SetOrderStatus(ctx, id, order.StatusActive, order.StatusProvisioning)
}

func (s *memStore) CancelOrderLines(_ context.Context, orderID string, _ time.Time) (int, error) {
	n := 0
	for i, v := range s.services[orderID] {
		if v.Status == order.ServiceActive {
			s.services[orderID][i].Status = order.ServiceCancelled
			n++
		}
	}
	return n, nil
}

// fakePanel keeps lines by ref (idempotent, as the contract says) and fails as told.
type fakePanel struct {
	lines    map[string]panel.Line
	calls    int
	fail     []error // the next calls' errors, in order
	onCreate func()  // runs with each call: something happening meanwhile
}

func (p *fakePanel) CreateLine(_ context.Context, l panel.Line) (panel.Line, error) {
	p.calls++
	if p.onCreate != nil {
		p.onCreate()
	}
	if len(p.fail) > 0 {
		err := p.fail[0]
		p.fail = p.fail[1:]
		return panel.Line{}, err
	}
	if old, ok := p.lines[l.Ref]; ok {
		return old, nil
	}
	p.lines[l.Ref] = l
	return l, nil
}

func (p *fakePanel) Line(_ context.Context, ref string) (panel.Line, error) {
	l, ok := p.lines[ref]
	if !ok {
		return panel.Line{}, panel.ErrNotFound
	}
	return l, nil
}

func (p *fakePanel) ServerHostname() string                               { return "tv.example" }
func (p *fakePanel) Playlist(context.Context, panel.Line) ([]byte, error) { return nil, nil }

// notes records the buyer's mails.
type notes struct{ received, ready []string }

func (n *notes) OrderReceived(_ context.Context, o order.Order) error {
	n.received = append(n.received, o.ID)
	return nil
}

func (n *notes) LinesReady(_ context.Context, o order.Order) error {
	n.ready = append(n.ready, o.ID)
	return nil
}

var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

type fixture struct {
	store *memStore
	panel *fakePanel
	notes *notes
	p     *provision.Provisioner
}

func newFixture(status order.Status, amount int64, svcs ...order.Service) fixture {
	st := &memStore{orders: map[string]order.Order{"ord_1": {ID: "ord_1", Status: status,
		Invoice: order.Invoice{Amount: money.Money{Amount: amount, Currency: "EUR"}}}}, services: map[string][]order.Service{}}
	for _, s := range svcs {
		s.OrderID = "ord_1"
		st.services["ord_1"] = append(st.services["ord_1"], s)
	}
	f := fixture{store: st, panel: &fakePanel{lines: map[string]panel.Line{}}, notes: &notes{}}
	f.p = provision.New(st, f.panel, catalog.Demo, "sc", f.notes, slog.New(slog.DiscardHandler), func() time.Time { return now })
	return f
}

func (f fixture) run(t *testing.T) error {
	t.Helper()
	return f.p.Handle(t.Context(), job.Job{Ref: "ord_1"})
}

var (
	monthly = order.Service{ID: "svc_m", PID: 2, BillingCycle: "monthly", MaxConnections: 2}
	trial   = order.Service{ID: "svc_t", PID: 1, BillingCycle: "onetime", Trial: true, MaxConnections: 1}
)

// A paid order gets one working line per service, with the billing cycle's term (a day for a
// trial), and the buyer hears once that it was received and once that its lines work; a repeat
// of the job changes nothing.
func TestProvision(t *testing.T) {
	f := newFixture(order.StatusPaid, 1299, monthly, trial)
	if err := f.run(t); err != nil {
		t.Fatal(err)
	}
	if got := f.store.orders["ord_1"].Status; got != order.StatusActive {
		t.Fatalf("order %s, want active", got)
	}
	wantTerm := map[string][2]time.Time{"svc_m": {now.AddDate(0, 1, 0), now.AddDate(0, 1, 0)}, "svc_t": {now.Add(provision.TrialLength), {}}}
	for _, s := range f.store.services["ord_1"] {
		if s.Status != order.ServiceActive || !strings.HasPrefix(s.Username, "sc") || s.Password == "" || s.ServerHostname != "tv.example" {
			t.Errorf("service %s: %+v, want an active line on tv.example", s.ID, s)
		}
		if w := wantTerm[s.ID]; !s.ExpiresAt.Equal(w[0]) || !s.NextDueDate.Equal(w[1]) {
			t.Errorf("service %s expires %v, due %v; want %v, %v", s.ID, s.ExpiresAt, s.NextDueDate, w[0], w[1])
		}
		if l := f.panel.lines[s.ID]; l.Username != s.Username || l.MaxConnections != s.MaxConnections || l.Trial != s.Trial {
			t.Errorf("panel line %+v does not match service %+v", l, s)
		}
	}
	if !slices.Equal(f.notes.received, []string{"ord_1"}) || !slices.Equal(f.notes.ready, []string{"ord_1"}) {
		t.Fatalf("mails: received %v, ready %v; want one each", f.notes.received, f.notes.ready)
	}
	calls := f.panel.calls
	if err := f.run(t); err != nil {
		t.Fatal(err)
	}
	if f.panel.calls != calls || len(f.notes.received) != 1 || len(f.notes.ready) != 1 {
		t.Fatalf("the repeat called the panel %d more times and sent %v/%v", f.panel.calls-calls, f.notes.received, f.notes.ready)
	}
}

// A panel outage leaves the order provisioning with its credentials stored, and the retry makes
// the same line; a username the panel already knows is forgotten and the retry draws another.
func TestProvisionRetries(t *testing.T) {
	t.Run("panel unavailable", func(t *testing.T) {
		f := newFixture(order.StatusPaid, 1299, monthly)
		f.panel.fail = []error{panel.ErrUnavailable}
		if err := f.run(t); !errors.Is(err, panel.ErrUnavailable) || job.IsPermanent(err) {
			t.Fatalf("Handle = %v, want a retryable panel error", err)
		}
		before := f.store.services["ord_1"][0]
		if f.store.orders["ord_1"].Status != order.StatusProvisioning || before.Username == "" || before.Status == order.ServiceActive {
			t.Fatalf("after the outage: order %s, service %+v", f.store.orders["ord_1"].Status, before)
		}
		if err := f.run(t); err != nil {
			t.Fatal(err)
		}
		after := f.store.services["ord_1"][0]
		if after.Username != before.Username || after.Password != before.Password || after.Status != order.ServiceActive {
			t.Fatalf("the retry made %+v, want the stored credentials %s active", after, before.Username)
		}
		if len(f.notes.received) != 1 {
			t.Fatalf("order received %d times, want once", len(f.notes.received))
		}
	})
	t.Run("username taken", func(t *testing.T) {
		f := newFixture(order.StatusPaid, 1299, monthly)
		f.panel.fail = []error{panel.ErrUsernameTaken}
		if err := f.run(t); !errors.Is(err, panel.ErrUsernameTaken) {
			t.Fatalf("Handle = %v, want username taken", err)
		}
		if s := f.store.services["ord_1"][0]; s.Username != "" || s.Password != "" {
			t.Fatalf("the taken username is kept: %+v", s)
		}
		if err := f.run(t); err != nil {
			t.Fatal(err)
		}
		if s := f.store.services["ord_1"][0]; s.Username == "" || s.Status != order.ServiceActive {
			t.Fatalf("after the retry: %+v", s)
		}
	})
}

// Orders that must never get lines are left alone, a free order sends no "received" mail, and an
// unknown order fails for good.
func TestProvisionSkips(t *testing.T) {
	for _, st := range []order.Status{order.StatusCancelled, order.StatusFraud, order.StatusFailed, order.StatusPending} {
		f := newFixture(st, 1299, monthly)
		if err := f.run(t); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		if f.panel.calls != 0 || f.store.orders["ord_1"].Status != st {
			t.Errorf("%s: %d panel calls, order now %s", st, f.panel.calls, f.store.orders["ord_1"].Status)
		}
	}
	f := newFixture(order.StatusPaid, 0, trial)
	if err := f.run(t); err != nil {
		t.Fatal(err)
	}
	if len(f.notes.received) != 0 || len(f.notes.ready) != 1 {
		t.Fatalf("free order: received %v, ready %v; want only ready", f.notes.received, f.notes.ready)
	}
	err := f.p.Handle(t.Context(), job.Job{Ref: "ord_none"})
	if !errors.Is(err, order.ErrNotFound) || !job.IsPermanent(err) {
		t.Fatalf("unknown order: %v, want a permanent not found", err)
	}
}

// An order refunded in full while its lines were being made (the refund's take-back ran before
// they existed) has them cancelled once made; one refunded in part keeps them.
func TestProvisionOfAnOrderRefundedMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		to   order.Status
		want order.ServiceStatus
	}{
		{order.Status("refunded"), order.ServiceCancelled},
		{order.StatusCancelled, order.ServiceCancelled},
		{order.Status("partially_refunded"), order.ServiceActive},
	} {
		f := newFixture(order.StatusPaid, 1299, monthly)
		f.panel.onCreate = func() {
			o := f.store.orders["ord_1"]
			o.Status = tc.to
			f.store.orders["ord_1"] = o
		}
		if err := f.run(t); err != nil {
			t.Fatal(err)
		}
		if got := f.store.services["ord_1"][0].Status; got != tc.want {
			t.Errorf("order %s during provisioning: line %s, want %s", tc.to, got, tc.want)
		}
		if len(f.notes.ready) != 0 {
			t.Errorf("order %s during provisioning: lines-ready mail sent", tc.to)
		}
	}
}
