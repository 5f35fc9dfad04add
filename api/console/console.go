// Package console is what the seller's console reads and does: orders with their timeline, the
// dashboard summary, the job queue and the catalog's versions. Who may do what is the caller's
// (authz roles); this package answers with the shop's own types and leaves the HTTP shape to
// httpapi.
package console

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/refund"
)

var (
	ErrNotFound  = errors.New("console: not found")
	ErrBadCursor = errors.New("console: bad cursor")
	ErrBadDate   = errors.New("console: dates are RFC 3339 or YYYY-MM-DD")
	// ErrJobState means the job's state does not allow the retry or cancel (running, done, …).
	ErrJobState = errors.New("console: job state does not allow it")
)

// OrderFilter selects orders; empty fields select all. Kind is one of the console's kinds
// (KindTrial: a plan order that started a free trial).
type OrderFilter struct {
	Status, Gateway, Q, Kind string
	From, To                 time.Time // created at or after From, before To; zero: open
	Limit                    int
	// After is the keyset position: the orders strictly older than it (created_at, id).
	AfterAt time.Time
	AfterID string
}

// KindTrial is the console's kind of a plan order that started a free trial (order.KindPlan
// with a trial start): the other kinds are order.Kind's.
const KindTrial = "trial"

// Kinds are the console's order kinds.
var Kinds = []string{string(order.KindPlan), KindTrial, string(order.KindRenewal), string(order.KindUpsell), string(order.KindReseller)}

// OrderRow is an order as the console lists it. Product is what it sells in a few words;
// Refunded is all given back on it so far (minor units of Total's currency).
type OrderRow struct {
	ID, Kind, Status, Email, CustomerID, Gateway, PromoCode string
	Product                                                 string
	Total                                                   money.Money
	Refunded                                                int64
	InvoiceID, InvoiceStatus                                string
	CreatedAt, PaidAt                                       time.Time
}

// Paid reports whether the order's invoice was paid (refunds leave it paid).
func (r OrderRow) Paid() bool { return r.InvoiceStatus == string(order.InvoicePaid) }

// RefundedMoney is Refunded in the order's currency.
func (r OrderRow) RefundedMoney() money.Money {
	return money.Money{Amount: r.Refunded, Currency: r.Total.Currency}
}

// Net is what the order kept: its total when paid, less what was refunded.
func (r OrderRow) Net() money.Money {
	n := -r.Refunded
	if r.Paid() {
		n += r.Total.Amount
	}
	return money.Money{Amount: n, Currency: r.Total.Currency}
}

// Webhook is a stored provider event.
type Webhook struct {
	ID                    int64
	Provider, EventID     string
	Body                  []byte
	ReceivedAt, Processed time.Time
	Outcome               string
}

// Job is a queued job as stored.
type Job struct {
	ID                   int64
	Kind, Ref, State     string
	Attempts             int
	RunAt, UpdatedAt     time.Time
	LastError, UniqueKey string
}

// Summary is the dashboard. PaidRevenue is what invoices took, Refunded what went back, and
// NetRevenue the one less the other, each per currency.
type Summary struct {
	From                                   time.Time
	Orders, NewCustomers, FailedPayments   int
	PaidRevenue, Refunded, NetRevenue      []money.Money
	ActiveLines, RenewalsDue7d, HeldOrders int
	FailedJobs, DeadJobs, FailedMails      int
	StoredMails                            int
	MoneyToReview, PaidNotActive           int
	Series                                 []Day
}

// Day is one day of the dashboard's chart.
type Day struct {
	Date                              string
	Orders                            int
	PaidRevenue, Refunded, NetRevenue []money.Money
}

// Counts is what the store counts for the summary.
type Counts struct {
	Orders, NewCustomers, FailedPayments, ActiveLines, RenewalsDue, HeldOrders int
	FailedJobs, DeadJobs, FailedMails, MoneyToReview, PaidNotActive            int
	// StoredMails are messages kept in the outbox only: no mail server is configured.
	StoredMails int
	// Revenue, Refunded and OrdersByDay are per UTC day (YYYY-MM-DD); money per currency in
	// minor units: invoices paid that day, refunds made that day.
	Revenue, Refunded map[string]map[string]int64
	OrdersByDay       map[string]int
}

