package payment

import (
	"fmt"
	"strings"

	"github.com/streamcart/streamcart/api/money"
)

// stripeDigits lists the currencies whose amounts Stripe's API writes with another number of
// decimals than ISO 4217 (docs.stripe.com/currencies): ISK in hundredths whose last two digits
// are 00, MGA in whole ariary. Every other currency's unit_amount is its ISO minor units
// (JPY in yen, EUR in cents, KWD in fils).
var stripeDigits = map[string]int{"ISK": 2, "MGA": 0}

// stripeThreeDecimal are the three-decimal currencies Stripe takes only in multiples of 10
// minor units (the last digit must be 0).
var stripeThreeDecimal = map[string]bool{"BHD": true, "JOD": true, "KWD": true, "OMR": true, "TND": true}

// stripeScale is 10^(Stripe's digits − ISO's digits) for currency, as a multiplier (≥ 1) or a
// divisor (> 1).
func stripeScale(currency string) (mul, div int64) {
	iso, _ := money.Digits(currency)
	sd, ok := stripeDigits[currency]
	if !ok {
		return 1, 1
	}
	mul, div = 1, 1
	for ; sd > iso; sd-- {
		mul *= 10
	}
	for ; iso > sd; iso-- {
		div *= 10
	}
	return mul, div
}

// toStripe is m as Stripe's unit_amount. An amount Stripe cannot take exactly is refused, never
// rounded: the buyer pays the invoice or nothing.
func toStripe(m money.Money) (int64, error) {
	cur := strings.ToUpper(m.Currency)
	mul, div := stripeScale(cur)
	if m.Amount%div != 0 || (stripeThreeDecimal[cur] && m.Amount%10 != 0) {
		return 0, fmt.Errorf("%w: Stripe cannot charge %s %s exactly", ErrUnavailable, money.Format(m.Amount, cur), cur)
	}
	return m.Amount / div * mul, nil
}

// fromStripe reads an amount Stripe reports (amount_total) as ISO minor units of currency; one
// that is not a whole ISO minor unit reads as -1, which no invoice matches.
func fromStripe(amount int64, currency string) int64 {
	mul, div := stripeScale(strings.ToUpper(currency))
	if amount%mul != 0 {
		return -1
	}
	return amount / mul * div
}
