// Package tax splits an amount into net, tax and gross at a rate from the catalog, and gives back
// a refund's share of an invoice's tax. It is pure: the rates are the catalog's (tax block), none
// is written here, and every amount is integer minor units.
//
// Rounding happens once per amount, half away from zero (money.Round), on the order's total after
// its discount, never per line:
//   - prices include tax: tax = gross − round(gross × 100 / (100 + rate)), net = gross − tax;
//   - prices exclude tax: tax = round(net × rate / 100), gross = net + tax.
package tax

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"

	"github.com/streamcart/streamcart/api/money"
)

// ErrBadRate means a rate is not a percentage from 0 to below 100 with at most two decimals.
var ErrBadRate = errors.New("tax: bad rate")

// rateRe is a percentage as the catalog writes it: "19", "25.5", "5.25", "0".
var rateRe = regexp.MustCompile(`^(0|[1-9][0-9]?)(\.[0-9]{1,2})?$`)

// ValidRate reports whether rate is a percentage from 0 to 99.99 with at most two decimals.
func ValidRate(rate string) bool { return rateRe.MatchString(rate) }

// Split is an amount split into net and tax: Net + Tax = Gross.
type Split struct {
	Net, Tax, Gross int64
}

// Apply splits amount at rate (a percentage, "19"): when included is true amount is the gross
// (prices include tax), else the net and the tax is added on top.
func Apply(amount int64, rate string, included bool) (Split, error) {
	if !ValidRate(rate) {
		return Split{}, fmt.Errorf("%w: %q", ErrBadRate, rate)
	}
	r, _ := new(big.Rat).SetString(rate)
	if included {
		// net = gross × 100 / (100 + rate)
		net := new(big.Rat).SetInt64(amount)
		net.Mul(net, big.NewRat(100, 1))
		net.Quo(net, new(big.Rat).Add(big.NewRat(100, 1), r))
		n := money.Round(net)
		return Split{Net: n, Tax: amount - n, Gross: amount}, nil
	}
	t := new(big.Rat).SetInt64(amount)
	t.Mul(t, r)
	t.Quo(t, big.NewRat(100, 1))
	tx := money.Round(t)
	return Split{Net: amount, Tax: tx, Gross: amount + tx}, nil
}

// RefundShare is the tax a refund of amount gives back, of an invoice of gross that charged
// taxTotal, after refunds of refundedBefore that gave back taxBefore: the tax in proportion,
// rounded on the running total (round(taxTotal × (refundedBefore + amount) / gross) − taxBefore),
// so partial refunds of the whole gross give back exactly taxTotal, never a cent more or less.
// It stays between 0 and amount.
func RefundShare(gross, taxTotal, refundedBefore, taxBefore, amount int64) int64 {
	if gross <= 0 || taxTotal == 0 || amount <= 0 {
		return 0
	}
	after := min(refundedBefore+amount, gross)
	cum := new(big.Rat).SetFrac(big.NewInt(taxTotal), big.NewInt(gross))
	cum.Mul(cum, new(big.Rat).SetInt64(after))
	share := money.Round(cum) - taxBefore
	return min(max(share, 0), amount)
}
