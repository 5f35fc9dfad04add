// Package reseller sells reseller credit plans: an order priced at the plan's monthly price (plus
// the new-reseller product for a new reseller), and once paid, a durable job creates or credits
// the client's reseller account in the credit ledger (Ledger) exactly once. Resellers is the
// reseller kind's home (order.Home): fulfil, take back after a full refund, line sync (none).
package reseller

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
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/signin"
)

var (
	// ErrNotReseller means the pid is not a reseller plan.
	ErrNotReseller = errors.New("reseller: not a reseller plan")
	// ErrNotFound is what Store answers when an order or service is no reseller purchase, and
	// the ledger for an unknown account.
	ErrNotFound = errors.New("reseller: not found")
)

// Purchase is the purpose of a reseller order.
type Purchase struct {
	OrderID    string
	ServiceID  string
	ClientID   int64
	SessionID  string
	PID        int
	Credits    int
	NewAccount bool
	// PasswordHash (bcrypt) is the order's password: the panel account's when this order creates
	// it. It is never the client's sign-in password.
	PasswordHash string
	Account      string // the panel account, once credited
	CreatedAt    time.Time
	CreditedAt   time.Time
}

// Store is what reseller purchases persist.
type Store interface {
	InsertPurchase(ctx context.Context, p Purchase) error
	// DeletePurchase forgets the purchase of an order that was never placed (no such order).
	DeletePurchase(ctx context.Context, orderID string) error
	// Purchase reads the reseller purchase of an order; ErrNotFound when none.
	Purchase(ctx context.Context, orderID string) (Purchase, error)
	// ServicePurchase reads the reseller purchase of a service; ErrNotFound when none.
	ServicePurchase(ctx context.Context, serviceID string) (Purchase, error)
	// SessionCredited reports whether a purchase made by the session was credited.
	SessionCredited(ctx context.Context, sessionID string) (bool, error)
	MarkCredited(ctx context.Context, orderID, account string, at time.Time) error
	Order(ctx context.Context, id string) (order.Order, error)
	Service(ctx context.Context, id string) (order.Service, error)
	OrderServices(ctx context.Context, orderID string) ([]order.Service, error)
	UpdateService(ctx context.Context, s order.Service) error
	SetOrderStatus(ctx context.Context, id string, to order.Status, from ...order.Status) (bool, error)
	order.Finisher
	SetServiceStatus(ctx context.Context, id string, to order.ServiceStatus, from ...order.ServiceStatus) (bool, error)
	// TakeBackResellerCredit takes back, once, the credits a refunded reseller order gave: as
	// many as the account still has, up to those credited.
	TakeBackResellerCredit(ctx context.Context, orderID string, at time.Time) (taken int, moved bool, err error)
}

// Authorizer decides who may do what.
type Authorizer interface {
	Allowed(c authz.Claims, action string, r authz.Resource) bool
}

// Config holds reseller settings.
type Config struct {
	// NewResellerPID is the product a new reseller buys with the first plan (the spec's
	// newReselPid: an account set-up fee); 0 when the shop has none.
	NewResellerPID int
}

// Resellers sells reseller plans.
type Resellers struct {
	store    Store
	catalog  func() *catalog.Catalog
	orders   *order.Orders
	accounts *Ledger
	authz    Authorizer
	audit    *audit.Log
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
}

// New returns the reseller service; now is the business clock (prices and credit dates), nil:
// real time.
func New(store Store, cat func() *catalog.Catalog, orders *order.Orders, accounts *Ledger, az Authorizer, al *audit.Log, cfg Config, log *slog.Logger, now func() time.Time) *Resellers {
	return &Resellers{store: store, catalog: cat, orders: orders, accounts: accounts, authz: az, audit: al, cfg: cfg, log: log, now: clock.OrReal(now)}
}

// IsReseller reports whether claims' client has a reseller account. An email-only session only
// learns about purchases it made itself: an email alone reveals nothing about its client.
func (r *Resellers) IsReseller(ctx context.Context, claims authz.Claims) (bool, int, error) {
	if claims.Scope != authz.ScopeProven {
		ok, err := r.store.SessionCredited(ctx, claims.SessionID)
		if err != nil || !ok {
			return false, 0, err
		}
	}
	a, err := r.accounts.Account(ctx, claims.Email)
	if errors.Is(err, ErrNotFound) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("is reseller: %w", err)
	}
	return true, a.Credits, nil
}

// Request is a reseller order to place.
type Request struct {
	PID              int
	ExistingReseller bool
	Currency         string
	Gateway          string
	ReturnURL        string
	IP, Origin       string
	ReturnOrigins    []string // further sites ReturnURL may point to: the request's storefront's own
	// IdempotencyKey: the same key and request give back the first order (see order.Placement).
	IdempotencyKey string
	// Password is the reseller panel account's password (used when this order creates the
	// account); it has nothing to do with the client's sign-in password.
	Password string
}

