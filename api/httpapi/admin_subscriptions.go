package httpapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/renewal"
	gen "github.com/streamcart/streamcart/gen/admin_services"
)

const (
	msgBadServiceStatus = "status is one of Pending, Active, Overdue, Suspended, Cancelled, Terminated, Expired (any case)."
	msgBadDueWithin     = "dueWithin is a number followed by d (days) or h (hours), e.g. 14d or 12h, of at most 3660 days."
	msgNoOpenRenewal    = "This line has no open renewal invoice: there is no renewal link to send."
	msgNoSubscriptions  = "The subscriptions list is not available on this shop."
)

// ExportMaxRows bounds the CSV export of the subscriptions list.
const ExportMaxRows = 10000

// subscriptionFilter reads the list's and the export's filters (400 invalid_status,
// invalid_due_within).
func subscriptionFilter(status, q, dueWithin *string, autoRenew *bool, pid *int) (console.ServiceFilter, *time.Duration, error) {
	st, err := console.ParseServiceStatus(deref(status))
	if err != nil {
		return console.ServiceFilter{}, nil, gen.MakeInvalidStatus(errors.New(msgBadServiceStatus))
	}
	d, err := console.ParseDueWithin(deref(dueWithin))
	if err != nil {
		return console.ServiceFilter{}, nil, gen.MakeInvalidDueWithin(errors.New(msgBadDueWithin))
	}
	f := console.ServiceFilter{Status: st, Q: deref(q), AutoRenew: autoRenew}
	if pid != nil {
		f.PID = *pid
	}
	return f, d, nil
}

// subscriptions answers 401/403 as allow does, and 503 when the shop has no list.
// It answers the operator and whether they may read line credentials.
func (s adminServices) subscriptions(ctx context.Context, cookie *string, action string) (operator.Principal, bool, error) {
	pr, err := s.allow(ctx, cookie, action)
	if err != nil {
		return pr, false, err
	}
	if s.Subscriptions == nil {
		return pr, false, gen.MakeUnavailable(errors.New(msgNoSubscriptions))
	}
	return pr, s.Authz.OperatorAllowed(string(pr.Role), authz.OpReadCredentials), nil
}

func (s adminServices) List(ctx context.Context, p *gen.ListPayload) (*gen.ListResult, error) {
	_, creds, err := s.subscriptions(ctx, p.Session, authz.OpRead)
	if err != nil {
		return nil, err
	}
	f, d, err := subscriptionFilter(p.Status, p.Q, p.DueWithin, p.AutoRenew, p.Pid)
	if err != nil {
		return nil, err
	}
	f.Limit = p.Limit
	page, err := s.Subscriptions.List(ctx, f, d, deref(p.Cursor))
	if errors.Is(err, console.ErrBadCursor) {
		return nil, gen.MakeBadRequest(errors.New(msgBadCursor))
	}
	if err != nil {
		return nil, err
	}
	res := &gen.ListResult{Services: []*gen.AdminSubscription{}, NextCursor: page.Next}
	if page.DueDatesUnavailable {
		res.DueDatesUnavailable = &page.DueDatesUnavailable
	}
	for _, v := range page.Services {
		res.Services = append(res.Services, adminSubscription(v, creds))
	}
	return res, nil
}

func (s adminServices) Export(ctx context.Context, p *gen.ExportPayload) (*gen.ExportResult, io.ReadCloser, error) {
	_, creds, err := s.subscriptions(ctx, p.Session, authz.OpRead)
	if err != nil {
		return nil, nil, err
	}
	f, d, err := subscriptionFilter(p.Status, p.Q, p.DueWithin, p.AutoRenew, p.Pid)
	if err != nil {
		return nil, nil, err
	}
	all, err := s.Subscriptions.All(ctx, f, d, ExportMaxRows)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.UseCRLF = true
	_ = w.Write([]string{"serviceId", "customerId", "email", "pid", "plan", "billingCycle", "maxConnections", "status",
		"nextDueDate", "overdueDays", "autoRenew", "renewsWithCard", "renewalInvoiceId", "recurringAmount", "currency",
		"username", "macAddress"})
	for _, v := range all {
		r := adminSubscription(v, creds)
		amount, currency := "", ""
		if r.RecurringAmount != nil {
			amount, currency = strconv.FormatInt(r.RecurringAmount.Amount, 10), r.RecurringAmount.Currency
		}
		row := []string{r.ServiceID, r.Customer.ID, r.Customer.Email, strconv.Itoa(r.Pid), r.Plan, r.BillingCycle,
			strconv.Itoa(r.MaxConnections), r.Status, r.NextDueDate, strconv.Itoa(r.OverdueDays), strconv.FormatBool(r.AutoRenew),
			strconv.FormatBool(r.RenewsWithCard), deref(r.RenewalInvoiceID), amount, currency, r.Username, r.MacAddress}
		for i, c := range row {
			row[i] = csvSafe(c)
		}
		_ = w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, nil, err
	}
	name := "subscriptions-" + s.Subscriptions.Now().Format("2006-01-02") + ".csv"
	return &gen.ExportResult{ContentType: "text/csv; charset=utf-8", ContentDisposition: `attachment; filename="` + name + `"`},
		io.NopCloser(&buf), nil
}

