package whmcsorder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/renewal"
	"github.com/streamcart/streamcart/api/whmcs"
)

// RenewStore is what paying a WHMCS renewal invoice reads and writes.
type RenewStore interface {
	LinesStore
	Order(ctx context.Context, id string) (order.Order, error)
	ClaimPlacement(ctx context.Context, orderID string, now, until time.Time) (Placement, bool, error)
	SavePlacement(ctx context.Context, p Placement) error
	ClientOrderByKey(ctx context.Context, clientID int64, key string) (order.Order, error)
}

// RenewAPI is what paying a WHMCS renewal invoice asks of WHMCS (whmcs.Client).
type RenewAPI interface {
	GetInvoices(ctx context.Context, clientID int, status string) ([]whmcs.InvoiceSummary, error)
	GetInvoice(ctx context.Context, id int) (whmcs.Invoice, error)
}

// OrderPlacer places orders (order.Orders).
type OrderPlacer interface {
	Place(ctx context.Context, claims authz.Claims, p order.Placement) (order.Order, error)
}

// Renewals pays WHMCS's renewal invoices through Streamcart's gateways: WHMCS's cron makes the
// invoice; POST /services/{id}/renew answers an order of ours for its balance (one per WHMCS
// invoice, however many calls), mapped to that invoice; once paid, the fulfilment jobs record the
// payment on it (AddInvoicePayment) and WHMCS runs the module's Renew. Streamcart never makes a
// renewal invoice or moves a due date in WHMCS mode.
type Renewals struct {
	api    RenewAPI
	store  RenewStore
	orders OrderPlacer
	log    *slog.Logger
	now    func() time.Time
}

// NewRenewals returns the renewals; now is the business clock (nil: real time).
func NewRenewals(api RenewAPI, store RenewStore, orders OrderPlacer, log *slog.Logger, now func() time.Time) *Renewals {
	return &Renewals{api: api, store: store, orders: orders, log: log, now: clock.OrReal(now)}
}

// invoiceKey is the Idempotency-Key of our order for WHMCS invoice id.
func invoiceKey(id int) string { return "whmcs-invoice-" + strconv.Itoa(id) }

// Open is our order for svc's open WHMCS renewal invoice, still to pay (the services view's
// renewalInvoiceId); open false when WHMCS has none open, and when WHMCS cannot say (logged: a
// read never fails on it). When WHMCS's cron has made the invoice and no order of ours pays it
// yet, it is placed now, for the service's first buyer and the shop's default gateway, as the
// built-in back end's renewal sweep places the order of a renewal invoice it makes: the buyer
// sees the open invoice and its pay link without asking to renew first. It is the order
// POST /services/{id}/renew answers (the same Idempotency-Key).
func (r *Renewals) Open(ctx context.Context, svc order.Service) (order.Order, bool, error) {
	o, open, place, err := r.open(ctx, svc)
	if err != nil || open || !place || svc.Trial {
		return o, open, err
	}
	first, err := r.store.Order(ctx, svc.OrderID)
	if err != nil {
		return order.Order{}, false, err
	}
	o, err = r.Renew(ctx, authz.Claims{ClientID: first.ClientID, SessionID: first.SessionID, Email: first.Email}, svc, renewal.Request{})
	if err != nil {
		r.log.Warn("WHMCS renewal invoice: no order of ours placed for it, none shown", "service", svc.ID, "action", action(err), "err", err)
		return order.Order{}, false, nil
	}
	return o, o.Status == order.StatusPending, nil
}

// open is Open without placing; place is whether an order of ours is to be placed: WHMCS has an
// open renewal invoice for svc and every order of ours for it ended unpaid (cancelled, failed),
// or there is none. One paid and being recorded is left alone.
func (r *Renewals) open(ctx context.Context, svc order.Service) (o order.Order, open, place bool, err error) {
	if reseller, err := r.reseller(ctx, svc); err != nil || reseller {
		return order.Order{}, false, false, err
	}
	client, id, err := r.store.ServiceRef(ctx, svc.ID)
	if errors.Is(err, order.ErrNotFound) {
		return order.Order{}, false, false, nil
	}
	if err != nil {
		return order.Order{}, false, false, err
	}
	inv, found, err := r.openInvoice(ctx, client, id)
	if err != nil {
		r.log.Warn("WHMCS renewal invoice unread: none shown", "service", svc.ID, "action", action(err), "err", err)
		return order.Order{}, false, false, nil
	}
	if !found {
		return order.Order{}, false, false, nil
	}
	key := invoiceKey(int(inv.ID))
	for _, k := range []string{key, key + "-" + r.now().UTC().Format("20060102")} {
		o, err := r.store.ClientOrderByKey(ctx, svc.ClientID, k)
		if errors.Is(err, order.ErrNotFound) {
			continue
		}
		if err != nil {
			return order.Order{}, false, false, err
		}
		if o.Status == order.StatusPending {
			return o, true, false, nil
		}
		if o.Status != order.StatusCancelled && o.Status != order.StatusFailed {
			return order.Order{}, false, false, nil
		}
	}
	return order.Order{}, false, true, nil
}

