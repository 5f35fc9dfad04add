// Package planchange changes a running line's terms at an operator's word: its plan, billing
// cycle, connections or next due date (issue 26). The change is charged one of three ways: now
// (an order of kind change for the difference over the rest of the period, prorated by days, whose
// pay link is mailed to the buyer; the line changes once it is paid), from the next renewal (the
// line changes at once, the renewals bill the new terms), or free (the line changes at once). Changes
// is the change kind's home (order.Home): fulfil, take back after a full refund, line sync. The
// panel line follows every change through order.JobLineSync, queued with it.
package planchange

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/period"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
	"github.com/streamcart/streamcart/api/upsell"
)

// Charge is how a change is paid for.
type Charge string

const (
	// ChargeNow: the buyer pays the prorated difference first; the line changes once paid.
	ChargeNow Charge = "now"
	// ChargeNextRenewal: the line changes at once; the renewals bill the new terms.
	ChargeNextRenewal Charge = "next-renewal"
	// ChargeFree: the line changes at once, and nobody pays for it.
	ChargeFree Charge = "free"
)

// Charges are the ways a change is paid for.
var Charges = []Charge{ChargeNow, ChargeNextRenewal, ChargeFree}

var (
	// ErrInvalid is a change that cannot be made as asked; an *InvalidError names the field.
	ErrInvalid = errors.New("planchange: invalid change")
	// ErrNothingToChange means the line has the asked terms already.
	ErrNothingToChange = errors.New("planchange: nothing to change")
	// ErrNothingToCharge means charge now on a change that costs nothing more.
	ErrNothingToCharge = errors.New("planchange: nothing to charge")
	// ErrPending means the line has a change waiting for its payment.
	ErrPending = errors.New("planchange: a change is waiting for its payment")
	// ErrLineState means the line is not running (Active, Overdue, Suspended) or does not renew.
	ErrLineState = errors.New("planchange: the line's status does not allow a change")
	// ErrStale means the line's terms moved between the quote and the change (a concurrent change).
	ErrStale = errors.New("planchange: the line changed meanwhile")
	// ErrKeyReused means the Idempotency-Key was used for another change.
	ErrKeyReused = errors.New("planchange: idempotency key used for another change")
	// ErrNotFound is what Store answers when a change (or an order's change) does not exist.
	ErrNotFound = errors.New("planchange: not found")
)

// InvalidError is ErrInvalid naming the field and why.
type InvalidError struct{ Field, Reason string }

func (e *InvalidError) Error() string { return e.Field + ": " + e.Reason }
func (e *InvalidError) Unwrap() error { return ErrInvalid }

func invalid(field, reason string) error { return &InvalidError{Field: field, Reason: reason} }

// Terms are what a line is sold as: what a change moves.
type Terms struct {
	PID            int
	Name           string
	BillingCycle   string
	MaxConnections int
	NextDueDate    time.Time
}

// TermsOf are s's terms.
func TermsOf(s order.Service) Terms {
	return Terms{PID: s.PID, Name: s.Name, BillingCycle: s.BillingCycle, MaxConnections: s.MaxConnections, NextDueDate: s.NextDueDate}
}

// Same reports whether t and u are the same terms (the name follows the plan).
func (t Terms) Same(u Terms) bool {
	return t.PID == u.PID && t.BillingCycle == u.BillingCycle && t.MaxConnections == u.MaxConnections && t.NextDueDate.Equal(u.NextDueDate)
}

// Change is one change of a line's terms, as recorded.
type Change struct {
	ID        string
	ServiceID string
	// OrderID is the order the buyer pays (ChargeNow); "" otherwise.
	OrderID  string
	From, To Terms
	Charge   Charge
	// Amount is what the buyer pays now (ChargeNow); zero otherwise (its currency the line's).
	Amount   money.Money
	Reason   string
	Operator string
	// IdempotencyKey is the operator's key (scoped to the operator); RequestHash what was asked.
	IdempotencyKey, RequestHash string
	CreatedAt                   time.Time
	AppliedAt                   time.Time // zero until the line has the new terms
	ReversedAt                  time.Time // a refunded charge-now change, taken back
}

