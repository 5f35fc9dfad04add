// Package upsell sells extra connections on an active service: priced by the server for the
// service's billing cycle, paid through its own invoice, and applied once paid by a durable job
// that raises the line's max connections exactly once. Upsells is the upsell kind's home
// (order.Home): fulfil, take back after a full refund, line sync.
package upsell

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/audit"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/job"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/provision"
)

var (
	// ErrNotEligible means the service's plan sells no extra connections (a trial, a plan
	// without the option) or none are left.
	ErrNotEligible = errors.New("upsell: service cannot take more connections")
	// ErrServiceNotActive means the line is pending, suspended, cancelled or terminated.
	ErrServiceNotActive = errors.New("upsell: service is not active")
	// ErrQuantity means the extra quantity is below 1 or above what the plan allows.
	ErrQuantity = errors.New("upsell: extra quantity out of range")
	// ErrNotFound is what Store answers when an order is no upsell.
	ErrNotFound = errors.New("upsell: not found")
)

// Upsell is the purpose of an upsell order.
type Upsell struct {
	OrderID       string
	ServiceID     string
	ExtraQuantity int
	CreatedAt     time.Time
	AppliedAt     time.Time // zero until the connections were added to the service
}

// Store is what upsells persist.
type Store interface {
	Service(ctx context.Context, id string) (order.Service, error)
	ClientServices(ctx context.Context, clientID int64) ([]order.Service, error)
	Order(ctx context.Context, id string) (order.Order, error)
	// OutstandingUpsells sums the extra connections of the service's upsells that are paid but
	// not applied yet, or unpaid and still payable.
	OutstandingUpsells(ctx context.Context, serviceID string, now time.Time) (int, error)
	// ReserveUpsell records u when, under the service's lock, the service is active
	// (ErrServiceNotActive) and its connections with every outstanding upsell and u stay within
	// 1+maxExtra (ErrQuantity).
	ReserveUpsell(ctx context.Context, u Upsell, maxExtra int, now time.Time) error
	// DeleteUpsell forgets an upsell whose order was never placed.
	DeleteUpsell(ctx context.Context, orderID string) error
	// Upsell reads the upsell of an order; ErrNotFound when the order is no upsell.
	Upsell(ctx context.Context, orderID string) (Upsell, error)
	// ApplyUpsell adds the upsell's extra quantity to its service's max connections unless it was
	// added already, in one transaction with marking it applied; it returns the service after.
	ApplyUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, error)
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
	// ReverseUpsell takes back a refunded upsell once: its connections come off a running line
	// (its panel line follows by a job queued with the change), or it is never applied; moved
	// reports the service changed.
	ReverseUpsell(ctx context.Context, orderID string, at time.Time) (order.Service, bool, error)
}

// Authorizer decides who may do what.
type Authorizer interface {
	Allowed(c authz.Claims, action string, r authz.Resource) bool
}

// Notifier mails the buyer a paid order's receipt (provision.Mail: its items, net and tax,
// total and invoice PDF).
type Notifier interface {
	OrderReceived(ctx context.Context, o order.Order) error
}

// Upsells sells extra connections.
type Upsells struct {
	notify   Notifier
	store    Store
	catalog  func() *catalog.Catalog
	orders   *order.Orders
	lines    panel.Manager
	authz    Authorizer
	audit    *audit.Log
	log      *slog.Logger
	now      func() time.Time
	upstream Upstream
}

// Upstream prices extra connections where a billing system owns the service and prices its
// upgrades itself (WHMCS: UpgradeProduct with calconly, prorated over the days left).
type Upstream interface {
	// PriceExtra is what extra more connections on s cost now, in the service's currency; an
	// error wrapping order.ErrUpstreamUnavailable when the billing system cannot say.
	PriceExtra(ctx context.Context, s order.Service, extra int) (money.Money, error)
}

// New returns the upsell service; notify mails a paid upsell's receipt (nil: none); now is the
// business clock (reservations and prices), nil: real time; upstream (nil: the catalog's price
// per connection) prices the extra connections.
func New(store Store, cat func() *catalog.Catalog, orders *order.Orders, lines panel.Manager, az Authorizer, al *audit.Log, notify Notifier, log *slog.Logger, now func() time.Time, upstream Upstream) *Upsells {
	return &Upsells{notify: notify, store: store, catalog: cat, orders: orders, lines: lines, authz: az, audit: al, log: log, now: clock.OrReal(now), upstream: upstream}
}

