package renewal_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/renewal"
)

// fakeStore holds one open renewal and one trial.
type fakeStore struct {
	open   []renewal.Open
	trials []order.Service
}

func (f *fakeStore) OpenRenewals(context.Context) ([]renewal.Open, error) { return f.open, nil }
func (f *fakeStore) TrialsEnding(_ context.Context, from, to time.Time) ([]order.Service, error) {
	var out []order.Service
	for _, s := range f.trials {
		if s.ExpiresAt.After(from) && !s.ExpiresAt.After(to) {
			out = append(out, s)
		}
	}
	return out, nil
}
func (f *fakeStore) Order(_ context.Context, id string) (order.Order, error) {
	return order.Order{ID: id, Invoice: order.Invoice{ID: "inv_" + id}}, nil
}
func (f *fakeStore) Service(_ context.Context, id string) (order.Service, error) {
	for _, s := range f.trials {
		if s.ID == id {
			return s, nil
		}
	}
	return order.Service{ID: id}, nil
}
func (f *fakeStore) OrderServices(_ context.Context, orderID string) ([]order.Service, error) {
	var out []order.Service
	for _, s := range f.trials {
		if s.OrderID == orderID {
			out = append(out, s)
		}
	}
	return out, nil
}

// fakeMailer records the notices it was given, each kind once per order as the real one does.
type fakeMailer struct{ sent []renewal.Notice }

func (m *fakeMailer) Notify(_ context.Context, n renewal.Notice, _ time.Time) (bool, error) {
	for _, s := range m.sent {
		if s.Order.ID == n.Order.ID && s.Kind == n.Kind {
			return false, nil
		}
	}
	m.sent = append(m.sent, n)
	return true, nil
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Run sends the latest point passed, unless a mail about the renewal went out at or after it.
func TestRemindersSendTheLatestPointOnly(t *testing.T) {
	due := time.Date(2026, 12, 24, 15, 30, 0, 0, time.UTC)
	day := time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)
	invoiced := due.Add(-7 * 24 * time.Hour)
	cases := []struct {
		name     string
		now      time.Time
		created  time.Time
		lastMail time.Time
		status   order.ServiceStatus
		want     mail.Kind // "" for none
	}{
		{"invoice mail lost: sent again", invoiced.Add(time.Hour), invoiced, time.Time{}, order.ServiceActive, mail.KindRenewalInvoice},
		{"invoice sent, no point yet", day.Add(-3*24*time.Hour - time.Minute), invoiced, invoiced, order.ServiceActive, ""},
		{"three days before", day.Add(-3 * 24 * time.Hour), invoiced, invoiced, order.ServiceActive, mail.KindRenewalReminder},
		{"reminder sent, same day", day.Add(-2*24*time.Hour - time.Hour), invoiced, day.Add(-3 * 24 * time.Hour), order.ServiceActive, ""},
		{"due day, before the due time", day.Add(time.Hour), invoiced, day.Add(-3 * 24 * time.Hour), order.ServiceActive, mail.KindRenewalDue},
		{"day after", day.Add(24 * time.Hour), invoiced, day.Add(time.Hour), order.ServiceOverdue, mail.KindRenewalOverdue},
		{"jump past every point", day.Add(30 * time.Hour), invoiced, invoiced.Add(time.Second), order.ServiceOverdue, mail.KindRenewalOverdue},
		{"overdue sent, days later", day.Add(4 * 24 * time.Hour), invoiced, day.Add(25 * time.Hour), order.ServiceSuspended, ""},
		{"invoiced after due: its mail is the latest", day.Add(50 * time.Hour), day.Add(49 * time.Hour), day.Add(49*time.Hour + time.Second), order.ServiceOverdue, ""},
		{"line terminated", day.Add(24 * time.Hour), invoiced, invoiced, order.ServiceTerminated, ""},
		{"line cancelled", day.Add(24 * time.Hour), invoiced, invoiced, order.ServiceCancelled, ""},
	}
	for _, tc := range cases {
		st := &fakeStore{open: []renewal.Open{{Renewal: renewal.Renewal{OrderID: "ord_r", ServiceID: "svc_1", PeriodStart: due,
			PeriodEnd: due.AddDate(0, 1, 0), CycleMonths: 1, CreatedAt: tc.created}, Service: tc.status, LastMail: tc.lastMail}}}
		m := &fakeMailer{}
		r := renewal.NewReminders(st, m, nil, renewal.Config{GraceDays: 5}, quiet, func() time.Time { return tc.now })
		n, err := r.Run(t.Context())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got mail.Kind
		if len(m.sent) > 0 {
			got = m.sent[0].Kind
		}
		if got != tc.want || n != len(m.sent) || len(m.sent) > 1 {
			t.Errorf("%s: sent %v (%d), want %q", tc.name, m.sent, n, tc.want)
			continue
		}
		if got != "" && (!m.sent[0].Due.Equal(due) || !m.sent[0].Suspend.Equal(due.Add(5*24*time.Hour)) || m.sent[0].Order.ID != "ord_r") {
			t.Errorf("%s: notice %+v, want due %s, suspended 5 days later", tc.name, m.sent[0], due)
		}
	}
}

// A trial's mail is scheduled TrialNotice before its end and sent by its job only while the
// trial is active and not over.
func TestTrialEndingJob(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	trial := order.Service{ID: "svc_t", OrderID: "ord_t", Trial: true, Status: order.ServiceActive, ExpiresAt: now.Add(3 * 24 * time.Hour)}
	st := &fakeStore{trials: []order.Service{trial, {ID: "svc_p", OrderID: "ord_t", Status: order.ServiceActive}}}
	m := &fakeMailer{}
	type queued struct {
		kind, ref, key string
		at             time.Time
	}
	var jobs []queued
	clock := now
	r := renewal.NewReminders(st, m, func(_ context.Context, kind, ref, key string, at time.Time) error {
		jobs = append(jobs, queued{kind, ref, key, at})
		return nil
	}, renewal.Config{}, quiet, func() time.Time { return clock })
	if err := r.TrialStarted(t.Context(), order.Order{ID: "ord_t"}); err != nil {
		t.Fatal(err)
	}
	want := queued{renewal.JobTrialEnding, "svc_t", "trial-ending:svc_t", trial.ExpiresAt.Add(-renewal.TrialNotice)}
	if len(jobs) != 1 || jobs[0] != want {
		t.Fatalf("jobs %+v, want only %+v", jobs, want)
	}
	// Run late (the worker was down until after the trial ended): nothing.
	clock = trial.ExpiresAt.Add(time.Minute)
	if err := r.TrialEnding(t.Context(), job.Job{Ref: "svc_t"}); err != nil || len(m.sent) != 0 {
		t.Fatalf("after the end: %v, sent %+v", err, m.sent)
	}
	clock = want.at
	if err := r.TrialEnding(t.Context(), job.Job{Ref: "svc_t"}); err != nil || len(m.sent) != 1 || m.sent[0].Kind != mail.KindTrialEnding || !m.sent[0].Due.Equal(trial.ExpiresAt) {
		t.Fatalf("on time: %v, sent %+v", err, m.sent)
	}
	// The daily run's catch-up finds it sent.
	if n, err := r.Run(t.Context()); err != nil || n != 0 {
		t.Fatalf("daily run: %d %v", n, err)
	}
}
