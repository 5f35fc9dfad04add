package whmcsorder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/refund"
	"github.com/streamcart/streamcart/api/upsell"
	"github.com/streamcart/streamcart/api/whmcs"
)

// The job kinds of a paid WHMCS order, each queued by the one before, each retried with the
// worker's backoff while WHMCS is unreachable (their ref is the order id).
const (
	// JobRecordPayment records the buyer's payment on the WHMCS invoice (AddInvoicePayment with
	// the provider's transaction id), after GetInvoice and GetTransactions show it is not there.
	JobRecordPayment = "whmcs-record-payment"
	// JobAcceptOrder accepts the WHMCS order (AcceptOrder), running the module's CreateAccount
	// only on services WHMCS's automation did not set up on payment.
	JobAcceptOrder = "whmcs-accept-order"
	// JobAwaitLine reads the WHMCS services (GetClientsProducts) until each is Active with its
	// credentials, copies them to our services and makes the order active.
	JobAwaitLine = "whmcs-await-line"
	// JobTakeBack ends a fully refunded order's WHMCS services (ModuleTerminate; a service
	// without a line is set Cancelled) and makes sure each of its refunds is recorded
	// (JobRecordRefund).
	JobTakeBack = "whmcs-take-back"
	// JobChangePackage runs the module's ChangePackage on the WHMCS service a refunded upsell
	// added connections to, once its extra connections option was set back (JobTakeBack): the
	// panel line follows. Its ref is the upsell's order id.
	JobChangePackage = "whmcs-change-package"
	// JobRecordRefund records one refund, partial or full, on its order's WHMCS invoice
	// (AddTransaction paying out, after GetTransactions shows it is not there), once per refund;
	// its ref is "<order id>/<refund id>".
	JobRecordRefund = "whmcs-record-refund"
)

// Kinds are the job kinds of this package (order.JobUpstreamCancel is order's).
var Kinds = []string{JobRecordPayment, JobAcceptOrder, JobAwaitLine, JobTakeBack, JobRecordRefund, JobChangePackage}

// ErrPaymentNotRecorded retries JobRecordRefund: the payment the refund gives back is not on the
// WHMCS invoice yet (JobRecordPayment has not run): a refund recorded before it would stand alone.
var ErrPaymentNotRecorded = errors.New("whmcs: payment not recorded in WHMCS yet")

// ErrLineNotReady retries JobAwaitLine: WHMCS's module has not made the line yet.
var ErrLineNotReady = errors.New("whmcs: line not ready yet")

// HomeStore is what fulfilling a WHMCS order reads and writes.
type HomeStore interface {
	Order(ctx context.Context, id string) (order.Order, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
	UpdateService(ctx context.Context, s order.Service) error
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
	CancelOrderLines(ctx context.Context, orderID string, at time.Time) (int, error)
	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	Placement(ctx context.Context, orderID string) (Placement, error)
	SavePlacement(ctx context.Context, p Placement) error
	WHMCSOrderTaken(ctx context.Context, whmcsOrder int) (bool, error)
	UpgradeLeases
	OrderRefunds(ctx context.Context, orderID string) ([]refund.Refund, error)
	ApplyUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, error)
	// ReverseUpsell takes a refunded upsell's connections off our service, once.
	ReverseUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, bool, error)
	Upsell(ctx context.Context, orderID string) (upsell.Upsell, error)
	Service(ctx context.Context, id string) (order.Service, error)
	LinesStore
}

// HomeAPI is what fulfilling a WHMCS order asks of WHMCS (whmcs.Client).
type HomeAPI interface {
	GetInvoice(ctx context.Context, id int) (whmcs.Invoice, error)
	GetTransactions(ctx context.Context, transID string) ([]whmcs.Transaction, error)
	AddInvoicePayment(ctx context.Context, p whmcs.Payment) error
	AcceptOrder(ctx context.Context, orderID int, autosetup *bool, sendEmail bool) error
	CancelOrder(ctx context.Context, orderID int) error
	GetClientService(ctx context.Context, clientID, serviceID int) (whmcs.Service, error)
	GetClientServices(ctx context.Context, clientID int, domain string) ([]whmcs.Service, error)
	Module(ctx context.Context, action string, serviceID int) error
	GetOrders(ctx context.Context, clientID int, status string) ([]whmcs.OrderRecord, error)
	SetServiceStatus(ctx context.Context, serviceID int, status string) error
	AddRefund(ctx context.Context, r whmcs.Refund) error
	GetProducts(ctx context.Context, q whmcs.ProductQuery) ([]whmcs.Product, error)
	SetServiceOptions(ctx context.Context, serviceID int, options map[int]whmcs.OptionQty) error
	SetNextDueDate(ctx context.Context, serviceID int, date time.Time) error
}

