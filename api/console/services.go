package console

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
)

var (
	// ErrBadStatus means a status filter is none of the buyer's service statuses.
	ErrBadStatus = errors.New("console: unknown service status")
	// ErrBadDueWithin means a dueWithin filter is not a number of days or hours within bounds.
	ErrBadDueWithin = errors.New("console: dueWithin is a number and d or h")
)

// MaxDueWithin bounds dueWithin: ten years.
const MaxDueWithin = 3660 * 24 * time.Hour

// ServiceStatuses are the buyer's service statuses (GET /services), as stored.
var ServiceStatuses = []order.ServiceStatus{order.ServicePending, order.ServiceActive, order.ServiceOverdue,
	order.ServiceSuspended, order.ServiceCancelled, order.ServiceTerminated, order.ServiceExpired}

// Running are the statuses of a line that still renews or may be paid back to life.
var Running = []order.ServiceStatus{order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended}

// ParseServiceStatus reads a status filter in any case ("" selects all).
func ParseServiceStatus(s string) (order.ServiceStatus, error) {
	if s == "" {
		return "", nil
	}
	for _, st := range ServiceStatuses {
		if strings.EqualFold(s, string(st)) {
			return st, nil
		}
	}
	return "", ErrBadStatus
}

var dueWithinRe = regexp.MustCompile(`^([0-9]{1,6})([dh])$`)

// ParseDueWithin reads a dueWithin filter: a number and d (days) or h (hours), e.g. 14d, 12h
// (0d: due by now); "" is no filter (nil).
func ParseDueWithin(s string) (*time.Duration, error) {
	if s == "" {
		return nil, nil
	}
	m := dueWithinRe.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return nil, ErrBadDueWithin
	}
	n, _ := strconv.Atoi(m[1])
	d := time.Duration(n) * time.Hour
	if m[2] == "d" {
		d *= 24
	}
	if d > MaxDueWithin {
		return nil, ErrBadDueWithin
	}
	return &d, nil
}

// ServiceFilter selects lines; empty fields select all.
type ServiceFilter struct {
	Status order.ServiceStatus
	// Q is an email (whole or its beginning), a username, a MAC address or a service id.
	Q string
	// DueBy, when set, selects the running lines due at or before it (overdue ones included).
	DueBy time.Time
	// AutoRenew, when set, selects the lines that renew (true) or the others (false), as the
	// buyer's autoRenew says: running, not a trial, with a due date, auto-renew not cancelled.
	AutoRenew *bool
	PID       int
	Limit     int
	// After is the keyset position: the lines strictly after it in the list's order (the due
	// date's sort key, then the id).
	AfterKey, AfterID string
}

// ServiceRow is a line as the console lists it.
type ServiceRow struct {
	order.Service
	CustomerID, Email string
	// RenewalInvoiceID is the open renewal invoice and RenewalOrderID its order ("" when none).
	RenewalInvoiceID, RenewalOrderID string
	// SortKey is the line's position in the list's order (its due date; no due date last).
	SortKey string
}

// Subscription is a line with what its renewal is, as the console shows it.
type Subscription struct {
	ServiceRow
	AutoRenew, RenewsWithCard bool
	OverdueDays               int
	// Recurring is what the next period costs; nil for trials and one-time lines.
	Recurring *money.Money
	// RenewalCardCharge is why the saved card did not pay the open renewal invoice (the latest
	// charge's outcome, as the buyer is shown it); "" when no charge of it failed.
	RenewalCardCharge string
}

// ServiceStore lists lines.
type ServiceStore interface {
	ListServices(ctx context.Context, f ServiceFilter) ([]ServiceRow, error)
	ServiceRow(ctx context.Context, id string) (ServiceRow, error)
}

// Renewer is the renewals the buyer's own buttons use (package renewal).
type Renewer interface {
	CancelAutoRenew(ctx context.Context, svc order.Service) (order.Service, error)
	ResumeAutoRenew(ctx context.Context, svc order.Service) (order.Service, error)
	RecurringAmount(ctx context.Context, svc order.Service) (money.Money, bool, error)
	FailedCharge(ctx context.Context, orderID string) (string, error)
}

