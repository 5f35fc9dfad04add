package order

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/country"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/pricing"
)

// PaymentDeadline is how long an invoice stays payable (spec §9).
const PaymentDeadline = 24 * time.Hour

// Job kinds: JobProvision turns a paid order into working lines; JobExpire cancels an order whose
// invoice was not paid by its deadline.
const (
	JobProvision = "provision"
	JobExpire    = "expire"
	// JobRefund gives back a payment under review (its ref is the Review's id).
	JobRefund = "refund"
	// JobUpstreamCancel cancels in the Upstream billing system an order that will not be paid
	// (cancelled by its buyer, or not placed after all; its ref is the order id): a durable job,
	// so the billing system being down only delays it.
	JobUpstreamCancel = "upstream-cancel"
)

// Store is the persistence the order service needs.
type Store interface {
	// WithTx runs fn in one serialisable write transaction.
	WithTx(ctx context.Context, fn func(Tx) error) error
	Order(ctx context.Context, id string) (Order, error)
	// ClientOrderByKey reads the client's order placed with an idempotency key, without its lock:
	// a first look only, the placing transaction checks again under the lock.
	ClientOrderByKey(ctx context.Context, clientID int64, key string) (Order, error)
	Service(ctx context.Context, id string) (Service, error)
	InvoiceOrder(ctx context.Context, invoiceID string) (Order, error)
	// PromoUses counts the uses of a promotion (its canonical code) at time now: an unpaid order
	// holds its use only until its invoice's deadline.
	PromoUses(ctx context.Context, code string, now time.Time) (int, error)
	SetPaymentURL(ctx context.Context, invoiceID, url string) error
	// SetPaymentLink stores o's gateway, return URL and payment link while its invoice is unpaid
	// and it is pending; it reports false, changing nothing, otherwise.
	SetPaymentLink(ctx context.Context, o Order) (bool, error)
	// Review reads a payment under review; ErrNotFound when none.
	Review(ctx context.Context, id string) (Review, error)
	// ClaimRefund marks a refund of a payment to review under way, once; false when it is
	// decided already or another refund of it is under way.
	ClaimRefund(ctx context.Context, id string) (bool, error)
	// FinishRefund records a claimed refund made (r's RefundID or Reference, DecidedBy,
	// RefundedAt; the state refunded) or, with failure, why it failed (the claim let go).
	FinishRefund(ctx context.Context, r Review, failure string) error
	// OrderReviews lists an order's payments to review in state ("": all).
	OrderReviews(ctx context.Context, orderID, state string) ([]Review, error)
	// ClientOrders lists the client's orders newest first, at most limit; those placed by the
	// session sessionID only unless it is "".
	ClientOrders(ctx context.Context, clientID int64, sessionID string, limit int) ([]Order, error)
	// DropOrder deletes an order an Upstream refused, with its invoice, services, trial record and
	// jobs, as if it had never been placed; only while no payment reached it (pending, or free).
	DropOrder(ctx context.Context, id string) error
}

// GuardedStore is a Store that can place an order in one step (one round trip on PostgreSQL):
// WithGuardedTx takes c's locks as Tx.Check does and commits what fn writes only if, under
// them, no order is stored under c's idempotency key and each count c names is below its limit
// in lim (0: none). placed false means nothing was written (the checks did not pass, or the
// store has no such step): the caller places the order the usual way. fn only writes.
type GuardedStore interface {
	WithGuardedTx(ctx context.Context, c Check, lim Limits, fn func(Tx) error) (placed bool, err error)
}

// Limits are the counts a guarded placement must stay below (0: not limited): the orders from
// the IP (Check.CountIP), the trials of the client and of the e-mail, the trials from the IP.
type Limits struct {
	OrdersFromIP int
	Trials       int
	TrialsFromIP int
}

