package httpapi

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/operator"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/planchange"
	"github.com/streamcart/streamcart/api/revenue"
	genadminaudit "github.com/streamcart/streamcart/gen/admin_audit"
	genadmincatalog "github.com/streamcart/streamcart/gen/admin_catalog"
	genadmincustomers "github.com/streamcart/streamcart/gen/admin_customers"
	genadminjobs "github.com/streamcart/streamcart/gen/admin_jobs"
	genadminmail "github.com/streamcart/streamcart/gen/admin_mail"
	genadminoperators "github.com/streamcart/streamcart/gen/admin_operators"
	genadminorderactions "github.com/streamcart/streamcart/gen/admin_order_actions"
	genadminorders "github.com/streamcart/streamcart/gen/admin_orders"
	genadminpanel "github.com/streamcart/streamcart/gen/admin_panel"
	genadminpayments "github.com/streamcart/streamcart/gen/admin_payments"
	genadminpromotions "github.com/streamcart/streamcart/gen/admin_promotions"
	genadminservices "github.com/streamcart/streamcart/gen/admin_services"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
	genadminsettings "github.com/streamcart/streamcart/gen/admin_settings"
	genadminsummary "github.com/streamcart/streamcart/gen/admin_summary"
	genadminwebhooks "github.com/streamcart/streamcart/gen/admin_webhooks"
	adminauditsrv "github.com/streamcart/streamcart/gen/http/admin_audit/server"
	admincatalogsrv "github.com/streamcart/streamcart/gen/http/admin_catalog/server"
	admincustomerssrv "github.com/streamcart/streamcart/gen/http/admin_customers/server"
	adminjobssrv "github.com/streamcart/streamcart/gen/http/admin_jobs/server"
	adminmailsrv "github.com/streamcart/streamcart/gen/http/admin_mail/server"
	adminoperatorssrv "github.com/streamcart/streamcart/gen/http/admin_operators/server"
	adminorderactionssrv "github.com/streamcart/streamcart/gen/http/admin_order_actions/server"
	adminorderssrv "github.com/streamcart/streamcart/gen/http/admin_orders/server"
	adminpanelsrv "github.com/streamcart/streamcart/gen/http/admin_panel/server"
	adminpaymentssrv "github.com/streamcart/streamcart/gen/http/admin_payments/server"
	adminpromotionssrv "github.com/streamcart/streamcart/gen/http/admin_promotions/server"
	adminservicessrv "github.com/streamcart/streamcart/gen/http/admin_services/server"
	adminsessionsrv "github.com/streamcart/streamcart/gen/http/admin_session/server"
	adminsettingssrv "github.com/streamcart/streamcart/gen/http/admin_settings/server"
	adminsummarysrv "github.com/streamcart/streamcart/gen/http/admin_summary/server"
	adminwebhookssrv "github.com/streamcart/streamcart/gen/http/admin_webhooks/server"
)

// Console messages.
const (
	msgOperatorUnauthorized = "Please sign in to the console."
	msgForbidden            = "Your role does not allow this."
	msgCSRF                 = "This change lacks the session's X-CSRF-Token header. Please reload the console."
	msgSetupToken           = "This setup link is unknown, used or expired. Please ask an owner for a new one."
	msgOperatorPassword     = "Please choose a password of at least 12 characters."
	msgOperatorLongPassword = "Please choose a password of at most 72 bytes."
	msgInvalidOTP           = "This code is not the authenticator's current one."
	msgSetupNotBegun        = "Please choose a password first."
	msgOperatorCredentials  = "Wrong email, password or code."
	msgOperatorLocked       = "Too many sign-in attempts from your address. Please wait and try again."
	msgBadDate              = "Dates are RFC 3339 or YYYY-MM-DD."
	msgBadCursor            = "This cursor is not one of ours: start from the first page."
	msgNoOrder              = "No such order."
	msgNoJob                = "No such job."
	msgNoSuchGateway        = "No gateway of that name is configured."
	msgBadKind              = "Kinds of orders are plan, trial, renewal, upsell and reseller."
)

