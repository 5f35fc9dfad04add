package order

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/fraud"
	"github.com/streamcart/streamcart/api/id"
	"github.com/streamcart/streamcart/api/pricing"
)

// Placement is an order to place, of any kind. Every order is placed by one path (place): the
// same locks taken in the same order (Check), the same idempotency, fraud rules, invoice and
// payment link. Create fills one in for a plan from the catalog; another package selling
// something (an upsell, a reseller plan) fills one in with its own price and calls Place.
type Placement struct {
	Kind Kind
	// ID names the order; the caller records what the order is for under it before placing it,
	// so a paid order never lacks its purpose. NewOrderID() when empty.
	ID        string
	Quote     pricing.Quote
	Services  []Service // created with the order (IDs, order, client and session are filled in)
	Gateway   string
	ReturnURL string
	IP        string
	Origin    string
	// ReturnOrigins are further sites ReturnURL may point to: the request's storefront's own.
	ReturnOrigins []string
	// IdempotencyKey, when set, makes the order once per client and key: the same key with the
	// same RequestHash (the caller's digest of what was asked) gives back the first order.
	IdempotencyKey string
	RequestHash    string
	AffiliateID    string
	// Locale is the buyer's language, kept for the order's mail.
	Locale string
	// Deadline is when the invoice stops being payable; zero: PaymentDeadline after placing.
	// A renewal stays payable through its period, suspension included.
	Deadline time.Time
	// RenewWithCard is the buyer's consent to save the paying card for renewals (Request's).
	RenewWithCard bool
	// BillingCountry, IPCountry and CountryConfirmed are the evidence of where the buyer is,
	// kept with an order taxed by the catalog's tax block (Order's).
	BillingCountry, IPCountry string
	CountryConfirmed          bool
}

// CustomHash is a digest of what a Placement's caller was asked, for Placement.RequestHash.
// The "custom:" prefix is kept as orders store it.
func CustomHash(kind string, parts ...any) string {
	b, _ := json.Marshal(append([]any{kind}, parts...))
	sum := sha256.Sum256(b)
	return "custom:" + hex.EncodeToString(sum[:])
}

// Replayed finds the order a Placement with this idempotency key already placed: ok is false
// when there is none, ErrIdempotencyMismatch when the key was used for another request. Callers
// ask before recording the order's purpose, so a retry records nothing twice. A plain read: a
// retry racing the first request is caught by Place's check under the key's lock.
func (s *Orders) Replayed(ctx context.Context, claims authz.Claims, key, hash string) (Order, bool, error) {
	if key == "" {
		return Order{}, false, nil
	}
	prev, err := s.store.ClientOrderByKey(ctx, claims.ClientID, key)
	switch {
	case errors.Is(err, ErrNotFound):
		return Order{}, false, nil
	case err != nil:
		return Order{}, false, fmt.Errorf("replay order: %w", err)
	case prev.RequestHash != hash:
		return Order{}, false, fmt.Errorf("replay order: %w", ErrIdempotencyMismatch)
	}
	return prev, true, nil
}

// NewOrderID returns a fresh order id for Placement.ID.
func NewOrderID() string { return id.New("ord_") }

// NewServiceID returns a fresh service id for a Placement's service.
func NewServiceID() string { return id.New("svc_") }

// Place places an order priced by its caller for claims' session, with its invoice and payment
// link. The fraud rules apply as to any order.
func (s *Orders) Place(ctx context.Context, claims authz.Claims, p Placement) (Order, error) {
	if p.Gateway == "" {
		p.Gateway = s.catalog().DefaultGateway().Module
	}
	if err := s.CheckPlacement(p); err != nil {
		return Order{}, err
	}
	if p.IdempotencyKey == "" {
		p.RequestHash = "custom:" + p.ID
	}
	now := s.now().UTC()
	// An order the shop places itself (a renewal) comes from no address and counts against none.
	check := Check{ClientID: claims.ClientID, IdempotencyKey: p.IdempotencyKey, Now: now,
		CountIP: s.cfg.Fraud.MaxOrdersPerIP > 0 && p.IP != "", IP: p.IP, Since: now.Add(-24 * time.Hour)}
	return s.place(ctx, claims, p, check, func(Checked) (pricing.Quote, []Service, error) { return p.Quote, p.Services, nil })
}

// CheckPlacement answers the error Place would give p for its gateway or return URL, so a
// caller that records the order's purpose first records nothing for a refused order.
func (s *Orders) CheckPlacement(p Placement) error {
	cat := s.catalog()
	if p.Gateway == "" {
		p.Gateway = cat.DefaultGateway().Module
	}
	if _, ok := s.gateways[p.Gateway]; !ok {
		return ErrUnknownGateway
	}
	if _, ok := cat.Gateway(p.Gateway); !ok {
		return ErrUnknownGateway
	}
	return s.checkReturnURL(p.ReturnURL, append([]string{p.Origin}, p.ReturnOrigins...)...)
}