// Tx is the unit of work of an order write.
type Tx interface {
	// Check takes the locks an order placement reads under and reads, in one step (one round
	// trip on PostgreSQL), what it depends on; see Check.
	Check(ctx context.Context, c Check) (Checked, error)
	Order(ctx context.Context, id string) (Order, error)
	InvoiceOrder(ctx context.Context, invoiceID string) (Order, error)
	PromoUses(ctx context.Context, code string, now time.Time) (int, error)
	InsertOrder(ctx context.Context, o Order, services []Service) error
	// RecordTrial keeps the record of a free trial started, with its order.
	RecordTrial(ctx context.Context, t TrialStart) error
	// SetOrderStatus moves the order to status when it is in one of from; reports whether it moved.
	SetOrderStatus(ctx context.Context, id string, to Status, from ...Status) (bool, error)
	// SetInvoiceStatus moves the invoice when it is unpaid; txn (unique) and paidAt are recorded for paid.
	SetInvoiceStatus(ctx context.Context, id string, to InvoiceStatus, txn string, at time.Time) (bool, error)
	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
	// InsertReview records a payment under review unless its transaction id is recorded already
	// (a duplicate delivery); it reports whether it inserted.
	InsertReview(ctx context.Context, r Review) (bool, error)
	// AcceptReview moves a payment to review to accepted unless it is decided or being refunded
	// (ErrDecided); it answers the row.
	AcceptReview(ctx context.Context, id, by string, at time.Time) (Review, error)
	// PayInvoice marks an unpaid or cancelled invoice paid by txn; false when it is paid or the
	// transaction settled another invoice.
	PayInvoice(ctx context.Context, id, txn string, at time.Time) (bool, error)
	// NumberInvoice gives the paid invoice id the next number of the shop's invoice sequence,
	// written with pattern (package numbering) and the date at, in this transaction: its
	// rollback gives the number back. An invoice numbered already keeps its number.
	NumberInvoice(ctx context.Context, id, pattern string, at time.Time) (string, error)
	// ReopenHeld moves o from held (fraud) to pending under its lock, and its cancelled invoice to
	// unpaid with o.Invoice's deadline and payment link; false, changing nothing, when o is not
	// held.
	ReopenHeld(ctx context.Context, o Order) (bool, error)
}

// Check names what an order placement reads, each under its own lock, taken in this order: the
// order stored under the client's idempotency key, the promotion's uses, the orders from the IP,
// the client's trials, the trials from the IP, the trials of the e-mail address.
type Check struct {
	ClientID       int64
	IdempotencyKey string // "": no lookup
	PromoCode      string // the promotion's canonical code; "": its uses are not counted
	Now            time.Time
	CountIP        bool // count the orders from IP created at or after Since
	IP             string
	Since          time.Time
	// Trial counts the free trials started (TrialStart) by the client, from IP at or after
	// TrialSince, and by the e-mail address whose CanonicalEmail is TrialEmail.
	Trial      bool
	TrialSince time.Time
	TrialEmail string
}

// Checked is what Check read.
type Checked struct {
	Prev          *Order // the order stored under the idempotency key; nil when none
	PromoUses     int
	FromIP        int
	Trials        int // the client's free trials started
	TrialsFromIP  int // the free trials started from IP since TrialSince
	TrialsOfEmail int // the free trials started by the e-mail address, in any spelling
}

// Gateway creates the link where a buyer pays an invoice.
type Gateway interface {
	Module() string
	Checkout(ctx context.Context, o Order) (paymentURL string, err error)
}

// Expirer is a Gateway that can close an invoice's open payment page (Stripe Checkout).
type Expirer interface {
	ExpireCheckout(ctx context.Context, o Order) error
}

// Refunder is a Gateway that can give money back through its API; each call answers the
// provider's refund id. Refund gives back a payment to review in full, and must be safe to repeat
// for one Review (an idempotency key), as a retried job repeats it; RefundAmount gives back part
// or all of an order's payment at once (package refund, r naming the refund and the transaction).
type Refunder interface {
	Refund(ctx context.Context, r Review) (refundID string, err error)
	RefundAmount(ctx context.Context, r Review, amount money.Money) (refundID string, err error)
}

// LocalLinker is a Gateway whose payment link is derived from the order alone, with no network
// call (the sandbox's). Placing an order stores that link with the order, in its one write
// transaction, instead of recording it in a second one after Checkout.
type LocalLinker interface {
	Link(o Order) string
}

