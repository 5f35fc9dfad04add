// Package whmcsorder is the home of a plan order in WHMCS mode (STREAMCART_BACKEND=whmcs,
// docs/whmcs.md): the order is placed in the seller's WHMCS (Placer, an order.Upstream) before the
// buyer pays through Streamcart's gateway, and the paid order is fulfilled by WHMCS (Home, an
// order.Home): durable jobs record the payment on the WHMCS invoice (AddInvoicePayment, after
// GetTransactions shows it is not there yet), accept the order (AcceptOrder) and wait until the
// WHMCS module made the line (GetClientsProducts), whose credentials the success page shows.
//
// Our ids (ord_, inv_, svc_, the client) map to WHMCS's in the database (Store): WHMCS's never
// reach a buyer, and WHMCS's error messages only the log (with their action).
package whmcsorder

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/clock"
	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/pricing"
	"github.com/streamcart/streamcart/api/whmcs"
)

// The states of a placement (Placement.State).
const (
	StatePlacing = "placing" // claimed: being placed in WHMCS (or its claimant died)
	StatePlaced  = "placed"  // WHMCS holds the order at our price
	StateDropped = "dropped" // WHMCS could not take it: the order was dropped
	// StateLost: AddOrder's answer never came (a timeout, WHMCS down mid-call): the order was
	// dropped here, and WHMCS may hold it. A replay of the order (same reference) takes that WHMCS
	// order over; else the order.JobUpstreamCancel job cancels it there.
	StateLost = "lost"
)

// Placement is what one of our plan orders is in WHMCS: the client, order and invoice ids, and
// each of our services' WHMCS service id. InvoiceRef is 0 when WHMCS made no invoice (free).
type Placement struct {
	OrderID     string
	State       string
	Ref         string // what AddOrder wrote in the services' domain field: refOf
	ClientRef   int
	OrderRef    int
	InvoiceRef  int
	ServiceRefs map[string]int // our svc_ id → WHMCS service id
}

// Store keeps the mapping of our ids to WHMCS's, and the placements' claims.
type Store interface {
	// ClaimPlacement claims the placing of an order that exists: its row is made in state placing,
	// or taken over when its claim ran out before now; claimed is false when another holds it or
	// it is placed or dropped (p is the row then; order.ErrNotFound when the order is gone).
	ClaimPlacement(ctx context.Context, orderID string, now, until time.Time) (p Placement, claimed bool, err error)
	// SavePlacement writes p's state and ids, and its services' ids.
	SavePlacement(ctx context.Context, p Placement) error
	// Placement reads an order's placement; order.ErrNotFound when there is none.
	Placement(ctx context.Context, orderID string) (Placement, error)
	// PutWHMCSClient records the WHMCS client one of our clients is.
	PutWHMCSClient(ctx context.Context, clientID int64, whmcsID int) error
	// LostPlacements counts the placements under ref in state lost.
	LostPlacements(ctx context.Context, ref string) (int, error)
	// WHMCSOrderTaken reports whether a placement being placed or placed holds WHMCS order id.
	WHMCSOrderTaken(ctx context.Context, whmcsOrder int) (bool, error)
	UpgradeLeases
	Enqueue(ctx context.Context, kind, ref, uniqueKey string, runAt time.Time) error
}

// API is what placing an order asks of WHMCS (whmcs.Client).
type API interface {
	GetClientByEmail(ctx context.Context, email string) (whmcs.ClientDetails, error)
	AddClient(ctx context.Context, n whmcs.NewClient) (int, error)
	GetCurrencies(ctx context.Context) ([]whmcs.Currency, error)
	AddOrder(ctx context.Context, o whmcs.Order) (whmcs.Placed, error)
	GetInvoice(ctx context.Context, id int) (whmcs.Invoice, error)
	CancelOrder(ctx context.Context, orderID int) error
	GetClientServices(ctx context.Context, clientID int, domain string) ([]whmcs.Service, error)
	GetOrder(ctx context.Context, id int) (whmcs.OrderRecord, error)
	GetOrders(ctx context.Context, clientID int, status string) ([]whmcs.OrderRecord, error)
}