// place stores p in one write transaction: it reads what check names, each under its lock (the
// key's order, a limited promotion's uses, the orders from the IP, the trials), answers the
// order stored under the idempotency key when there is one, else prices it with price (from
// what was read) and stores it with its services, invoice and first job. The payment link of a
// gateway that needs a network call is made after the commit. Where the store can, an order
// whose checks pass is first tried in one step (placeGuarded); this path runs when it was not.
func (s *Orders) place(ctx context.Context, claims authz.Claims, p Placement, check Check,
	price func(Checked) (pricing.Quote, []Service, error)) (Order, error) {
	linker, _ := s.gateways[p.Gateway].(LocalLinker)
	var o Order
	replay := false
	placed, err := s.placeGuarded(ctx, claims, p, check, price, linker, &o)
	if err == nil && !placed {
		err = s.store.WithTx(ctx, func(tx Tx) error {
			got, err := tx.Check(ctx, check)
			if err != nil {
				return err
			}
			if got.Prev != nil {
				if got.Prev.RequestHash != p.RequestHash {
					return ErrIdempotencyMismatch
				}
				o, replay = *got.Prev, true
				return nil
			}
			if err := s.trialAllowed(check, got); err != nil {
				return err
			}
			q, wanted, err := price(got)
			if err != nil {
				return err
			}
			verdict := s.cfg.Fraud.Check(claims.Email, got.FromIP)
			var services []Service
			o, services = s.compose(claims, p, check, q, wanted, verdict, got.FromIP, linker)
			if err := writeOrder(ctx, tx, o, services, check.Now); err != nil {
				return err
			}
			if verdict.Fraud {
				s.log.Warn("order held by fraud check", "order", o.ID, "reason", verdict.Reason, "ip", p.IP)
			}
			return nil
		})
	}
	if err != nil {
		return Order{}, fmt.Errorf("create order: %w", err)
	}
	// Before the payment link: an order the billing system refuses is dropped, nothing charged.
	if err := s.placeUpstream(ctx, o); err != nil {
		return Order{}, fmt.Errorf("create order: %w", err)
	}
	s.observeCreated(o, replay)
	if o.Status == StatusPaid && !replay {
		s.cfg.OnPaid()
	}
	if o.Status == StatusPending && o.Invoice.Status == InvoiceUnpaid && o.Invoice.PaymentURL == "" {
		// Outside the transaction: a real gateway is a network call. A replay retries a failed one.
		url, err := s.gateways[o.Gateway].Checkout(ctx, o)
		if err != nil {
			s.log.Error("payment link failed", "order", o.ID, "gateway", o.Gateway, "err", err)
			return Order{}, fmt.Errorf("create order: payment link: %w", ErrGatewayUnavailable)
		}
		if err := s.store.SetPaymentURL(ctx, o.Invoice.ID, url); err != nil {
			return Order{}, fmt.Errorf("create order: %w", err)
		}
		o.Invoice.PaymentURL = url
	}
	return o, nil
}

// placeGuarded places the order in one step where the store offers it (GuardedStore: on
// PostgreSQL BEGIN, the locks, the rows and COMMIT in one round trip) and the order's shape
// allows it: no limited promotion (its price depends on the uses read) and no fraud verdict
// known before the counts (a banned domain). The order is made as if Check had read nothing
// (no order under the key, no trials, no orders from the IP), and the store writes it only if,
// under Check's locks, that still decides the same: the key unused, the orders from the IP
// below the fraud limit and the trials below theirs. placed false (nothing written): the caller
// places it the usual way, which answers the replay or the refusal exactly as before.
func (s *Orders) placeGuarded(ctx context.Context, claims authz.Claims, p Placement, check Check,
	price func(Checked) (pricing.Quote, []Service, error), linker LocalLinker, o *Order) (bool, error) {
	g, ok := s.store.(GuardedStore)
	if !ok || check.PromoCode != "" {
		return false, nil
	}
	verdict := s.cfg.Fraud.Check(claims.Email, 0)
	if verdict.Fraud {
		return false, nil
	}
	q, wanted, err := price(Checked{})
	if err != nil { // the usual path answers it, after the replay it may be
		return false, nil
	}
	var lim Limits
	if check.CountIP {
		lim.OrdersFromIP = s.cfg.Fraud.MaxOrdersPerIP
	}
	if check.Trial {
		lim.Trials, lim.TrialsFromIP = s.cfg.TrialsPerClient, s.cfg.TrialsPerIP
	}
	made, services := s.compose(claims, p, check, q, wanted, verdict, 0, linker)
	placed, err := g.WithGuardedTx(ctx, check, lim, func(tx Tx) error {
		return writeOrder(ctx, tx, made, services, check.Now)
	})
	if err != nil || !placed {
		return false, err
	}
	*o = made
	return true, nil
}

