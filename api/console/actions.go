package console

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/signin"
)

var (
	// ErrNotHeld means the order is not held by the fraud check (approve, reject).
	ErrNotHeld = errors.New("console: order not held")
	// ErrLineState means the line's status does not allow the action.
	ErrLineState = errors.New("console: line status does not allow it")
	// ErrPanel means the panel refused or could not be reached; the line is as it was. It wraps
	// the panel's error: in WHMCS mode order.ErrUpstreamUnavailable when WHMCS failed.
	ErrPanel = errors.New("console: panel failed")
	// ErrPayLink means the gateway could not make the payment link of an order released to be
	// paid: it is pending without one, and the buyer was not mailed.
	ErrPayLink = errors.New("console: payment link failed")
	// ErrMode means an approval's mode is neither request-payment nor provision.
	ErrMode = errors.New("console: no such approval mode")
	// ErrBilledElsewhere means another billing system (Deps.BilledIn) owns the line's due
	// dates and prices: the console does not extend or change it.
	ErrBilledElsewhere = errors.New("console: line billed in another system")
)

// How an operator releases a held order.
const (
	// ApproveRequestPayment: the buyer is asked to pay (the order pending again, a fresh
	// deadline and payment link mailed to them).
	ApproveRequestPayment = "request-payment"
	// ApproveProvision: the lines are provisioned without payment.
	ApproveProvision = "provision"
)

// AuditFilter selects audit entries; Before is the keyset position (entries with a smaller id).
// IP is the client address a refused console sign-in came from.
type AuditFilter struct {
	Operator, Action, Target, IP string
	Before                       int64
	Limit                        int
}

// AuditRow is an audit entry with the acting customer's public id.
type AuditRow struct {
	audit.Entry
	CustomerID string
}

// Customer is a client as the console lists it.
type Customer struct {
	ID                  int64
	PublicID, Email     string
	CreatedAt           time.Time
	Orders, ActiveLines int
}

// ClientSession is a client's live session.
type ClientSession struct {
	ID, Scope            string
	CreatedAt, ExpiresAt time.Time
}