// Authorizer decides who may do what to whose resource.
type Authorizer interface {
	Allowed(c authz.Claims, action string, r authz.Resource) bool
}

// Config holds the order service's settings.
type Config struct {
	Fraud fraud.Rules
	// ReturnOrigins are the absolute origins a returnUrl may point to (besides a plain path).
	ReturnOrigins []string
	// OnPaid is called after a settlement (or a job-queuing change) commits, to wake the job worker.
	OnPaid func()
	// Promotions, when set, is the catalog with a promo code's promotion as the billing system
	// that owns promotions has it now (WHMCS's GetPromotions): a code is checked at the time it
	// is applied (quoted, ordered), not as the cached catalog read it.
	Promotions func(ctx context.Context, cat *catalog.Catalog, code string) *catalog.Catalog
	// Observe, when set, hears of each order placed (EventCreated) and paid (EventPaid) once
	// committed (metrics); it must not block.
	Observe func(event string, o Order)
	// TrialsPerClient and TrialsPerIP limit free trials: per client ever, and per address per
	// TrialIPWindow; 0 is no limit. The client's limit holds for its e-mail address too.
	TrialsPerClient, TrialsPerIP int
	// TrialBlocked, when set, reports the e-mail addresses given no free trial (throwaway ones):
	// their trial orders are ErrTrialUnavailable, with nothing stored.
	TrialBlocked func(email string) bool
	// Stock, when set, answers ErrOutOfStock for a plan and cycle the panel cannot make a line
	// of now (the reseller credits cannot cover its cost): checked before anything is stored.
	Stock func(ctx context.Context, pid int, cycle catalog.Cycle) error
	// Upstream, when set, is the billing system plan orders are placed in too (WHMCS), before
	// their payment link is made; nil: the shop is the billing system.
	Upstream Upstream
}

// Orders creates and settles orders.
type Orders struct {
	store    Store
	catalog  func() *catalog.Catalog
	gateways map[string]Gateway
	authz    Authorizer
	cfg      Config
	log      *slog.Logger
	now      func() time.Time
}

// Events told to Config.Observe.
const (
	EventCreated = "created"
	EventPaid    = "paid"
)

// observeCreated tells Config.Observe of an order just placed (a replay is not a new order).
func (s *Orders) observeCreated(o Order, replay bool) {
	if replay {
		return
	}
	s.cfg.Observe(EventCreated, o)
	if o.Status == StatusPaid { // nothing to pay: paid as it is placed
		s.cfg.Observe(EventPaid, o)
	}
}

// New returns the order service; now is the business clock, nil: real time.
func New(store Store, cat func() *catalog.Catalog, gateways []Gateway, az Authorizer, cfg Config, log *slog.Logger, now func() time.Time) *Orders {
	gw := make(map[string]Gateway, len(gateways))
	for _, g := range gateways {
		gw[g.Module()] = g
	}
	if cfg.OnPaid == nil {
		cfg.OnPaid = func() {}
	}
	if cfg.Observe == nil {
		cfg.Observe = func(string, Order) {}
	}
	return &Orders{store: store, catalog: cat, gateways: gw, authz: az, cfg: cfg, log: log, now: clock.OrReal(now)}
}

// Gateway is the configured gateway of that module name.
func (s *Orders) Gateway(module string) (Gateway, bool) {
	g, ok := s.gateways[module]
	return g, ok
}

// Request is an order to place.
type Request struct {
	Quote          pricing.Request
	IdempotencyKey string
	Gateway        string
	ExpectedTotal  *money.Money
	AffiliateID    string
	ReturnURL      string
	IP             string
	// Origin is the origin the request reached (scheme://host); a return URL may point there.
	Origin string
	// ReturnOrigins are further origins a return URL may point to: the allowed origins of the
	// storefront the order is placed through.
	ReturnOrigins []string
	// Locale is the buyer's language (the request's Accept-Language), kept for the order's mail.
	// Not part of the idempotency hash: it does not change what is bought.
	Locale string
	// RenewWithCard is the buyer's consent to have the card saved and renewals charged to it;
	// only with a gateway that saves cards (CardSaver) and a plan that renews.
	RenewWithCard bool
	// ConfirmCountry is the buyer's confirmation of a billing country (Quote.BillingCountry)
	// that differs from their address's (Quote.IPCountry): under a tax block such an order is
	// ErrCountryUnconfirmed without it.
	ConfirmCountry bool
}