// PayLinkSender mails a line's open renewal invoice's pay link; it answers the renewal's order.
type PayLinkSender interface {
	Send(ctx context.Context, svc order.Service) (order.Order, error)
}

// DueDates reads, for a page of lines at once, the next due dates of those another billing
// system owns (WHMCS mode: WHMCS's nextduedate, one read per distinct client): by service id,
// the lines it could read. unavailable is true when it could not ask for some of them (WHMCS
// down): those rows keep their stored dates, and the list still answers.
type DueDates func(ctx context.Context, lines []order.Service) (dates map[string]time.Time, unavailable bool)

// Subscriptions is the console's list of lines and what support does to their renewal.
type Subscriptions struct {
	store    ServiceStore
	renewals Renewer
	links    PayLinkSender
	due      DueDates
	now      func() time.Time
}

// NewSubscriptions returns the subscriptions on business time now; due reads the next due dates
// of the lines another billing system owns (nil: as stored).
func NewSubscriptions(store ServiceStore, renewals Renewer, links PayLinkSender, due DueDates, now func() time.Time) *Subscriptions {
	if now == nil {
		now = time.Now
	}
	return &Subscriptions{store: store, renewals: renewals, links: links, due: due, now: now}
}

// fillDue sets the rows' next due dates the billing system owning them has (DueDates) over the
// stored ones; unavailable: it could not be asked for some.
func (s *Subscriptions) fillDue(ctx context.Context, rows []ServiceRow) (unavailable bool) {
	if s.due == nil || len(rows) == 0 {
		return false
	}
	lines := make([]order.Service, len(rows))
	for i, r := range rows {
		lines[i] = r.Service
	}
	dates, unavailable := s.due(ctx, lines)
	for i := range rows {
		if d, ok := dates[rows[i].ID]; ok && !d.IsZero() {
			rows[i].NextDueDate = d
		}
	}
	return unavailable
}

// Now is the business time the list is computed on.
func (s *Subscriptions) Now() time.Time { return s.now().UTC() }

// ServicePage is one page of lines and the cursor of the next ("" on the last).
type ServicePage struct {
	Services []Subscription
	Next     string
	// DueDatesUnavailable: the billing system owning some of the page's lines (WHMCS) could not
	// be asked for their next due dates; those rows show the stored ones (none for WHMCS's).
	DueDatesUnavailable bool
}

// List lists a page of lines, soonest due first. dueWithin counts from now (business time). The
// order and the dueWithin filter are the stored dates'; a line another billing system owns
// (WHMCS's, no stored date: last) shows that system's date (DueDates, once per distinct client).
func (s *Subscriptions) List(ctx context.Context, f ServiceFilter, dueWithin *time.Duration, cursor string) (ServicePage, error) {
	return s.list(ctx, f, dueWithin, cursor, true)
}

// list is List; due false leaves the stored dates (an export: no billing-system read per page).
func (s *Subscriptions) list(ctx context.Context, f ServiceFilter, dueWithin *time.Duration, cursor string, due bool) (ServicePage, error) {
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		key, id, ok := strings.Cut(string(b), "|")
		if err != nil || !ok || key == "" || id == "" {
			return ServicePage{}, ErrBadCursor
		}
		f.AfterKey, f.AfterID = key, id
	}
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	now := s.Now()
	if dueWithin != nil {
		f.DueBy = now.Add(*dueWithin)
	}
	want := f.Limit
	f.Limit++ // one more tells whether a next page exists
	rows, err := s.store.ListServices(ctx, f)
	if err != nil {
		return ServicePage{}, fmt.Errorf("list services: %w", err)
	}
	p := ServicePage{Services: []Subscription{}}
	if len(rows) > want {
		rows = rows[:want]
		last := rows[want-1]
		p.Next = base64.RawURLEncoding.EncodeToString([]byte(last.SortKey + "|" + last.ID))
	}
	// After the page is cut (the cursor is the stored order's), before the rows derive their
	// renewal from the date.
	if due {
		p.DueDatesUnavailable = s.fillDue(ctx, rows)
	}
	for _, r := range rows {
		sub, err := s.subscription(ctx, r, now)
		if err != nil {
			return ServicePage{}, err
		}
		p.Services = append(p.Services, sub)
	}
	return p, nil
}

