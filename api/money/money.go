// Package money is the one home of amounts: the Money type, and the one place that knows how
// many minor units a currency has and turns amounts into and out of them (Parse, Format, and
// FormatLocale for a reader's locale). The exponent of each code comes from
// ISO 4217 as kept by github.com/bojanz/currency (JPY 0, EUR 2, KWD 3, CLF 4),
// never from a hand list; amounts everywhere else are integer minor units.
//
// Rounding happens in Round and nowhere else: an exchange or a percentage is
// carried as an exact rational and rounded once, to the target currency's own
// minor units.
package money

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/bojanz/currency"
)

// Money is an amount in minor units of a currency (1299 EUR is 12.99 €). Every amount the shop
// quotes, charges or reports travels as one.
type Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// Errors returned (wrapped) by this package.
var (
	// ErrAmount reports a string that is not a non-negative decimal.
	ErrAmount = errors.New("money: not a decimal amount")
	// ErrPrecision reports a decimal with more decimals than the currency has
	// minor units (e.g. "9.99" yen): it is never rounded away silently.
	ErrPrecision = errors.New("money: more decimals than the currency has")
	// ErrCurrency reports a code that is not an ISO 4217 currency.
	ErrCurrency = errors.New("money: unknown currency")
)

// maxDigits bounds the digits of an amount (integer part and decimals
// together) so that minor units always fit an int64 with room for sums.
const maxDigits = 15

// Digits returns the number of minor-unit digits of an ISO 4217 code, matched
// case-insensitively; false for a code ISO 4217 does not list.
func Digits(code string) (int, bool) {
	d, ok := currency.GetDigits(strings.ToUpper(strings.TrimSpace(code)))
	return int(d), ok
}

// Known reports whether code is an ISO 4217 currency code.
func Known(code string) bool {
	_, ok := Digits(code)
	return ok
}

// digitsOr2 is Digits with ECMA-402's answer for a code it cannot place: 2.
// Only formatting uses it; the catalog refuses unknown codes before any
// amount exists.
func digitsOr2(code string) int {
	if d, ok := Digits(code); ok {
		return d
	}
	return 2
}

// Parse converts a non-negative decimal amount of currency code ("9.99" EUR,
// "1500" JPY, "12.345" KWD) to minor units (999, 1500, 12345). It never
// rounds: more decimals than the currency has is ErrPrecision.
func Parse(s, code string) (int64, error) {
	d, ok := Digits(code)
	if !ok {
		return 0, fmt.Errorf("%w: %q", ErrCurrency, code)
	}
	return ParseDecimal(s, d)
}

// ParseDecimal converts a non-negative decimal with at most digits decimals
// to an integer scaled by 10^digits ("12.5", 2 → 1250). Parse uses it with a
// currency's exponent; a percentage uses it with 2.
func ParseDecimal(s string, digits int) (int64, error) {
	s = strings.TrimSpace(s)
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || (dot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	if len(frac) > digits {
		return 0, fmt.Errorf("%w: %q has %d decimals, at most %d allowed", ErrPrecision, s, len(frac), digits)
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole)+digits > maxDigits {
		return 0, fmt.Errorf("%w: %q is too large", ErrAmount, s)
	}
	n, err := strconv.ParseInt("0"+whole+frac+strings.Repeat("0", digits-len(frac)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	return n, nil
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Format renders minor units of code as a plain decimal with exactly the
// currency's decimals: the form payment providers take ("9.99" EUR, "1500"
// JPY, "12.345" KWD).
func Format(minor int64, code string) string {
	d := digitsOr2(code)
	sign := ""
	u := uint64(minor)
	if minor < 0 {
		sign, u = "-", uint64(-minor)
	}
	s := strconv.FormatUint(u, 10)
	if d == 0 {
		return sign + s
	}
	if len(s) <= d {
		s = strings.Repeat("0", d-len(s)+1) + s
	}
	return sign + s[:len(s)-d] + "." + s[len(s)-d:]
}

// FormatLocale renders minor units of code as a reader of locale (a CLDR tag: "de-de", "nl-nl")
// writes amounts: "12,00 €" in de-de, "€12.00" in English. English, or no locale, is British
// English: the symbol first and no "US" before a foreign dollar. A code the formatter cannot place
// falls back to Format and the code ("12.00 XTS").
func FormatLocale(minor int64, code, locale string) string {
	amount, err := currency.NewAmount(Format(minor, code), code)
	if err != nil {
		return Format(minor, code) + " " + code
	}
	if locale == "" || strings.EqualFold(locale, "en") {
		locale = "en-gb"
	}
	return currency.NewFormatter(currency.NewLocale(locale)).Format(amount)
}

// Round is the only place where money is rounded: a rational amount in minor
// units becomes an integer, half away from zero (1234.5 → 1235, i.e. 12.345
// EUR → 12.35 EUR; 2078.4 JPY → 2078 JPY).
func Round(r *big.Rat) int64 {
	num := new(big.Int).Abs(r.Num())
	den := r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q.Int64()
}

// Exchange converts amount (minor units of from) at rate (units of to per
// unit of from) into minor units of to, rounding once in Round. The exponents
// of both currencies take part: 12.99 EUR at 160 is 2078.4 → 2078 JPY, not
// 207840.
func Exchange(amount int64, from string, rate *big.Rat, to string) int64 {
	r := new(big.Rat).SetInt64(amount)
	r.Mul(r, rate)
	r.Mul(r, new(big.Rat).SetFrac(pow10(digitsOr2(to)), pow10(digitsOr2(from))))
	return Round(r)
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}