// Store is what changes persist.
type Store interface {
	Service(ctx context.Context, id string) (order.Service, error)
	Order(ctx context.Context, id string) (order.Order, error)
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
	// RecordChange records c under its service's lock when the service is running
	// (ErrLineState), its terms are still c.From (ErrStale; ErrNothingToChange when they are c.To
	// already) and no change of it waits for a payment (ErrPending); with apply, the service takes
	// c.To in the same transaction, c is marked applied and a JobLineSync is queued. A change
	// recorded under c's IdempotencyKey already is answered instead (replayed), recording nothing.
	RecordChange(ctx context.Context, c Change, apply bool, now time.Time) (got Change, replayed bool, err error)
	// DeleteChange forgets a change whose order was never placed.
	DeleteChange(ctx context.Context, id string) error
	// ChangeOfOrder reads the change an order pays; ErrNotFound when the order is no change.
	ChangeOfOrder(ctx context.Context, orderID string) (Change, error)
	// ApplyChange gives the service of the change an order pays its new terms once, under its
	// lock, with a JobLineSync queued; gone reports a line no longer running (nothing applied).
	ApplyChange(ctx context.Context, orderID string, at time.Time) (svc order.Service, gone bool, err error)
	// ReverseChange takes back an applied change whose order was refunded, once: the fields it
	// moved go back to its From terms on a running line, with a JobLineSync queued; moved reports
	// the service changed.
	ReverseChange(ctx context.Context, orderID string, at time.Time) (svc order.Service, moved bool, err error)
}

// Pricer prices a period of a line (renewal.Renewals.RecurringQuote): its plan, cycle and
// connections as s says, in first's currency.
type Pricer interface {
	RecurringQuote(first order.Order, s order.Service, cycle catalog.Cycle, now time.Time) (pricing.Quote, error)
}

// Repricer places a line's open renewal invoice again at its new terms (renewal.Renewals.Reprice).
type Repricer interface {
	Reprice(ctx context.Context, svc order.Service) error
}

// Mailer mails the buyer the pay link of a change's order.
type Mailer interface {
	ChangeInvoice(ctx context.Context, o order.Order, c Change) error
}

// Deps is what Changes is built from.
type Deps struct {
	Store    Store
	Catalog  func() *catalog.Catalog
	Orders   *order.Orders
	Prices   Pricer
	Renewals Repricer
	Mail     Mailer
	Lines    panel.Manager
	Audit    *audit.Log
	Log      *slog.Logger
	// Wake tells the worker a job was queued (nil: it polls).
	Wake func()
	// Now is the business clock (nil: real time).
	Now func() time.Time
	// Locate is the country of an IP address ("" unknown; nil: none), for a line whose first
	// order kept no tax evidence (order.Order.TaxEvidence), as the renewals use it.
	Locate func(ip string) string
}

// Changes changes lines' terms.
type Changes struct {
	d   Deps
	now func() time.Time
}

var _ order.Home = (*Changes)(nil)

// New returns the change service.
func New(d Deps) *Changes {
	if d.Wake == nil {
		d.Wake = func() {}
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Changes{d: d, now: clock.OrReal(d.Now)}
}

// Request is a change an operator asks for; nil fields keep the line's.
type Request struct {
	ServiceID      string
	PID            *int
	BillingCycle   *string
	MaxConnections *int
	NextDueDate    *string // YYYY-MM-DD
	Charge         Charge
	Reason         string
	Operator       string
	IdempotencyKey string
}

// Quote is what a change would do: the terms before and after, what the buyer pays now, and what
// a period costs before and after.
type Quote struct {
	Service              order.Service
	From, To             Terms
	Charge               Charge
	Amount               money.Money
	DaysLeft, PeriodDays int
	Recurring            money.Money
	NewRecurring         money.Money
}

// Result is a change made (or replayed): its quote, the change, and for ChargeNow its order and
// whom the pay link went to.
type Result struct {
	Quote
	Change   Change
	Order    order.Order
	Replayed bool
}

// running are the statuses of a line that may change.
var running = []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended}