// Config is how orders map to WHMCS.
type Config struct {
	// Gateways maps a Streamcart gateway to the WHMCS payment module (STREAMCART_WHMCS_GATEWAYS).
	Gateways map[string]string
	// ExtraOption and ProxyOption are the WHMCS config option ids of extra connections and proxy
	// protection (STREAMCART_WHMCS_EXTRA_OPTION, _PROXY_OPTION); 0: none.
	ExtraOption, ProxyOption int
	// Country is the ISO country of a buyer's address ("" when unknown), for AddClient.
	Country func(ip netip.Addr) string
	// Claim is how long a placing claim lasts (a dead claimant's order is taken over after it);
	// Wait is how long a replay of an order waits for another request placing it. Zero: defaults.
	Claim, Wait time.Duration
	// LostAfter is how long a WHMCS order whose AddOrder answer was lost waits for a replay of
	// the order to take it over before it is cancelled in WHMCS. Zero: 15 minutes.
	LostAfter time.Duration
	// Wake rings the job worker (nil: nothing).
	Wake func()
	// Upgrades places upsell orders as WHMCS upgrades (nil: upsells are not placed in WHMCS).
	Upgrades *Upgrades
}

// Placer places plan orders in WHMCS: order.Upstream.
type Placer struct {
	api     API
	store   Store
	catalog func() *catalog.Catalog
	cfg     Config
	log     *slog.Logger
	now     func() time.Time

	mu     sync.Mutex
	flight map[string]*placing // the placings running in this process, by order
}

type placing struct {
	done chan struct{}
	err  error
}

var _ order.Upstream = (*Placer)(nil)

// NewPlacer returns the placer; cat is the catalog in force (a fresh quote for price_changed),
// now the business clock (nil: real time).
func NewPlacer(api API, store Store, cat func() *catalog.Catalog, cfg Config, log *slog.Logger, now func() time.Time) *Placer {
	if cfg.Claim <= 0 {
		cfg.Claim = 2 * time.Minute
	}
	if cfg.Wait <= 0 {
		cfg.Wait = 45 * time.Second
	}
	if cfg.LostAfter <= 0 {
		cfg.LostAfter = 15 * time.Minute
	}
	if cfg.Wake == nil {
		cfg.Wake = func() {}
	}
	return &Placer{api: api, store: store, catalog: cat, cfg: cfg, log: log, now: clock.OrReal(now), flight: map[string]*placing{}}
}

// Place places o in WHMCS once (order.Upstream): the client found by e-mail or made, AddOrder
// (never priceoverride), then GetInvoice, whose total must be our quote's.
func (pl *Placer) Place(ctx context.Context, o order.Order) error {
	p, err := pl.store.Placement(ctx, o.ID)
	switch {
	case err == nil && p.State == StatePlaced:
		return nil // a replay of a placed order: one read
	case err == nil && (p.State == StateDropped || p.State == StateLost):
		return fmt.Errorf("whmcs place %s: dropped: %w", o.ID, order.ErrUpstreamUnavailable)
	case err != nil && !errors.Is(err, order.ErrNotFound):
		return fmt.Errorf("whmcs place %s: %w", o.ID, err)
	}
	// Requests of this process placing one order share one placing (40 replays, one AddOrder);
	// other processes are kept out by the claim.
	pl.mu.Lock()
	f, running := pl.flight[o.ID]
	if !running {
		f = &placing{done: make(chan struct{})}
		pl.flight[o.ID] = f
	}
	pl.mu.Unlock()
	if running {
		select {
		case <-f.done:
			return f.err
		case <-ctx.Done():
			return fmt.Errorf("whmcs place %s: %w", o.ID, order.ErrUpstreamUnavailable)
		}
	}
	// Not the caller's context: a buyer giving up must not leave WHMCS half done.
	f.err = pl.place(context.WithoutCancel(ctx), o)
	pl.mu.Lock()
	delete(pl.flight, o.ID)
	pl.mu.Unlock()
	close(f.done)
	return f.err
}