// PricingCycle is the cycle extra connections are priced at for a service's billing cycle (spec
// §4): One Time maps to monthly; any other is lower-cased with hyphens and spaces removed.
func PricingCycle(billingCycle string) catalog.Cycle {
	c := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(billingCycle))
	if c == "onetime" || c == "" {
		return catalog.Monthly
	}
	return catalog.Cycle(c)
}

// Offer is a service that can take more connections.
type Offer struct {
	Service      order.Service
	PricingCycle catalog.Cycle
	MaxExtra     int
	UnitPrice    money.Money
	PlanMaxExtra int // the plan's cap of extra connections on one line
}

// Quote is the server's price for extra connections: Total what is charged, taxed as a first
// order is (the catalog's tax block, at the rate of the buyer's country); Net is Total without
// the tax, Tax nil without a tax block. Priced is the order's quote.
type Quote struct {
	Offer
	ExtraQuantity int
	Total         money.Money
	Net           money.Money
	Tax           *pricing.Tax
	Priced        pricing.Quote
}

// Offers lists the services of claims' client that can take more connections; an email-only
// session has none (buying extra connections needs a proven session).
func (u *Upsells) Offers(ctx context.Context, claims authz.Claims, currency string) ([]Offer, error) {
	all, err := u.store.ClientServices(ctx, claims.ClientID)
	if err != nil {
		return nil, fmt.Errorf("upsell offers: %w", err)
	}
	out := []Offer{}
	for _, s := range all {
		if !u.authz.Allowed(claims, authz.ActionManage, resource(s)) {
			continue
		}
		o, err := u.offer(ctx, s, currency)
		if errors.Is(err, ErrNotEligible) || errors.Is(err, ErrServiceNotActive) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func resource(s order.Service) authz.Resource {
	return authz.Resource{Kind: authz.KindService, ID: s.ID, ClientID: s.ClientID, SessionID: s.SessionID}
}

// offer prices one more connection on s in currency (the service's order currency when empty).
func (u *Upsells) offer(ctx context.Context, s order.Service, currency string) (Offer, error) {
	if s.Status != order.ServiceActive {
		return Offer{}, ErrServiceNotActive
	}
	if s.Trial {
		return Offer{}, ErrNotEligible
	}
	cat := u.catalog()
	product, ok := cat.Product(s.PID)
	if !ok {
		return Offer{}, ErrNotEligible
	}
	opt, ok := product.Option(catalog.ExtraConnectionsOption)
	if !ok {
		return Offer{}, ErrNotEligible
	}
	cycle := PricingCycle(s.BillingCycle)
	price, ok := opt.Pricing[cycle]
	if !ok {
		return Offer{}, ErrNotEligible
	}
	// The plan allows MaxQty extra connections on top of the one every line includes; upsells
	// not applied yet (paid, or unpaid and payable) have a claim on them too.
	pending, err := u.store.OutstandingUpsells(ctx, s.ID, u.now().UTC())
	if err != nil {
		return Offer{}, fmt.Errorf("upsell: %w", err)
	}
	maxExtra := opt.MaxQty - (s.MaxConnections - 1) - pending
	if maxExtra < 1 {
		return Offer{}, ErrNotEligible
	}
	if currency == "" {
		o, err := u.store.Order(ctx, s.OrderID)
		if err != nil {
			return Offer{}, fmt.Errorf("upsell: %w", err)
		}
		currency = o.Quote.Currency
	}
	amount, err := pricing.PriceIn(cat, price, currency)
	if err != nil {
		return Offer{}, fmt.Errorf("upsell: %w", err)
	}
	cur, _ := cat.Currency(currency)
	return Offer{Service: s, PricingCycle: cycle, MaxExtra: maxExtra, UnitPrice: money.Money{Amount: amount, Currency: cur.Code},
		PlanMaxExtra: opt.MaxQty}, nil
}

// Quote prices r's extra connections on a service claims may manage (order.ErrNotFound
// otherwise), taxed where the service's first order was (order.TaxEvidence), or, when it kept
// no evidence, in r.IPCountry. An Upstream that cannot price them now leaves the catalog's
// price: a quote only shows; the order asks again and fails when the billing system cannot
// place it.
func (u *Upsells) Quote(ctx context.Context, claims authz.Claims, r Request) (Quote, error) {
	q, err := u.quote(ctx, claims, r)
	if errors.Is(err, order.ErrUpstreamUnavailable) {
		u.log.Warn("extra connections priced from the catalog: the billing system did not answer", "service", r.ServiceID, "err", err)
		return q, nil
	}
	return q, err
}

func (u *Upsells) quote(ctx context.Context, claims authz.Claims, r Request) (Quote, error) {
	s, err := u.store.Service(ctx, r.ServiceID)
	if err != nil {
		return Quote{}, err
	}
	if !u.authz.Allowed(claims, authz.ActionManage, resource(s)) {
		return Quote{}, order.ErrNotFound
	}
	o, err := u.offer(ctx, s, r.Currency)
	if err != nil {
		return Quote{}, err
	}
	extra := r.ExtraQuantity
	if extra < 1 || extra > o.MaxExtra {
		return Quote{Offer: o}, fmt.Errorf("%d extra connections, allowed 1 to %d: %w", extra, o.MaxExtra, ErrQuantity)
	}
	first, err := u.store.Order(ctx, s.OrderID)
	if err != nil {
		return Quote{}, fmt.Errorf("upsell: %w", err)
	}
	total := money.Money{Amount: o.UnitPrice.Amount * int64(extra), Currency: o.UnitPrice.Currency}
	var upstreamErr error // the catalog's price stands in (Quote)
	if u.upstream != nil {
		if t, err := u.upstream.PriceExtra(ctx, s, extra); err != nil {
			upstreamErr = fmt.Errorf("upsell quote %s: %w", s.ID, err)
		} else {
			total = t
		}
	}
	label := fmt.Sprintf("%d extra connections", extra)
	if extra == 1 {
		label = "1 extra connection"
	}
	pq := pricing.Quote{
		PID: s.PID, Cycle: o.PricingCycle, Currency: total.Currency, ExtraConnections: extra,
		Lines:    []pricing.Line{{Key: pricing.LineExtraConnections, Label: label + " — " + s.Name, Amount: total}},
		Subtotal: total, Total: total,
	}
	req := pricing.Request{IPCountry: r.IPCountry}
	if billing, ip, _ := first.TaxEvidence(nil); billing != "" || ip != "" {
		req.BillingCountry, req.IPCountry = billing, ip
	}
	if err := pricing.Taxed(u.catalog(), req, &pq); err != nil {
		return Quote{}, fmt.Errorf("upsell: %w", err)
	}
	return Quote{Offer: o, ExtraQuantity: extra, Total: pq.Total, Net: pq.Net, Tax: pq.Tax, Priced: pq}, upstreamErr
}

// Request is an upsell quote or order.
type Request struct {
	ServiceID     string
	ExtraQuantity int
	Currency      string
	// IPCountry is the country of the buyer's address now: the tax country of a service whose
	// first order kept no evidence of where its buyer is.
	IPCountry     string
	Gateway       string
	ReturnURL     string
	IP, Origin    string
	ReturnOrigins []string // further sites ReturnURL may point to: the request's storefront's own
	// IdempotencyKey: the same key and request give back the first order (see order.Placement).
	IdempotencyKey string
}

// Order places an upsell order with its own invoice and payment link.
func (u *Upsells) Order(ctx context.Context, claims authz.Claims, r Request) (order.Order, Quote, error) {
	hash := order.CustomHash("upsell", r.ServiceID, r.ExtraQuantity, strings.ToUpper(r.Currency), r.Gateway, r.ReturnURL)
	// A retry is answered before quoting: the first order may have raised the service's
	// connections already, and must come back as it was placed.
	if prev, ok, err := u.orders.Replayed(ctx, claims, r.IdempotencyKey, hash); err != nil || ok {
		if err != nil {
			return order.Order{}, Quote{}, err
		}
		up, err := u.store.Upsell(ctx, prev.ID)
		if err != nil {
			return order.Order{}, Quote{}, fmt.Errorf("upsell order: replay: %w", err)
		}
		return prev, Quote{Offer: Offer{Service: order.Service{ID: up.ServiceID}}, ExtraQuantity: up.ExtraQuantity, Total: prev.Quote.Total}, nil
	}
	q, err := u.quote(ctx, claims, r)
	if err != nil {
		return order.Order{}, q, err
	}
	id := order.NewOrderID()
	// The quote read the outstanding upsells without a lock: the reservation checks again under
	// the service's, so concurrent upsells never exceed the plan's cap.
	up := Upsell{OrderID: id, ServiceID: q.Service.ID, ExtraQuantity: q.ExtraQuantity, CreatedAt: u.now().UTC()}
	if err := u.store.ReserveUpsell(ctx, up, q.PlanMaxExtra, u.now().UTC()); err != nil {
		return order.Order{}, q, fmt.Errorf("upsell order: %w", err)
	}
	ret := r.ReturnURL
	if ret == "" {
		ret = "/checkout/waiting?order={orderId}&upsell=1"
	}
	pl := order.Placement{
		Kind: order.KindUpsell, ID: id, Quote: q.Priced, Gateway: r.Gateway, ReturnURL: ret, IP: r.IP, Origin: r.Origin, ReturnOrigins: r.ReturnOrigins,
		IdempotencyKey: r.IdempotencyKey, RequestHash: hash,
	}
	if t := q.Tax; t != nil { // where the buyer is, kept with the order as with a first one
		pl.BillingCountry, pl.IPCountry = t.Country, t.IPCountry
		pl.CountryConfirmed = t.IPCountry != "" && t.IPCountry != t.Country
	}
	o, err := u.orders.Place(ctx, claims, pl)
	if err != nil || o.ID != id {
		// Not placed (or a concurrent retry placed the first one): the reservation goes.
		if derr := u.store.DeleteUpsell(ctx, id); derr != nil {
			u.log.Error("upsell reservation left behind", "order", id, "err", derr)
		}
	}
	if err != nil {
		return order.Order{}, q, err
	}
	return o, q, nil
}

var _ order.Home = (*Upsells)(nil)

// TakeBack withdraws the connections of a fully refunded upsell (order.Home): they come off the
// line they were added to, which stays the buyer's for what was paid before; moved reports the
// service changed, its panel line following by the JobLineSync queued with the change.
func (u *Upsells) TakeBack(ctx context.Context, o order.Order) (moved bool, err error) {
	_, moved, err = u.store.ReverseUpsell(ctx, o.ID, u.now().UTC())
	return moved, err
}

// SyncLine brings the line an upsell adds to in step with its service (provision.SyncLine): an
// upsell's connections live on a plan's line.
func (u *Upsells) SyncLine(ctx context.Context, s order.Service) error {
	return provision.SyncLine(ctx, u.lines, s)
}

// Fulfil applies a paid upsell order (KindUpsell) named by a provisioning job. The connections
// are added to the service once (ApplyUpsell); the panel is then set to the service's total,
// which is safe to repeat, so a retry or a second run after a duplicate settlement never raises
// twice.
func (u *Upsells) Fulfil(ctx context.Context, j job.Job) error {
	up, err := u.store.Upsell(ctx, j.Ref)
	if errors.Is(err, ErrNotFound) {
		// Placed as an upsell without one recorded: no retry can find it.
		return job.Permanent(fmt.Errorf("upsell %s: %w", j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("upsell %s: %w", j.Ref, err)
	}
	o, ok, err := order.StartFulfilment(ctx, u.store, j.Ref)
	if err != nil {
		return fmt.Errorf("upsell %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive {
			u.log.Warn("upsell skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	// StartFulfilment read the order before moving it: paid means this run started it, so the
	// receipt goes once.
	if o.Status == order.StatusPaid && o.Invoice.Amount.Amount > 0 && u.notify != nil {
		if err := u.notify.OrderReceived(ctx, o); err != nil {
			u.log.Error("upsell receipt mail not queued", "order", o.ID, "err", err)
		}
	}
	line, err := u.store.Service(ctx, up.ServiceID)
	if err != nil && !errors.Is(err, order.ErrNotFound) {
		return fmt.Errorf("upsell %s: %w", o.ID, err)
	}
	if err != nil || line.Status != order.ServiceActive {
		// Terminated or cancelled after the upsell was bought: nothing can be delivered, so the
		// payment goes to review and is refunded instead of retrying against a line that is gone.
		if err := u.orders.ReviewPaid(ctx, o.ID, order.ReasonLineGone); err != nil {
			return fmt.Errorf("upsell %s: %w", o.ID, err)
		}
		return nil
	}
	svc, err := u.store.ApplyUpsell(ctx, o.ID, u.now().UTC())
	if err != nil {
		return fmt.Errorf("upsell %s: %w", o.ID, err)
	}
	err = u.lines.SetMaxConnections(ctx, svc.ID, svc.MaxConnections)
	who := authz.Claims{ClientID: o.ClientID, SessionID: o.SessionID}
	u.audit.RecordParts(ctx, who, "upsell", svc.ID, fmt.Sprintf("order %s: +%d, max connections %d", o.ID, up.ExtraQuantity, svc.MaxConnections),
		[]string{audit.WordUpsell, o.ID, strconv.Itoa(up.ExtraQuantity), strconv.Itoa(svc.MaxConnections)}, err)
	if err != nil {
		return fmt.Errorf("upsell %s: %w", o.ID, err)
	}
	if _, err := u.store.FinishFulfilment(ctx, o.ID); err != nil {
		return fmt.Errorf("upsell %s: %w", o.ID, err)
	}
	return nil
}
