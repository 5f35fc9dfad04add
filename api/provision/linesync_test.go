package provision_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/provision"
)

// serviceStore answers its services, all the line sync reads.
type serviceStore struct {
	services map[string]order.Service
}

func (s serviceStore) Service(_ context.Context, id string) (order.Service, error) {
	if v, ok := s.services[id]; ok {
		return v, nil
	}
	return order.Service{}, order.ErrNotFound
}

// panelLog records the panel calls, and fails the first down of them (a panel that is down).
type panelLog struct {
	panel.Manager
	calls []string
	down  int
}

func (p *panelLog) call(c string) error {
	if p.down > 0 {
		p.down--
		return fmt.Errorf("%s: %w", c, panel.ErrUnavailable)
	}
	p.calls = append(p.calls, c)
	return nil
}
func (p *panelLog) Extend(_ context.Context, ref string, until time.Time) error {
	return p.call(ref + " expires " + until.Format(time.DateOnly))
}
func (p *panelLog) SetMaxConnections(_ context.Context, ref string, n int) error {
	return p.call(fmt.Sprintf("%s plays %d", ref, n))
}
func (p *panelLog) SetEnabled(_ context.Context, ref string, on bool) error {
	return p.call(fmt.Sprintf("%s on %v", ref, on))
}

// SyncLine gives the panel the service as stored: its expiry, its connections, and on unless
// Suspended; a Cancelled line is switched off; a terminated one is left alone; a panel that is down fails the job, which the
// worker retries, and the next run gets through.
func TestSyncLineBringsThePanelInStep(t *testing.T) {
	due := time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC)
	st := serviceStore{services: map[string]order.Service{
		"svc_active":    {ID: "svc_active", Status: order.ServiceActive, ExpiresAt: due, MaxConnections: 3},
		"svc_suspended": {ID: "svc_suspended", Status: order.ServiceSuspended, ExpiresAt: due, MaxConnections: 1},
		"svc_gone":      {ID: "svc_gone", Status: order.ServiceTerminated, ExpiresAt: due, MaxConnections: 1},
		"svc_refunded":  {ID: "svc_refunded", Status: order.ServiceCancelled, ExpiresAt: due, MaxConnections: 1},
	}}
	for _, tc := range []struct {
		ref   string
		down  int
		want  []string
		fails bool
	}{
		{ref: "svc_active", want: []string{"svc_active expires 2026-12-20", "svc_active plays 3", "svc_active on true"}},
		{ref: "svc_suspended", want: []string{"svc_suspended expires 2026-12-20", "svc_suspended plays 1", "svc_suspended on false"}},
		{ref: "svc_gone"},
		{ref: "svc_refunded", want: []string{"svc_refunded on false"}},
		{ref: "svc_suspended", down: 1, fails: true},
	} {
		lines := &panelLog{down: tc.down}
		sync := lineSync(st, lines)
		err := sync(t.Context(), job.Job{Kind: order.JobLineSync, Ref: tc.ref})
		if tc.fails {
			if err == nil || !errors.Is(err, panel.ErrUnavailable) || job.IsPermanent(err) {
				t.Fatalf("%s with the panel down: %v, want a retryable failure", tc.ref, err)
			}
			// The worker's retry, the panel back.
			if err := sync(t.Context(), job.Job{Kind: order.JobLineSync, Ref: tc.ref, Attempts: 2}); err != nil {
				t.Fatalf("%s retried: %v", tc.ref, err)
			}
			tc.want = []string{"svc_suspended expires 2026-12-20", "svc_suspended plays 1", "svc_suspended on false"}
		} else if err != nil {
			t.Fatalf("%s: %v", tc.ref, err)
		}
		if !slices.Equal(lines.calls, tc.want) {
			t.Fatalf("%s: panel calls %q, want %q", tc.ref, lines.calls, tc.want)
		}
	}
	lines := &panelLog{}
	if err := lineSync(st, lines)(t.Context(), job.Job{Kind: order.JobLineSync, Ref: "svc_unknown"}); !job.IsPermanent(err) {
		t.Fatalf("unknown service: %v, want a permanent failure", err)
	}
}

// lineSync is the line-sync job as the shop wires it: the kinds' table, whose plan home syncs
// the lines on the panel.
func lineSync(st serviceStore, lines panel.Manager) job.Handler {
	return order.Homes{order.KindPlan: provision.NewPlans(nil, lines)}.LineSync(st)
}