// notPlaced is why o is dropped: an ErrNotPlaced error wrapping why.
func notPlaced(id string, why error) error {
	return fmt.Errorf("whmcs place %s: %w: %w", id, order.ErrNotPlaced, why)
}

func (pl *Placer) place(ctx context.Context, o order.Order) error {
	now := pl.now()
	p, claimed, err := pl.store.ClaimPlacement(ctx, o.ID, now, now.Add(pl.cfg.Claim))
	if errors.Is(err, order.ErrNotFound) {
		return fmt.Errorf("whmcs place %s: order gone: %w", o.ID, order.ErrUpstreamUnavailable)
	}
	if err != nil {
		return fmt.Errorf("whmcs place %s: %w", o.ID, err)
	}
	if !claimed {
		return pl.wait(ctx, p)
	}
	if o.Kind == order.KindUpsell {
		if pl.cfg.Upgrades == nil {
			return pl.drop(ctx, p, order.ErrUpstreamUnavailable)
		}
		return pl.placeUpgrade(ctx, o, p)
	}
	currency := strings.ToUpper(o.Quote.Total.Currency)
	if p.OrderRef == 0 {
		client, err := pl.client(ctx, o)
		if err != nil {
			return pl.drop(ctx, p, pl.failed(o, err))
		}
		p.ClientRef = int(client.ID)
		if cc := strings.ToUpper(client.CurrencyCode); cc != "" && cc != currency {
			// WHMCS invoices a client in its own currency: the buyer sees the price in it.
			pl.log.Warn("WHMCS client pays in another currency: order refused", "order", o.ID, "currency", currency, "client_currency", cc)
			return pl.drop(ctx, p, pl.changed(o, cc, -1))
		}
		item, err := pl.item(o)
		if err != nil {
			return pl.drop(ctx, p, err)
		}
		// A claim taken over from a placing that died may have sent AddOrder already: its
		// reference, kept before AddOrder is sent, says so.
		sent := p.Ref != ""
		p.Ref = refOf(o)
		item.Domain = p.Ref
		if err := pl.store.SavePlacement(ctx, p); err != nil {
			return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
		}
		placed, found, err := pl.takeOver(ctx, o, p, sent)
		if err != nil {
			return pl.drop(ctx, p, pl.failed(o, err))
		}
		if !found {
			placed, err = pl.api.AddOrder(ctx, whmcs.Order{ClientID: p.ClientRef, PaymentMethod: pl.cfg.Gateways[o.Invoice.Gateway],
				Items: []whmcs.OrderItem{item}, PromoCode: o.PromoCode, ClientIP: o.IP, NoInvoiceEmail: true})
		}
		if errors.Is(err, whmcs.ErrUnavailable) {
			// No answer: WHMCS may have made the order. A replay finds it by its reference; a job
			// cancels it there if none comes.
			return pl.lost(ctx, o, p, err)
		}
		if err != nil {
			return pl.drop(ctx, p, pl.failed(o, err))
		}
		p.OrderRef, p.InvoiceRef = placed.OrderID, placed.InvoiceID
		p.ServiceRefs = map[string]int{}
		for i, id := range o.ServiceIDs {
			if i < len(placed.ServiceIDs) {
				p.ServiceRefs[id] = placed.ServiceIDs[i]
			}
		}
		// Kept before anything else can fail: the order to cancel is known from here on.
		if err := pl.store.SavePlacement(ctx, p); err != nil {
			pl.cancel(ctx, o, p)
			return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
		}
		if len(p.ServiceRefs) != len(o.ServiceIDs) {
			pl.log.Error("WHMCS order made another number of services", "order", o.ID, "want", len(o.ServiceIDs), "got", len(placed.ServiceIDs))
			pl.cancel(ctx, o, p)
			return pl.drop(ctx, p, order.ErrUpstreamUnavailable)
		}
	}
	return pl.checkInvoice(ctx, o, p, currency)
}

