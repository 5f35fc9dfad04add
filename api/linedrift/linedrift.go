// Package linedrift keeps the panel in step with what was paid. Lines change on a panel behind
// the shop's back (an operator deletes or disables one by hand, a panel restore brings back an
// old expiry): a reconciliation walks every line the shop believes Active, Overdue, Suspended or
// Expired, compares it with the panel (exists, enabled, expiry, max connections, MAC) and repairs
// the panel toward the service as stored, recording each drift (the audit log, the console's
// "Line drift" view, streamcart_line_drift_total). Lines on the panel that no order explains are
// listed, never deleted: they may be the seller's own.
//
// A run holds a lease (one run at a time across replicas and the CLI); the periodic job
// (JobReconcile, job.Every) gives each period one run whatever the number of replicas.
package linedrift

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/streamcart/streamcart/api/audit"
	"log/slog"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
)

// JobReconcile is the periodic reconciliation's job kind (unique key line-reconcile:START).
const JobReconcile = "line-reconcile"

// DefaultEvery is how often the reconciliation runs when STREAMCART_RECONCILE_EVERY is unset.
const DefaultEvery = 15 * time.Minute

// Kinds of drift: what the panel showed against what the service says.
const (
	KindMissing     = "missing"     // the line is gone from the panel
	KindDisabled    = "disabled"    // off on the panel, on in the shop
	KindEnabled     = "enabled"     // on on the panel, off in the shop (suspended, expired)
	KindExpiry      = "expiry"      // another expiry
	KindConnections = "connections" // another connection limit
	KindMAC         = "mac"         // another device's MAC address
	KindUnexplained = "unexplained" // a panel line no order explains: listed, never deleted
)

// Kinds lists every kind (the metric's series start at zero).
var Kinds = []string{KindMissing, KindDisabled, KindEnabled, KindExpiry, KindConnections, KindMAC, KindUnexplained}

// Actions: what a run did about a drift.
const (
	ActionRecreated      = "recreated"       // made again with the same credentials
	ActionNewCredentials = "new-credentials" // the panel refused the old username: a new line, the buyer mailed
	ActionEnabled        = "enabled"
	ActionDisabled       = "disabled"
	ActionExpirySet      = "expiry-set"
	ActionConnectionsSet = "connections-set"
	ActionMACSet         = "mac-set"
	ActionListed         = "listed" // an unexplained line: left as it is
	ActionNone           = "none"   // a dry run: found, nothing done
	ActionFailed         = "failed" // the repair failed (Error says why); the next run tries again
)

// ErrRunning means another reconciliation holds the lease: this one did nothing.
var ErrRunning = errors.New("linedrift: another reconciliation is running")

// Drift is one difference found between a service and its panel line, and what was done.
type Drift struct {
	ID        int64
	RunID     string
	ServiceID string // "" for an unexplained line
	Username  string
	Kind      string
	Want      string // the shop's value
	Found     string // the panel's value
	Action    string
	Error     string
	At        time.Time
}

// Report is what one run found and did.
type Report struct {
	RunID   string
	DryRun  bool
	Checked int // services compared with the panel
	Drifts  []Drift
}

// Store is what the reconciliation reads and writes.
type Store interface {
	// LineServices lists the services that have a line the shop believes exists: Active, Overdue,
	// Suspended or Expired, with a username; oldest first.
	LineServices(ctx context.Context) ([]order.Service, error)
	// Explained reports whether a service (any status) has ref as its id or, when ref is "",
	// username as its username.
	Explained(ctx context.Context, ref, username string) (bool, error)
	// UpdateService writes a service's line fields (new credentials).
	UpdateService(ctx context.Context, s order.Service) error
	Order(ctx context.Context, id string) (order.Order, error)
	// TakeLease holds the named lease for holder until until, when it is free, ran out before
	// now, or is holder's already (a renewal); it reports whether holder has it.
	TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error)
	// DropLease frees the lease if holder has it.
	DropLease(ctx context.Context, name, holder string) error
	// RecordDrift keeps d (the console's "Line drift" view).
	RecordDrift(ctx context.Context, d Drift) error
	// DriftListed reports whether an unexplained line with username was recorded already.
	DriftListed(ctx context.Context, username string) (bool, error)
}