// Order places a reseller order for claims' session: the plan at its monthly price, plus the
// new-reseller product unless the buyer says they are a reseller already or has an account.
// Everything is checked before anything is stored: a refused order leaves no trace.
func (r *Resellers) Order(ctx context.Context, claims authz.Claims, req Request) (order.Order, error) {
	if err := signin.CheckPassword(req.Password); err != nil {
		return order.Order{}, err
	}
	// The password is no part of what was ordered: a retry may not know it changed nothing.
	hash := order.CustomHash("reseller", req.PID, req.ExistingReseller, strings.ToUpper(req.Currency), req.Gateway, req.ReturnURL)
	if prev, ok, err := r.orders.Replayed(ctx, claims, req.IdempotencyKey, hash); err != nil || ok {
		return prev, err
	}
	cat := r.catalog()
	plan, ok := cat.Product(req.PID)
	if !ok || plan.Group != catalog.GroupReseller {
		return order.Order{}, ErrNotReseller
	}
	cur := req.Currency
	if cur == "" {
		cur = cat.DefaultCurrency
	}
	planQuote, err := pricing.QuoteFor(cat, pricing.Request{PID: plan.PID, Cycle: catalog.Monthly, Currency: cur, Untaxed: true}, r.now())
	if err != nil {
		return order.Order{}, fmt.Errorf("reseller order: %w", err)
	}
	q := planQuote
	newAccount := false
	if !req.ExistingReseller && r.cfg.NewResellerPID > 0 {
		has, _, err := r.IsReseller(ctx, claims)
		if err != nil {
			return order.Order{}, err
		}
		if !has {
			fee, err := pricing.QuoteFor(cat, pricing.Request{PID: r.cfg.NewResellerPID, Cycle: catalog.Monthly, Currency: cur, Untaxed: true}, r.now())
			if err != nil {
				return order.Order{}, fmt.Errorf("reseller order: new-reseller product: %w", err)
			}
			q.Lines = append(q.Lines, fee.Lines...)
			q.Subtotal.Amount += fee.Subtotal.Amount
			q.Total.Amount += fee.Total.Amount
			q.Net = q.Total // untaxed: credit plans are sold to businesses
			newAccount = true
		}
	}
	id := order.NewOrderID()
	svc := order.Service{ID: order.NewServiceID(), PID: plan.PID, Name: plan.Name, BillingCycle: string(catalog.Monthly), MaxConnections: 1}
	ret := req.ReturnURL
	if ret == "" {
		ret = "/checkout/resellers/waiting?order={orderId}&serviceid=" + svc.ID
	}
	c := order.Placement{
		Kind: order.KindReseller, ID: id, Quote: q, Services: []order.Service{svc}, Gateway: req.Gateway, ReturnURL: ret, IP: req.IP, Origin: req.Origin,
		ReturnOrigins: req.ReturnOrigins, IdempotencyKey: req.IdempotencyKey, RequestHash: hash,
	}
	if err := r.orders.CheckPlacement(c); err != nil {
		return order.Order{}, err
	}
	pwHash, err := signin.HashPassword(req.Password)
	if err != nil {
		return order.Order{}, err
	}
	err = r.store.InsertPurchase(ctx, Purchase{OrderID: id, ServiceID: svc.ID, ClientID: claims.ClientID, SessionID: claims.SessionID,
		PID: plan.PID, Credits: plan.ResellerCredits, NewAccount: newAccount, PasswordHash: pwHash, CreatedAt: r.now().UTC()})
	if err != nil {
		return order.Order{}, fmt.Errorf("reseller order: %w", err)
	}
	o, err := r.orders.Place(ctx, claims, c)
	if err != nil || o.ID != id {
		// Not placed (refused, or dropped by the billing system in WHMCS mode: nothing stored), or
		// a concurrent replay placed the first one: this purchase goes with it.
		if derr := r.store.DeletePurchase(context.WithoutCancel(ctx), id); derr != nil {
			r.log.Error("reseller purchase left behind", "order", id, "err", derr)
		}
	}
	return o, err
}

// Service is a reseller plan's service with its account.
type Service struct {
	order.Service
	Credits int // granted by the plan
	Account Account
}

// Service reads a reseller plan's service claims may read; order.ErrNotFound for a foreign one,
// one that is no reseller plan, or an unknown one.
func (r *Resellers) Service(ctx context.Context, claims authz.Claims, id string) (Service, error) {
	svc, err := r.store.Service(ctx, id)
	if err != nil {
		return Service{}, err
	}
	res := authz.Resource{Kind: authz.KindService, ID: svc.ID, ClientID: svc.ClientID, SessionID: svc.SessionID}
	if !r.authz.Allowed(claims, authz.ActionRead, res) {
		return Service{}, order.ErrNotFound
	}
	p, err := r.store.ServicePurchase(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return Service{}, order.ErrNotFound
	}
	if err != nil {
		return Service{}, fmt.Errorf("reseller service: %w", err)
	}
	out := Service{Service: svc, Credits: p.Credits}
	if p.Account != "" {
		a, err := r.accounts.Account(ctx, p.Account)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Service{}, fmt.Errorf("reseller service: %w", err)
		}
		out.Account = a
	}
	return out, nil
}