// checkInvoice reads p's WHMCS invoice, whose total must be o's quote, and marks p placed; else
// the WHMCS order is cancelled and o dropped (price_changed with WHMCS's total).
func (pl *Placer) checkInvoice(ctx context.Context, o order.Order, p Placement, currency string) error {
	total := int64(0)
	if p.InvoiceRef > 0 {
		inv, err := pl.api.GetInvoice(ctx, p.InvoiceRef)
		if err != nil {
			pl.cancel(ctx, o, p)
			return pl.drop(ctx, p, pl.failed(o, err))
		}
		t, err1 := money.Parse(string(inv.Total), currency)
		b, err2 := money.Parse(string(inv.Balance), currency)
		if err := errors.Join(err1, err2); err != nil || b != t || inv.Status != "Unpaid" {
			pl.log.Warn("WHMCS invoice not as placed: order refused", "order", o.ID, "status", inv.Status, "err", err)
			pl.cancel(ctx, o, p)
			return pl.drop(ctx, p, pl.changed(o, currency, t))
		}
		total = t
	}
	if total != o.Quote.Total.Amount {
		// Tax, a promotion rule or a price WHMCS has and the catalog read did not: WHMCS's invoice
		// decides, nothing is charged at ours.
		pl.log.Warn("WHMCS prices the order otherwise: cancelled there, refused here", "order", o.ID, "quote", o.Quote.Total.Amount, "whmcs_total", total, "currency", currency)
		pl.cancel(ctx, o, p)
		return pl.drop(ctx, p, pl.changed(o, currency, total))
	}
	p.State = StatePlaced
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		return fmt.Errorf("whmcs place %s: %w", o.ID, err)
	}
	return nil
}

// wait waits for another request's placing of p's order to finish.
func (pl *Placer) wait(ctx context.Context, p Placement) error {
	deadline := time.Now().Add(pl.cfg.Wait)
	for {
		switch p.State {
		case StatePlaced:
			return nil
		case StateDropped, StateLost:
			return fmt.Errorf("whmcs place %s: dropped: %w", p.OrderID, order.ErrUpstreamUnavailable)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("whmcs place %s: still being placed: %w", p.OrderID, order.ErrUpstreamUnavailable)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("whmcs place %s: %w", p.OrderID, order.ErrUpstreamUnavailable)
		case <-time.After(50 * time.Millisecond): // another replica's WHMCS call: real time
		}
		var err error
		if p, err = pl.store.Placement(ctx, p.OrderID); err != nil {
			return fmt.Errorf("whmcs place %s: %w", p.OrderID, err)
		}
	}
}

// drop marks p dropped (the order package deletes the order) and answers why, as ErrNotPlaced.
func (pl *Placer) drop(ctx context.Context, p Placement, why error) error {
	p.State = StateDropped
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		return fmt.Errorf("whmcs place %s: %w", p.OrderID, err)
	}
	return notPlaced(p.OrderID, why)
}

// cancel cancels the WHMCS order of p, which will not be paid; when WHMCS cannot be asked now,
// the order.JobUpstreamCancel job asks it until it answers (the placement, dropped, keeps the
// WHMCS order's id).
func (pl *Placer) cancel(ctx context.Context, o order.Order, p Placement) {
	if p.OrderRef == 0 {
		return
	}
	err := pl.api.CancelOrder(ctx, p.OrderRef)
	if err == nil || errors.Is(err, whmcs.ErrRefused) { // refused: not pending there any more
		return
	}
	pl.log.Warn("WHMCS order not cancelled yet: a job retries", "order", o.ID, "action", action(err), "err", err)
	pl.later(ctx, o.ID, pl.now())
}

// later queues the cancelling in WHMCS of our order id's WHMCS order at runAt.
func (pl *Placer) later(ctx context.Context, orderID string, runAt time.Time) {
	if err := pl.store.Enqueue(ctx, order.JobUpstreamCancel, orderID, order.JobUpstreamCancel+":"+orderID, runAt); err != nil {
		pl.log.Error("WHMCS order left pending: cancel it in WHMCS", "order", orderID, "err", err)
		return
	}
	pl.cfg.Wake()
}

