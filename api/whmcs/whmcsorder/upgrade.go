package whmcsorder

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/money"
	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/upsell"
	"github.com/streamcart/streamcart/api/whmcs"
)

// UpgradeStore is what pricing and placing an upgrade read.
type UpgradeStore interface {
	LinesStore
	Order(ctx context.Context, id string) (order.Order, error)
	Service(ctx context.Context, id string) (order.Service, error)
	Upsell(ctx context.Context, orderID string) (upsell.Upsell, error)
}

// UpgradeAPI is what pricing and placing an upgrade ask of WHMCS (whmcs.Client).
type UpgradeAPI interface {
	GetClientService(ctx context.Context, clientID, serviceID int) (whmcs.Service, error)
	UpgradeOptions(ctx context.Context, serviceID int, options map[int]int, paymentMethod string, calcOnly bool) (whmcs.Upgrade, error)
}

// Upgrades prices extra connections on a WHMCS-made line as WHMCS does (upsell.Upstream):
// UpgradeProduct type=configoptions with calconly, the extra connections option raised by the
// quantity; WHMCS prorates over the days left of the period.
type Upgrades struct {
	api      UpgradeAPI
	store    UpgradeStore
	gateways map[string]string
	extra    int
}

var _ upsell.Upstream = (*Upgrades)(nil)

// NewUpgrades returns the pricer; gateways maps Streamcart gateways to WHMCS modules, extra is the
// extra connections' config option id.
func NewUpgrades(api UpgradeAPI, store UpgradeStore, gateways map[string]string, extra int) *Upgrades {
	return &Upgrades{api: api, store: store, gateways: gateways, extra: extra}
}

// target is the WHMCS service of s, its client, the extra connections option's new quantity
// with extra more, and the module s's order was paid through.
func (u *Upgrades) target(ctx context.Context, s order.Service, extra int) (client, service, qty int, module, currency string, err error) {
	client, service, err = u.store.ServiceRef(ctx, s.ID)
	if err != nil {
		return 0, 0, 0, "", "", fmt.Errorf("upgrade %s: %w", s.ID, err)
	}
	o, err := u.store.Order(ctx, s.OrderID)
	if err != nil {
		return 0, 0, 0, "", "", fmt.Errorf("upgrade %s: %w", s.ID, err)
	}
	ws, err := u.api.GetClientService(ctx, client, service)
	if err != nil {
		return 0, 0, 0, "", "", fmt.Errorf("upgrade %s: %w: %w", s.ID, order.ErrUpstreamUnavailable, err)
	}
	for _, opt := range ws.ConfigOptions {
		if int(opt.ID) == u.extra {
			fmt.Sscan(opt.Value, &qty)
		}
	}
	return client, service, qty + extra, u.gateways[o.Invoice.Gateway], strings.ToUpper(o.Quote.Total.Currency), nil
}

// PriceExtra is WHMCS's price of extra more connections on s now (calconly).
func (u *Upgrades) PriceExtra(ctx context.Context, s order.Service, extra int) (money.Money, error) {
	if u.extra == 0 {
		return money.Money{}, upsell.ErrNotEligible
	}
	_, service, qty, module, currency, err := u.target(ctx, s, extra)
	if err != nil {
		return money.Money{}, err
	}
	up, err := u.api.UpgradeOptions(ctx, service, map[int]int{u.extra: qty}, module, true)
	if err != nil {
		return money.Money{}, fmt.Errorf("upgrade %s: %w: %w", s.ID, order.ErrUpstreamUnavailable, err)
	}
	amount, err := PriceOf(up.Price, currency)
	if err != nil || amount <= 0 {
		return money.Money{}, fmt.Errorf("upgrade %s: WHMCS's price %q: %w", s.ID, up.Price, order.ErrUpstreamUnavailable)
	}
	return money.Money{Amount: amount, Currency: currency}, nil
}

// PriceOf reads UpgradeProduct's formatted price ("$8.67 USD", "8,67 €", "€1.234,50") in
// currency's minor units: the currency's prefix and suffix go, and the last "." or "," followed
// by the currency's decimals is the decimal separator, the others group thousands.
func PriceOf(shown, currency string) (int64, error) {
	var b strings.Builder
	for _, r := range shown {
		if r >= '0' && r <= '9' || r == '.' || r == ',' || r == '-' {
			b.WriteRune(r)
		}
	}
	s := strings.Trim(b.String(), ".,")
	digits, _ := money.Digits(currency)
	if i := strings.LastIndexAny(s, ".,"); i >= 0 && len(s)-i-1 == digits && digits > 0 {
		s = strings.NewReplacer(".", "", ",", "").Replace(s[:i]) + "." + s[i+1:]
	} else {
		s = strings.NewReplacer(".", "", ",", "").Replace(s)
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return 0, errors.New("no amount")
	}
	n, err := money.Parse(s, currency)
	if neg {
		n = -n // a downgrade's credit
	}
	return n, err
}

// placeUpgrade places upsell o in WHMCS as an upgrade of its line (UpgradeProduct, never a
// price of ours): WHMCS makes an upgrade order and its invoice, whose total must be o's; once
// the invoice is paid (JobRecordPayment) WHMCS runs the module's ChangePackage.
func (pl *Placer) placeUpgrade(ctx context.Context, o order.Order, p Placement) error {
	up, err := pl.cfg.Upgrades.store.Upsell(ctx, o.ID)
	if err != nil {
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	svc, err := pl.cfg.Upgrades.store.Service(ctx, up.ServiceID)
	if err != nil {
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	client, service, qty, _, currency, err := pl.cfg.Upgrades.target(ctx, svc, up.ExtraQuantity)
	if err != nil {
		return pl.drop(ctx, p, pl.failed(o, err))
	}
	p.ClientRef = client
	placed, err := pl.cfg.Upgrades.api.UpgradeOptions(ctx, service, map[int]int{pl.cfg.Upgrades.extra: qty}, pl.cfg.Gateways[o.Invoice.Gateway], false)
	if err != nil {
		// An unanswered upgrade may have made a pending upgrade order in WHMCS: unpaid, it
		// changes nothing; logged for the seller.
		return pl.drop(ctx, p, pl.failed(o, err))
	}
	p.OrderRef, p.InvoiceRef, p.ServiceRefs = placed.OrderID, placed.InvoiceID, map[string]int{}
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		pl.cancel(ctx, o, p)
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	return pl.checkInvoice(ctx, o, p, currency)
}