// Credits is the reseller kind's ledger side (reseller.Resellers): a reseller plan ordered in
// WHMCS gives its credits in Streamcart's own ledger, as in the built-in back end.
type Credits interface {
	// Credit grants a paid reseller order's credits once and finishes the order.
	Credit(ctx context.Context, o order.Order) error
	// TakeBack takes a fully refunded reseller order's credits back and cancels its service here.
	TakeBack(ctx context.Context, o order.Order) (bool, error)
}

// Reviewer sets aside a paid order that cannot be delivered (order.Orders.ReviewPaid): its
// payment is refunded, or listed for the owner, as any late payment.
type Reviewer interface {
	ReviewPaid(ctx context.Context, orderID, reason string) error
}

// Home is the plan and trial kinds' home in WHMCS mode (order.Home): WHMCS's module makes,
// renews and ends the lines; Streamcart records the payment and waits for the line. It is the
// upsell's, the renewal's and the reseller plan's too: a reseller plan is a product of WHMCS's
// reseller group, placed, paid, recorded and accepted as a plan, whose credits are then granted
// in Streamcart's ledger (Credits) instead of waiting for a line.
type Home struct {
	api      HomeAPI
	store    HomeStore
	review   Reviewer
	credits  Credits
	gateways map[string]string
	extra    int // the extra connections' config option id
	cache    *ServiceCache
	wake     func()
	log      *slog.Logger
	now      func() time.Time
}

var (
	_ order.Home           = (*Home)(nil)
	_ order.RefundRecorder = (*Home)(nil)
)

// NewHome returns the home; credits grants and takes back reseller plans' credits, gateways maps
// a Streamcart gateway to its WHMCS payment module, extra is the extra connections' config option
// id, cache the services view's reads (forgotten for a client whose services a job changed; nil:
// none), wake rings the job worker, now is the business clock (nil: real time).
func NewHome(api HomeAPI, store HomeStore, review Reviewer, credits Credits, gateways map[string]string, extra int, cache *ServiceCache,
	wake func(), log *slog.Logger, now func() time.Time) *Home {
	if wake == nil {
		wake = func() {}
	}
	return &Home{api: api, store: store, review: review, credits: credits, gateways: gateways, extra: extra, cache: cache, wake: wake,
		log: log, now: clock.OrReal(now)}
}

// Jobs are the handlers of the package's job kinds.
func (h *Home) Jobs() map[string]job.Handler {
	return map[string]job.Handler{JobRecordPayment: h.RecordPayment, JobAcceptOrder: h.AcceptOrder, JobAwaitLine: h.AwaitLine,
		JobTakeBack: h.TakeBackJob, JobRecordRefund: h.RecordRefundJob, JobChangePackage: h.ChangePackage, order.JobUpstreamCancel: h.CancelUpstream}
}

// next queues the next step of the order's fulfilment.
func (h *Home) next(ctx context.Context, kind, orderID string) error {
	if err := h.store.Enqueue(ctx, kind, orderID, kind+":"+orderID, h.now()); err != nil {
		return err
	}
	h.wake()
	return nil
}