// AdminCookie is the console session's cookie.
const AdminCookie = "streamcart_admin"

// masked stands for a line credential a viewer may not read.
const masked = "••••"

// Admin is what the console API is built from; nil Operators: no console.
type Admin struct {
	Operators *operator.Operators
	Console   *console.Console
	Actions   *console.Actions
	Authz     *authz.Authorizer
	Audit     *audit.Log
	// PublicURL is the shop's address, for the setup links of invited operators.
	PublicURL string
	Catalog   CatalogAdmin
	// Payments are the payments to review (nil: the console lists none and acts on none).
	Payments Payments
	// Revenue is the dashboard's subscription figures (nil: all zero).
	Revenue interface {
		Figures(ctx context.Context, from time.Time) (revenue.Figures, error)
	}
	// Subscriptions is the list of lines and their renewal actions (nil: none).
	Subscriptions *console.Subscriptions
	// Panel is the line drift and the credit balance (nil: none recorded, no balance).
	Panel PanelAdmin
	// Changes changes lines' plans, cycles, connections and due dates (nil: none).
	Changes *planchange.Changes
	// Settings are the settings in force, masked (nil: none listed).
	Settings func() []config.InForce
}

// CatalogAdmin keeps the catalog's versions and edits its promotions.
type CatalogAdmin interface {
	Current(ctx context.Context) (console.CatalogVersion, []byte, error)
	// Save validates and saves a new version; a bad source is a *catalog.ValidationError.
	Save(ctx context.Context, source []byte, operator, comment string) (console.CatalogVersion, error)
	// Publish is Save made from base (the SHA-256 of the catalog the draft started from; "" for
	// none): console.ErrStale when another is in force.
	Publish(ctx context.Context, source []byte, operator, comment, base string) (console.CatalogVersion, error)
	// Check validates as Save, changing nothing.
	Check(ctx context.Context, source []byte) error
	// Form is the catalog in force as the console's form edits it.
	Form(ctx context.Context) (console.Form, error)
	// Draft writes a form into a source and diffs it against the catalog in force.
	Draft(ctx context.Context, source []byte, f *console.Form) ([]byte, string, string, error)
	PromoStatus(p catalog.Promotion) string
	Versions(ctx context.Context) ([]console.CatalogVersion, error)
	Version(ctx context.Context, n int64) (console.CatalogVersion, []byte, error)
	Catalog() *catalog.Catalog
	PromoUses(ctx context.Context, code string) (int, error)
	EditPromotion(ctx context.Context, code string, add bool, ch console.PromotionChange, operator string) (console.CatalogVersion, error)
}

// admin is the shared part of the admin services: the cookie's authenticator and the role check.
type admin struct {
	Admin
}

// signedIn reads the console cookie's session (401 unauthorized without a live one). A
// client's Bearer token is never looked at.
func (a admin) signedIn(ctx context.Context, cookie *string) (operator.Principal, error) {
	p, err := a.Operators.Authenticate(ctx, deref(cookie))
	if errors.Is(err, operator.ErrUnauthorized) {
		return p, genadminorders.MakeUnauthorized(errors.New(msgOperatorUnauthorized))
	}
	return p, err
}

// allow answers 401 without a session and 403 forbidden unless its operator's role may do action.
func (a admin) allow(ctx context.Context, cookie *string, action string) (operator.Principal, error) {
	p, err := a.signedIn(ctx, cookie)
	if err != nil {
		return p, err
	}
	if !a.Authz.OperatorAllowed(string(p.Role), action) {
		return p, genadminorders.MakeForbidden(errors.New(msgForbidden))
	}
	return p, nil
}