// lost drops o, whose AddOrder got no answer: its placement (state lost, its reference kept) tells
// a replay of o to look for the WHMCS order first, and a job cancels that order in WHMCS once
// LostAfter passed without a replay taking it.
func (pl *Placer) lost(ctx context.Context, o order.Order, p Placement, why error) error {
	pl.log.Warn("WHMCS AddOrder unanswered: the order may exist there; a replay takes it over, else it is cancelled",
		"order", o.ID, "action", action(why), "err", why)
	p.State = StateLost
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		return fmt.Errorf("whmcs place %s: %w", o.ID, err)
	}
	pl.later(ctx, o.ID, pl.now().Add(pl.cfg.LostAfter))
	return notPlaced(o.ID, pl.failed(o, why))
}

// takeOver finds the WHMCS order an earlier placing of o (the same reference) made when its
// AddOrder answer was lost, or its process died after sending it (sent): still pending, held by
// none of our orders, with as many services. found is false when there is none (or no placing
// under the reference can have made one).
func (pl *Placer) takeOver(ctx context.Context, o order.Order, p Placement, sent bool) (whmcs.Placed, bool, error) {
	n, err := pl.store.LostPlacements(ctx, p.Ref)
	if err != nil || (n == 0 && !sent) {
		return whmcs.Placed{}, false, err
	}
	services, err := pl.api.GetClientServices(ctx, p.ClientRef, p.Ref)
	if err != nil {
		return whmcs.Placed{}, false, err
	}
	seen := map[int]bool{}
	for _, s := range services {
		id := int(s.OrderID)
		if seen[id] {
			continue
		}
		seen[id] = true
		taken, err := pl.store.WHMCSOrderTaken(ctx, id)
		if err != nil {
			return whmcs.Placed{}, false, err
		}
		if taken {
			continue
		}
		wo, err := pl.api.GetOrder(ctx, id)
		if errors.Is(err, whmcs.ErrNotFound) {
			continue
		}
		if err != nil {
			return whmcs.Placed{}, false, err
		}
		placed := whmcs.Placed{OrderID: id, InvoiceID: int(wo.InvoiceID)}
		for _, l := range wo.Lines {
			if l.Type == "product" {
				placed.ServiceIDs = append(placed.ServiceIDs, int(l.RelID))
			}
		}
		if wo.Status != "Pending" || len(placed.ServiceIDs) != len(o.ServiceIDs) {
			continue
		}
		pl.log.Info("WHMCS order of an unanswered AddOrder taken over", "order", o.ID)
		return placed, true, nil
	}
	return whmcs.Placed{}, false, nil
}

