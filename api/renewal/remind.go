package renewal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
)

// JobTrialEnding is the kind of the job that mails a trial's buyer TrialNotice before the trial
// ends (ref: the service id; unique key trial-ending:SERVICE).
const JobTrialEnding = "trial-ending"

// TrialNotice is how long before a free trial ends its trial-ending mail goes: at once for a
// trial as short as that (the 24-hour trial).
const TrialNotice = 24 * time.Hour

// Notice is one mail to a buyer about a renewal or a trial.
type Notice struct {
	Kind    mail.Kind
	Order   order.Order // the renewal order, whose invoice the mail's link pays; for a trial, its order
	Service order.Service
	Due     time.Time // the renewal's due date (its period's start), or the trial's end
	Suspend time.Time // when the line is suspended unless the renewal is paid (renewal mails)
}

// Mailer writes and queues notices.
type Mailer interface {
	// Notify queues n's mail unless a mail of its kind was queued for its order already,
	// recording it at at (business time) in the same transaction as the message, so it goes
	// once whatever the number of replicas and runs; it reports whether it queued it now.
	Notify(ctx context.Context, n Notice, at time.Time) (bool, error)
}

// Open is a renewal whose invoice is still to pay.
type Open struct {
	Renewal
	Service  order.ServiceStatus // its service's status
	LastMail time.Time           // business time of the last renewal mail about it; zero: none
}

// RemindStore is what the reminders read.
type RemindStore interface {
	// OpenRenewals lists the renewals whose order is pending with its invoice unpaid (neither
	// paid nor cancelled), soonest due first.
	OpenRenewals(ctx context.Context) ([]Open, error)
	// TrialsEnding lists the active free trials that end after from and at or before to.
	TrialsEnding(ctx context.Context, from, to time.Time) ([]order.Service, error)
	Order(ctx context.Context, id string) (order.Order, error)
	Service(ctx context.Context, id string) (order.Service, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
}

// Reminders mails buyers about their open renewals and ending trials, each mail once.
type Reminders struct {
	store   RemindStore
	mailer  Mailer
	enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	grace   time.Duration
	log     *slog.Logger
	now     func() time.Time
}

// NewReminders returns the reminders; enqueue is the job queue's (it ignores a unique key
// enqueued before); now is the business clock, nil: real time.
func NewReminders(store RemindStore, mailer Mailer, enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error,
	cfg Config, log *slog.Logger, now func() time.Time) *Reminders {
	return &Reminders{store: store, mailer: mailer, enqueue: enqueue, grace: cfg.grace(), log: log, now: clock.OrReal(now)}
}

// invoiced mails the invoice of a renewal order just placed. A failure is logged only: the order
// stands, and the next daily run sends the invoice mail of a renewal that has none.
func (m *Reminders) invoiced(ctx context.Context, o order.Order, s order.Service, rn Renewal) {
	if m == nil || o.Status != order.StatusPending {
		return
	}
	n := Notice{Kind: mail.KindRenewalInvoice, Order: o, Service: s, Due: rn.PeriodStart, Suspend: rn.PeriodStart.Add(m.grace)}
	if _, err := m.mailer.Notify(ctx, n, m.now().UTC()); err != nil {
		m.log.Error("renewal invoice mail not queued", "order", o.ID, "service", s.ID, "err", err)
	}
}

// paid mails the buyer of a renewal just applied (svc runs to its new due date) what was paid,
// with the invoice's PDF, once per order. A failure is logged only: the renewal stands.
func (m *Reminders) paid(ctx context.Context, o order.Order, svc order.Service) {
	if m == nil {
		return
	}
	n := Notice{Kind: mail.KindRenewalPaid, Order: o, Service: svc, Due: svc.NextDueDate}
	if _, err := m.mailer.Notify(ctx, n, m.now().UTC()); err != nil {
		m.log.Error("renewal paid mail not queued", "order", o.ID, "service", svc.ID, "err", err)
	}
}

// run is the daily job's part: Run when reminders are set.
func (m *Reminders) run(ctx context.Context) error {
	if m == nil {
		return nil
	}
	_, err := m.Run(ctx)
	return err
}

// point is a moment a renewal mail is due.
type point struct {
	kind mail.Kind
	at   time.Time
}

// latest is the mail an open renewal is due at now: of the points passed (its invoice's creation;
// the start of the business day three days before its due date, of the due date, of the day
// after), the latest, if it is later than the last mail sent about it. So a daily run sends each
// point's mail on its day, and a clock that jumped past several points sends only the latest,
// never a burst of stale ones, nor an earlier point's mail after a later one.
func latest(o Open, now time.Time) (mail.Kind, bool) {
	day := o.PeriodStart.UTC().Truncate(24 * time.Hour)
	points := []point{
		{mail.KindRenewalInvoice, o.CreatedAt},
		{mail.KindRenewalReminder, day.Add(-3 * 24 * time.Hour)},
		{mail.KindRenewalDue, day},
		{mail.KindRenewalOverdue, day.Add(24 * time.Hour)},
	}
	var best point
	for _, p := range points {
		if !p.at.After(now) && (best.kind == "" || p.at.After(best.at)) {
			best = p
		}
	}
	if best.kind == "" || !best.at.After(o.LastMail) {
		return "", false
	}
	return best.kind, true
}

// Run sends, at the business time, the mail each open renewal is due (see latest) and the
// trial-ending mail of the trials ending within TrialNotice that have none (the trial's job sends
// it; this catches one whose job was lost). It answers how many mails it queued. Replicas and
// repeated runs send each mail once: Mailer records it with the message. A renewal whose
// service is no longer renewable (terminated, cancelled) gets nothing.
func (m *Reminders) Run(ctx context.Context) (int, error) {
	now := m.now().UTC()
	open, err := m.store.OpenRenewals(ctx)
	if err != nil {
		return 0, fmt.Errorf("renewal reminders: %w", err)
	}
	sent := 0
	var errs []error
	count := func(ok bool, err error) {
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			sent++
		}
	}
	for _, o := range open {
		switch o.Service {
		case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended:
		default:
			continue
		}
		kind, ok := latest(o, now)
		if !ok {
			continue
		}
		count(m.renewalMail(ctx, kind, o.Renewal, now))
	}
	trials, err := m.store.TrialsEnding(ctx, now, now.Add(TrialNotice))
	if err != nil {
		errs = append(errs, err)
	}
	for _, s := range trials {
		count(m.trialMail(ctx, s, now))
	}
	if err := errors.Join(errs...); err != nil {
		return sent, fmt.Errorf("renewal reminders: %w", err)
	}
	return sent, nil
}