// Fulfil starts a paid order's fulfilment (order.JobProvision): paid → provisioning, then the
// payment is recorded in WHMCS (JobRecordPayment).
func (h *Home) Fulfil(ctx context.Context, j job.Job) error {
	o, ok, err := order.StartFulfilment(ctx, h.store, j.Ref)
	if err != nil {
		return fmt.Errorf("whmcs fulfil %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive {
			h.log.Warn("WHMCS fulfilment skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	if _, err := h.placed(ctx, o.ID); err != nil {
		return err
	}
	return h.next(ctx, JobRecordPayment, o.ID)
}

// placed reads the order's placement, which must be placed: a free order's job may run while
// its placing is under way (retried), a dropped one is gone for good.
func (h *Home) placed(ctx context.Context, orderID string) (Placement, error) {
	p, err := h.store.Placement(ctx, orderID)
	switch {
	case errors.Is(err, order.ErrNotFound):
		return p, fmt.Errorf("whmcs order %s: not placed in WHMCS yet", orderID)
	case err != nil:
		return p, fmt.Errorf("whmcs order %s: %w", orderID, err)
	case p.State == StateDropped || p.State == StateLost:
		return p, job.Permanent(fmt.Errorf("whmcs order %s: dropped", orderID))
	case p.State != StatePlaced:
		return p, fmt.Errorf("whmcs order %s: still being placed in WHMCS", orderID)
	}
	return p, nil
}

// step reads the order a step's job names, still being fulfilled, and its placement; ok false:
// nothing more to do (refunded, reviewed meanwhile).
func (h *Home) step(ctx context.Context, j job.Job) (order.Order, Placement, bool, error) {
	o, err := h.store.Order(ctx, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return o, Placement{}, false, job.Permanent(fmt.Errorf("%s %s: %w", j.Kind, j.Ref, err))
	}
	if err != nil {
		return o, Placement{}, false, fmt.Errorf("%s %s: %w", j.Kind, j.Ref, err)
	}
	if o.Status != order.StatusProvisioning {
		h.log.Warn("WHMCS fulfilment step skipped", "order", o.ID, "step", j.Kind, "status", o.Status)
		return o, Placement{}, false, nil
	}
	p, err := h.placed(ctx, o.ID)
	return o, p, err == nil, err
}

// RecordPayment records the order's payment on its WHMCS invoice once: an invoice WHMCS shows
// paid, or one holding a payment with our transaction id (a lost answer, a second run), is left
// as it is. An invoice WHMCS cancelled takes no payment: the order goes to review and the money
// back to the buyer where the gateway can (as any payment of a cancelled order).
func (h *Home) RecordPayment(ctx context.Context, j job.Job) error {
	o, p, ok, err := h.step(ctx, j)
	if !ok {
		return err
	}
	if p.InvoiceRef == 0 || o.Invoice.Amount.Amount == 0 {
		return h.next(ctx, JobAcceptOrder, o.ID) // free: nothing to record
	}
	inv, err := h.api.GetInvoice(ctx, p.InvoiceRef)
	if err != nil {
		return h.callFailed(o, err)
	}
	switch inv.Status {
	case "Paid":
		return h.next(ctx, JobAcceptOrder, o.ID)
	case "Unpaid":
	case "Cancelled":
		return h.cancelled(ctx, o)
	default: // Refunded, Collections, Draft: not ours to pay
		return h.reviewed(ctx, o, fmt.Sprintf("WHMCS invoice %s", inv.Status))
	}
	txns, err := h.api.GetTransactions(ctx, o.Invoice.TransactionID)
	if err != nil {
		return h.callFailed(o, err)
	}
	for _, t := range txns {
		if int(t.InvoiceID) == p.InvoiceRef {
			return h.next(ctx, JobAcceptOrder, o.ID) // recorded already
		}
	}
	err = h.api.AddInvoicePayment(ctx, whmcs.Payment{InvoiceID: p.InvoiceRef, TransID: o.Invoice.TransactionID,
		Gateway: h.gateways[o.Invoice.Gateway], Date: o.Invoice.PaidAt,
		Amount: money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency), NoEmail: false})
	var we *whmcs.Error
	if errors.As(err, &we) && errors.Is(err, whmcs.ErrRefused) && strings.Contains(strings.ToLower(we.Message), "cancelled") {
		return h.cancelled(ctx, o)
	}
	if err != nil {
		// Unknown whether it was recorded (a lost answer): the retry reads GetTransactions first.
		return h.callFailed(o, err)
	}
	h.log.Info("payment recorded in WHMCS", "order", o.ID, "transaction", o.Invoice.TransactionID)
	return h.next(ctx, JobAcceptOrder, o.ID)
}

// cancelled sets aside a paid order whose WHMCS invoice was cancelled.
func (h *Home) cancelled(ctx context.Context, o order.Order) error {
	return h.reviewed(ctx, o, order.ReasonCancelled)
}

func (h *Home) reviewed(ctx context.Context, o order.Order, why string) error {
	h.log.Warn("WHMCS will not take the payment: order held for review, payment refunded where the gateway can", "order", o.ID, "why", why)
	// The review's reason is order's own: the invoice cannot be paid, as a cancelled order's.
	if err := h.review.ReviewPaid(ctx, o.ID, order.ReasonCancelled); err != nil {
		return fmt.Errorf("%s %s: %w", JobRecordPayment, o.ID, err)
	}
	return nil
}

// callFailed logs a failed WHMCS call with its action and retries the job (a refusal too: the
// seller may fix WHMCS; the job is dead after its attempts, in the console's jobs).
func (h *Home) callFailed(o order.Order, err error) error {
	h.log.Warn("WHMCS call failed: retried", "order", o.ID, "action", action(err), "err", err)
	return fmt.Errorf("whmcs order %s: %w", o.ID, err)
}

// AcceptOrder accepts the order in WHMCS: with autosetup (the module's CreateAccount) when a
// service is still Pending (a free trial, a product set up on accept), without when WHMCS's
// automation already set them up on payment: never a second line. An order WHMCS no longer has
// pending was accepted already (a lost answer).
func (h *Home) AcceptOrder(ctx context.Context, j job.Job) error {
	o, p, ok, err := h.step(ctx, j)
	if !ok {
		return err
	}
	if p.OrderRef == 0 {
		return h.next(ctx, JobAwaitLine, o.ID) // a renewal invoice's: no order to accept
	}
	setup := false
	for _, ref := range p.ServiceRefs {
		s, err := h.api.GetClientService(ctx, p.ClientRef, ref)
		if err != nil {
			return h.callFailed(o, err)
		}
		setup = setup || s.Status == "Pending"
	}
	err = h.api.AcceptOrder(ctx, p.OrderRef, &setup, true)
	var we *whmcs.Error
	if errors.As(err, &we) && errors.Is(err, whmcs.ErrRefused) && strings.Contains(strings.ToLower(we.Message), "status not pending") {
		err = nil
	}
	if err != nil {
		return h.callFailed(o, err)
	}
	return h.next(ctx, JobAwaitLine, o.ID)
}

// AwaitLine copies each WHMCS service's credentials to ours once WHMCS shows it Active with a
// username, and makes the order active; until then the job is retried (ErrLineNotReady).
func (h *Home) AwaitLine(ctx context.Context, j job.Job) error {
	o, p, ok, err := h.step(ctx, j)
	if !ok {
		return err
	}
	if o.Kind == order.KindReseller {
		// Paid, recorded and accepted in WHMCS: the credits are Streamcart's (its ledger), granted
		// once per order; the WHMCS service has no line to wait for.
		h.cache.Forget(p.ClientRef)
		if err := h.credits.Credit(ctx, o); err != nil {
			return fmt.Errorf("%s %s: %w", JobAwaitLine, o.ID, err)
		}
		h.log.Info("WHMCS reseller order active: credits granted", "order", o.ID)
		return nil
	}
	services, err := h.store.OrderServices(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobAwaitLine, o.ID, err)
	}
	for _, svc := range services {
		if svc.Status == order.ServiceActive && svc.Username != "" {
			continue
		}
		ws, err := h.api.GetClientService(ctx, p.ClientRef, p.ServiceRefs[svc.ID])
		if err != nil {
			return h.callFailed(o, err)
		}
		switch ws.Status {
		case "Active":
		case "Cancelled", "Terminated", "Fraud":
			return job.Permanent(fmt.Errorf("%s %s: the WHMCS service is %s", JobAwaitLine, o.ID, ws.Status))
		default:
			return fmt.Errorf("%s %s (WHMCS status %s): %w", JobAwaitLine, o.ID, ws.Status, ErrLineNotReady)
		}
		if ws.Username == "" {
			return fmt.Errorf("%s %s (no username yet): %w", JobAwaitLine, o.ID, ErrLineNotReady)
		}
		// What the success page shows; due dates and renewals stay WHMCS's (its cron).
		svc.Username, svc.Password, svc.ServerHostname, svc.Status = ws.Username, ws.Password, ws.ServerHostname, order.ServiceActive
		if err := h.store.UpdateService(ctx, svc); err != nil {
			return fmt.Errorf("%s %s: %w", JobAwaitLine, o.ID, err)
		}
	}
	if o.Kind == order.KindUpsell {
		// WHMCS ran ChangePackage on the paid upgrade: our copy of the line follows (once).
		if _, err := h.store.ApplyUpsell(ctx, o.ID, h.now().UTC()); err != nil {
			return fmt.Errorf("%s %s: %w", JobAwaitLine, o.ID, err)
		}
	}
	h.cache.Forget(p.ClientRef)
	if _, err := h.store.FinishFulfilment(ctx, o.ID); err != nil {
		return fmt.Errorf("%s %s: %w", JobAwaitLine, o.ID, err)
	}
	h.log.Info("WHMCS order active", "order", o.ID, "services", len(services))
	return nil
}

