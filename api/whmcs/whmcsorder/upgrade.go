package whmcsorder

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

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
//
// UpgradeProduct takes no reference of ours, and WHMCS keeps one unpaid upgrade per service
// ("Previous upgrade invoice for service is still unpaid"). So, as for AddOrder, the placement's
// reference (upgradeRef: the service and the order's Idempotency-Key) is kept before the call;
// an answer lost leaves the placement lost, and a replay (or a claim taken over from a placing
// that died after sending) finds the upgrade WHMCS made by the service it upgrades: a pending
// upgrade order of the client for that service, held by none of our orders (GetOrders), instead
// of placing a second one. One nobody takes over is cancelled in WHMCS after Config.LostAfter
// (CancelUpstream); until then WHMCS refuses another upgrade of the service (503 unavailable).
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
	// One placing of an upgrade of the service at a time, and none while a lost one's cancel
	// job looks: the lease is held until the upgrade made or taken over is ours (saved below),
	// so no other placing's lookup (a replay after a lost answer, under another key too) and no
	// cancel job can take over or cancel an upgrade this one has in flight.
	now := time.Now() // real time: a lease on the business clock would run out when a test clock moves
	leased, err := pl.store.LeaseUpgrade(ctx, service, o.ID, now, now.Add(UpgradeLease))
	if err != nil {
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	if !leased {
		pl.log.Warn("WHMCS upgrade not placed: another upgrade of the line is being placed", "order", o.ID)
		return pl.drop(ctx, p, order.ErrUpstreamUnavailable)
	}
	defer func() {
		if err := pl.store.ReleaseUpgrade(context.WithoutCancel(ctx), service, o.ID); err != nil {
			pl.log.Warn("WHMCS upgrade lease not released: it runs out", "order", o.ID, "err", err)
		}
	}()
	p.ClientRef = client
	sent := p.Ref != "" // a claim taken over from a placing that may have sent it
	p.Ref = upgradeRef(service, o)
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	placed, found, err := pl.takeOverUpgrade(ctx, o, p, service, sent)
	if err != nil {
		return pl.drop(ctx, p, pl.failed(o, err))
	}
	if !found {
		placed, err = pl.cfg.Upgrades.api.UpgradeOptions(ctx, service, map[int]int{pl.cfg.Upgrades.extra: qty}, pl.cfg.Gateways[o.Invoice.Gateway], false)
	}
	if errors.Is(err, whmcs.ErrUnavailable) {
		// No answer: WHMCS may have made the upgrade. A replay finds it by the service; a job
		// cancels it there if none comes.
		return pl.lost(ctx, o, p, err)
	}
	if err != nil {
		return pl.drop(ctx, p, pl.failed(o, err))
	}
	p.OrderRef, p.InvoiceRef, p.ServiceRefs = placed.OrderID, placed.InvoiceID, map[string]int{}
	if err := pl.store.SavePlacement(ctx, p); err != nil {
		pl.cancel(ctx, o, p)
		return pl.drop(ctx, p, fmt.Errorf("%w: %w", order.ErrUpstreamUnavailable, err))
	}
	return pl.checkInvoice(ctx, o, p, currency)
}

// upgradePrefix starts the reference of an upsell's placement: upgradePrefix + the WHMCS service
// id + "-" + the order's amount as a decimal ("2.90") + "-" + refOf(o). A replay of the order at the same
// price has the same reference; the amount tells the upgrade WHMCS made for it from another.
const upgradePrefix = "streamcart-upgrade-"

// UpgradeLease is how long a placing of an upgrade (or a lost one's cancel job) holds the WHMCS
// service's lease when its process dies: then another may place an upgrade of it.
const UpgradeLease = 2 * time.Minute

func upgradeRef(service int, o order.Order) string {
	return upgradePrefix + strconv.Itoa(service) + "-" + money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency) + "-" +
		strings.TrimPrefix(refOf(o), "streamcart-")
}

// upgradeTarget is the WHMCS service and the amount (a decimal; "": not said) an upgrade
// placement's reference names; ok false for another reference.
func upgradeTarget(ref string) (service int, amount string, ok bool) {
	rest, ok := strings.CutPrefix(ref, upgradePrefix)
	if !ok {
		return 0, "", false
	}
	parts := strings.Split(rest, "-")
	n, err := strconv.Atoi(parts[0])
	if err != nil || n <= 0 {
		return 0, "", false
	}
	if len(parts) == 3 {
		amount = parts[1]
	}
	return n, amount, true
}

// takeOverUpgrade finds the upgrade an earlier placing under p's reference made when its answer
// was lost (or that died after sending it: sent): a pending upgrade order of p's client for WHMCS
// service service held by none of our orders. found is false when there is none, or when no
// placing under the reference can have made one.
func (pl *Placer) takeOverUpgrade(ctx context.Context, o order.Order, p Placement, service int, sent bool) (whmcs.Upgrade, bool, error) {
	n, err := pl.store.LostPlacements(ctx, p.Ref)
	if err != nil || (n == 0 && !sent) {
		return whmcs.Upgrade{}, false, err
	}
	pending, err := pendingUpgrades(ctx, pl.api, pl.store, p.ClientRef, service,
		money.Format(o.Invoice.Amount.Amount, o.Invoice.Amount.Currency))
	if err != nil || len(pending) == 0 {
		return whmcs.Upgrade{}, false, err
	}
	pl.log.Info("WHMCS upgrade of an unanswered UpgradeProduct taken over", "order", o.ID)
	return whmcs.Upgrade{OrderID: int(pending[0].ID), InvoiceID: int(pending[0].InvoiceID)}, true, nil
}

// UpgradeLeases serialise the placing of upgrades per WHMCS service.
type UpgradeLeases interface {
	// LeaseUpgrade takes WHMCS service service's lease for holder until until: free, run out
	// before now, or holder's already; false when another holds it.
	LeaseUpgrade(ctx context.Context, service int, holder string, now, until time.Time) (bool, error)
	// ReleaseUpgrade gives holder's lease back.
	ReleaseUpgrade(ctx context.Context, service int, holder string) error
}

// pendingUpgrades are client's pending WHMCS upgrade orders for service, of amount (a decimal;
// "": any) that none of our placements holds, oldest first. Read under
// the service's lease (UpgradeLeases), so no placing of ours has one in flight.
func pendingUpgrades(ctx context.Context, api interface {
	GetOrders(ctx context.Context, clientID int, status string) ([]whmcs.OrderRecord, error)
}, store interface {
	WHMCSOrderTaken(ctx context.Context, whmcsOrder int) (bool, error)
}, client, service int, amount string) ([]whmcs.OrderRecord, error) {
	orders, err := api.GetOrders(ctx, client, "Pending")
	if err != nil {
		return nil, err
	}
	var out []whmcs.OrderRecord
	for _, wo := range orders {
		if !slices.ContainsFunc(wo.Lines, func(l whmcs.OrderLine) bool { return l.Type == "upgrade" && int(l.RelID) == service }) {
			continue
		}
		if amount != "" && !sameAmount(string(wo.Amount), amount) {
			continue // not the upgrade our placing asked for
		}
		taken, err := store.WHMCSOrderTaken(ctx, int(wo.ID))
		if err != nil {
			return nil, err
		}
		if !taken {
			out = append(out, wo)
		}
	}
	return out, nil
}

// sameAmount reports whether WHMCS's decimal shown ("2.90") is the decimal amount ("2.9" too).
func sameAmount(shown, amount string) bool {
	a, ok := new(big.Rat).SetString(shown)
	b, ok2 := new(big.Rat).SetString(amount)
	return ok && ok2 && a.Cmp(b) == 0
}