// ActionStore is what the console's actions read and write.
type ActionStore interface {
	Order(ctx context.Context, id string) (order.Order, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
	Service(ctx context.Context, id string) (order.Service, error)
	ApproveHeld(ctx context.Context, id string, now time.Time) (bool, error)
	SetOrderStatusFrom(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	SetServiceStatus(ctx context.Context, id string, to order.ServiceStatus, from ...order.ServiceStatus) (bool, error)
	AuditPage(ctx context.Context, f AuditFilter) ([]AuditRow, error)
	MailPage(ctx context.Context, status, to string, before int64, limit int) ([]mail.Stored, error)
	Mail(ctx context.Context, id int64) (mail.Stored, error)
	WebhookPage(ctx context.Context, provider, outcome string, before int64, limit int) ([]Webhook, error)
	Customers(ctx context.Context, q string, limit int) ([]Customer, error)
	Customer(ctx context.Context, publicID string) (Customer, error)
	CustomerOrders(ctx context.Context, clientID int64, limit int) ([]OrderRow, error)
	ClientServices(ctx context.Context, clientID int64) ([]order.Service, error)
	LiveSessions(ctx context.Context, clientID int64, now time.Time) ([]ClientSession, error)
	// ExtendService gives a line e.Days more from now (business time) and records e; a capped
	// extension past its cap is a *ExtendLimitError.
	ExtendService(ctx context.Context, id string, e Extension, now time.Time) (order.Service, error)
	// SaveCatalog keeps source as the next version and makes it the catalog (setting key).
	SaveCatalog(ctx context.Context, key string, source []byte, v CatalogVersion) (CatalogVersion, error)
	CatalogVersions(ctx context.Context) ([]CatalogVersion, error)
	CatalogVersion(ctx context.Context, version int64) (CatalogVersion, []byte, error)
}

// Lines is the panel: switching a line off and on, moving its expiry, deleting it.
type Lines interface {
	Extend(ctx context.Context, ref string, until time.Time) error
	SetEnabled(ctx context.Context, ref string, enabled bool) error
	Delete(ctx context.Context, ref string) error
}

// Deps is what the actions act through.
type Deps struct {
	Store ActionStore
	// Refunds gives money back and takes back what a fully refunded order gave (package refund).
	Refunds  Refunds
	Lines    Lines
	Sessions interface {
		RevokeClientSessions(ctx context.Context, clientID int64, keep string, at time.Time) ([]string, error)
	}
	Signin interface {
		RequestLink(ctx context.Context, r signin.LinkRequest) error
	}
	Mailer interface {
		Send(ctx context.Context, m mail.Message) error
	}
	// Payments releases a held order to be paid (order.Orders.RequestPayment): order.ErrNotHeld
	// when it is not held, order.ErrGatewayUnavailable when no payment link could be made.
	Payments interface {
		RequestPayment(ctx context.Context, id string) (order.Order, error)
	}
	// Notices mails the buyer the pay link of an order released to be paid, in their locale.
	Notices interface {
		PaymentRequested(ctx context.Context, o order.Order) error
	}
	// Wake tells the job worker a job is ready (approve queues a provisioning).
	Wake func()
	Now  func() time.Time
	// RealNow is real time, which caps are counted on (never the test clock); nil: time.Now.
	RealNow func() time.Time
	// BilledIn names the billing system that owns the lines' due dates and prices ("WHMCS"),
	// whose cron renews them; "": the shop does.
	BilledIn string
	// NextDue is a line's next due date as the billing system that owns it has it now (WHMCS's
	// nextduedate through the short services cache); zero, or nil, when it has none and the
	// stored date is shown. Only for display: nothing is stored.
	NextDue NextDue
	// SupportMaxExtendDays caps the days a capped role may extend one line by within
	// ExtendCapWindow; 0: DefaultSupportMaxExtendDays.
	SupportMaxExtendDays int
}

// Refunds is the refund service (refund.Service).
type Refunds interface {
	Order(ctx context.Context, o order.Order, req refund.Request) (refund.Result, error)
	Rejected(ctx context.Context, o order.Order, reason, operator string) (*refund.Refund, error)
	Refunds(ctx context.Context, o order.Order) ([]refund.Refund, money.Money, error)
}

// Actions is what operators do to orders, lines and customers.
type Actions struct{ d Deps }

// NewActions returns the actions.
func NewActions(d Deps) *Actions {
	d.Now, d.RealNow = clock.OrReal(d.Now), clock.OrReal(d.RealNow)
	if d.SupportMaxExtendDays <= 0 {
		d.SupportMaxExtendDays = DefaultSupportMaxExtendDays
	}
	if d.Wake == nil {
		d.Wake = func() {}
	}
	return &Actions{d: d}
}

func (a *Actions) order(ctx context.Context, id string) (order.Order, error) {
	o, err := a.d.Store.Order(ctx, id)
	if errors.Is(err, order.ErrNotFound) {
		return o, ErrNotFound
	}
	return o, err
}

// Approve releases an order held by the fraud check. ApproveRequestPayment: the order is pending
// again with a fresh deadline and payment link, and its buyer is mailed the link in their locale.
// ApproveProvision: paid as far as the shop is concerned, its provisioning queued now (like
// WHMCS's "accept order", the operator vouches for the buyer; the invoice stays cancelled, as a
// held order's invoice is when it is placed). Of concurrent approvals one applies; the others
// are ErrNotHeld.
func (a *Actions) Approve(ctx context.Context, id, mode string) (order.Order, error) {
	if _, err := a.order(ctx, id); err != nil {
		return order.Order{}, err
	}
	switch mode {
	case ApproveRequestPayment:
		return a.requestPayment(ctx, id)
	case ApproveProvision:
	default:
		return order.Order{}, ErrMode
	}
	moved, err := a.d.Store.ApproveHeld(ctx, id, a.d.Now().UTC())
	if err != nil {
		return order.Order{}, err
	}
	if !moved {
		return order.Order{}, ErrNotHeld
	}
	a.d.Wake()
	return a.order(ctx, id)
}

func (a *Actions) requestPayment(ctx context.Context, id string) (order.Order, error) {
	o, err := a.d.Payments.RequestPayment(ctx, id)
	switch {
	case errors.Is(err, order.ErrNotHeld):
		return o, ErrNotHeld
	case errors.Is(err, order.ErrGatewayUnavailable):
		return o, fmt.Errorf("%w: %v", ErrPayLink, err)
	case err != nil:
		return o, err
	}
	if err := a.d.Notices.PaymentRequested(ctx, o); err != nil {
		return o, fmt.Errorf("pay link mail of %s: %w", id, err)
	}
	return a.order(ctx, id)
}

// Reject cancels an order held by the fraud check, its lines with it; what its invoice took is
// refunded in full, and so is money held on it for review (short, over, another currency):
// through its provider where it can refund, else it stays in the payments to review for the
// owner to refund by hand with its reference. refund is nil when nothing was paid.
func (a *Actions) Reject(ctx context.Context, id, reason, operator string) (order.Order, *refund.Refund, error) {
	o, err := a.order(ctx, id)
	if err != nil {
		return o, nil, err
	}
	moved, err := a.d.Store.SetOrderStatusFrom(ctx, id, order.StatusCancelled, order.StatusFraud)
	if err != nil {
		return o, nil, err
	}
	if !moved {
		return o, nil, ErrNotHeld
	}
	lines, err := a.d.Store.OrderServices(ctx, id)
	if err != nil {
		return o, nil, err
	}
	for _, l := range lines {
		if _, err := a.d.Store.SetServiceStatus(ctx, l.ID, order.ServiceCancelled, order.ServicePending); err != nil {
			return o, nil, err
		}
	}
	ref, err := a.d.Refunds.Rejected(ctx, o, reason, operator)
	if err != nil {
		return o, nil, err
	}
	o, err = a.order(ctx, id)
	return o, ref, err
}

// RefundResult is a refund made and where the order stands.
type RefundResult struct {
	refund.Result
	Order order.Order
}

// Refund gives back req.Amount (0: all that is left) of a paid order (refund.Service.Order): the
// order becomes partially_refunded or refunded, and a full refund takes back what the order gave
// unless req.KeepLine. A request whose idempotency key made a refund already answers it, Replayed.
func (a *Actions) Refund(ctx context.Context, id string, req refund.Request) (RefundResult, error) {
	o, err := a.order(ctx, id)
	if err != nil {
		return RefundResult{}, err
	}
	r, err := a.d.Refunds.Order(ctx, o, req)
	if err != nil {
		return RefundResult{}, err
	}
	if o, err = a.order(ctx, id); err != nil {
		return RefundResult{}, err
	}
	return RefundResult{Result: r, Order: o}, nil
}

// Refunds lists an order's refunds and their total.
func (a *Actions) Refunds(ctx context.Context, id string) ([]refund.Refund, money.Money, error) {
	o, err := a.order(ctx, id)
	if err != nil {
		return nil, money.Money{}, err
	}
	return a.d.Refunds.Refunds(ctx, o)
}

// --- lines ---

func (a *Actions) service(ctx context.Context, id string) (order.Service, error) {
	v, err := a.d.Store.Service(ctx, id)
	if errors.Is(err, order.ErrNotFound) {
		return v, ErrNotFound
	}
	return v, err
}

// move puts a line from one of from to to, then runs line on the panel; a failed panel call
// puts the status back.
func (a *Actions) move(ctx context.Context, id string, to order.ServiceStatus, from []order.ServiceStatus, line func(order.Service) error) (order.Service, error) {
	v, err := a.service(ctx, id)
	if err != nil {
		return v, err
	}
	moved, err := a.d.Store.SetServiceStatus(ctx, id, to, from...)
	if err != nil {
		return v, err
	}
	if !moved {
		return v, ErrLineState
	}
	if err := line(v); err != nil {
		if _, rerr := a.d.Store.SetServiceStatus(ctx, id, v.Status, to); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return v, fmt.Errorf("%w: %w", ErrPanel, err)
	}
	return a.service(ctx, id)
}

// Suspend switches an active or overdue line off.
func (a *Actions) Suspend(ctx context.Context, id string) (order.Service, error) {
	return a.move(ctx, id, order.ServiceSuspended, []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue},
		func(v order.Service) error { return a.d.Lines.SetEnabled(ctx, v.ID, false) })
}

// Unsuspend switches a suspended line on again.
func (a *Actions) Unsuspend(ctx context.Context, id string) (order.Service, error) {
	return a.move(ctx, id, order.ServiceActive, []order.ServiceStatus{order.ServiceSuspended},
		func(v order.Service) error { return a.d.Lines.SetEnabled(ctx, v.ID, true) })
}

// Terminate deletes a line from the panel for good.
func (a *Actions) Terminate(ctx context.Context, id string) (order.Service, error) {
	return a.move(ctx, id, order.ServiceTerminated, []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue,
		order.ServiceSuspended, order.ServiceCancelled, order.ServiceExpired},
		func(v order.Service) error { return a.d.Lines.Delete(ctx, v.ID) })
}