// TakeBack cancels a fully refunded order's services here, takes a refunded upsell's
// connections off our service (once), or a refunded reseller plan's credits off the account (as
// the built-in back end), and queues JobTakeBack, which does the same in WHMCS and
// records the refunds there (once, however many refunds raced).
func (h *Home) TakeBack(ctx context.Context, o order.Order) (bool, error) {
	switch o.Kind {
	case order.KindUpsell:
		if _, _, err := h.store.ReverseUpsell(ctx, o.ID, h.now().UTC()); err != nil {
			return false, err
		}
	case order.KindReseller:
		// As the built-in back end: the credits not spent yet come off the account, the service
		// is cancelled here.
		if _, err := h.credits.TakeBack(ctx, o); err != nil {
			return false, err
		}
	default:
		if _, err := h.store.CancelOrderLines(ctx, o.ID, h.now().UTC()); err != nil {
			return false, err
		}
	}
	if err := h.store.Enqueue(ctx, JobTakeBack, o.ID, JobTakeBack+":"+o.ID, h.now()); err != nil {
		return false, err
	}
	return true, nil
}

// TakeBackJob ends the refunded order's WHMCS services and records its refunds on its WHMCS
// invoice. Each step reads before it writes, so a retry after a lost answer repeats nothing: a
// service WHMCS shows ended is left, a refund WHMCS holds (by our transaction id) is not posted.
func (h *Home) TakeBackJob(ctx context.Context, j job.Job) error {
	o, err := h.store.Order(ctx, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("%s %s: %w", JobTakeBack, j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobTakeBack, j.Ref, err)
	}
	if o.Status != order.StatusRefunded {
		h.log.Warn("WHMCS take-back skipped: order not refunded", "order", o.ID, "status", o.Status)
		return nil
	}
	p, err := h.placed(ctx, o.ID)
	if err != nil {
		return err
	}
	switch o.Kind {
	case order.KindUpsell:
		if err := h.takeBackUpsell(ctx, o); err != nil {
			return err
		}
	case order.KindRenewal:
		if err := h.takeBackRenewal(ctx, o, p); err != nil {
			return err
		}
	}
	for _, ref := range p.ServiceRefs {
		s, err := h.api.GetClientService(ctx, p.ClientRef, ref)
		if err != nil {
			return h.callFailed(o, err)
		}
		switch {
		case o.Kind == order.KindReseller && slices.Contains([]string{"Active", "Suspended", "Pending"}, s.Status):
			// The credits were Streamcart's: no module line to delete, WHMCS stops billing it.
			err = h.api.SetServiceStatus(ctx, ref, "Cancelled")
		case s.Status == "Active" || s.Status == "Suspended":
			err = h.api.Module(ctx, "ModuleTerminate", ref) // the module deletes the line
		case s.Status == "Pending":
			err = h.api.SetServiceStatus(ctx, ref, "Cancelled") // no line to delete
		}
		if err != nil {
			return h.callFailed(o, err)
		}
	}
	h.cache.Forget(p.ClientRef)
	if p.InvoiceRef == 0 {
		return nil // free: no payment to give back
	}
	// Each refund is recorded by its own job, once (queued when it was made; queued again here
	// for refunds made before those jobs existed: the same key, so never twice).
	refunds, err := h.store.OrderRefunds(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobTakeBack, o.ID, err)
	}
	for _, r := range refunds {
		if _, err := h.RecordRefund(ctx, o, r.ID); err != nil {
			return fmt.Errorf("%s %s: %w", JobTakeBack, o.ID, err)
		}
	}
	h.wake()
	h.log.Info("refunded WHMCS order ended there", "order", o.ID, "services", len(p.ServiceRefs), "refunds", len(refunds))
	return nil
}