func (m *Reminders) renewalMail(ctx context.Context, kind mail.Kind, rn Renewal, now time.Time) (bool, error) {
	o, err := m.store.Order(ctx, rn.OrderID)
	if err != nil {
		return false, fmt.Errorf("%s %s: %w", kind, rn.OrderID, err)
	}
	s, err := m.store.Service(ctx, rn.ServiceID)
	if err != nil {
		return false, fmt.Errorf("%s %s: %w", kind, rn.OrderID, err)
	}
	n := Notice{Kind: kind, Order: o, Service: s, Due: rn.PeriodStart, Suspend: rn.PeriodStart.Add(m.grace)}
	ok, err := m.mailer.Notify(ctx, n, now)
	if err != nil {
		m.log.Error("renewal mail not queued", "kind", kind, "order", o.ID, "err", err)
		return false, fmt.Errorf("%s %s: %w", kind, rn.OrderID, err)
	}
	return ok, nil
}

// TrialStarted schedules the trial-ending mail of each trial line of o (whose lines are ready):
// a job due TrialNotice before the trial ends, on business time, so the mail comes before the end
// although the sweep is daily.
func (m *Reminders) TrialStarted(ctx context.Context, o order.Order) error {
	services, err := m.store.OrderServices(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("trial-ending mail of %s: %w", o.ID, err)
	}
	for _, s := range services {
		if !s.Trial || s.ExpiresAt.IsZero() {
			continue
		}
		if err := m.enqueue(ctx, JobTrialEnding, s.ID, JobTrialEnding+":"+s.ID, s.ExpiresAt.Add(-TrialNotice)); err != nil {
			return fmt.Errorf("trial-ending mail of %s: %w", s.ID, err)
		}
	}
	return nil
}

// TrialEnding is the JobTrialEnding handler: the trial-ending mail of the service the job names,
// unless the trial has ended or is no longer an active trial (converted, expired).
func (m *Reminders) TrialEnding(ctx context.Context, j job.Job) error {
	s, err := m.store.Service(ctx, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("trial-ending mail of %s: %w", j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("trial-ending mail of %s: %w", j.Ref, err)
	}
	_, err = m.trialMail(ctx, s, m.now().UTC())
	return err
}

func (m *Reminders) trialMail(ctx context.Context, s order.Service, now time.Time) (bool, error) {
	if !s.Trial || s.Status != order.ServiceActive || s.ExpiresAt.IsZero() || !now.Before(s.ExpiresAt) {
		return false, nil
	}
	o, err := m.store.Order(ctx, s.OrderID)
	if err != nil {
		return false, fmt.Errorf("trial-ending mail of %s: %w", s.ID, err)
	}
	ok, err := m.mailer.Notify(ctx, Notice{Kind: mail.KindTrialEnding, Order: o, Service: s, Due: s.ExpiresAt}, now)
	if err != nil {
		return false, fmt.Errorf("trial-ending mail of %s: %w", s.ID, err)
	}
	return ok, nil
}