// DefaultSupportMaxExtendDays is how many days support may extend one line by within
// ExtendCapWindow (STREAMCART_SUPPORT_MAX_EXTEND_DAYS).
const DefaultSupportMaxExtendDays = 31

// ExtendCapWindow is the rolling window, in real time, a capped role's extensions are summed over.
const ExtendCapWindow = 30 * 24 * time.Hour

// ErrExtendLimit is a capped role's extension past its cap (an *ExtendLimitError).
var ErrExtendLimit = errors.New("console: extension cap reached")

// ExtendLimitError is an extension refused by the cap: Left days remain within the window.
type ExtendLimitError struct{ Cap, Left int }

func (e *ExtendLimitError) Error() string        { return ErrExtendLimit.Error() }
func (e *ExtendLimitError) Is(target error) bool { return target == ErrExtendLimit }

// Extension is one extension of a line by an operator; Cap > 0 counts it against that many days
// of capped extensions of the line since Since.
type Extension struct {
	Operator string
	Days     int
	At       time.Time // real time
	Cap      int
	Since    time.Time
}

// BilledIn is the billing system that owns the lines' due dates and prices; "": the shop.
func (a *Actions) BilledIn() string { return a.d.BilledIn }

// Extend gives a provisioned line days more: its expiry (and next due date) move, and the
// panel's line with them. A capped operator (support) may give one line at most
// SupportMaxExtendDays within ExtendCapWindow (*ExtendLimitError beyond, nothing moved). A
// line billed elsewhere is ErrBilledElsewhere, nothing moved: its billing system's renewal
// owns the due date, and moving ours would not move its (nor its line's).
func (a *Actions) Extend(ctx context.Context, id string, days int, operator string, capped bool) (order.Service, error) {
	v, err := a.service(ctx, id)
	if err != nil {
		return v, err
	}
	if a.d.BilledIn != "" {
		return v, ErrBilledElsewhere
	}
	switch v.Status {
	case order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended:
	default:
		return v, ErrLineState
	}
	e := Extension{Operator: operator, Days: days, At: a.d.RealNow().UTC()}
	if capped {
		e.Cap, e.Since = a.d.SupportMaxExtendDays, e.At.Add(-ExtendCapWindow)
	}
	w, err := a.d.Store.ExtendService(ctx, id, e, a.d.Now().UTC())
	if err != nil {
		return v, err
	}
	if err := a.d.Lines.Extend(ctx, id, w.ExpiresAt); err != nil {
		return w, fmt.Errorf("%w: %w", ErrPanel, err)
	}
	return w, nil
}