// compose makes the order of p priced q with its services wanted, as judged by verdict
// (fromIP: the orders from its IP that verdict counted).
func (s *Orders) compose(claims authz.Claims, p Placement, check Check, q pricing.Quote, wanted []Service,
	verdict fraud.Verdict, fromIP int, linker LocalLinker) (Order, []Service) {
	o := s.newOrder(claims, p, q, check.Now, verdict)
	if verdict.Fraud {
		o.Hold = &Hold{Rules: verdict.Rules, IP: p.IP, OrdersFromIP: fromIP}
	}
	services := make([]Service, len(wanted))
	o.ServiceIDs = make([]string, len(wanted))
	for i, v := range wanted {
		if v.ID == "" {
			v.ID = NewServiceID()
		}
		v.OrderID, v.ClientID, v.SessionID, v.CreatedAt = o.ID, claims.ClientID, claims.SessionID, check.Now
		v.AutoRenew = true // until the buyer cancels it
		if v.Status == "" {
			v.Status = ServicePending
		}
		services[i], o.ServiceIDs[i] = v, v.ID
	}
	if linker != nil && o.Status == StatusPending && o.Invoice.Status == InvoiceUnpaid {
		o.Invoice.PaymentURL = linker.Link(o)
	}
	return o, services
}

// writeOrder stores o with its services, its trial's record and its first job.
func writeOrder(ctx context.Context, tx Tx, o Order, services []Service, now time.Time) error {
	if err := tx.InsertOrder(ctx, o, services); err != nil {
		return err
	}
	if slices.ContainsFunc(services, func(v Service) bool { return v.Trial }) {
		// Kept whatever its line becomes (converted, refunded): what the limits count.
		if err := tx.RecordTrial(ctx, TrialStart{OrderID: o.ID, ClientID: o.ClientID, IP: o.IP,
			EmailKey: CanonicalEmail(o.Email), CreatedAt: o.CreatedAt}); err != nil {
			return err
		}
	}
	switch o.Status {
	case StatusPaid: // nothing to pay: straight to fulfilment
		return tx.Enqueue(ctx, JobProvision, o.ID, JobProvision+":"+o.ID, now)
	case StatusPending:
		return tx.Enqueue(ctx, JobExpire, o.ID, JobExpire+":"+o.ID, o.Invoice.Deadline)
	}
	return nil
}

// ErrGatewayUnavailable means the payment provider could not create a payment link.
var ErrGatewayUnavailable = errors.New("payment gateway unavailable")

func (s *Orders) newOrder(claims authz.Claims, p Placement, q pricing.Quote, now time.Time, v fraud.Verdict) Order {
	o := Order{
		ID: p.ID, Kind: p.Kind, ClientID: claims.ClientID, SessionID: claims.SessionID, Email: claims.Email,
		Quote: q, Status: StatusPending, Fraud: v.Fraud, IP: p.IP, Gateway: p.Gateway, AffiliateID: p.AffiliateID,
		PromoCode: "", IdempotencyKey: p.IdempotencyKey, RequestHash: p.RequestHash, CreatedAt: now, UpdatedAt: now,
		Version: 1, // the column's default: the first version
	}
	if o.ID == "" {
		o.ID = NewOrderID()
	}
	if q.Discount != nil {
		o.PromoCode = q.Discount.Code // the catalog's code: canonical
	}
	o.ReturnURL, o.Locale, o.RenewWithCard = p.ReturnURL, p.Locale, p.RenewWithCard
	o.BillingCountry, o.IPCountry, o.CountryConfirmed = p.BillingCountry, p.IPCountry, p.CountryConfirmed
	if o.ReturnURL == "" {
		o.ReturnURL = "/checkout/waiting?order=" + o.ID
	}
	o.Invoice = Invoice{
		ID: id.New("inv_"), OrderID: o.ID, ClientID: claims.ClientID, Amount: q.Total,
		Status: InvoiceUnpaid, Gateway: p.Gateway, Deadline: now.Add(PaymentDeadline),
	}
	if !p.Deadline.IsZero() {
		o.Invoice.Deadline = p.Deadline
	}
	switch {
	case v.Fraud:
		o.Status, o.Invoice.Status, o.Invoice.Deadline = StatusFraud, InvoiceCancelled, time.Time{}
	case q.Total.Amount == 0:
		o.Status, o.Invoice.Status, o.Invoice.Deadline = StatusPaid, InvoicePaid, time.Time{}
		o.Invoice.TransactionID, o.Invoice.PaidAt = "free:"+o.Invoice.ID, now
	}
	return o
}