// Store is what the console reads.
type Store interface {
	ListOrders(ctx context.Context, f OrderFilter) ([]OrderRow, error)
	OrderRow(ctx context.Context, id string) (OrderRow, error)
	// Order reads the order itself (its quote); order.ErrNotFound when none.
	Order(ctx context.Context, id string) (order.Order, error)
	// OrderHold reads why the fraud check held the order; nil when it never was.
	OrderHold(ctx context.Context, id string) (*order.Hold, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
	// OrderTargetLines lists the existing lines an order works on (the line a renewal renews,
	// an upsell raises, a charged change changes).
	OrderTargetLines(ctx context.Context, orderID string) ([]order.Service, error)
	Reviews(ctx context.Context, limit int) ([]order.Review, error)
	// WebhooksBetween lists stored events received in [from, to), oldest first, at most limit.
	WebhooksBetween(ctx context.Context, from, to time.Time, limit int) ([]Webhook, error)
	// MailTo lists the messages to addr created at or after since, oldest first.
	MailTo(ctx context.Context, addr string, since time.Time) ([]mail.Stored, error)
	// JobsByRefs lists the jobs working on any of refs, oldest first.
	JobsByRefs(ctx context.Context, refs []string) ([]Job, error)
	// OrderRefunds lists an order's refunds, oldest first (their jobs' refs are
	// "<order id>/<refund id>": recording a refund in WHMCS).
	OrderRefunds(ctx context.Context, orderID string) ([]refund.Refund, error)
	ListAudit(ctx context.Context, target string, limit int) ([]audit.Entry, error)
	// ConsoleJobs lists jobs newest first: state queued, failed (queued after a failure), dead, or all.
	ConsoleJobs(ctx context.Context, state string, limit int) ([]Job, error)
	// RetryConsoleJob and CancelConsoleJob are streamcart jobs retry and cancel; ErrJobState
	// when the state forbids, ErrNotFound when no such job.
	RetryConsoleJob(ctx context.Context, id int64) (Job, error)
	CancelConsoleJob(ctx context.Context, id int64) (Job, error)
	SummaryCounts(ctx context.Context, from, now time.Time) (Counts, error)
	// ClockMoves lists the test clock's moves, oldest first (the offsets in force over time).
	ClockMoves(ctx context.Context) (clock.Moves, error)
}

// Console reads the shop for operators.
type Console struct {
	store   Store
	now     func() time.Time
	country func(ip string) string
	due     NextDue
}

// NextDue reads a line's next due date from the billing system that owns it (Deps.NextDue).
type NextDue func(ctx context.Context, s order.Service) time.Time

// fill sets the lines' next due dates that due knows over the stored ones (nil: as stored).
func (due NextDue) fill(ctx context.Context, lines []order.Service) {
	if due == nil {
		return
	}
	for i := range lines {
		if d := due(ctx, lines[i]); !d.IsZero() {
			lines[i].NextDueDate = d
		}
	}
}

// New returns the console; now is the business clock (the summary's days, the 10-minute alert),
// nil: real time; country names an address's country for a held order ("" unknown; nil: none
// is known); due is the lines' next due date where another billing system owns it (nil: as
// stored).
func New(store Store, now func() time.Time, country func(ip string) string, due NextDue) *Console {
	if country == nil {
		country = func(string) string { return "" }
	}
	return &Console{store: store, now: clock.OrReal(now), country: country, due: due}
}

// ErrBadKind means a kind filter names no kind of order.
var ErrBadKind = errors.New("console: no such order kind")

// ParseTime reads a filter's date: RFC 3339, or a day (its first instant, UTC).
func ParseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, ErrBadDate
}

// Page is one page of orders and the cursor of the next ("" on the last).
type Page struct {
	Orders []OrderRow
	Next   string
}