// csvSafe keeps a spreadsheet from running a cell as a formula: a buyer typed the email and
// the MAC address, and a cell starting with = + - @ (or a tab or CR) gets a leading '.
func csvSafe(c string) string {
	if c != "" {
		switch c[0] {
		case '=', '+', '-', '@', '\t', '\r':
			return "'" + c
		}
	}
	return c
}

func (s adminServices) Cancel(ctx context.Context, p *gen.CancelPayload) (*gen.AdminSubscription, error) {
	return s.autoRenew(ctx, p.Session, p.ID, false)
}

func (s adminServices) Resume(ctx context.Context, p *gen.ResumePayload) (*gen.AdminSubscription, error) {
	return s.autoRenew(ctx, p.Session, p.ID, true)
}

// autoRenew turns the buyer's auto-renew off or on, through the buyer's own code path. Only a
// change made is audited: of 40 concurrent cancels, one applies and is logged, the others
// answer 409 and changed nothing.
func (s adminServices) autoRenew(ctx context.Context, cookie *string, id string, on bool) (*gen.AdminSubscription, error) {
	pr, creds, err := s.subscriptions(ctx, cookie, authz.OpManageLine)
	if err != nil {
		return nil, err
	}
	action, refused := "cancel-auto-renew", msgNotCancellable
	if on {
		action, refused = "resume-auto-renew", msgNotResumable
	}
	v, err := s.Subscriptions.SetAutoRenew(ctx, id, on)
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, gen.MakeNotFound(errors.New(msgNoLine))
	case errors.Is(err, renewal.ErrNotRenewable):
		return nil, gen.MakeConflict(errors.New(refused))
	case err != nil:
		return nil, err
	}
	s.Audit.RecordOperator(ctx, pr.Email, action, id, "", nil)
	return adminSubscription(v, creds), nil
}

func (s adminServices) RenewalLink(ctx context.Context, p *gen.RenewalLinkPayload) (*gen.RenewalLinkResult, error) {
	pr, _, err := s.subscriptions(ctx, p.Session, authz.OpManageLine)
	if err != nil {
		return nil, err
	}
	to, invoice, err := s.Subscriptions.RenewalLink(ctx, p.ID)
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, gen.MakeNotFound(errors.New(msgNoLine))
	case errors.Is(err, renewal.ErrNoOpenRenewal):
		return nil, gen.MakeNoOpenRenewal(errors.New(msgNoOpenRenewal))
	}
	s.Audit.RecordOperator(ctx, pr.Email, "renewal-link", p.ID, invoice, err)
	if err != nil {
		return nil, err
	}
	return &gen.RenewalLinkResult{SentTo: to, InvoiceID: invoice}, nil
}

// adminSubscription is a line for the Subscriptions list; its username masked unless creds.
func adminSubscription(v console.Subscription, creds bool) *gen.AdminSubscription {
	r := &gen.AdminSubscription{ServiceID: v.ID, Pid: v.PID, Plan: v.Name, BillingCycle: v.BillingCycle,
		MaxConnections: v.MaxConnections, Status: string(v.Status), OverdueDays: v.OverdueDays, AutoRenew: v.AutoRenew,
		RenewsWithCard: v.RenewsWithCard, Username: v.Username, MacAddress: v.MACAddress}
	r.Customer = &struct {
		ID    string
		Email string
	}{ID: v.CustomerID, Email: v.Email}
	if !v.NextDueDate.IsZero() {
		r.NextDueDate = v.NextDueDate.UTC().Format(time.DateOnly)
	}
	if v.RenewalInvoiceID != "" {
		id := v.RenewalInvoiceID
		r.RenewalInvoiceID = &id
	}
	if v.RenewalCardCharge != "" {
		failed := v.RenewalCardCharge
		r.RenewalCardCharge = &failed
	}
	if v.Recurring != nil {
		r.RecurringAmount = &gen.Money{Amount: v.Recurring.Amount, Currency: v.Recurring.Currency}
	}
	if !creds {
		r.Username = masked
	}
	return r
}