// running are the WHMCS service statuses of a line that still runs.
var running = []string{"Active", "Suspended"}

// takeBackUpsell sets the extra connections option of the WHMCS service refunded upsell o added
// to back to our service's (ReverseUpsell took them off it, once: 1 + the option, as the order
// made it), so WHMCS bills and the module serves no more than we do: UpdateClientProduct with
// the option's absolute value and autorecalc (its recurring amount follows), sent only while
// WHMCS's differs, so a retry after a lost answer sends nothing more; then JobChangePackage,
// queued once, has the module push it to the panel. A line ended here or in WHMCS is left.
func (h *Home) takeBackUpsell(ctx context.Context, o order.Order) error {
	up, err := h.store.Upsell(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobTakeBack, o.ID, err)
	}
	svc, err := h.store.Service(ctx, up.ServiceID)
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobTakeBack, o.ID, err)
	}
	client, sid, err := h.store.ServiceRef(ctx, svc.ID)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("%s %s: service %s not placed in WHMCS", JobTakeBack, o.ID, svc.ID))
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobTakeBack, o.ID, err)
	}
	if h.extra == 0 || !slices.Contains([]order.ServiceStatus{order.ServiceActive, order.ServiceOverdue, order.ServiceSuspended}, svc.Status) {
		return nil
	}
	ws, err := h.api.GetClientService(ctx, client, sid)
	if err != nil {
		return h.callFailed(o, err)
	}
	if !slices.Contains(running, ws.Status) {
		return nil
	}
	want, have := max(svc.MaxConnections-1, 0), 0
	for _, opt := range ws.ConfigOptions {
		if int(opt.ID) == h.extra {
			fmt.Sscan(opt.Value, &have)
		}
	}
	if have != want {
		products, err := h.api.GetProducts(ctx, whmcs.ProductQuery{PIDs: []int{int(ws.PID)}})
		if err != nil {
			return h.callFailed(o, err)
		}
		choice := 0
		for _, p := range products {
			for _, opt := range p.ConfigOptions {
				if int(p.PID) == int(ws.PID) && int(opt.ID) == h.extra && len(opt.Options) > 0 {
					choice = int(opt.Options[0].ID)
				}
			}
		}
		if choice == 0 {
			return job.Permanent(fmt.Errorf("%s %s: WHMCS product %d has no config option %d", JobTakeBack, o.ID, ws.PID, h.extra))
		}
		h.cache.Forget(client)
		if err := h.api.SetServiceOptions(ctx, sid, map[int]whmcs.OptionQty{h.extra: {Choice: choice, Qty: want}}); err != nil {
			return h.callFailed(o, err) // unknown whether it was set: the retry reads it first
		}
		h.log.Info("refunded upsell's connections taken back in WHMCS", "order", o.ID, "service", svc.ID, "extra", want)
	}
	return h.next(ctx, JobChangePackage, o.ID)
}