// reseller reports whether svc is a reseller plan's: its credits are granted per order of ours,
// so WHMCS's renewal invoice of it is not sold here (it would record a payment in WHMCS and grant
// no credits); the reseller orders the plan again for more credits, as in the built-in back end.
func (r *Renewals) reseller(ctx context.Context, svc order.Service) (bool, error) {
	o, err := r.store.Order(ctx, svc.OrderID)
	if errors.Is(err, order.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return o.Kind == order.KindReseller, nil
}

// openInvoice is WHMCS's unpaid invoice renewing WHMCS service id of client: a Hosting line of
// it; found false when WHMCS has none (its cron has not invoiced the next period yet).
func (r *Renewals) openInvoice(ctx context.Context, client, id int) (whmcs.Invoice, bool, error) {
	list, err := r.api.GetInvoices(ctx, client, "Unpaid")
	if err != nil {
		return whmcs.Invoice{}, false, err
	}
	for _, s := range list {
		inv, err := r.api.GetInvoice(ctx, int(s.ID))
		if err != nil {
			return whmcs.Invoice{}, false, err
		}
		for _, it := range inv.Items {
			if it.Type == "Hosting" && int(it.RelID) == id && inv.Status == "Unpaid" {
				return inv, true, nil
			}
		}
	}
	return whmcs.Invoice{}, false, nil
}

// Renew answers the order paying svc's open WHMCS renewal invoice (its balance, in the currency
// of svc's first order, WHMCS's client currency), made once per invoice for the session's
// client; renewal.ErrNotRenewable when WHMCS has none open; order.ErrUpstreamUnavailable when
// WHMCS cannot say.
//
// A free trial is not converted to a paid plan in place (renewal.ErrTrialConversion, 409): that
// would be UpgradeProduct type=product from WHMCS's free product, which needs the paid plan
// among the trial product's "Upgrade Packages" in WHMCS and whose price from a free account
// (no due date to prorate over) WHMCS does not document; the buyer orders the plan instead.
func (r *Renewals) Renew(ctx context.Context, claims authz.Claims, svc order.Service, req renewal.Request) (order.Order, error) {
	if svc.Trial {
		return order.Order{}, fmt.Errorf("whmcs renew %s: %w", svc.ID, renewal.ErrTrialConversion)
	}
	if reseller, err := r.reseller(ctx, svc); err != nil {
		return order.Order{}, err
	} else if reseller {
		return order.Order{}, fmt.Errorf("whmcs renew %s: a reseller plan: %w", svc.ID, renewal.ErrNotRenewable)
	}
	client, id, err := r.store.ServiceRef(ctx, svc.ID)
	if errors.Is(err, order.ErrNotFound) {
		return order.Order{}, renewal.ErrNotRenewable
	}
	if err != nil {
		return order.Order{}, err
	}
	inv, found, err := r.openInvoice(ctx, client, id)
	if err != nil {
		return order.Order{}, fmt.Errorf("whmcs renew %s: %w: %w", svc.ID, order.ErrUpstreamUnavailable, err)
	}
	if !found {
		return order.Order{}, fmt.Errorf("whmcs renew %s: no open WHMCS invoice: %w", svc.ID, renewal.ErrNotRenewable)
	}
	first, err := r.store.Order(ctx, svc.OrderID)
	if err != nil {
		return order.Order{}, fmt.Errorf("whmcs renew %s: %w", svc.ID, err)
	}
	currency := strings.ToUpper(first.Quote.Total.Currency)
	balance, err := money.Parse(string(inv.Balance), currency)
	if err != nil || balance <= 0 {
		return order.Order{}, fmt.Errorf("whmcs renew %s: balance %q: %w", svc.ID, inv.Balance, renewal.ErrNotRenewable)
	}
	total := money.Money{Amount: balance, Currency: currency}
	label := fmt.Sprintf("Renewal — %s", svc.Name)
	if !inv.DueDate.IsZero() {
		label += " (" + inv.DueDate.Format(time.DateOnly) + ")"
	}
	q := pricing.Quote{PID: svc.PID, Cycle: renewalCycle(svc.BillingCycle), Currency: currency,
		Lines: []pricing.Line{{Key: pricing.LinePlan, Label: label, Amount: total}}, Subtotal: total, Total: total}
	// One order per WHMCS invoice and client: the key makes 40 calls one order; an order of ours
	// that expired unpaid leaves the next day's key free for a new one.
	key := invoiceKey(int(inv.ID))
	origin, others := "", []string(nil)
	if len(req.Origins) > 0 {
		origin, others = req.Origins[0], req.Origins[1:]
	}
	var o order.Order
	for _, k := range []string{key, key + "-" + r.now().UTC().Format("20060102")} {
		o, err = r.orders.Place(ctx, claims, order.Placement{Kind: order.KindRenewal, Quote: q, Gateway: req.Gateway,
			ReturnURL: req.ReturnURL, Origin: origin, ReturnOrigins: others, IdempotencyKey: k,
			RequestHash: order.CustomHash("whmcs-renewal", int(inv.ID), total.Amount, currency),
			Deadline:    r.deadline(inv)})
		if err != nil || (o.Status != order.StatusCancelled && o.Status != order.StatusFailed) {
			break
		}
	}
	if err != nil {
		return order.Order{}, err
	}
	now := r.now()
	p, _, err := r.store.ClaimPlacement(ctx, o.ID, now, now.Add(time.Minute))
	if err != nil {
		return order.Order{}, err
	}
	if p.State != StatePlaced {
		p.State, p.ClientRef, p.InvoiceRef, p.ServiceRefs = StatePlaced, client, int(inv.ID), map[string]int{}
		if err := r.store.SavePlacement(ctx, p); err != nil {
			return order.Order{}, err
		}
	}
	return o, nil
}

// deadline is how long our order for inv stays payable: until WHMCS would suspend the line for
// it, and a day at least.
func (r *Renewals) deadline(inv whmcs.Invoice) time.Time {
	d := r.now().Add(order.PaymentDeadline)
	if due := inv.DueDate.AddDate(0, 0, 3); !inv.DueDate.IsZero() && due.After(d) {
		d = due
	}
	return d
}

// renewalCycle is WHMCS's display cycle ("Semi-Annually") as a catalog cycle.
func renewalCycle(c string) catalog.Cycle {
	return catalog.Cycle(strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(c)))
}