// Lines is the panel as the reconciliation uses it.
type Lines interface {
	panel.Panel
	panel.Manager
}

// Notifier tells a buyer that the line was made again under new credentials (the mail links
// the page that shows them once signed in; it never carries them).
type Notifier interface {
	NewCredentials(ctx context.Context, o order.Order) error
}

// Auditor records each repair (audit.Log.RecordOperatorParts).
type Auditor interface {
	RecordOperatorParts(ctx context.Context, operator, action, target, detail string, args []string, err error)
}

// AuditOperator is the actor of the reconciliation's audit entries.
const AuditOperator = "system:line-reconcile"

// Config is the reconciliation's wiring; every field but Store and Lines may be empty.
type Config struct {
	Store   Store
	Lines   Lines
	Catalog func() *catalog.Catalog // a recreated line's bouquets; nil: none
	Prefix  string                  // prefix of a new username
	Notify  Notifier
	Audit   Auditor
	Log     *slog.Logger
	Now     func() time.Time // business time (the drift's date); nil: real time
	// LeaseNow is the lease's clock (real time, as job leases are); nil: time.Now.
	LeaseNow func() time.Time
}

// Reconciler runs reconciliations.
type Reconciler struct{ c Config }

// New returns the reconciler of c.
func New(c Config) *Reconciler {
	c.Now = clock.OrReal(c.Now)
	c.LeaseNow = clock.OrReal(c.LeaseNow)
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{c: c}
}

// leaseName names the one reconciliation lease; leaseLife is how long a run holds it without
// renewing (each line renews it, so only a dead run's lease runs out).
const (
	leaseName = "line-reconcile"
	leaseLife = 5 * time.Minute
)