var (
	// ErrCountryUnconfirmed means the catalog charges tax and the billing country differs from
	// the country of the buyer's address, which the buyer did not confirm; nothing was stored.
	ErrCountryUnconfirmed = errors.New("billing country differs from the address's and is not confirmed")
	// ErrCountryUnknown means the catalog charges tax and no country is known to charge it for:
	// no billing country, an address that cannot be placed, no seller country.
	ErrCountryUnknown = errors.New("no billing country")
)

func (r Request) hash() string {
	b, _ := json.Marshal(struct {
		PID      int
		Cycle    catalog.Cycle
		Currency string
		Extra    int
		Proxy    bool
		Promo    string
		Gateway  string
		Expected *money.Money
		Aff      string
		Return   string
	}{r.Quote.PID, r.Quote.Cycle, strings.ToUpper(r.Quote.Currency), r.Quote.ExtraConnections, r.Quote.ProxyProtection,
		canonicalPromo(r.Quote.PromoCode), r.Gateway, r.ExpectedTotal, r.AffiliateID, r.ReturnURL})
	if r.RenewWithCard {
		// Only when given, so the hash of every request without it stays what it was.
		b = append(b, " renew-with-card"...)
	}
	// The same for the billing country and its confirmation: they change the tax.
	if c := strings.ToUpper(strings.TrimSpace(r.Quote.BillingCountry)); c != "" {
		b = append(b, " billing-country:"+c...)
	}
	if r.ConfirmCountry {
		b = append(b, " confirm-country"...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Quote prices a selection, counting the promotion's uses from the store.
func (s *Orders) Quote(ctx context.Context, r pricing.Request) (pricing.Quote, error) {
	return s.quote(ctx, s.store, r)
}

// promoCounter counts a promotion's uses, inside or outside a transaction.
type promoCounter interface {
	PromoUses(ctx context.Context, code string, now time.Time) (int, error)
}

func (s *Orders) quote(ctx context.Context, uses promoCounter, r pricing.Request) (pricing.Quote, error) {
	cat := s.PromoCatalog(ctx, r.PromoCode)
	now := s.now()
	// Only a promotion with a use limit costs a count, made under its canonical code.
	if p, ok := cat.Promotion(r.PromoCode); ok && p.MaxUses > 0 {
		uses, err := uses.PromoUses(ctx, p.Code, now)
		if err != nil {
			return pricing.Quote{}, fmt.Errorf("quote: %w", err)
		}
		r.PromoUses = uses
	}
	return pricing.QuoteFor(cat, r, now)
}

// PromoCatalog is the catalog in force, with code's promotion read again where
// Config.Promotions says so (the promotion a buyer applies is checked as it is now).
func (s *Orders) PromoCatalog(ctx context.Context, code string) *catalog.Catalog {
	cat := s.catalog()
	if s.cfg.Promotions == nil || strings.TrimSpace(code) == "" {
		return cat
	}
	return s.cfg.Promotions(ctx, cat, code)
}

// canonicalPromo is the code in the form it is counted in, for comparing requests: every
// spelling of one code is one request.
func canonicalPromo(code string) string {
	c, _ := catalog.CanonicalPromoCode(code)
	return c
}

// Create places a plan order for the session in claims. The same idempotency key and request
// give back the same order; the price is the server's, and an expected total that differs stores
// nothing.
func (s *Orders) Create(ctx context.Context, claims authz.Claims, r Request) (Order, error) {
	// Before anything else, replays included: a storefront's buyer learns nothing of a plan it
	// does not sell but that it is unknown there.
	if err := r.Quote.Sold(); err != nil {
		return Order{}, fmt.Errorf("create: %w", err)
	}
	cat := s.PromoCatalog(ctx, r.Quote.PromoCode)
	p := Placement{Kind: KindPlan, Gateway: r.Gateway, ReturnURL: r.ReturnURL, IP: r.IP, Origin: r.Origin,
		ReturnOrigins: r.ReturnOrigins, IdempotencyKey: r.IdempotencyKey, AffiliateID: r.AffiliateID, Locale: r.Locale,
		RenewWithCard: r.RenewWithCard}
	if p.Gateway == "" {
		p.Gateway = cat.DefaultGateway().Module
	}
	if err := s.CheckPlacement(p); err != nil {
		return Order{}, err
	}
	if r.RenewWithCard {
		if err := s.checkCardRenewal(cat, p.Gateway, r.Quote.PID, r.Quote.Cycle); err != nil {
			return Order{}, err
		}
	}
	if err := s.taxEvidence(cat, r, &p); err != nil {
		return Order{}, fmt.Errorf("create: %w", err)
	}
	// The panel's stock is read here, outside the transaction, but answered only for a new order
	// (below): a replay of an order placed before the credits ran out is still that order.
	var stockErr error
	if s.cfg.Stock != nil {
		cycle := r.Quote.Cycle
		if product, ok := cat.Product(r.Quote.PID); ok && cycle == "" {
			if cs := product.EnabledCycles(); len(cs) > 0 {
				cycle = cs[0]
			}
		}
		stockErr = s.cfg.Stock(ctx, r.Quote.PID, cycle)
	}
	r.Gateway = p.Gateway
	p.RequestHash = r.hash()
	now := s.now().UTC()
	// The quote is pure unless the promotion has a use limit (its count is read under the
	// transaction's lock): price it before taking the writer, so the lock covers only the SQL.
	// Its outcome is used only after the idempotency check, exactly as if priced inside.
	var pre pricing.Quote
	var preErr error
	limited := ""
	if promo, ok := cat.Promotion(r.Quote.PromoCode); ok && promo.MaxUses > 0 {
		// Counted and locked under the canonical code, whatever the buyer's spelling.
		limited = promo.Code
	} else {
		pre, preErr = pricing.QuoteFor(cat, r.Quote, s.now())
	}
	// The orders from the IP are counted (which serialises them) only when the limit is used.
	check := Check{ClientID: claims.ClientID, IdempotencyKey: r.IdempotencyKey, PromoCode: limited, Now: now,
		CountIP: s.cfg.Fraud.MaxOrdersPerIP > 0, IP: r.IP, Since: now.Add(-24 * time.Hour)}
	s.trialCheck(cat, r.Quote.PID, claims.Email, now, &check)
	return s.place(ctx, claims, p, check, func(got Checked) (pricing.Quote, []Service, error) {
		// After the idempotency check, so a replay of a trial placed before is still its order.
		if s.cfg.TrialBlocked != nil && isTrial(cat, r.Quote.PID) && s.cfg.TrialBlocked(claims.Email) {
			return pricing.Quote{}, nil, ErrTrialUnavailable
		}
		if stockErr != nil {
			return pricing.Quote{}, nil, stockErr
		}
		q, err := pre, preErr
		if limited != "" {
			quote := r.Quote
			quote.PromoUses = got.PromoUses
			q, err = pricing.QuoteFor(cat, quote, s.now())
		}
		if err != nil {
			return pricing.Quote{}, nil, err
		}
		if r.ExpectedTotal != nil && (r.ExpectedTotal.Amount != q.Total.Amount || !strings.EqualFold(r.ExpectedTotal.Currency, q.Total.Currency)) {
			return pricing.Quote{}, nil, &PriceChangedError{Quote: q}
		}
		product, _ := cat.Product(q.PID)
		return q, []Service{{PID: product.PID, Name: product.Name, BillingCycle: string(q.Cycle),
			Trial: product.Trial, MaxConnections: 1 + q.ExtraConnections}}, nil
	})
}

// taxEvidence fills in p's evidence of where the buyer is when the catalog charges tax: the
// billing country given, the address's country, and the buyer's confirmation where they
// differ (else ErrCountryUnconfirmed). A billing country that is no ISO code is
// pricing.ErrInvalidCountry; with no country to tax at all, ErrCountryUnknown. Without a tax
// block nothing is kept or asked.
func (s *Orders) taxEvidence(cat *catalog.Catalog, r Request, p *Placement) error {
	if cat.Tax == nil {
		return nil
	}
	where, err := pricing.TaxCountry(cat, r.Quote)
	if err != nil {
		return err
	}
	if where == "" {
		return ErrCountryUnknown
	}
	ip, _ := country.Normalize(r.Quote.IPCountry)
	if !country.Valid(ip) {
		ip = ""
	}
	differs := ip != "" && where != ip
	if differs && !r.ConfirmCountry {
		return ErrCountryUnconfirmed
	}
	p.BillingCountry, p.IPCountry, p.CountryConfirmed = where, ip, differs
	return nil
}

// checkReturnURL accepts a plain path, or an absolute URL on one of origins (the request's own
// and its storefront's) or the configured ReturnOrigins.
func (s *Orders) checkReturnURL(raw string, origins ...string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ErrBadReturnURL
	}
	if u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(raw, "//") && !strings.Contains(raw, `\`) {
		return nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ErrBadReturnURL
	}
	origin := u.Scheme + "://" + u.Host
	for _, o := range append(origins, s.cfg.ReturnOrigins...) {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return nil
		}
	}
	return ErrBadReturnURL
}

// Get reads an order the session may see; a foreign order is ErrNotFound, like an unknown one.
func (s *Orders) Get(ctx context.Context, claims authz.Claims, id string) (Order, error) {
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return Order{}, err
	}
	if !s.authz.Allowed(claims, authz.ActionRead, resource(o)) {
		return Order{}, ErrNotFound
	}
	return o, nil
}

// ListLimit is how many orders List answers at most.
const ListLimit = 200

// List reads the orders the session may see, newest first: a proven session's are its client's,
// an email-only (buying) session's are those it placed.
func (s *Orders) List(ctx context.Context, claims authz.Claims) ([]Order, error) {
	session := ""
	switch claims.Scope {
	case authz.ScopeProven:
	case authz.ScopeEmail:
		if claims.SessionID == "" {
			return []Order{}, nil
		}
		session = claims.SessionID
	default:
		return []Order{}, nil
	}
	if claims.ClientID <= 0 {
		return []Order{}, nil
	}
	all, err := s.store.ClientOrders(ctx, claims.ClientID, session, ListLimit)
	if err != nil {
		return nil, err
	}
	out := make([]Order, 0, len(all))
	for _, o := range all {
		if s.authz.Allowed(claims, authz.ActionRead, resource(o)) { // the one ownership rule, as Get
			out = append(out, o)
		}
	}
	return out, nil
}

// GetService reads a service the session may see.
func (s *Orders) GetService(ctx context.Context, claims authz.Claims, id string) (Service, error) {
	svc, err := s.store.Service(ctx, id)
	if err != nil {
		return Service{}, err
	}
	r := authz.Resource{Kind: "service", ID: svc.ID, ClientID: svc.ClientID, SessionID: svc.SessionID}
	if !s.authz.Allowed(claims, authz.ActionRead, r) {
		return Service{}, ErrNotFound
	}
	return svc, nil
}

func resource(o Order) authz.Resource {
	return authz.Resource{Kind: "order", ID: o.ID, ClientID: o.ClientID, SessionID: o.SessionID}
}

// Cancel cancels a pending order and its invoice.
func (s *Orders) Cancel(ctx context.Context, claims authz.Claims, id string) (Order, error) {
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return Order{}, err
	}
	if !s.authz.Allowed(claims, authz.ActionCancel, resource(o)) {
		return Order{}, ErrNotFound
	}
	return s.cancel(ctx, o)
}

// CancelPending cancels a pending order and its invoice for the shop itself (a renewal given up
// or replaced), with no session's permission asked; ErrNotPending when it is not pending.
func (s *Orders) CancelPending(ctx context.Context, id string) (Order, error) {
	o, err := s.store.Order(ctx, id)
	if err != nil {
		return Order{}, err
	}
	return s.cancel(ctx, o)
}

func (s *Orders) cancel(ctx context.Context, o Order) (Order, error) {
	id := o.ID
	err := s.store.WithTx(ctx, func(tx Tx) error {
		moved, err := tx.SetOrderStatus(ctx, id, StatusCancelled, StatusPending)
		if err != nil {
			return err
		}
		if !moved {
			return ErrNotPending
		}
		if _, err = tx.SetInvoiceStatus(ctx, o.Invoice.ID, InvoiceCancelled, "", s.now()); err != nil {
			return err
		}
		if s.cfg.Upstream != nil && upstreamKind(o.Kind) {
			// Placed upstream too: cancelled there once, however many cancels raced here.
			return tx.Enqueue(ctx, JobUpstreamCancel, id, JobUpstreamCancel+":"+id, s.now())
		}
		return nil
	})
	if err != nil {
		return Order{}, fmt.Errorf("cancel order: %w", err)
	}
	if s.cfg.Upstream != nil {
		s.cfg.OnPaid() // wakes the job worker
	}
	s.closeCheckout(ctx, o)
	return s.store.Order(ctx, id)
}

// Relink gives a pending order a payment link through gateway (its own when ""), sending the
// buyer back to returnURL (its own when ""): the current link when neither changes. A link of
// another gateway closes the previous payment page where the provider allows it; a payment
// that still arrives through it settles the invoice all the same (or is refunded when the
// order was paid twice). origins are the sites returnURL may point to, as for a placement.
func (s *Orders) Relink(ctx context.Context, o Order, gateway, returnURL string, origins ...string) (Order, error) {
	if o.Status != StatusPending || o.Invoice.Status != InvoiceUnpaid {
		return Order{}, ErrNotPending
	}
	if gateway == "" {
		gateway = o.Invoice.Gateway
	}
	if returnURL == "" {
		returnURL = o.ReturnURL
	}
	p := Placement{Gateway: gateway, ReturnURL: returnURL}
	if len(origins) > 0 {
		p.Origin, p.ReturnOrigins = origins[0], origins[1:]
	}
	if returnURL == o.ReturnURL {
		p.ReturnURL = "" // stored already: checked when it was placed
	}
	if err := s.CheckPlacement(p); err != nil {
		return Order{}, err
	}
	if gateway == o.Invoice.Gateway && returnURL == o.ReturnURL && o.Invoice.PaymentURL != "" {
		return o, nil
	}
	prev := o
	o.Gateway, o.Invoice.Gateway, o.ReturnURL = gateway, gateway, returnURL
	if linker, ok := s.gateways[gateway].(LocalLinker); ok {
		o.Invoice.PaymentURL = linker.Link(o)
	} else {
		url, err := s.gateways[gateway].Checkout(ctx, o)
		if err != nil {
			s.log.Error("payment link failed", "order", o.ID, "gateway", gateway, "err", err)
			return Order{}, fmt.Errorf("relink order %s: %w", o.ID, ErrGatewayUnavailable)
		}
		o.Invoice.PaymentURL = url
	}
	moved, err := s.store.SetPaymentLink(ctx, o)
	if err != nil {
		return Order{}, fmt.Errorf("relink order %s: %w", o.ID, err)
	}
	if !moved {
		return Order{}, fmt.Errorf("relink order %s: %w", o.ID, ErrNotPending)
	}
	if prev.Invoice.Gateway != gateway {
		s.closeCheckout(ctx, prev)
	}
	return o, nil
}

// closeCheckout ends the provider's open payment page of a cancelled order where the provider
// allows it, so the buyer cannot pay for nothing (at the deadline the provider's page ends by
// itself: Stripe's session expires with the invoice). A failure is only logged: a payment
// that still arrives is refunded or listed for review (Settle).
func (s *Orders) closeCheckout(ctx context.Context, o Order) {
	e, ok := s.gateways[o.Invoice.Gateway].(Expirer)
	if !ok {
		return
	}
	if err := e.ExpireCheckout(ctx, o); err != nil {
		s.log.Warn("payment page left open", "order", o.ID, "invoice", o.Invoice.ID, "gateway", o.Invoice.Gateway, "err", err)
	}
}

// Hold sets a pending order aside for review: status fraud, never provisioned, and left alone by
// the expiry job. The invoice stays unpaid; reason goes to the log. Holding a settled, cancelled
// or already held order changes nothing.
func (s *Orders) Hold(ctx context.Context, invoiceID, reason string) (Order, error) {
	var o Order
	moved := false
	err := s.store.WithTx(ctx, func(tx Tx) error {
		var err error
		if o, err = tx.InvoiceOrder(ctx, invoiceID); err != nil {
			return err
		}
		moved, err = tx.SetOrderStatus(ctx, o.ID, StatusFraud, StatusPending)
		return err
	})
	if err != nil {
		return Order{}, fmt.Errorf("hold %s: %w", invoiceID, err)
	}
	if moved {
		s.log.Warn("order held for review", "order", o.ID, "invoice", invoiceID, "reason", reason)
	}
	return s.store.Order(ctx, o.ID)
}

// PaymentReturnURL is where the buyer goes after paying: the order's return URL with the order id
// filled in ({orderId}), or added as the "order" query parameter. It may be a path.
func (o Order) PaymentReturnURL() string {
	raw := o.ReturnURL
	for _, ph := range []string{"{orderId}", "%7BorderId%7D"} {
		if strings.Contains(raw, ph) {
			return strings.ReplaceAll(raw, ph, url.QueryEscape(o.ID))
		}
	}
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return "/checkout/waiting?order=" + url.QueryEscape(o.ID)
	}
	q := u.Query()
	if q.Get("order") == "" {
		q.Set("order", o.ID)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Expire cancels an order still pending at its payment deadline, with its invoice. An order paid,
// cancelled or failed meanwhile is left alone.
func (s *Orders) Expire(ctx context.Context, id string) error {
	err := s.store.WithTx(ctx, func(tx Tx) error {
		o, err := tx.Order(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if o.Status != StatusPending || s.now().Before(o.Invoice.Deadline) {
			return nil
		}
		moved, err := tx.SetOrderStatus(ctx, id, StatusCancelled, StatusPending)
		if err != nil || !moved {
			return err
		}
		if _, err = tx.SetInvoiceStatus(ctx, o.Invoice.ID, InvoiceCancelled, "", s.now()); err != nil {
			return err
		}
		if s.cfg.Upstream != nil && upstreamKind(o.Kind) {
			return tx.Enqueue(ctx, JobUpstreamCancel, id, JobUpstreamCancel+":"+id, s.now())
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("expire order %s: %w", id, err)
	}
	if s.cfg.Upstream != nil {
		s.cfg.OnPaid()
	}
	return nil
}

// Fail records a declined payment: the invoice and its pending order fail.
func (s *Orders) Fail(ctx context.Context, invoiceID string) (Order, error) {
	var o Order
	err := s.store.WithTx(ctx, func(tx Tx) error {
		var err error
		if o, err = tx.InvoiceOrder(ctx, invoiceID); err != nil {
			return err
		}
		moved, err := tx.SetInvoiceStatus(ctx, invoiceID, InvoiceFailed, "", s.now())
		if err != nil {
			return err
		}
		if !moved {
			return ErrAlreadySettled
		}
		_, err = tx.SetOrderStatus(ctx, o.ID, StatusFailed, StatusPending)
		return err
	})
	if err != nil {
		return Order{}, fmt.Errorf("fail %s: %w", invoiceID, err)
	}
	return s.store.Order(ctx, o.ID)
}

// InvoiceOrder reads the order of an invoice without an ownership check: the payment page is reached by
// the unguessable invoice id alone, like a hosted payment link.
func (s *Orders) InvoiceOrder(ctx context.Context, invoiceID string) (Order, error) {
	return s.store.InvoiceOrder(ctx, invoiceID)
}

// PromoUses counts a promotion's uses now, under its canonical code (see Store.PromoUses).
func (s *Orders) PromoUses(ctx context.Context, code string) (int, error) {
	return s.store.PromoUses(ctx, canonicalPromo(code), s.now())
}