// Orders lists a page of orders, newest first (keyset paging on created_at, id).
func (c *Console) Orders(ctx context.Context, f OrderFilter, cursor string) (Page, error) {
	if f.Kind != "" && !slices.Contains(Kinds, f.Kind) {
		return Page{}, ErrBadKind
	}
	if cursor != "" {
		at, id, err := parseCursor(cursor)
		if err != nil {
			return Page{}, err
		}
		f.AfterAt, f.AfterID = at, id
	}
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	want := f.Limit
	f.Limit++ // one more tells whether a next page exists
	rows, err := c.store.ListOrders(ctx, f)
	if err != nil {
		return Page{}, fmt.Errorf("list orders: %w", err)
	}
	p := Page{Orders: rows}
	if len(rows) > want {
		p.Orders = rows[:want]
		last := p.Orders[want-1]
		p.Next = makeCursor(last.CreatedAt, last.ID)
	}
	return p, nil
}

func makeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at.UnixMicro(), 10) + "|" + id))
}

func parseCursor(s string) (time.Time, string, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return time.Time{}, "", ErrBadCursor
	}
	us, id, ok := strings.Cut(string(b), "|")
	n, err := strconv.ParseInt(us, 10, 64)
	if !ok || err != nil || id == "" {
		return time.Time{}, "", ErrBadCursor
	}
	return time.UnixMicro(n).UTC(), id, nil
}

// Event is one line of an order's timeline.
type Event struct {
	At                             time.Time
	Kind, Summary, Outcome, Detail string
	// Args are the parts of Summary by Kind (the design's AdminTimelineEvent.args), for the
	// console to word the event in the operator's language; Summary stays the English line.
	Args []string
}

// Detail is one order, what it billed, why it was held, its lines and its timeline.
type Detail struct {
	Order OrderRow
	// Tax is the tax in the order's total and BeforeTax its total without it; nil and zero for an
	// order without tax.
	Tax       *pricing.Tax
	BeforeTax money.Money
	Items     []Item
	Hold      *Hold
	Lines     []order.Service
	Timeline  []Event
}

// Hold is why the fraud check held an order, with its address's country ("" unknown).
type Hold struct {
	order.Hold
	Country string
}

// mailSlack is how long before an order the timeline looks for mail to its buyer.
const mailSlack = time.Hour

// webhookHorizon bounds the events read for a timeline: a payment arrives within days.
const (
	webhookHorizon = 45 * 24 * time.Hour
	maxWebhooks    = 2000
)