// Preview prices r against the line as it is now and changes nothing.
func (c *Changes) Preview(ctx context.Context, r Request) (Quote, error) {
	if r.Reason == "" {
		return Quote{}, invalid("reason", "say why the line changes")
	}
	switch r.Charge {
	case ChargeNow, ChargeNextRenewal, ChargeFree:
	default:
		return Quote{}, invalid("charge", "one of now, next-renewal, free")
	}
	s, err := c.d.Store.Service(ctx, r.ServiceID)
	if err != nil {
		return Quote{}, err
	}
	if !slices.Contains(running, s.Status) || s.Trial || s.NextDueDate.IsZero() || upsell.PricingCycle(s.BillingCycle).Months() == 0 {
		return Quote{Service: s}, ErrLineState
	}
	now := c.now().UTC()
	to, err := c.target(s, r, now)
	if err != nil {
		return Quote{Service: s}, err
	}
	from := TermsOf(s)
	if from.Same(to) {
		return Quote{Service: s}, ErrNothingToChange
	}
	first, err := c.d.Store.Order(ctx, s.OrderID)
	if err != nil {
		return Quote{}, fmt.Errorf("change %s: %w", s.ID, err)
	}
	oldQ, err := c.d.Prices.RecurringQuote(first, s, upsell.PricingCycle(s.BillingCycle), now)
	if err != nil {
		return Quote{}, fmt.Errorf("change %s: price now: %w", s.ID, err)
	}
	next := withTerms(s, to)
	newQ, err := c.d.Prices.RecurringQuote(first, next, upsell.PricingCycle(to.BillingCycle), now)
	if err != nil {
		return Quote{Service: s}, invalid("billingCycle", fmt.Sprintf("plan %d is not sold %s in %s", to.PID, to.BillingCycle, first.Quote.Currency))
	}
	q := Quote{Service: s, From: from, To: to, Charge: r.Charge, Recurring: oldQ.Total, NewRecurring: newQ.Total,
		Amount: money.Money{Currency: oldQ.Total.Currency}}
	d := Count(now, from.NextDueDate, upsell.PricingCycle(from.BillingCycle), to.NextDueDate, upsell.PricingCycle(to.BillingCycle), s.CreatedAt)
	oldLeft, oldP, newLeft, newP := d.OldLeft, d.OldPeriod, d.NewLeft, d.NewPeriod
	q.DaysLeft, q.PeriodDays = newLeft, oldP
	if r.Charge == ChargeNow {
		q.Amount.Amount = Prorate(oldQ.Total.Amount, oldLeft, oldP, newQ.Total.Amount, newLeft, newP)
		if q.Amount.Amount <= 0 {
			q.Amount.Amount = 0
			return q, ErrNothingToCharge
		}
	}
	return q, nil
}

// Prorate is what the rest of a period under the new terms costs more than under the old: each
// amount a period's price, counted by days (newAmount × newLeft/newPeriod − old × oldLeft/oldPeriod),
// rounded half away from zero to the minor unit, once.
func Prorate(old int64, oldLeft, oldPeriod int, new int64, newLeft, newPeriod int) int64 {
	if oldPeriod <= 0 || newPeriod <= 0 {
		return 0
	}
	num := new*int64(newLeft)*int64(oldPeriod) - old*int64(oldLeft)*int64(newPeriod)
	den := int64(oldPeriod) * int64(newPeriod)
	if num >= 0 {
		return (2*num + den) / (2 * den)
	}
	return -((-2*num + den) / (2 * den))
}

// Days are the day counts a change is prorated by: the days left of the period paid under the old
// terms and its length, and the same under the new terms.
type Days struct {
	OldLeft, OldPeriod, NewLeft, NewPeriod int
}

// Count counts the days a change at now is prorated by. A period is counted back from its due date
// on the line's billing anchor (period.Anchor of the due date and registered, the line's
// registration), as the renewals count it forward: a monthly line bought on 31 January is due on
// 28 February and its period is 28 days; due on 31 March, 31 days. The days left are still held to
// the period's length for lines whose due date was counted forward over a short month before the
// anchor was kept (a line paid on 30 January was due on 2 March, and "31 of 28 days left" charged
// €3.32 for a €3.00 connection); a due date the change moves on keeps its extra days.
func Count(now, oldDue time.Time, oldCycle catalog.Cycle, newDue time.Time, newCycle catalog.Cycle, registered time.Time) Days {
	d := Days{OldPeriod: periodDays(oldDue, oldCycle, registered), NewPeriod: periodDays(newDue, newCycle, registered)}
	d.OldLeft, d.NewLeft = daysUntil(now, oldDue), daysUntil(now, newDue)
	if over := d.OldLeft - d.OldPeriod; over > 0 {
		d.OldLeft -= over
		d.NewLeft = max(d.NewLeft-over, 0)
	}
	return d
}