// --- customers ---

// CustomerDetail is a customer with its orders, lines and live sessions.
type CustomerDetail struct {
	Customer Customer
	Orders   []OrderRow
	Services []order.Service
	Sessions []ClientSession
}

// Customers searches customers.
func (a *Actions) Customers(ctx context.Context, q string, limit int) ([]Customer, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	return a.d.Store.Customers(ctx, q, limit)
}

// Customer reads one customer by public id.
func (a *Actions) Customer(ctx context.Context, id string) (CustomerDetail, error) {
	c, err := a.d.Store.Customer(ctx, id)
	if err != nil {
		return CustomerDetail{}, err
	}
	d := CustomerDetail{Customer: c}
	if d.Orders, err = a.d.Store.CustomerOrders(ctx, c.ID, 200); err != nil {
		return d, err
	}
	if d.Services, err = a.d.Store.ClientServices(ctx, c.ID); err != nil {
		return d, err
	}
	a.d.NextDue.fill(ctx, d.Services)
	d.Sessions, err = a.d.Store.LiveSessions(ctx, c.ID, a.d.Now().UTC())
	return d, err
}

// SignOut ends every session of the customer, here and (by the revocation poll) on every replica.
func (a *Actions) SignOut(ctx context.Context, id string) (Customer, int, error) {
	c, err := a.d.Store.Customer(ctx, id)
	if err != nil {
		return c, 0, err
	}
	ids, err := a.d.Sessions.RevokeClientSessions(ctx, c.ID, "", a.d.Now().UTC())
	return c, len(ids), err
}