// Order reads one order with its timeline, oldest event first.
func (c *Console) Order(ctx context.Context, id string) (Detail, error) {
	o, err := c.store.OrderRow(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	lines, err := c.store.OrderServices(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	// The lines the order made carry its jobs and audit entries; a renewal, an upsell or a
	// change made none and shows the line it works on, whose own history is the line's.
	own := len(lines)
	worked, err := c.store.OrderTargetLines(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	for _, l := range worked {
		if !slices.ContainsFunc(lines, func(m order.Service) bool { return m.ID == l.ID }) {
			lines = append(lines, l)
		}
	}
	c.due.fill(ctx, lines)
	full, err := c.store.Order(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Order: o, Lines: lines, Items: Items(full.Quote, o.Total), Tax: full.Quote.Tax}
	if d.Tax != nil {
		d.BeforeTax = full.Quote.NetAmount()
	}
	h, err := c.store.OrderHold(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	if h != nil {
		d.Hold = &Hold{Hold: *h, Country: c.country(h.IP)}
	}
	add := func(e Event) { d.Timeline = append(d.Timeline, e) }
	add(Event{At: o.CreatedAt, Kind: "created", Summary: fmt.Sprintf("%s order placed by %s", o.Kind, o.Email), Outcome: o.Status,
		Args: []string{string(o.Kind), o.Email}})
	add(Event{At: o.CreatedAt, Kind: "invoice", Summary: fmt.Sprintf("invoice %s: %d %s by %s", o.InvoiceID, o.Total.Amount, o.Total.Currency, o.Gateway), Outcome: o.InvoiceStatus,
		Args: []string{o.InvoiceID, strconv.FormatInt(o.Total.Amount, 10), o.Total.Currency, o.Gateway}})
	if !o.PaidAt.IsZero() {
		add(Event{At: o.PaidAt, Kind: "payment", Summary: "invoice paid", Outcome: "paid", Args: []string{}})
	}
	reviews, err := c.store.Reviews(ctx, 1000)
	if err != nil {
		return Detail{}, err
	}
	for _, r := range reviews {
		if r.OrderID == id {
			out, detail := "to review", r.RefundError
			switch {
			case r.Refunded():
				out, detail = "refunded", r.RefundID+r.Reference
			case r.State == order.ReviewAccepted:
				out, detail = "accepted", r.DecidedBy
			}
			add(Event{At: r.CreatedAt, Kind: "review", Summary: fmt.Sprintf("payment %d %s kept aside (expected %d %s): %s", r.Amount.Amount,
				r.Amount.Currency, r.Expected.Amount, r.Expected.Currency, r.Reason), Outcome: out, Detail: detail,
				Args: []string{strconv.FormatInt(r.Amount.Amount, 10), r.Amount.Currency, strconv.FormatInt(r.Expected.Amount, 10), r.Expected.Currency, r.Reason}})
		}
	}
	// The order, its payment, reviews and audit entries are dated in business time; the webhook
	// inbox, the job queue and the outbox stamp their rows in real time (their retries, leases
	// and retention run on it, and a test clock must not age them). The timeline reads those in
	// business time too, each by the test clock's offset in force when it was written (not the
	// offset now: a mail sent before `clock advance 30d` stays before it), and searches them from
	// the real time the order was placed.
	moves, err := c.store.ClockMoves(ctx)
	if err != nil {
		return Detail{}, err
	}
	placed := moves.Real(o.CreatedAt)
	// Providers' events name the invoice in their own bodies, each in its own shape: a stored
	// event belongs to the order when its body holds the invoice id.
	hooks, err := c.store.WebhooksBetween(ctx, placed, placed.Add(webhookHorizon), maxWebhooks)
	if err != nil {
		return Detail{}, err
	}
	for _, h := range hooks {
		if o.InvoiceID != "" && bytes.Contains(h.Body, []byte(o.InvoiceID)) {
			outcome, detail, _ := strings.Cut(h.Outcome, ":")
			if h.Processed.IsZero() {
				outcome = "pending"
			}
			add(Event{At: moves.Business(h.ReceivedAt), Kind: "webhook", Summary: h.Provider + " event " + h.EventID, Outcome: outcome, Detail: strings.TrimSpace(detail),
				Args: []string{h.Provider, h.EventID}})
		}
	}
	refs := append([]string{id}, o.InvoiceID)
	for _, l := range lines[:own] {
		refs = append(refs, l.ID)
	}
	// A refund's own job (recording it in WHMCS) names the order and the refund.
	refunds, err := c.store.OrderRefunds(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	for _, r := range refunds {
		refs = append(refs, id+"/"+r.ID)
	}
	jobs, err := c.store.JobsByRefs(ctx, refs)
	if err != nil {
		return Detail{}, err
	}
	for _, j := range jobs {
		add(Event{At: moves.Business(j.UpdatedAt), Kind: "job", Summary: fmt.Sprintf("%s job %d, %d attempt(s)", j.Kind, j.ID, j.Attempts), Outcome: j.State, Detail: j.LastError,
			Args: []string{string(j.Kind), strconv.FormatInt(j.ID, 10), strconv.Itoa(j.Attempts)}})
	}
	mails, err := c.store.MailTo(ctx, o.Email, placed.Add(-mailSlack))
	if err != nil {
		return Detail{}, err
	}
	for _, m := range mails {
		at := moves.Business(m.CreatedAt)
		if at.Before(o.CreatedAt.Add(-mailSlack)) {
			continue // sent before the clock moved, for an earlier order
		}
		add(Event{At: at, Kind: "mail", Summary: fmt.Sprintf("mail %d: %s", m.ID, m.Subject), Outcome: m.Status, Detail: m.LastError,
			Args: []string{strconv.FormatInt(m.ID, 10), m.Subject}})
	}
	for _, target := range refs {
		entries, err := c.store.ListAudit(ctx, target, 200)
		if err != nil {
			return Detail{}, err
		}
		for _, e := range entries {
			who := e.Operator
			if who == "" {
				who = "the customer"
			}
			add(Event{At: e.At, Kind: "audit", Summary: fmt.Sprintf("%s on %s by %s", e.Action, e.Target, who), Outcome: e.Result, Detail: e.Detail,
				Args: []string{e.Action, e.Target, e.Operator}})
		}
	}
	sort.SliceStable(d.Timeline, func(i, j int) bool { return d.Timeline[i].At.Before(d.Timeline[j].At) })
	return d, nil
}

// PaidNotActiveAfter is how long a paid order may wait for its lines before the dashboard shows it.
const PaidNotActiveAfter = 10 * time.Minute

// Summary counts the last days (UTC days of business time, today included).
func (c *Console) Summary(ctx context.Context, days int) (Summary, error) {
	if days < 1 || days > 366 {
		days = 30
	}
	now := c.now().UTC()
	today := now.Truncate(24 * time.Hour)
	from := today.AddDate(0, 0, -(days - 1))
	n, err := c.store.SummaryCounts(ctx, from, now)
	if err != nil {
		return Summary{}, fmt.Errorf("summary: %w", err)
	}
	s := Summary{From: from, Orders: n.Orders, NewCustomers: n.NewCustomers, FailedPayments: n.FailedPayments,
		ActiveLines: n.ActiveLines, RenewalsDue7d: n.RenewalsDue, HeldOrders: n.HeldOrders, FailedJobs: n.FailedJobs,
		DeadJobs: n.DeadJobs, FailedMails: n.FailedMails, StoredMails: n.StoredMails, MoneyToReview: n.MoneyToReview, PaidNotActive: n.PaidNotActive}
	paid, back := map[string]int64{}, map[string]int64{}
	for d := from; !d.After(today); d = d.AddDate(0, 0, 1) {
		key := d.Format(time.DateOnly)
		day := Day{Date: key, Orders: n.OrdersByDay[key], PaidRevenue: moneyList(n.Revenue[key]), Refunded: moneyList(n.Refunded[key]),
			NetRevenue: moneyList(net(n.Revenue[key], n.Refunded[key]))}
		for cur, amt := range n.Revenue[key] {
			paid[cur] += amt
		}
		for cur, amt := range n.Refunded[key] {
			back[cur] += amt
		}
		s.Series = append(s.Series, day)
	}
	s.PaidRevenue, s.Refunded, s.NetRevenue = moneyList(paid), moneyList(back), moneyList(net(paid, back))
	return s, nil
}

// net is paid less refunded, per currency (a currency in either).
func net(paid, refunded map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for cur, amt := range paid {
		out[cur] += amt
	}
	for cur, amt := range refunded {
		out[cur] -= amt
	}
	return out
}

func moneyList(m map[string]int64) []money.Money {
	out := []money.Money{}
	for cur, amt := range m {
		out = append(out, money.Money{Amount: amt, Currency: cur})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Jobs lists jobs newest first.
func (c *Console) Jobs(ctx context.Context, state string, limit int) ([]Job, error) {
	return c.store.ConsoleJobs(ctx, state, limit)
}

// RetryJob queues a job again to run now, its attempts reset.
func (c *Console) RetryJob(ctx context.Context, id int64) (Job, error) {
	return c.store.RetryConsoleJob(ctx, id)
}

// CancelJob cancels a queued or dead job.
func (c *Console) CancelJob(ctx context.Context, id int64) (Job, error) {
	return c.store.CancelConsoleJob(ctx, id)
}

// Row reads one order as the console lists it.
func (c *Console) Row(ctx context.Context, id string) (OrderRow, error) {
	return c.store.OrderRow(ctx, id)
}