// periodDays is the length in days of the period of cycle that ends at due, on the anchor of a line
// registered then.
func periodDays(due time.Time, cycle catalog.Cycle, registered time.Time) int {
	return period.Days(period.AddMonths(due, -cycle.Months(), period.Anchor(due, registered)), due)
}

// daysUntil counts the whole UTC days from now's day to due's day (0 once past).
func daysUntil(now, due time.Time) int {
	return max(period.Days(now, due), 0)
}

// withTerms is s with the terms t.
func withTerms(s order.Service, t Terms) order.Service {
	s.PID, s.Name, s.BillingCycle, s.MaxConnections, s.NextDueDate = t.PID, t.Name, t.BillingCycle, t.MaxConnections, t.NextDueDate
	return s
}

// target checks r's fields against the catalog and answers the terms the line would have.
func (c *Changes) target(s order.Service, r Request, now time.Time) (Terms, error) {
	to := TermsOf(s)
	cat := c.d.Catalog()
	if r.PID != nil {
		to.PID = *r.PID
	}
	product, ok := cat.Product(to.PID)
	if !ok || product.Group == "reseller" || product.Trial {
		return to, invalid("pid", fmt.Sprintf("%d is not a paid plan of the catalog", to.PID))
	}
	to.Name = product.Name
	if r.BillingCycle != nil {
		to.BillingCycle = *r.BillingCycle
	}
	cycle := catalog.Cycle(to.BillingCycle)
	if _, ok := product.Cycles[cycle]; !ok || cycle.Months() == 0 {
		return to, invalid("billingCycle", fmt.Sprintf("%q is not a cycle plan %d renews on", to.BillingCycle, to.PID))
	}
	if r.MaxConnections != nil {
		to.MaxConnections = *r.MaxConnections
	}
	most := 1
	if opt, ok := product.Option(catalog.ExtraConnectionsOption); ok {
		most += opt.MaxQty
	}
	if to.MaxConnections < 1 || to.MaxConnections > most {
		return to, invalid("maxConnections", fmt.Sprintf("plan %d has 1 to %d connections", to.PID, most))
	}
	if r.NextDueDate != nil {
		d, err := time.Parse(time.DateOnly, *r.NextDueDate)
		if err != nil {
			return to, invalid("nextDueDate", "a date YYYY-MM-DD")
		}
		// The line's time of day is kept: only the date moves.
		old := s.NextDueDate.UTC()
		d = time.Date(d.Year(), d.Month(), d.Day(), old.Hour(), old.Minute(), old.Second(), old.Nanosecond(), time.UTC)
		if !d.After(now) || d.Year() > now.Year()+10 {
			return to, invalid("nextDueDate", "a date after today and within ten years")
		}
		to.NextDueDate = d
	}
	return to, nil
}