var _ order.Home = (*Resellers)(nil)

// TakeBack withdraws what a fully refunded reseller order gave (order.Home): its credits come off
// the account (those not spent yet) and its service is cancelled. Nothing is queued: a reseller
// plan has no panel line.
func (r *Resellers) TakeBack(ctx context.Context, o order.Order) (bool, error) {
	if _, _, err := r.store.TakeBackResellerCredit(ctx, o.ID, r.now().UTC()); err != nil {
		return false, err
	}
	services, err := r.store.OrderServices(ctx, o.ID)
	if err != nil {
		return false, err
	}
	for _, s := range services {
		if _, err := r.store.SetServiceStatus(ctx, s.ID, order.ServiceCancelled, order.ServiceActive, order.ServicePending); err != nil {
			return false, err
		}
	}
	return false, nil
}

// SyncLine has nothing to do (order.Home): a reseller plan's service has no panel line.
func (r *Resellers) SyncLine(context.Context, order.Service) error { return nil }

// Fulfil credits the reseller account of a paid reseller order (KindReseller) named by a
// provisioning job. The ledger credits once per order id, so a repeat changes nothing.
func (r *Resellers) Fulfil(ctx context.Context, j job.Job) error {
	p, err := r.store.Purchase(ctx, j.Ref)
	if errors.Is(err, ErrNotFound) {
		// Placed as a reseller order without a purchase recorded: no retry can find it.
		return job.Permanent(fmt.Errorf("reseller %s: %w", j.Ref, err))
	}
	if err != nil {
		return fmt.Errorf("reseller %s: %w", j.Ref, err)
	}
	o, ok, err := order.StartFulfilment(ctx, r.store, j.Ref)
	if err != nil {
		return fmt.Errorf("reseller %s: %w", j.Ref, err)
	}
	if !ok {
		if o.Status != order.StatusActive {
			r.log.Warn("reseller credit skipped", "order", o.ID, "status", o.Status)
		}
		return nil
	}
	return r.credit(ctx, o, p)
}

// Credit grants a paid reseller order's credits in the ledger, marks its purchase credited and
// its service active, and finishes the order (provisioning → active): the end of a reseller
// order's fulfilment, whoever recorded the payment (Fulfil here; in WHMCS mode the WHMCS jobs,
// once the payment is on the WHMCS invoice and the WHMCS order accepted). The ledger credits once
// per order id, so a repeat changes nothing.
func (r *Resellers) Credit(ctx context.Context, o order.Order) error {
	p, err := r.store.Purchase(ctx, o.ID)
	if errors.Is(err, ErrNotFound) {
		return job.Permanent(fmt.Errorf("reseller %s: %w", o.ID, err))
	}
	if err != nil {
		return fmt.Errorf("reseller %s: %w", o.ID, err)
	}
	return r.credit(ctx, o, p)
}

func (r *Resellers) credit(ctx context.Context, o order.Order, p Purchase) error {
	a, err := r.accounts.Credit(ctx, o.ID, o.Email, p.PasswordHash, p.Credits)
	who := authz.Claims{ClientID: o.ClientID, SessionID: o.SessionID}
	r.audit.RecordParts(ctx, who, "reseller-credit", p.ServiceID, fmt.Sprintf("order %s: +%d credits, balance %d", o.ID, p.Credits, a.Credits),
		[]string{audit.WordResellerCredit, o.ID, strconv.Itoa(p.Credits), strconv.Itoa(a.Credits)}, err)
	if err != nil {
		return fmt.Errorf("reseller %s: %w", o.ID, err)
	}
	if err := r.store.MarkCredited(ctx, o.ID, a.Account, r.now().UTC()); err != nil {
		return fmt.Errorf("reseller %s: %w", o.ID, err)
	}
	services, err := r.store.OrderServices(ctx, o.ID)
	if err != nil {
		return fmt.Errorf("reseller %s: %w", o.ID, err)
	}
	for _, s := range services {
		if s.Status != order.ServiceActive {
			s.Status = order.ServiceActive
			if err := r.store.UpdateService(ctx, s); err != nil {
				return fmt.Errorf("reseller %s: %w", o.ID, err)
			}
		}
	}
	if _, err := r.store.FinishFulfilment(ctx, o.ID); err != nil {
		return fmt.Errorf("reseller %s: %w", o.ID, err)
	}
	return nil
}