// running reports whether the line is Active, Overdue or Suspended.
func running(v order.Service) bool {
	for _, st := range Running {
		if v.Status == st {
			return true
		}
	}
	return false
}

// subscription completes a row as the buyer's GET /services shows its renewal.
func (s *Subscriptions) subscription(ctx context.Context, r ServiceRow, now time.Time) (Subscription, error) {
	sub := Subscription{ServiceRow: r}
	renewing := running(r.Service) && !r.Trial && !r.NextDueDate.IsZero()
	sub.AutoRenew = renewing && r.Service.AutoRenew
	sub.RenewsWithCard = sub.AutoRenew && r.SavedCard
	if !renewing && !r.Trial {
		sub.RenewalInvoiceID, sub.RenewalOrderID = "", ""
	}
	if sub.RenewsWithCard && sub.RenewalOrderID != "" {
		failed, err := s.renewals.FailedCharge(ctx, sub.RenewalOrderID)
		if err != nil {
			return Subscription{}, fmt.Errorf("service %s: %w", r.ID, err)
		}
		sub.RenewalCardCharge = failed
	}
	if running(r.Service) && !r.NextDueDate.IsZero() && now.After(r.NextDueDate) {
		sub.OverdueDays = int(now.Sub(r.NextDueDate) / (24 * time.Hour))
	}
	if renewing {
		amount, ok, err := s.renewals.RecurringAmount(ctx, r.Service)
		if err != nil {
			return Subscription{}, fmt.Errorf("service %s: %w", r.ID, err)
		}
		if ok {
			sub.Recurring = &amount
		}
	}
	return sub, nil
}

// Get reads one line as the list shows it; ErrNotFound when none.
func (s *Subscriptions) Get(ctx context.Context, id string) (Subscription, error) {
	r, err := s.store.ServiceRow(ctx, id)
	if err != nil {
		return Subscription{}, err
	}
	rows := []ServiceRow{r}
	s.fillDue(ctx, rows)
	return s.subscription(ctx, rows[0], s.Now())
}

// SetAutoRenew turns the buyer's auto-renew off or on through the buyer's own code path
// (renewal.CancelAutoRenew, ResumeAutoRenew): a refusal there (already so, not renewable) is its
// error, and nothing changed.
func (s *Subscriptions) SetAutoRenew(ctx context.Context, id string, on bool) (Subscription, error) {
	r, err := s.store.ServiceRow(ctx, id)
	if err != nil {
		return Subscription{}, err
	}
	change := s.renewals.CancelAutoRenew
	if on {
		change = s.renewals.ResumeAutoRenew
	}
	if _, err := change(ctx, r.Service); err != nil {
		return Subscription{}, err
	}
	return s.Get(ctx, id)
}

// RenewalLink mails the buyer the pay link of the line's open renewal invoice; it answers whom
// it went to and the invoice.
func (s *Subscriptions) RenewalLink(ctx context.Context, id string) (sentTo, invoiceID string, err error) {
	r, err := s.store.ServiceRow(ctx, id)
	if err != nil {
		return "", "", err
	}
	o, err := s.links.Send(ctx, r.Service)
	if err != nil {
		return "", "", err
	}
	return o.Email, o.Invoice.ID, nil
}

// All lists every line the filter selects, in the list's order, at most max (the CSV export).
func (s *Subscriptions) All(ctx context.Context, f ServiceFilter, dueWithin *time.Duration, max int) ([]Subscription, error) {
	var out []Subscription
	cursor := ""
	for {
		f.Limit = 200
		// The stored dates: an export of thousands of lines does not read WHMCS per client.
		p, err := s.list(ctx, f, dueWithin, cursor, false)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Services...)
		if p.Next == "" || len(out) >= max {
			if len(out) > max {
				out = out[:max]
			}
			return out, nil
		}
		cursor = p.Next
	}
}