// takeBackRenewal moves the due date of the WHMCS service a fully refunded renewal paid for back
// by the period its payment added: WHMCS moved it from the renewal invoice's due date (the date
// it renewed) one cycle on when the payment was recorded. UpdateClientProduct nextduedate sets
// it back to the invoice's due date, an absolute value sent only while WHMCS shows exactly that
// one cycle more, so a retry after a lost answer (WHMCS showing the date back) sends nothing; a
// date WHMCS moved otherwise since (a later renewal, the seller's edit), or never moved (the
// payment refunded before it was recorded there), is left as it is (logged). No module function
// runs: the panel line keeps its expiry until WHMCS's cron suspends the service for the period
// now unpaid.
func (h *Home) takeBackRenewal(ctx context.Context, o order.Order, p Placement) error {
	if p.InvoiceRef == 0 {
		return nil
	}
	inv, err := h.api.GetInvoice(ctx, p.InvoiceRef)
	if err != nil {
		return h.callFailed(o, err)
	}
	sid := 0
	for _, it := range inv.Items {
		if it.Type == "Hosting" && sid == 0 {
			sid = int(it.RelID)
		}
	}
	if sid == 0 || inv.DueDate.IsZero() {
		h.log.Warn("refunded WHMCS renewal: its invoice names no service or due date; due date left", "order", o.ID)
		return nil
	}
	ws, err := h.api.GetClientService(ctx, p.ClientRef, sid)
	if err != nil {
		return h.callFailed(o, err)
	}
	back := inv.DueDate.Time
	months := renewalCycle(ws.BillingCycle).Months()
	switch on := ws.NextDueDate.Time; {
	case on.Equal(back):
		return nil // back already (a lost answer), or never moved
	case months == 0 || !on.Equal(back.AddDate(0, months, 0)):
		h.log.Warn("refunded WHMCS renewal: WHMCS's due date moved since; left as it is", "order", o.ID,
			"due", on.Format(time.DateOnly), "renewed", back.Format(time.DateOnly), "cycle", ws.BillingCycle)
		return nil
	}
	h.cache.Forget(p.ClientRef)
	if err := h.api.SetNextDueDate(ctx, sid, back); err != nil {
		return h.callFailed(o, err) // unknown whether it was set: the retry reads it first
	}
	h.log.Info("refunded WHMCS renewal: due date moved back", "order", o.ID, "due", back.Format(time.DateOnly))
	return nil
}

// ChangePackage is JobChangePackage's handler: the module's ChangePackage on the WHMCS service a
// refunded upsell added to, so the panel line has the connections WHMCS now has. Queued once;
// run again only after a lost answer, when it pushes the same package again (harmless).
func (h *Home) ChangePackage(ctx context.Context, j job.Job) error {
	up, err := h.store.Upsell(ctx, j.Ref)
	if err != nil {
		return job.Permanent(fmt.Errorf("%s %s: %w", JobChangePackage, j.Ref, err))
	}
	client, sid, err := h.store.ServiceRef(ctx, up.ServiceID)
	if err != nil {
		return job.Permanent(fmt.Errorf("%s %s: %w", JobChangePackage, j.Ref, err))
	}
	h.cache.Forget(client)
	if err := h.api.Module(ctx, "ModuleChangePackage", sid); err != nil {
		return h.callFailed(order.Order{ID: j.Ref}, err)
	}
	return nil
}

