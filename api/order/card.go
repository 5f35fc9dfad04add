package order

import (
	"errors"
	"time"

	"github.com/streamcart/streamcart/api/catalog"
)

// CardSaver is a Gateway that can save the buyer's card at checkout, with their consent, so
// renewals are charged to it off-session (Stripe).
type CardSaver interface {
	SavesCards() bool
}

// Card is a payment method saved at a paid order for its services' renewals.
type Card struct {
	Provider      string // the gateway module that keeps it
	Customer      string // the provider's customer (Stripe: cus_…)
	PaymentMethod string // the provider's payment method (Stripe: pm_…)
	OrderID       string // the order whose payment saved it
	SavedAt       time.Time
}

var (
	// ErrCardGateway means renewWithCard was asked with a gateway that cannot save cards.
	ErrCardGateway = errors.New("renewal with a saved card needs a gateway that saves cards")
	// ErrCardCycle means renewWithCard was asked for something that does not renew.
	ErrCardCycle = errors.New("renewal with a saved card needs a plan with a recurring billing cycle")
)

// checkCardRenewal refuses a consent to renew with the card that could never be used: through a
// gateway that does not save cards, or for a trial or one-time plan. An unknown product is left
// to pricing, which answers it as for any order.
func (s *Orders) checkCardRenewal(cat *catalog.Catalog, gateway string, pid int, cycle catalog.Cycle) error {
	if g, ok := s.gateways[gateway].(CardSaver); !ok || !g.SavesCards() {
		return ErrCardGateway
	}
	p, ok := cat.Product(pid)
	if !ok {
		return nil
	}
	if cycle == "" { // pricing's default: the product's first enabled cycle
		if cycles := p.EnabledCycles(); len(cycles) > 0 {
			cycle = cycles[0]
		}
	}
	if p.Trial || cycle.Months() == 0 {
		return ErrCardCycle
	}
	return nil
}