// mountAdmin mounts the console's services.
func mountAdmin(mux goahttp.Muxer, d Admin, dec func(*http.Request) goahttp.Decoder,
	enc func(context.Context, http.ResponseWriter) goahttp.Encoder, errh func(context.Context, http.ResponseWriter, error),
	hide func(goa.Endpoint) goa.Endpoint) {
	a := admin{d}
	se := genadminsession.NewEndpoints(adminSession{a})
	se.Use(hide)
	adminsessionsrv.Mount(mux, adminsessionsrv.New(se, mux, dec, enc, errh, formatError))
	oe := genadminorders.NewEndpoints(adminOrders{a})
	oe.Use(hide)
	adminorderssrv.Mount(mux, adminorderssrv.New(oe, mux, dec, enc, errh, formatError))
	me := genadminsummary.NewEndpoints(adminSummary{a})
	me.Use(hide)
	adminsummarysrv.Mount(mux, adminsummarysrv.New(me, mux, dec, enc, errh, formatError))
	je := genadminjobs.NewEndpoints(adminJobs{a})
	je.Use(hide)
	adminjobssrv.Mount(mux, adminjobssrv.New(je, mux, dec, enc, errh, formatError))
	{
		e := genadminorderactions.NewEndpoints(adminOrderActions{a})
		e.Use(hide)
		// An approval without a body is {}: mode request-payment, as before modes it was one click.
		adminorderactionssrv.Mount(mux, adminorderactionssrv.New(e, mux, emptyAsObject(dec), enc, errh, formatError))
	}
	{
		e := genadmincustomers.NewEndpoints(adminCustomers{a})
		e.Use(hide)
		admincustomerssrv.Mount(mux, admincustomerssrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminservices.NewEndpoints(adminServices{a})
		e.Use(hide)
		adminservicessrv.Mount(mux, adminservicessrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminmail.NewEndpoints(adminMail{a})
		e.Use(hide)
		adminmailsrv.Mount(mux, adminmailsrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminwebhooks.NewEndpoints(adminWebhooks{a})
		e.Use(hide)
		adminwebhookssrv.Mount(mux, adminwebhookssrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadmincatalog.NewEndpoints(adminCatalog{a})
		e.Use(hide)
		admincatalogsrv.Mount(mux, admincatalogsrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminpromotions.NewEndpoints(adminPromotions{a})
		e.Use(hide)
		adminpromotionssrv.Mount(mux, adminpromotionssrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminpanel.NewEndpoints(adminPanel{a})
		e.Use(hide)
		adminpanelsrv.Mount(mux, adminpanelsrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminaudit.NewEndpoints(adminAudit{a})
		e.Use(hide)
		adminauditsrv.Mount(mux, adminauditsrv.New(e, mux, dec, enc, errh, formatError))
	}
	if d.Payments != nil {
		e := genadminpayments.NewEndpoints(adminPayments{a})
		e.Use(hide)
		adminpaymentssrv.Mount(mux, adminpaymentssrv.New(e, mux, emptyAsObject(dec), enc, errh, formatError))
	}
	{
		e := genadminsettings.NewEndpoints(adminSettings{a})
		e.Use(hide)
		adminsettingssrv.Mount(mux, adminsettingssrv.New(e, mux, dec, enc, errh, formatError))
	}
	{
		e := genadminoperators.NewEndpoints(adminOperators{a})
		e.Use(hide)
		adminoperatorssrv.Mount(mux, adminoperatorssrv.New(e, mux, dec, enc, errh, formatError))
	}
}

// --- adminSession ---

type adminSession struct{ admin }

func (s adminSession) Setup(ctx context.Context, p *genadminsession.SetupPayload) (*genadminsession.SetupResult, error) {
	en, err := s.Operators.Setup(ctx, p.Token, p.Password)
	if err != nil {
		return nil, operatorError(err)
	}
	return &genadminsession.SetupResult{TotpSecret: en.Secret, OtpauthURL: en.URL}, nil
}

func (s adminSession) ConfirmSetup(ctx context.Context, p *genadminsession.ConfirmSetupPayload) error {
	return operatorError(s.Operators.Confirm(ctx, p.Token, p.Otp))
}

func (s adminSession) Create(ctx context.Context, p *genadminsession.CreatePayload) (*genadminsession.CreateResult, error) {
	in, err := s.Operators.SignIn(ctx, p.Email, p.Password, p.Otp, clientIP(ctx).String())
	if err != nil {
		var r *operator.Refusal
		if errors.As(err, &r) && r.Audit {
			s.Audit.RecordSignInFailure(ctx, r.Email, r.IP, r.Reason)
		}
		return nil, operatorError(err)
	}
	s.Audit.RecordSignIn(ctx, in.Principal.Email, clientIP(ctx).String())
	return &genadminsession.CreateResult{Session: in.Token, Operator: in.Principal.Email, Role: string(in.Principal.Role),
		CsrfToken: in.CSRF, ExpiresAt: in.ExpiresAt.UTC().Format(time.RFC3339), Billing: s.billing()}, nil
}

func (s adminSession) Get(ctx context.Context, p *genadminsession.GetPayload) (*genadminsession.AdminSessionResult, error) {
	pr, err := s.signedIn(ctx, p.Session)
	if err != nil {
		return nil, err
	}
	token := deref(p.Session)
	return &genadminsession.AdminSessionResult{Operator: pr.Email, Role: string(pr.Role), CsrfToken: operator.CSRFToken(token),
		ExpiresAt: rfc3339(pr.ExpiresAt), Billing: s.billing()}, nil
}

// billing is who bills the lines, as the design names it: the console offers extend and change
// only when it is this shop.
func (s adminSession) billing() string {
	if s.Actions != nil && s.Actions.BilledIn() != "" {
		return strings.ToLower(s.Actions.BilledIn())
	}
	return "builtin"
}

func (s adminSession) Delete(ctx context.Context, p *genadminsession.DeletePayload) (*genadminsession.DeleteResult, error) {
	pr, err := s.signedIn(ctx, p.Session)
	if err != nil {
		return nil, err
	}
	err = s.Operators.SignOut(ctx, pr)
	s.Audit.RecordOperator(ctx, pr.Email, "console-signout", "operator:"+pr.Email, "", err)
	if err != nil {
		return nil, err
	}
	return &genadminsession.DeleteResult{Session: new(string)}, nil
}

func operatorError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, operator.ErrInvalidSetup):
		return genadminsession.MakeInvalidSetupToken(errors.New(msgSetupToken))
	case errors.Is(err, operator.ErrWeakPassword):
		return genadminsession.MakeWeakPassword(errors.New(msgOperatorPassword))
	case errors.Is(err, operator.ErrLongPassword):
		return genadminsession.MakeBadRequest(errors.New(msgOperatorLongPassword))
	case errors.Is(err, operator.ErrInvalidOTP):
		return genadminsession.MakeInvalidOtp(errors.New(msgInvalidOTP))
	case errors.Is(err, operator.ErrSetupNotBegun):
		return genadminsession.MakeConflict(errors.New(msgSetupNotBegun))
	case errors.Is(err, operator.ErrInvalidCredentials):
		return genadminsession.MakeInvalidCredentials(errors.New(msgOperatorCredentials))
	case errors.Is(err, operator.ErrTooManyAttempts):
		wait := operator.AddressWindow
		var t *operator.ThrottledError
		if errors.As(err, &t) {
			wait = t.RetryAfter
		}
		return &genadminsession.TooManyAttempts{Name: "too_many_attempts", Message: msgOperatorLocked, RetryAfter: int((wait + time.Second - 1) / time.Second)}
	}
	return err
}

// --- adminOrders ---

type adminOrders struct{ admin }

func (s adminOrders) List(ctx context.Context, p *genadminorders.ListPayload) (*genadminorders.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	f := console.OrderFilter{Status: deref(p.Status), Gateway: deref(p.Gateway), Kind: deref(p.Kind), Q: deref(p.Q), Limit: p.Limit}
	gateways := s.gateways()
	if f.Gateway != "" && !slices.Contains(gateways, f.Gateway) {
		return nil, genadminorders.MakeBadRequest(errors.New(msgNoSuchGateway))
	}
	var err error
	if f.From, err = console.ParseTime(deref(p.From)); err != nil {
		return nil, genadminorders.MakeBadRequest(errors.New(msgBadDate))
	}
	if f.To, err = console.ParseTime(deref(p.To)); err != nil {
		return nil, genadminorders.MakeBadRequest(errors.New(msgBadDate))
	}
	page, err := s.Console.Orders(ctx, f, deref(p.Cursor))
	if errors.Is(err, console.ErrBadKind) {
		return nil, genadminorders.MakeBadRequest(errors.New(msgBadKind))
	}
	if errors.Is(err, console.ErrBadCursor) {
		return nil, genadminorders.MakeBadRequest(errors.New(msgBadCursor))
	}
	if err != nil {
		return nil, err
	}
	res := &genadminorders.ListResult{Orders: []*genadminorders.AdminOrder{}, NextCursor: page.Next, Gateways: gateways}
	for _, o := range page.Orders {
		res.Orders = append(res.Orders, adminOrder(o))
	}
	return res, nil
}

func (s adminOrders) Get(ctx context.Context, p *genadminorders.GetPayload) (*genadminorders.GetResult, error) {
	pr, err := s.allow(ctx, p.Session, authz.OpRead)
	if err != nil {
		return nil, err
	}
	d, err := s.Console.Order(ctx, p.ID)
	if errors.Is(err, console.ErrNotFound) {
		return nil, genadminorders.MakeNotFound(errors.New(msgNoOrder))
	}
	if err != nil {
		return nil, err
	}
	creds := s.Authz.OperatorAllowed(string(pr.Role), authz.OpReadCredentials)
	res := &genadminorders.GetResult{Order: adminOrder(d.Order), Kind: d.Order.Kind, Items: []*genadminorders.AdminOrderItem{},
		Refunded: ordersMoney(d.Order.RefundedMoney()), Net: ordersMoney(d.Order.Net()),
		Lines: []*genadminorders.AdminLine{}, Timeline: []*genadminorders.AdminTimelineEvent{}}
	for _, it := range d.Items {
		res.Items = append(res.Items, &genadminorders.AdminOrderItem{Kind: it.Kind, Description: it.Description, Args: append([]string{}, it.Args...), Quantity: it.Quantity,
			UnitAmount: ordersMoney(it.Unit), Amount: ordersMoney(it.Amount)})
	}
	if t := d.Tax; t != nil {
		res.Tax = &genadminorders.AdminOrderTax{Country: t.Country, Rate: t.Rate, Amount: ordersMoney(money.Money{Amount: t.Amount, Currency: t.Currency}),
			PricesIncludeTax: t.Included}
		res.BeforeTax = ordersMoney(d.BeforeTax)
	}
	if h := d.Hold; h != nil {
		res.Hold = &genadminorders.AdminHold{Rules: []*genadminorders.AdminHoldRule{}, IP: h.IP, Country: h.Country, OrdersFromIP: h.OrdersFromIP}
		for _, r := range h.Rules {
			res.Hold.Rules = append(res.Hold.Rules, &genadminorders.AdminHoldRule{Rule: r.Rule, Value: r.Value, Limit: r.Limit})
		}
	}
	for _, l := range d.Lines {
		res.Lines = append(res.Lines, adminLine(l, creds))
	}
	for _, e := range d.Timeline {
		args := e.Args
		if args == nil {
			args = []string{}
		}
		res.Timeline = append(res.Timeline, &genadminorders.AdminTimelineEvent{At: rfc3339(e.At), Kind: e.Kind, Summary: e.Summary, Outcome: e.Outcome, Detail: e.Detail, Args: args})
	}
	return res, nil
}

func adminOrder(o console.OrderRow) *genadminorders.AdminOrder {
	return &genadminorders.AdminOrder{ID: o.ID, Kind: o.Kind, Status: o.Status, Email: o.Email, CustomerID: o.CustomerID,
		Total: &genadminorders.Money{Amount: o.Total.Amount, Currency: o.Total.Currency}, Gateway: o.Gateway,
		InvoiceID: o.InvoiceID, InvoiceStatus: o.InvoiceStatus, PromoCode: o.PromoCode, CreatedAt: rfc3339(o.CreatedAt), PaidAt: rfc3339(o.PaidAt),
		Product: o.Product, Refunded: ordersMoney(o.RefundedMoney()), Net: ordersMoney(o.Net())}
}

func ordersMoney(m money.Money) *genadminorders.Money {
	return &genadminorders.Money{Amount: m.Amount, Currency: m.Currency}
}

// adminLine is a line for the console; its credentials masked unless creds.
func adminLine(v order.Service, creds bool) *genadminorders.AdminLine {
	l := &genadminorders.AdminLine{ServiceID: v.ID, OrderID: v.OrderID, Pid: v.PID, Name: v.Name, Status: string(v.Status),
		Username: v.Username, Password: v.Password, ExpiresAt: rfc3339(v.ExpiresAt)}
	if !v.NextDueDate.IsZero() {
		l.NextDueDate = v.NextDueDate.UTC().Format(time.DateOnly)
	}
	if !creds {
		l.Username, l.Password = masked, masked
	}
	return l
}

// --- adminSummary ---

type adminSummary struct{ admin }

func (s adminSummary) Get(ctx context.Context, p *genadminsummary.GetPayload) (*genadminsummary.GetResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	sum, err := s.Console.Summary(ctx, p.Days)
	if err != nil {
		return nil, err
	}
	money := func(ms []money.Money) []*genadminsummary.Money {
		out := []*genadminsummary.Money{}
		for _, m := range ms {
			out = append(out, &genadminsummary.Money{Amount: m.Amount, Currency: m.Currency})
		}
		return out
	}
	res := &genadminsummary.GetResult{From: rfc3339(sum.From), Orders: sum.Orders, PaidRevenue: money(sum.PaidRevenue),
		RefundedRevenue: money(sum.Refunded), NetRevenue: money(sum.NetRevenue),
		NewCustomers: sum.NewCustomers, FailedPayments: sum.FailedPayments, ActiveLines: sum.ActiveLines,
		RenewalsDue7d: sum.RenewalsDue7d, HeldOrders: sum.HeldOrders, FailedJobs: sum.FailedJobs, DeadJobs: sum.DeadJobs,
		FailedMails: sum.FailedMails, StoredMails: sum.StoredMails, MoneyToReview: sum.MoneyToReview, PaidNotActive: sum.PaidNotActive,
		Series: []*genadminsummary.AdminDay{}}
	for _, d := range sum.Series {
		res.Series = append(res.Series, &genadminsummary.AdminDay{Date: d.Date, Orders: d.Orders, PaidRevenue: money(d.PaidRevenue),
			Refunded: money(d.Refunded), NetRevenue: money(d.NetRevenue)})
	}
	var fig revenue.Figures
	if s.Revenue != nil {
		if fig, err = s.Revenue.Figures(ctx, sum.From); err != nil {
			return nil, err
		}
	}
	count := func(c revenue.Count) *genadminsummary.AdminCount {
		return &genadminsummary.AdminCount{Count: c.Count, Amount: &genadminsummary.Money{Amount: c.Amount.Amount, Currency: c.Amount.Currency}}
	}
	res.Mrr = &genadminsummary.Money{Amount: fig.MRR.Amount, Currency: fig.MRR.Currency}
	res.ActiveSubscriptions, res.Churn30d = fig.ActiveSubscriptions, fig.Churn30d
	res.RenewalsDue = &genadminsummary.AdminRenewalsDue{Days7: count(fig.Due7), Days30: count(fig.Due30)}
	res.FailedRenewals, res.Refunds = fig.FailedRenewals, count(fig.Refunds)
	return res, nil
}

// --- adminJobs ---

type adminJobs struct{ admin }

func (s adminJobs) List(ctx context.Context, p *genadminjobs.ListPayload) (*genadminjobs.ListResult, error) {
	if _, err := s.allow(ctx, p.Session, authz.OpRead); err != nil {
		return nil, err
	}
	jobs, err := s.Console.Jobs(ctx, deref(p.State), p.Limit)
	if err != nil {
		return nil, err
	}
	res := &genadminjobs.ListResult{Jobs: []*genadminjobs.AdminJob{}}
	for _, j := range jobs {
		res.Jobs = append(res.Jobs, adminJob(j))
	}
	return res, nil
}

func (s adminJobs) Retry(ctx context.Context, p *genadminjobs.RetryPayload) (*genadminjobs.AdminJob, error) {
	return s.act(ctx, p.Session, authz.OpRetryJob, "job-retry", p.ID, s.Console.RetryJob)
}

func (s adminJobs) Cancel(ctx context.Context, p *genadminjobs.CancelPayload) (*genadminjobs.AdminJob, error) {
	return s.act(ctx, p.Session, authz.OpCancelJob, "job-cancel", p.ID, s.Console.CancelJob)
}

func (s adminJobs) act(ctx context.Context, cookie *string, action, name string, id int64, do func(context.Context, int64) (console.Job, error)) (*genadminjobs.AdminJob, error) {
	pr, err := s.allow(ctx, cookie, action)
	if err != nil {
		return nil, err
	}
	j, err := do(ctx, id)
	s.Audit.RecordOperatorParts(ctx, pr.Email, name, "job:"+strconv.FormatInt(id, 10), j.Kind+" "+j.Ref, []string{audit.WordJob, j.Kind, j.Ref}, err)
	switch {
	case errors.Is(err, console.ErrNotFound):
		return nil, genadminjobs.MakeNotFound(errors.New(msgNoJob))
	case errors.Is(err, console.ErrJobState):
		return nil, genadminjobs.MakeConflict(errors.New("This job is " + j.State + ": it cannot be " + map[string]string{"job-retry": "retried", "job-cancel": "cancelled"}[name] + "."))
	case err != nil:
		return nil, err
	}
	return adminJob(j), nil
}

func adminJob(j console.Job) *genadminjobs.AdminJob {
	return &genadminjobs.AdminJob{ID: j.ID, Kind: j.Kind, Ref: j.Ref, State: j.State, Attempts: j.Attempts,
		RunAt: rfc3339(j.RunAt), LastError: j.LastError, UpdatedAt: rfc3339(j.UpdatedAt)}
}

// --- HTTP guards ---

// adminPrefix is where the console API lives.
const adminPrefix = "/checkout/api/admin/"

// csrfFree are the console's changes made before a session exists.
var csrfFree = map[string]bool{
	"POST " + adminPrefix + "setup":         true,
	"POST " + adminPrefix + "setup/confirm": true,
	"POST " + adminPrefix + "session":       true,
}

// guardAdmin refuses a console change whose X-CSRF-Token is not its cookie's (403
// invalid_csrf_token), before any decoding; a request without the cookie goes on to answer 401.
// On an https shop it marks the console cookie Secure.
func guardAdmin(next http.Handler, secure bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, adminPrefix) {
			next.ServeHTTP(w, r)
			return
		}
		if secure {
			w = secureCookies{w}
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if csrfFree[r.Method+" "+r.URL.Path] {
				break
			}
			if c, err := r.Cookie(AdminCookie); err == nil && c.Value != "" && !operator.CSRFMatches(c.Value, r.Header.Get("X-CSRF-Token")) {
				writeError(w, r, http.StatusForbidden, goa.PermanentError("invalid_csrf_token", msgCSRF))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// secureCookies adds Secure to the cookies a console answer sets.
type secureCookies struct{ http.ResponseWriter }

func (s secureCookies) WriteHeader(code int) {
	h := s.Header()
	for i, c := range h.Values("Set-Cookie") {
		if !strings.Contains(strings.ToLower(c), "; secure") {
			h["Set-Cookie"][i] = c + "; Secure"
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s secureCookies) Write(b []byte) (int, error) { return s.ResponseWriter.Write(b) }

func (s secureCookies) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// rfc3339 formats a time for an answer; "" for the zero time.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// gateways are the module names of the catalog's gateways: the orders' gateway filter's choices.
func (a admin) gateways() []string {
	out := []string{}
	if a.Catalog == nil {
		return out
	}
	if c := a.Catalog.Catalog(); c != nil {
		for _, g := range c.Gateways {
			out = append(out, g.Module)
		}
	}
	return out
}