// Job is the periodic reconciliation every period (job.Every): every replica starts it, the
// queue's unique key runs each period once.
func (r *Reconciler) Job(enqueue func(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error, every time.Duration) job.Every {
	return job.Every{Kind: JobReconcile, Period: every, Enqueue: enqueue, Now: r.c.Now, Run: func(ctx context.Context, _ time.Time) error {
		rep, err := r.Run(ctx, false)
		if errors.Is(err, ErrRunning) {
			return nil // a run from the CLI covers this period
		}
		if len(rep.Drifts) > 0 {
			r.c.Log.Warn("line drift repaired", "run", rep.RunID, "checked", rep.Checked, "drifts", len(rep.Drifts))
		}
		return err
	}}
}

// Run reconciles once; dryRun finds and reports without changing the panel or recording
// anything. ErrRunning when another run holds the lease. A panel that cannot be reached stops
// the run with what it found so far.
func (r *Reconciler) Run(ctx context.Context, dryRun bool) (Report, error) {
	rep := Report{RunID: newRunID(), DryRun: dryRun}
	if !dryRun {
		ok, err := r.c.Store.TakeLease(ctx, leaseName, rep.RunID, r.c.LeaseNow(), r.c.LeaseNow().Add(leaseLife))
		if err != nil {
			return rep, fmt.Errorf("line reconcile: %w", err)
		}
		if !ok {
			return rep, ErrRunning
		}
		defer r.c.Store.DropLease(context.WithoutCancel(ctx), leaseName, rep.RunID)
	}
	services, err := r.c.Store.LineServices(ctx)
	if err != nil {
		return rep, fmt.Errorf("line reconcile: %w", err)
	}
	seenRefs, seenUsers := map[string]bool{}, map[string]bool{}
	renewed := r.c.LeaseNow()
	for _, s := range services {
		if !dryRun && r.c.LeaseNow().Sub(renewed) > leaseLife/5 {
			if ok, err := r.c.Store.TakeLease(ctx, leaseName, rep.RunID, r.c.LeaseNow(), r.c.LeaseNow().Add(leaseLife)); err != nil || !ok {
				return rep, fmt.Errorf("line reconcile: lease lost: %w", errors.Join(err, ErrRunning))
			}
			renewed = r.c.LeaseNow()
		}
		seenRefs[s.ID], seenUsers[s.Username] = true, true
		rep.Checked++
		if err := r.service(ctx, &rep, s); err != nil {
			return rep, err
		}
	}
	return rep, r.unexplained(ctx, &rep, seenRefs, seenUsers)
}

// service compares one service with its panel line and repairs the differences.
func (r *Reconciler) service(ctx context.Context, rep *Report, s order.Service) error {
	on := s.Status != order.ServiceSuspended && s.Status != order.ServiceExpired
	l, err := r.c.Lines.Line(ctx, s.ID)
	if errors.Is(err, panel.ErrNotFound) {
		d := Drift{ServiceID: s.ID, Username: s.Username, Kind: KindMissing, Want: "present", Found: "absent"}
		r.repair(ctx, rep, d, func() (string, error) { return r.recreate(ctx, s, on) })
		return nil
	}
	if err != nil {
		return fmt.Errorf("line reconcile: %s: %w", s.ID, err)
	}
	if l.Enabled != on {
		d := Drift{ServiceID: s.ID, Username: s.Username, Kind: KindDisabled, Want: "enabled", Found: "disabled", Action: ActionEnabled}
		if !on {
			d.Kind, d.Want, d.Found, d.Action = KindEnabled, "disabled", "enabled", ActionDisabled
		}
		r.repair(ctx, rep, d, func() (string, error) { return d.Action, r.c.Lines.SetEnabled(ctx, s.ID, on) })
	}
	if !sameTime(l.ExpiresAt, s.ExpiresAt) {
		d := Drift{ServiceID: s.ID, Username: s.Username, Kind: KindExpiry, Want: fmtTime(s.ExpiresAt), Found: fmtTime(l.ExpiresAt)}
		r.repair(ctx, rep, d, func() (string, error) { return ActionExpirySet, r.c.Lines.Extend(ctx, s.ID, s.ExpiresAt) })
	}
	if l.MaxConnections != s.MaxConnections {
		d := Drift{ServiceID: s.ID, Username: s.Username, Kind: KindConnections, Want: strconv.Itoa(s.MaxConnections), Found: strconv.Itoa(l.MaxConnections)}
		r.repair(ctx, rep, d, func() (string, error) {
			return ActionConnectionsSet, r.c.Lines.SetMaxConnections(ctx, s.ID, s.MaxConnections)
		})
	}
	if mr, ok := r.c.Lines.(panel.MACReporter); ok && mr.ReportsMAC() && l.MAC != s.MACAddress {
		d := Drift{ServiceID: s.ID, Username: s.Username, Kind: KindMAC, Want: orNone(s.MACAddress), Found: orNone(l.MAC)}
		r.repair(ctx, rep, d, func() (string, error) { return ActionMACSet, r.c.Lines.SetMAC(ctx, s.ID, s.MACAddress) })
	}
	return nil
}

// repair runs fix for d unless the run is dry, then records and reports d.
func (r *Reconciler) repair(ctx context.Context, rep *Report, d Drift, fix func() (string, error)) {
	d.RunID, d.At = rep.RunID, r.c.Now().UTC()
	if rep.DryRun {
		d.Action = ActionNone
		rep.Drifts = append(rep.Drifts, d)
		return
	}
	action, err := fix()
	d.Action = action
	if err != nil {
		d.Action, d.Error = ActionFailed, err.Error()
		r.c.Log.Error("line drift not repaired", "service", d.ServiceID, "kind", d.Kind, "err", err)
	}
	r.record(ctx, rep, d, err)
}

// record keeps d in the drift records and the audit log, and in the report.
func (r *Reconciler) record(ctx context.Context, rep *Report, d Drift, err error) {
	if rerr := r.c.Store.RecordDrift(context.WithoutCancel(ctx), d); rerr != nil {
		r.c.Log.Error("line drift not recorded", "service", d.ServiceID, "kind", d.Kind, "err", rerr)
	}
	if r.c.Audit != nil && d.Kind != KindUnexplained {
		r.c.Audit.RecordOperatorParts(ctx, AuditOperator, "line-drift-"+d.Kind, d.ServiceID,
			fmt.Sprintf("panel had %s, shop has %s: %s", d.Found, d.Want, d.Action), []string{audit.WordLineDrift, d.Found, d.Want, d.Action}, err)
	}
	rep.Drifts = append(rep.Drifts, d)
}

// recreate makes a deleted line again with the service's credentials, switched on or off as the
// service says; a panel that refuses the username (another line took it) gets a new line under
// new credentials, stored on the service, and the buyer is mailed.
func (r *Reconciler) recreate(ctx context.Context, s order.Service, on bool) (string, error) {
	l := panel.Line{Ref: s.ID, Username: s.Username, Password: s.Password, MaxConnections: s.MaxConnections,
		ExpiresAt: s.ExpiresAt, Trial: s.Trial, Enabled: true, MAC: s.MACAddress}
	if r.c.Catalog != nil {
		if p, ok := r.c.Catalog().Product(s.PID); ok {
			// A line made again costs what a new one does: a panel out of credits refuses it
			// (panel.ErrNoCredits), recorded as failed and tried again by the next run.
			l.Bouquets, l.Credits = p.Bouquets, p.CreditCost(catalog.Cycle(s.BillingCycle))
		}
	}
	action := ActionRecreated
	made, err := r.c.Lines.CreateLine(ctx, l)
	if errors.Is(err, panel.ErrUsernameTaken) {
		action = ActionNewCredentials
		l.Username, l.Password = panel.NewUsername(r.c.Prefix), panel.NewPassword()
		if made, err = r.c.Lines.CreateLine(ctx, l); err != nil {
			return ActionFailed, err
		}
		s.Username, s.Password = made.Username, made.Password
		if err := r.c.Store.UpdateService(ctx, s); err != nil {
			return ActionFailed, err
		}
		if r.c.Notify != nil {
			if o, err := r.c.Store.Order(ctx, s.OrderID); err != nil {
				r.c.Log.Error("new credentials not mailed", "service", s.ID, "err", err)
			} else if err := r.c.Notify.NewCredentials(ctx, o); err != nil {
				r.c.Log.Error("new credentials not mailed", "service", s.ID, "err", err)
			}
		}
	}
	if err != nil {
		return ActionFailed, err
	}
	if !on {
		if err := r.c.Lines.SetEnabled(ctx, s.ID, false); err != nil {
			return ActionFailed, err
		}
	}
	return action, nil
}

// unexplained lists the panel's lines that no service explains, each recorded once.
func (r *Reconciler) unexplained(ctx context.Context, rep *Report, refs, users map[string]bool) error {
	lister, ok := r.c.Lines.(panel.Lister)
	if !ok {
		return nil
	}
	lines, err := lister.Lines(ctx)
	if errors.Is(err, panel.ErrCannotList) {
		return nil // nothing to look through (Xtream UI)
	}
	if err != nil {
		return fmt.Errorf("line reconcile: list the panel's lines: %w", err)
	}
	for _, l := range lines {
		// A line the panel knows our ref of is explained by it alone (another line may have
		// taken a service's old username); one without by its username.
		if (l.Ref != "" && refs[l.Ref]) || (l.Ref == "" && users[l.Username]) {
			continue
		}
		known, err := r.c.Store.Explained(ctx, l.Ref, l.Username)
		if err != nil {
			return fmt.Errorf("line reconcile: %w", err)
		}
		if known {
			continue
		}
		d := Drift{RunID: rep.RunID, Username: l.Username, Kind: KindUnexplained, Want: "an order", Found: "a line", Action: ActionListed, At: r.c.Now().UTC()}
		if rep.DryRun {
			d.Action = ActionNone
			rep.Drifts = append(rep.Drifts, d)
			continue
		}
		listed, err := r.c.Store.DriftListed(ctx, l.Username)
		if err != nil {
			return fmt.Errorf("line reconcile: %w", err)
		}
		if listed {
			rep.Drifts = append(rep.Drifts, d) // reported again, recorded once
			continue
		}
		r.record(ctx, rep, d, nil)
	}
	return nil
}

// sameTime compares expiries to the second: panels keep unix seconds.
func sameTime(a, b time.Time) bool {
	return a.Truncate(time.Second).Equal(b.Truncate(time.Second))
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func newRunID() string {
	b := make([]byte, 8)
	rand.Read(b) // never fails since Go 1.24
	return "rec_" + hex.EncodeToString(b)
}
