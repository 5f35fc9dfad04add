package catalog

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrAmount reports a malformed decimal amount.
var ErrAmount = errors.New("catalog: not a decimal amount")

// Amounts have at most 2 decimals (every catalog currency uses cents) and a
// bounded integer part so minor units always fit an int64.
var amountRe = regexp.MustCompile(`^[0-9]{1,13}(\.[0-9]{1,2})?$`)

// ParseAmount converts a non-negative decimal with at most 2 decimals
// ("9.99", "10", "0.5") to minor units (999, 1000, 50). It never rounds:
// more decimals are an error.
func ParseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if !amountRe.MatchString(s) {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	return n, nil
}

// FormatAmount renders minor units as a decimal with 2 decimals ("9.99").
func FormatAmount(minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d", sign, minor/100, minor%100)
}