// refOf is o's reference in WHMCS: the same for every replay of o (a digest of the client and
// the Idempotency-Key), else o's id; no WHMCS id, nothing of the buyer's readable.
func refOf(o order.Order) string {
	if o.IdempotencyKey == "" {
		return "streamcart-" + o.ID
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s", o.ClientID, o.IdempotencyKey))
	return "streamcart-" + hex.EncodeToString(sum[:12])
}

// failed logs a failed WHMCS call and answers what the buyer is told: unavailable, whatever
// WHMCS said (its message stays in the log).
func (pl *Placer) failed(o order.Order, err error) error {
	pl.log.Error("WHMCS refused or unreachable: order not placed", "order", o.ID, "action", action(err), "err", err)
	return order.ErrUpstreamUnavailable
}

// action is the WHMCS action of a failed call.
func action(err error) string {
	var we *whmcs.Error
	if errors.As(err, &we) {
		return we.Action
	}
	return ""
}

// changed is the price_changed answer for o: a fresh quote in currency, whose total is WHMCS's
// (total ≥ 0) when it differs.
func (pl *Placer) changed(o order.Order, currency string, total int64) error {
	q := o.Quote
	r := pricing.Request{PID: q.PID, Cycle: q.Cycle, Currency: currency, ExtraConnections: q.ExtraConnections,
		ProxyProtection: q.ProxyProtection, Untaxed: o.Kind == order.KindReseller}
	if q.Discount != nil {
		r.PromoCode = q.Discount.Code
	}
	if fresh, err := pricing.QuoteFor(pl.catalog(), r, pl.now()); err == nil {
		q = fresh
	}
	if total >= 0 && strings.EqualFold(q.Total.Currency, currency) {
		q.Total.Amount = total // WHMCS's invoice decides
	}
	return &order.PriceChangedError{Quote: q}
}

// item is o's one product as AddOrder takes it: pid, cycle, and the extras and proxy as WHMCS's
// config options (base64 of PHP's serialize(), made by whmcs.AddOrder).
func (pl *Placer) item(o order.Order) (whmcs.OrderItem, error) {
	q := o.Quote
	it := whmcs.OrderItem{PID: q.PID, Cycle: string(q.Cycle), ConfigOptions: map[int]int{}}
	if p, ok := pl.catalog().Product(q.PID); ok && p.Trial {
		it.Cycle = "free"
	}
	if q.ExtraConnections > 0 {
		if pl.cfg.ExtraOption == 0 {
			return it, order.ErrUpstreamUnavailable
		}
		it.ConfigOptions[pl.cfg.ExtraOption] = q.ExtraConnections
	}
	if q.ProxyProtection {
		if pl.cfg.ProxyOption == 0 {
			return it, order.ErrUpstreamUnavailable
		}
		it.ConfigOptions[pl.cfg.ProxyOption] = 1
	}
	return it, nil
}

// client is the WHMCS client of o's buyer: found by e-mail (GetClientsDetails), else made
// (AddClient: no address or phone, the buyer's country and language, the order's currency, a
// random password nobody is told: the buyer signs in to WHMCS, if ever, by its password reset).
func (pl *Placer) client(ctx context.Context, o order.Order) (whmcs.ClientDetails, error) {
	c, err := pl.api.GetClientByEmail(ctx, o.Email)
	if errors.Is(err, whmcs.ErrNotFound) {
		c, err = pl.addClient(ctx, o)
	}
	if err != nil {
		return whmcs.ClientDetails{}, err
	}
	if err := pl.store.PutWHMCSClient(ctx, o.ClientID, int(c.ID)); err != nil {
		return whmcs.ClientDetails{}, err
	}
	return c, nil
}

func (pl *Placer) addClient(ctx context.Context, o order.Order) (whmcs.ClientDetails, error) {
	currency := strings.ToUpper(o.Quote.Total.Currency)
	curs, err := pl.api.GetCurrencies(ctx)
	if err != nil {
		return whmcs.ClientDetails{}, err
	}
	n := whmcs.NewClient{Email: o.Email, Password: randomPassword(), Language: Language(o.Locale), ClientIP: o.IP, NoEmail: true}
	n.FirstName, _, _ = strings.Cut(o.Email, "@")
	for _, c := range curs {
		if strings.EqualFold(c.Code, currency) {
			n.CurrencyID = int(c.ID)
		}
	}
	if ip, err := netip.ParseAddr(o.IP); err == nil && pl.cfg.Country != nil {
		if cc := pl.cfg.Country(ip); len(cc) == 2 {
			n.Country = cc
		}
	}
	id, err := pl.api.AddClient(ctx, n)
	if err != nil {
		// Another order of the same buyer may have made it meanwhile.
		if c, again := pl.api.GetClientByEmail(ctx, o.Email); again == nil {
			return c, nil
		}
		return whmcs.ClientDetails{}, err
	}
	cc := currency
	if n.CurrencyID == 0 {
		cc = "" // WHMCS's default: checked on the invoice
	}
	return whmcs.ClientDetails{ID: whmcs.Int(id), Email: o.Email, CurrencyCode: cc}, nil
}

func randomPassword() string {
	b := make([]byte, 18)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Language is WHMCS's name of a shop locale's language (AddClient's language): english,
// german, spanish, dutch, portuguese-pt.
func Language(locale string) string {
	lang, _, _ := strings.Cut(strings.ToLower(locale), "-")
	switch lang {
	case "de":
		return "german"
	case "es":
		return "spanish"
	case "nl":
		return "dutch"
	case "pt":
		return "portuguese-pt"
	}
	return "english"
}