// SigninLink mails the customer a sign-in link, as the shop's own sign-in form does.
func (a *Actions) SigninLink(ctx context.Context, id string) (Customer, error) {
	c, err := a.d.Store.Customer(ctx, id)
	if err != nil {
		return c, err
	}
	return c, a.d.Signin.RequestLink(ctx, signin.LinkRequest{Email: c.Email})
}

// --- mail, webhooks, audit ---

// MailPage is a page of the outbox.
func (a *Actions) MailPage(ctx context.Context, status, to, cursor string, limit int) ([]mail.Stored, string, error) {
	before, err := idCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	ms, err := a.d.Store.MailPage(ctx, status, to, before, limit+1)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(ms) > limit {
		ms, next = ms[:limit], strconv.FormatInt(ms[limit-1].ID, 10)
	}
	return ms, next, nil
}

// Resend queues a stored message again as a new one, sent at once.
func (a *Actions) Resend(ctx context.Context, id int64) (mail.Stored, error) {
	m, err := a.d.Store.Mail(ctx, id)
	if errors.Is(err, mail.ErrNotFound) {
		return m, ErrNotFound
	}
	if err != nil {
		return m, err
	}
	if err := a.d.Mailer.Send(ctx, m.Message); err != nil {
		return m, err
	}
	ms, err := a.d.Store.MailPage(ctx, "", m.To, 0, 1)
	if err != nil || len(ms) == 0 {
		return m, err
	}
	return ms[0], nil
}

// WebhookPage is a page of stored provider events.
func (a *Actions) WebhookPage(ctx context.Context, provider, outcome, cursor string, limit int) ([]Webhook, string, error) {
	before, err := idCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	ws, err := a.d.Store.WebhookPage(ctx, provider, strings.ToLower(outcome), before, limit+1)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(ws) > limit {
		ws, next = ws[:limit], strconv.FormatInt(ws[limit-1].ID, 10)
	}
	return ws, next, nil
}

// AuditPage is a page of the audit log.
func (a *Actions) AuditPage(ctx context.Context, f AuditFilter, cursor string) ([]AuditRow, string, error) {
	var err error
	if f.Before, err = idCursor(cursor); err != nil {
		return nil, "", err
	}
	limit := f.Limit
	f.Limit++
	rows, err := a.d.Store.AuditPage(ctx, f)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(rows) > limit {
		rows, next = rows[:limit], strconv.FormatInt(rows[limit-1].ID, 10)
	}
	return rows, next, nil
}

// idCursor reads a cursor of an id-ordered list: the last id seen; "" is the first page.
func idCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, ErrBadCursor
	}
	return n, nil
}

// CatalogVersion is one saved catalog.
type CatalogVersion struct {
	Version                   int64
	Operator, Comment, SHA256 string
	CreatedAt                 time.Time
	// Base, when saving, is the SHA-256 the catalog in force must still have (else ErrStale);
	// not kept.
	Base string
	// Before, when saving, is the source in force that no version holds (the demo catalog, a
	// file the shop started with): kept first as its own version, so a rollback can reach it.
	Before []byte
}

// ErrStale means the catalog in force is no longer the one a draft was made from.
var ErrStale = errors.New("console: the catalog changed since this draft")

// ErrCatalogGateway means a catalog enables a gateway this shop has no settings for.
var ErrCatalogGateway = errors.New("console: catalog enables a gateway without settings")

// ErrExists means the thing to add is there already (a promotion code).
var ErrExists = errors.New("console: exists already")

// PromotionChange is what an operator sets on a promotion; nil fields stay as they are.
type PromotionChange struct {
	Type, Value               *string
	AppliesTo                 []int
	StartDate, ExpirationDate *string // "": no date
	MaxUses                   *int
	Recurring, Disabled       *bool
}