// RecordRefund queues the recording of refund refundID of o on its WHMCS invoice
// (order.RefundRecorder): one job per refund, however often asked.
func (h *Home) RecordRefund(ctx context.Context, o order.Order, refundID string) (bool, error) {
	if err := h.store.Enqueue(ctx, JobRecordRefund, o.ID+"/"+refundID, JobRecordRefund+":"+refundID, h.now()); err != nil {
		return false, err
	}
	return true, nil
}

// RecordRefundJob records the refund its job names on its order's WHMCS invoice, partial or
// full, without touching the order's services (a full refund's JobTakeBack ends them). It waits
// for the payment to be on the invoice (ErrPaymentNotRecorded), and reads before it writes: a
// refund WHMCS holds (by our transaction id "refund:<refund id>") is not posted again.
func (h *Home) RecordRefundJob(ctx context.Context, j job.Job) error {
	orderID, refundID, ok := strings.Cut(j.Ref, "/")
	if !ok {
		return job.Permanent(fmt.Errorf("%s %q: want <order>/<refund>", JobRecordRefund, j.Ref))
	}
	o, err := h.store.Order(ctx, orderID)
	if errors.Is(err, order.ErrNotFound) {
		return job.Permanent(fmt.Errorf("%s %s: %w", JobRecordRefund, j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobRecordRefund, j.Ref, err)
	}
	p, err := h.store.Placement(ctx, orderID)
	if errors.Is(err, order.ErrNotFound) {
		h.log.Warn("refund of an order not placed in WHMCS: nothing to record there", "order", orderID, "refund", refundID)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobRecordRefund, j.Ref, err)
	}
	if p.State != StatePlaced {
		return job.Permanent(fmt.Errorf("%s %s: order not placed in WHMCS (%s)", JobRecordRefund, j.Ref, p.State))
	}
	if p.InvoiceRef == 0 {
		return nil // free: no payment to give back
	}
	refunds, err := h.store.OrderRefunds(ctx, orderID)
	if err != nil {
		return fmt.Errorf("%s %s: %w", JobRecordRefund, j.Ref, err)
	}
	i := slices.IndexFunc(refunds, func(r refund.Refund) bool { return r.ID == refundID })
	if i < 0 {
		return job.Permanent(fmt.Errorf("%s %s: no such refund", JobRecordRefund, j.Ref))
	}
	paid, err := h.api.GetTransactions(ctx, o.Invoice.TransactionID)
	if err != nil {
		return h.callFailed(o, err)
	}
	if !slices.ContainsFunc(paid, func(t whmcs.Transaction) bool { return int(t.InvoiceID) == p.InvoiceRef }) {
		if o.Status == order.StatusPaid || o.Status == order.StatusProvisioning {
			return fmt.Errorf("%s %s: %w", JobRecordRefund, j.Ref, ErrPaymentNotRecorded) // being recorded
		}
		// Refunded in full before its payment was recorded there (a full refund stops the
		// fulfilment; a partial one does not, and waits above): WHMCS holds neither, and its
		// invoice stays as it is.
		h.log.Warn("refund of a payment WHMCS never recorded: nothing recorded there", "order", orderID, "refund", refundID, "status", o.Status)
		return nil
	}
	if err := h.recordRefund(ctx, o, p, refunds[i]); err != nil {
		return err
	}
	h.log.Info("refund recorded in WHMCS", "order", orderID, "refund", refundID)
	return nil
}

// recordRefund records refund r on p's WHMCS invoice unless WHMCS holds it already: found by its
// transaction id first; a refusal of the id as not unique (a lost answer raced by another run)
// means it is there.
func (h *Home) recordRefund(ctx context.Context, o order.Order, p Placement, r refund.Refund) error {
	transID := "refund:" + r.ID
	txns, err := h.api.GetTransactions(ctx, transID)
	if err != nil {
		return h.callFailed(o, err)
	}
	for _, t := range txns {
		if int(t.InvoiceID) == p.InvoiceRef {
			return nil
		}
	}
	err = h.api.AddRefund(ctx, whmcs.Refund{ClientID: p.ClientRef, InvoiceID: p.InvoiceRef, Gateway: h.gateways[o.Invoice.Gateway],
		TransID: transID, Amount: money.Format(r.Amount.Amount, r.Amount.Currency),
		Description: fmt.Sprintf("Refund %s (%s)", r.ID, r.Method)})
	var we *whmcs.Error
	if errors.As(err, &we) && errors.Is(err, whmcs.ErrRefused) && strings.Contains(strings.ToLower(we.Message), "unique") {
		return nil
	}
	if err != nil {
		return h.callFailed(o, err)
	}
	return nil
}

