// Package store keeps Streamcart's state in SQLite (the embedded default, one file) or in
// PostgreSQL (several replicas on one database). Both back ends share every query and every
// migration; a dialect (dialect.go) holds the few differences, and one conformance suite runs
// against both.
//
// One file per aggregate, named after it (order.go, service.go, invoice.go, refund.go,
// renewal.go, card.go, job.go, mail.go, webhook.go, account.go, signin.go, operator.go,
// reseller.go, upsell.go, affiliate.go, audit.go, catalog.go, panel.go …); the machinery
// apart: db.go (pools, transactions, migrations), querier.go (prepared statements),
// dialect.go, group.go (SQLite group commit), pipeline.go (PostgreSQL pipelining).
package store

import (
	"context"
	"errors"
	"github.com/streamcart/streamcart/api/clock"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/affiliate"
	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/linedrift"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/orderwatch"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/planchange"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/reseller"
	"github.com/streamcart/streamcart/api/revenue"
	"github.com/streamcart/streamcart/api/signin"
	"github.com/streamcart/streamcart/api/tax"
	"github.com/streamcart/streamcart/api/upsell"
	"github.com/streamcart/streamcart/api/whmcs/whmcsorder"
)

// timeFormat is how every timestamp is stored: sortable text, UTC, fixed width.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// fmtTime is t in timeFormat ("" for the zero time), written digit by digit: time.Format
// parses its layout on every call, and an order formats about ten times (issue 24: 2 % of an
// order's instructions). Years outside 0–9999 go through Format.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(timeFormat)
	}
	hour, minute, sec := t.Clock()
	var b [len(timeFormat)]byte
	digits := func(at, v, n int) {
		for i := at + n - 1; i >= at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	digits(0, year, 4)
	b[4] = '-'
	digits(5, int(month), 2)
	b[7] = '-'
	digits(8, day, 2)
	b[10] = 'T'
	digits(11, hour, 2)
	b[13] = ':'
	digits(14, minute, 2)
	b[16] = ':'
	digits(17, sec, 2)
	b[19] = '.'
	digits(20, t.Nanosecond()/1000, 6)
	b[26] = 'Z'
	return string(b[:])
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeFormat, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// Backend is everything the shop needs from its database; *SQLite and *Postgres both are one.
// What only tests read (Dialect, JobByKey, WebhookByEvent …) is on those types, not here:
// storetest.Inspect reaches it.
type Backend interface {
	order.Store
	order.GuardedStore
	account.Store
	job.Store
	panel.LineStore
	panel.CreditStore
	panel.LineCatalog
	linedrift.Store
	// DriftCounts counts the recorded line drifts by kind; DriftPage lists them newest first.
	DriftCounts(ctx context.Context) (map[string]int, error)
	DriftPage(ctx context.Context, before int64, limit int) ([]linedrift.Drift, error)
	provision.Store
	payment.Inbox
	payment.Refs
	payment.Quotes
	AfterSale
	Cards
	Operators
	console.Store
	console.ActionStore
	refund.Store
	revenue.Store
	console.ServiceStore
	refund.CreditNotes
	tax.Store
	// The order streams' changes (listen.go): versions and the listener.
	orderwatch.Source
	// The order streams' places across replicas (streams.go; httpapi.StreamLeases).
	TakeStreamLease(ctx context.Context, session, id string, max int, now, until time.Time) (bool, error)
	RenewStreamLease(ctx context.Context, id string, until time.Time) error
	DropStreamLease(ctx context.Context, id string) error
	whmcsorder.Store
	whmcsorder.HomeStore
	whmcsorder.LinesStore

	// RevokedSince lists the sessions signed out at or after since (api/sessioncache polls it).
	RevokedSince(ctx context.Context, since time.Time) ([]string, error)
	// PendingInvoices lists unpaid invoices of gateways due before before (reconciliation).
	PendingInvoices(ctx context.Context, before time.Time, gateways []string, limit int) ([]string, error)
	// Reviews lists the payments under review, newest first (streamcart payments review).
	Reviews(ctx context.Context, limit int) ([]order.Review, error)
	// ReviewsIn lists the payments to review in a state ("": all), newest first.
	ReviewsIn(ctx context.Context, state string, limit int) ([]order.Review, error)

	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	Jobs
	Pruner

	Setting(ctx context.Context, key string) ([]byte, error)
	PutSetting(ctx context.Context, key string, value []byte) error
	SettingOnce(ctx context.Context, key string, value []byte) ([]byte, error)
	UpdateSetting(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error)
	// MoveTestClock is UpdateSetting for the test clock's offset that keeps the move (ClockMoves).
	MoveTestClock(ctx context.Context, key string, change func(old []byte, ok bool) ([]byte, error)) ([]byte, error)
	// ClockMoves lists the test clock's moves, oldest first.
	ClockMoves(ctx context.Context) (clock.Moves, error)

	Ping(ctx context.Context) error
	Close() error
}

var (
	_ Backend = (*SQLite)(nil)
	_ Backend = (*Postgres)(nil)
)

// OpenURL opens the back end db names: a postgres:// (or postgresql://) URL opens PostgreSQL,
// anything else is the path of a SQLite file. Pending migrations are applied either way.
func OpenURL(ctx context.Context, db string) (Backend, error) {
	if IsPostgresURL(db) {
		return OpenPostgres(ctx, db)
	}
	return Open(ctx, db)
}

// IsPostgresURL reports whether db names a PostgreSQL database rather than a SQLite file.
func IsPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// AfterSale is what the after-sale packages need; both back ends are one.
type AfterSale interface {
	signin.Store
	mail.Store
	audit.Store
	upsell.Store
	planchange.Store
	reseller.Store
	reseller.LedgerStore
	renewal.Store
	renewal.RemindStore
	// QueueReminder stores a renewal or trial mail with its once-per-order-and-kind record.
	QueueReminder(ctx context.Context, orderID, kind string, sentAt time.Time, m mail.Message, status string, send bool, at time.Time) (bool, error)
	affiliate.Store
	panel.LineEditor
	ClientServices(ctx context.Context, clientID int64) ([]order.Service, error)
}
