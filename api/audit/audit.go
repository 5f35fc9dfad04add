// Package audit records who did what to a service, when, and how it went: a buyer's session, or
// an operator of the seller's console.
package audit

import (
	"context"
	"log/slog"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/clock"
)

// Results.
const (
	ResultOK     = "ok"
	ResultFailed = "failed"
)

// Entry is one recorded action.
type Entry struct {
	ID        int64
	ClientID  int64
	SessionID string
	// Operator is the email of the console operator who acted; "" for a buyer's own action.
	Operator string
	Action   string // restart, recreate, terminate, mac, upsell, reseller-credit, …
	Target   string // the service id
	Result   string // ResultOK or ResultFailed
	Detail   string // the new value, or why it failed
	IP       string // the client's address, kept for console sign-ins (refused or not)
	At       time.Time
	// Args are the detail in parts, the wording first (console.AuditArgs lists them), so a
	// console words it in its operator's language; nil when the detail has none (a failure's
	// error, a value an operator typed, an entry written before parts were kept).
	Args []string
}

// Store keeps the log.
type Store interface {
	InsertAudit(ctx context.Context, e Entry) error
	// ListAudit returns the newest entries first, for target when it is not empty.
	ListAudit(ctx context.Context, target string, limit int) ([]Entry, error)
}

// Log writes entries.
type Log struct {
	store Store
	log   *slog.Logger
	now   func() time.Time
}

// New returns the audit log; now is the business clock the entries are dated by, nil: real time.
func New(store Store, log *slog.Logger, now func() time.Time) *Log {
	return &Log{store: store, log: log, now: clock.OrReal(now)}
}

// Record writes what claims' session did to target: err nil is a success, anything else a failure
// whose text is kept (the log is for the shop, never shown to buyers). A write failure is logged:
// the action already happened and must not be reported as failed.
func (l *Log) Record(ctx context.Context, claims authz.Claims, action, target, detail string, err error) {
	l.write(ctx, Entry{ClientID: claims.ClientID, SessionID: claims.SessionID, Action: action, Target: target, Detail: detail}, err)
}

// RecordOperator writes what a console operator did to target (an order, service, client, job,
// mail or operator id), like Record.
func (l *Log) RecordOperator(ctx context.Context, operator, action, target, detail string, err error) {
	l.write(ctx, Entry{Operator: operator, Action: action, Target: target, Detail: detail}, err)
}

// RecordParts is Record with the detail's parts kept beside its English text (dropped when the
// action failed: the detail is then the error).
func (l *Log) RecordParts(ctx context.Context, claims authz.Claims, action, target, detail string, args []string, err error) {
	l.write(ctx, Entry{ClientID: claims.ClientID, SessionID: claims.SessionID, Action: action, Target: target, Detail: detail, Args: args}, err)
}

// RecordOperatorParts is RecordOperator with the detail's parts kept beside its English text.
func (l *Log) RecordOperatorParts(ctx context.Context, operator, action, target, detail string, args []string, err error) {
	l.write(ctx, Entry{Operator: operator, Action: action, Target: target, Detail: detail, Args: args}, err)
}

// ActionSignInFailed is a refused console sign-in: its target is operator:<email tried>, its
// detail the reason (operator.Reason…), never the password.
// The wordings of an entry's Args written with it (RecordParts), each with its values after it;
// amounts are in minor units with their currency, dates YYYY-MM-DD. console.AuditArgs lists the
// ones read back from older entries' details.
//
//	line-change      [charge (now, next-renewal, free), reason, plan from, plan to, cycle from,
//	                 cycle to, connections from, connections to, due from, due to, amount now,
//	                 recurring, new recurring, currency, days left] (an operator's change)
//	change-applied   [order, change] (a change charged now, once paid)
//	payment-refund   [order, amount, currency, reason, "hand" or the provider, refund id or reference]
//	payment-accept   [order, amount, currency, expected amount, expected currency, reason]
//	reject-refund    [reason, "refunded" or "to-refund-by-hand", amount, currency]
//	upsell           [order, extra connections, max connections]
//	reseller-credit  [order, credits, balance]
//	line-drift       [panel's value, shop's value, repair] (values: present, absent, enabled,
//	                 disabled, none, a date-time, a number, a MAC)
//	job              [kind, reference] (job-retry, job-cancel)
const (
	WordLineChange     = "line-change"
	WordChangeApplied  = "change-applied"
	WordPaymentRefund  = "payment-refund"
	WordPaymentAccept  = "payment-accept"
	WordRejectRefund   = "reject-refund"
	WordUpsell         = "upsell"
	WordResellerCredit = "reseller-credit"
	WordLineDrift      = "line-drift"
	WordJob            = "job"
)

const ActionSignInFailed = "console-signin-failed"

// ActionSignIn is a console sign-in that succeeded: its target is operator:<email>, its address in
// IP (as a refused one's), its detail empty.
const ActionSignIn = "console-signin"

// RecordSignIn writes operator's console sign-in from ip: the address goes in IP, where the
// console's Address column and GET /admin/audit?ip= read it, never in the detail.
func (l *Log) RecordSignIn(ctx context.Context, operator, ip string) {
	l.write(ctx, Entry{Operator: operator, Action: ActionSignIn, Target: "operator:" + operator, IP: ip}, nil)
}

// RecordSignInFailure writes a refused console sign-in as email from ip. Nobody proved who acted,
// so the entry names no operator.
func (l *Log) RecordSignInFailure(ctx context.Context, email, ip, reason string) {
	e := Entry{Action: ActionSignInFailed, Target: "operator:" + email, Detail: reason, IP: ip}
	e.Result, e.At = ResultFailed, l.now().UTC()
	if werr := l.store.InsertAudit(context.WithoutCancel(ctx), e); werr != nil {
		l.log.Error("audit write failed", "action", e.Action, "target", e.Target, "err", werr)
	}
}

func (l *Log) write(ctx context.Context, e Entry, err error) {
	e.Result, e.At = ResultOK, l.now().UTC()
	if err != nil {
		e.Result, e.Detail, e.Args = ResultFailed, err.Error(), nil
	}
	if werr := l.store.InsertAudit(context.WithoutCancel(ctx), e); werr != nil {
		l.log.Error("audit write failed", "action", e.Action, "target", e.Target, "err", werr)
	}
}

// List returns the newest entries first.
func (l *Log) List(ctx context.Context, target string, limit int) ([]Entry, error) {
	return l.store.ListAudit(ctx, target, limit)
}