// SyncLine does nothing: WHMCS's module keeps the line in step with the WHMCS service.
func (h *Home) SyncLine(context.Context, order.Service) error { return nil }

// CancelUpstream is order.JobUpstreamCancel's handler: it cancels in WHMCS the order of ours
// that will not be paid: cancelled by its buyer or its deadline, dropped after WHMCS made it (a
// price changed), or whose AddOrder answer was lost (found by its reference, unless a replay
// took it over). An order paid meanwhile is never cancelled; a WHMCS order no longer pending is
// left as it is.
func (h *Home) CancelUpstream(ctx context.Context, j job.Job) error {
	p, err := h.store.Placement(ctx, j.Ref)
	if errors.Is(err, order.ErrNotFound) {
		return nil // never placed there
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", order.JobUpstreamCancel, j.Ref, err)
	}
	o := order.Order{ID: j.Ref}
	switch p.State {
	case StatePlaced:
		if o, err = h.store.Order(ctx, j.Ref); err != nil {
			return fmt.Errorf("%s %s: %w", order.JobUpstreamCancel, j.Ref, err)
		}
		if o.Status != order.StatusCancelled {
			return nil // paid after all: WHMCS keeps it
		}
		return h.cancelOrder(ctx, o, p.OrderRef)
	case StateDropped:
		return h.cancelOrder(ctx, o, p.OrderRef)
	case StateLost:
		if service, amount, ok := upgradeTarget(p.Ref); ok {
			// An upsell's UpgradeProduct unanswered: its pending upgrade of the service (of its
			// amount), unless a replay took it over. Under the service's lease, so no placing of
			// an upgrade of it is in flight: every pending upgrade none of our orders holds is
			// one whose placing ended without it (or one made in WHMCS itself, of another amount).
			holder := "cancel:" + j.Ref
			now := time.Now() // real time, as the placings' (upgrade.go)
			leased, err := h.store.LeaseUpgrade(ctx, service, holder, now, now.Add(UpgradeLease))
			if err != nil {
				return fmt.Errorf("%s %s: %w", order.JobUpstreamCancel, j.Ref, err)
			}
			if !leased {
				return fmt.Errorf("%s %s: an upgrade of WHMCS service %d is being placed: retried", order.JobUpstreamCancel, j.Ref, service)
			}
			defer func() {
				if err := h.store.ReleaseUpgrade(context.WithoutCancel(ctx), service, holder); err != nil {
					h.log.Warn("WHMCS upgrade lease not released: it runs out", "order", j.Ref, "err", err)
				}
			}()
			pending, err := pendingUpgrades(ctx, h.api, h.store, p.ClientRef, service, amount)
			if err != nil {
				return h.callFailed(o, err)
			}
			for _, wo := range pending {
				if err := h.cancelOrder(ctx, o, int(wo.ID)); err != nil {
					return err
				}
			}
			p.State = StateDropped
			return h.store.SavePlacement(ctx, p)
		}
		services, err := h.api.GetClientServices(ctx, p.ClientRef, p.Ref)
		if err != nil {
			return h.callFailed(o, err)
		}
		for _, s := range services {
			taken, err := h.store.WHMCSOrderTaken(ctx, int(s.OrderID))
			if err != nil {
				return fmt.Errorf("%s %s: %w", order.JobUpstreamCancel, j.Ref, err)
			}
			if !taken {
				if err := h.cancelOrder(ctx, o, int(s.OrderID)); err != nil {
					return err
				}
			}
		}
		p.State = StateDropped // nothing left to take over
		return h.store.SavePlacement(ctx, p)
	}
	return fmt.Errorf("%s %s: still being placed in WHMCS", order.JobUpstreamCancel, j.Ref)
}

func (h *Home) cancelOrder(ctx context.Context, o order.Order, whmcsOrder int) error {
	if whmcsOrder == 0 {
		return nil
	}
	err := h.api.CancelOrder(ctx, whmcsOrder)
	if errors.Is(err, whmcs.ErrRefused) {
		return nil // not pending there any more
	}
	if err != nil {
		return h.callFailed(o, err)
	}
	h.log.Info("WHMCS order cancelled", "order", o.ID)
	return nil
}