// Change makes r: ChargeNow places the order for the difference and mails its pay link (the line
// changes once paid); the others change the line at once. The checks of Preview are made again
// under the line's lock, so of concurrent changes of a line one applies and the others change
// nothing (ErrStale, ErrNothingToChange, ErrPending); a retry with r's IdempotencyKey answers the
// first change.
func (c *Changes) Change(ctx context.Context, r Request) (Result, error) {
	hash := order.CustomHash("change", r.ServiceID, r.PID, r.BillingCycle, r.MaxConnections, r.NextDueDate, r.Charge, r.Reason)
	if r.IdempotencyKey != "" {
		r.IdempotencyKey = r.Operator + " " + r.IdempotencyKey // an email has no space
	}
	q, err := c.Preview(ctx, r)
	if err != nil {
		if errors.Is(err, ErrNothingToChange) || errors.Is(err, ErrPending) {
			// A retry after the first applied: the key answers it.
			if res, ok, rerr := c.replay(ctx, r, hash); rerr != nil || ok {
				return res, rerr
			}
		}
		return Result{Quote: q}, err
	}
	now := c.now().UTC()
	ch := Change{ID: id.New("chg_"), ServiceID: q.Service.ID, From: q.From, To: q.To, Charge: r.Charge, Amount: q.Amount,
		Reason: r.Reason, Operator: r.Operator, IdempotencyKey: r.IdempotencyKey, RequestHash: hash, CreatedAt: now}
	if r.Charge == ChargeNow {
		ch.OrderID = order.NewOrderID()
	}
	got, replayed, err := c.d.Store.RecordChange(ctx, ch, r.Charge != ChargeNow, now)
	if err != nil {
		return Result{Quote: q}, err
	}
	if replayed {
		return c.answer(ctx, q, got)
	}
	if r.Charge != ChargeNow {
		c.d.Wake()
		svc, err := c.d.Store.Service(ctx, ch.ServiceID)
		if err == nil {
			c.reprice(ctx, svc)
		}
		return Result{Quote: q, Change: got}, nil
	}
	o, err := c.place(ctx, q, ch)
	if err != nil {
		if derr := c.d.Store.DeleteChange(ctx, ch.ID); derr != nil {
			c.d.Log.Error("change left behind", "change", ch.ID, "err", derr)
		}
		return Result{Quote: q}, err
	}
	if err := c.d.Mail.ChangeInvoice(ctx, o, got); err != nil {
		return Result{Quote: q, Change: got, Order: o}, fmt.Errorf("change %s: mail: %w", ch.ID, err)
	}
	return Result{Quote: q, Change: got, Order: o}, nil
}

// replay answers the change r's key recorded, if any.
func (c *Changes) replay(ctx context.Context, r Request, hash string) (Result, bool, error) {
	if r.IdempotencyKey == "" {
		return Result{}, false, nil
	}
	// Recording an impossible change under the key finds the one recorded under it, or nothing.
	got, replayed, err := c.d.Store.RecordChange(ctx, Change{ServiceID: r.ServiceID, IdempotencyKey: r.IdempotencyKey, RequestHash: hash}, false, c.now().UTC())
	if !replayed {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, true, err
	}
	res, err := c.answer(ctx, Quote{}, got)
	return res, true, err
}

