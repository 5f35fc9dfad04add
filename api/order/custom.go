package order

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/streamcart/streamcart/api/account"
	"github.com/streamcart/streamcart/api/authz"
	"github.com/streamcart/streamcart/api/pricing"
)

// Custom is an order priced by another package (an upsell, a reseller plan): its quote is given,
// not computed from a pricing request. It is paid, settled and expired like any order; the job
// that runs once it is paid (JobProvision) tells it apart by the caller's own records of ID.
type Custom struct {
	// ID names the order; the caller records what the order is for under it before creating it,
	// so a paid order never lacks its purpose. account.NewID("ord_") when empty.
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
}

// CustomHash is a digest of what a Custom order's caller was asked, for Custom.RequestHash.
func CustomHash(kind string, parts ...any) string {
	b, _ := json.Marshal(append([]any{kind}, parts...))
	sum := sha256.Sum256(b)
	return "custom:" + hex.EncodeToString(sum[:])
}

// Replayed finds the order a Custom request with this idempotency key already placed: ok is false
// when there is none, ErrIdempotencyMismatch when the key was used for another request. Callers
// ask before recording the order's purpose, so a retry records nothing twice. A plain read: a
// retry racing the first request is caught by CreateCustom's check under the key's lock.
func (s *Orders) Replayed(ctx context.Context, claims authz.Claims, key, hash string) (Order, bool, error) {
	if key == "" {
		return Order{}, false, nil
	}
	prev, err := s.store.ClientOrderByKey(ctx, claims.ClientID, key)
	o, ok, err := matchReplay(prev, err, hash)
	if err != nil {
		return Order{}, false, fmt.Errorf("replay order: %w", err)
	}
	return o, ok, nil
}

func replayed(ctx context.Context, tx Tx, claims authz.Claims, key, hash string) (Order, bool, error) {
	prev, err := tx.OrderByIdempotencyKey(ctx, claims.ClientID, key)
	return matchReplay(prev, err, hash)
}

// matchReplay judges the order read under an idempotency key against the request's hash.
func matchReplay(prev Order, err error, hash string) (Order, bool, error) {
	switch {
	case errors.Is(err, ErrNotFound):
		return Order{}, false, nil
	case err != nil:
		return Order{}, false, err
	case prev.RequestHash != hash:
		return Order{}, false, ErrIdempotencyMismatch
	}
	return prev, true, nil
}

// NewOrderID returns a fresh order id for Custom.ID.
func NewOrderID() string { return account.NewID("ord_") }

// CreateCustom places a Custom order for claims' session, with its invoice and payment link. The
// fraud rules apply as to any order.
func (s *Orders) CreateCustom(ctx context.Context, claims authz.Claims, c Custom) (Order, error) {
	if c.Gateway == "" {
		c.Gateway = s.catalog().DefaultGateway().Module
	}
	if err := s.CheckCustom(c); err != nil {
		return Order{}, err
	}
	now := s.now().UTC()
	r := Request{Gateway: c.Gateway, ReturnURL: c.ReturnURL, IP: c.IP, IdempotencyKey: c.IdempotencyKey}
	hash := "custom:" + c.ID
	if c.IdempotencyKey != "" {
		hash = c.RequestHash
	}
	var o Order
	replay := false
	err := s.store.WithTx(ctx, func(tx Tx) error {
		if c.IdempotencyKey != "" {
			// A concurrent retry that got past Replayed: the first order wins.
			var err error
			if o, replay, err = replayed(ctx, tx, claims, c.IdempotencyKey, hash); err != nil || replay {
				return err
			}
		}
		recent := 0
		if s.cfg.Fraud.MaxOrdersPerIP > 0 {
			var err error
			if recent, err = tx.OrdersFromIP(ctx, c.IP, now.Add(-24*time.Hour)); err != nil {
				return err
			}
		}
		verdict := s.cfg.Fraud.Check(claims.Email, recent)
		o = s.newOrder(claims, r, c.Quote, hash, now, verdict)
		if c.ID != "" {
			o.ID, o.Invoice.OrderID = c.ID, c.ID
			if c.ReturnURL == "" {
				o.ReturnURL = "/checkout/waiting?order=" + o.ID
			}
		}
		services := make([]Service, len(c.Services))
		o.ServiceIDs = []string{}
		for i, v := range c.Services {
			if v.ID == "" {
				v.ID = account.NewID("svc_")
			}
			v.OrderID, v.ClientID, v.SessionID, v.CreatedAt = o.ID, claims.ClientID, claims.SessionID, now
			if v.Status == "" {
				v.Status = ServicePending
			}
			services[i] = v
			o.ServiceIDs = append(o.ServiceIDs, v.ID)
		}
		if err := tx.InsertOrder(ctx, o, services); err != nil {
			return err
		}
		if verdict.Fraud {
			s.log.Warn("order held by fraud check", "order", o.ID, "reason", verdict.Reason, "ip", c.IP)
		}
		switch o.Status {
		case StatusPaid:
			return tx.Enqueue(ctx, JobProvision, o.ID, JobProvision+":"+o.ID, now)
		case StatusPending:
			return tx.Enqueue(ctx, JobExpire, o.ID, JobExpire+":"+o.ID, o.Invoice.Deadline)
		}
		return nil
	})
	if err != nil {
		return Order{}, fmt.Errorf("create order: %w", err)
	}
	s.observeCreated(o, replay)
	if o.Status == StatusPaid && !replay {
		s.cfg.OnPaid()
	}
	if o.Status == StatusPending && o.Invoice.Status == InvoiceUnpaid && o.Invoice.PaymentURL == "" {
		// A replay retries a payment link that failed the first time.
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

// CheckCustom answers the error CreateCustom would give c for its gateway or return URL, so a
// caller that records the order's purpose first records nothing for a refused order.
func (s *Orders) CheckCustom(c Custom) error {
	cat := s.catalog()
	if c.Gateway == "" {
		c.Gateway = cat.DefaultGateway().Module
	}
	if _, ok := s.gateways[c.Gateway]; !ok {
		return ErrUnknownGateway
	}
	if _, ok := cat.Gateway(c.Gateway); !ok {
		return ErrUnknownGateway
	}
	return s.checkReturnURL(c.ReturnURL, append([]string{c.Origin}, c.ReturnOrigins...)...)
}

// NewServiceID returns a fresh service id for a Custom order's service.
func NewServiceID() string { return account.NewID("svc_") }