// answer is the Result of a change recorded before (a replay).
func (c *Changes) answer(ctx context.Context, q Quote, got Change) (Result, error) {
	svc, err := c.d.Store.Service(ctx, got.ServiceID)
	if err != nil {
		return Result{}, err
	}
	q = Quote{Service: svc, From: got.From, To: got.To, Charge: got.Charge, Amount: got.Amount, Recurring: q.Recurring, NewRecurring: q.NewRecurring}
	res := Result{Quote: q, Change: got, Replayed: true}
	if got.OrderID != "" {
		if res.Order, err = c.d.Store.Order(ctx, got.OrderID); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// reprice has the renewals bill the line's new terms; a failure is logged (the sweep tries again).
func (c *Changes) reprice(ctx context.Context, svc order.Service) {
	if c.d.Renewals == nil {
		return
	}
	if err := c.d.Renewals.Reprice(ctx, svc); err != nil {
		c.d.Log.Error("renewal not repriced after a change", "service", svc.ID, "err", err)
	}
}

// place places the order of a charge-now change for the line's buyer, through its first order's
// gateway (the shop's default when that one is no longer offered).
func (c *Changes) place(ctx context.Context, q Quote, ch Change) (order.Order, error) {
	first, err := c.d.Store.Order(ctx, q.Service.OrderID)
	if err != nil {
		return order.Order{}, err
	}
	label := fmt.Sprintf("Change of %s to %s, %s, %d connections, until %s", q.From.Name, q.To.Name, q.To.BillingCycle,
		q.To.MaxConnections, q.To.NextDueDate.Format(time.DateOnly))
	pq := pricing.Quote{PID: q.To.PID, Cycle: catalog.Cycle(q.To.BillingCycle), Currency: q.Amount.Currency,
		ExtraConnections: max(q.To.MaxConnections-1, 0),
		Lines:            []pricing.Line{{Key: "change", Label: label, Amount: q.Amount}}, Subtotal: q.Amount, Total: q.Amount}
	// The amount is the difference of two periods priced as the renewals price them, tax
	// included: its tax is taken out at the rate of the country they are taxed in.
	billing, ip, confirmed := first.TaxEvidence(c.d.Locate)
	if err := pricing.TaxedGross(c.d.Catalog(), pricing.Request{BillingCountry: billing, IPCountry: ip}, &pq); err != nil {
		return order.Order{}, fmt.Errorf("change %s: tax: %w", ch.ID, err)
	}
	pl := order.Placement{Kind: order.KindChange, ID: ch.OrderID, Quote: pq, Gateway: first.Gateway, Locale: first.Locale}
	if t := pq.Tax; t != nil { // the first order's evidence of where the buyer is, kept with the change
		pl.BillingCountry, pl.IPCountry, pl.CountryConfirmed = t.Country, t.IPCountry, confirmed
	}
	if err := c.d.Orders.CheckPlacement(pl); err != nil {
		pl.Gateway = "" // the first order's gateway is no longer offered: the shop's default
	}
	claims := authz.Claims{ClientID: first.ClientID, SessionID: first.SessionID, Email: first.Email}
	o, err := c.d.Orders.Place(ctx, claims, pl)
	if err != nil {
		return order.Order{}, fmt.Errorf("change %s: place: %w", ch.ID, err)
	}
	return o, nil
}

// OfOrder reads the change an order pays and its line; ErrNotFound when the order is no change.
func (c *Changes) OfOrder(ctx context.Context, orderID string) (Change, order.Service, error) {
	ch, err := c.d.Store.ChangeOfOrder(ctx, orderID)
	if err != nil {
		return Change{}, order.Service{}, err
	}
	svc, err := c.d.Store.Service(ctx, ch.ServiceID)
	return ch, svc, err
}

// Fulfil applies a paid change order (order.KindChange) named by a provisioning job: the line
// takes the new terms once (ApplyChange), its panel line following by the JobLineSync queued with
// it, and an open renewal invoice is placed again at the new terms. A line that stopped running
// meanwhile gets nothing: the payment goes to review and is refunded.
func (c *Changes) Fulfil(ctx context.Context, j job.Job) error {
	ch, err := c.d.Store.ChangeOfOrder(ctx, j.Ref)
	if errors.Is(err, ErrNotFound) {
		return job.Permanent(fmt.Errorf("change %s: %w", j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("change %s: %w", j.Ref, err)
	}
	o, ok, err := order.StartFulfilment(ctx, c.d.Store, j.Ref)
	if err != nil {
		return fmt.Errorf("change %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive {
			c.d.Log.Warn("change skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	svc, gone, err := c.d.Store.ApplyChange(ctx, o.ID, c.now().UTC())
	if err != nil {
		return fmt.Errorf("change %s: %w", o.ID, err)
	}
	if gone {
		if err := c.d.Orders.ReviewPaid(ctx, o.ID, order.ReasonLineGone); err != nil {
			return fmt.Errorf("change %s: %w", o.ID, err)
		}
		return nil
	}
	c.d.Wake()
	c.reprice(ctx, svc)
	who := authz.Claims{ClientID: o.ClientID, SessionID: o.SessionID}
	c.d.Audit.RecordParts(ctx, who, "line-change", svc.ID, fmt.Sprintf("order %s paid: change %s applied", o.ID, ch.ID),
		[]string{audit.WordChangeApplied, o.ID, ch.ID}, nil)
	if _, err := c.d.Store.FinishFulfilment(ctx, o.ID); err != nil {
		return fmt.Errorf("change %s: %w", o.ID, err)
	}
	return nil
}

// TakeBack withdraws a fully refunded change (order.Home): the fields it moved go back on a line
// still running, the panel line following by the JobLineSync queued with it.
func (c *Changes) TakeBack(ctx context.Context, o order.Order) (bool, error) {
	svc, moved, err := c.d.Store.ReverseChange(ctx, o.ID, c.now().UTC())
	if err == nil && moved {
		c.reprice(ctx, svc)
	}
	return moved, err
}

// SyncLine brings the line a change moved in step with its service, the new plan's bouquets
// included (provision.SyncPlan).
func (c *Changes) SyncLine(ctx context.Context, s order.Service) error {
	return provision.SyncPlan(ctx, c.d.Lines, s, c.d.Catalog())
}
