package money_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/streamcart/streamcart/api/money"
)

func TestDigits(t *testing.T) {
	tests := []struct {
		code  string
		want  int
		known bool
	}{
		{"JPY", 0, true}, {"KRW", 0, true}, {"EUR", 2, true}, {"usd", 2, true},
		{"KWD", 3, true}, {"BHD", 3, true}, {"CLF", 4, true},
		{"ABC", 0, false}, {"", 0, false}, {"EURO", 0, false},
	}
	for _, tt := range tests {
		got, ok := money.Digits(tt.code)
		if got != tt.want || ok != tt.known {
			t.Errorf("Digits(%q) = %d, %v; want %d, %v", tt.code, got, ok, tt.want, tt.known)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in, code string
		want     int64
		err      error
	}{
		{"9.99", "EUR", 999, nil},
		{"10", "USD", 1000, nil},
		{"0.5", "EUR", 50, nil},
		{" 1.05 ", "EUR", 105, nil},
		{"1234567890123.99", "EUR", 123456789012399, nil},
		{"2078", "JPY", 2078, nil},
		{"0", "JPY", 0, nil},
		{"12.345", "KWD", 12345, nil},
		{"12.3", "KWD", 12300, nil},
		{"12", "KWD", 12000, nil},
		{"9.999", "EUR", 0, money.ErrPrecision},
		{"2078.4", "JPY", 0, money.ErrPrecision},
		{"1.0", "JPY", 0, money.ErrPrecision},
		{"12.3456", "KWD", 0, money.ErrPrecision},
		{"-1", "EUR", 0, money.ErrAmount},
		{"9.9x", "EUR", 0, money.ErrAmount},
		{"1e3", "EUR", 0, money.ErrAmount},
		{".5", "EUR", 0, money.ErrAmount},
		{"5.", "EUR", 0, money.ErrAmount},
		{"", "EUR", 0, money.ErrAmount},
		{"12345678901234", "EUR", 0, money.ErrAmount},
		{"123456789012345", "JPY", 123456789012345, nil},
		{"1234567890123", "KWD", 0, money.ErrAmount},
		{"1.00", "ABC", 0, money.ErrCurrency},
	}
	for _, tt := range tests {
		got, err := money.Parse(tt.in, tt.code)
		if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("Parse(%q, %s) = %d, %v; want %d, %v", tt.in, tt.code, got, err, tt.want, tt.err)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		minor int64
		code  string
		want  string
	}{
		{0, "EUR", "0.00"}, {5, "EUR", "0.05"}, {999, "USD", "9.99"}, {1000, "EUR", "10.00"}, {-250, "EUR", "-2.50"},
		{2078, "JPY", "2078"}, {0, "JPY", "0"}, {-5, "JPY", "-5"},
		{12345, "KWD", "12.345"}, {5, "KWD", "0.005"}, {12000, "kwd", "12.000"},
		{1, "CLF", "0.0001"},
	}
	for _, tt := range tests {
		if got := money.Format(tt.minor, tt.code); got != tt.want {
			t.Errorf("Format(%d, %s) = %q, want %q", tt.minor, tt.code, got, tt.want)
		}
		if tt.minor >= 0 {
			if back, err := money.Parse(money.Format(tt.minor, tt.code), tt.code); err != nil || back != tt.minor {
				t.Errorf("Parse(Format(%d, %s)) = %d, %v", tt.minor, tt.code, back, err)
			}
		}
	}
}

func TestRound(t *testing.T) {
	tests := []struct {
		num, den int64
		want     int64
	}{
		{12345, 10, 1235}, {12344, 10, 1234}, {-12345, 10, -1235}, {5, 10, 1}, {4, 10, 0}, {20784, 10, 2078},
	}
	for _, tt := range tests {
		if got := money.Round(big.NewRat(tt.num, tt.den)); got != tt.want {
			t.Errorf("Round(%d/%d) = %d, want %d", tt.num, tt.den, got, tt.want)
		}
	}
}

func TestExchange(t *testing.T) {
	tests := []struct {
		amount  int64
		from    string
		rate    string
		to      string
		want    int64
		meaning string
	}{
		{1299, "EUR", "160", "JPY", 2078, "12.99 EUR = 2078.4 JPY → 2078"},
		{1299, "EUR", "1.08", "USD", 1403, "12.99 EUR = 14.0292 USD → 14.03"},
		{1299, "EUR", "0.3345", "KWD", 4345, "12.99 EUR = 4.345155 KWD → 4.345"},
		{2078, "JPY", "1/160", "EUR", 1299, "2078 JPY = 12.9875 EUR → 12.99"},
		{4345, "KWD", "160/0.3345", "JPY", 2078, "4.345 KWD = 2078.32… JPY → 2078"},
		{1, "EUR", "160", "JPY", 2, "0.01 EUR = 1.6 JPY → 2"},
		{0, "EUR", "160", "JPY", 0, "nothing stays nothing"},
	}
	for _, tt := range tests {
		rate, ok := new(big.Rat).SetString(tt.rate)
		if !ok {
			// "a/b" with a decimal part: build it from two decimals.
			rate = ratio(t, tt.rate)
		}
		if got := money.Exchange(tt.amount, tt.from, rate, tt.to); got != tt.want {
			t.Errorf("Exchange(%d %s × %s → %s) = %d, want %d (%s)", tt.amount, tt.from, tt.rate, tt.to, got, tt.want, tt.meaning)
		}
	}
}

func ratio(t *testing.T, s string) *big.Rat {
	t.Helper()
	for i := range s {
		if s[i] == '/' {
			a, ok1 := new(big.Rat).SetString(s[:i])
			b, ok2 := new(big.Rat).SetString(s[i+1:])
			if ok1 && ok2 {
				return a.Quo(a, b)
			}
		}
	}
	t.Fatalf("bad rate %q", s)
	return nil
}

// FormatLocale writes an amount as the reader's locale does; English and no locale are British
// English (no "US" before a foreign dollar), and a code the formatter cannot place keeps its code.
func TestFormatLocale(t *testing.T) {
	tests := []struct {
		minor        int64
		code, locale string
		want         string
	}{
		{1200, "EUR", "de-de", "12,00\u00a0€"},
		{1200, "EUR", "en", "€12.00"},
		{1200, "EUR", "", "€12.00"},
		{999, "USD", "en-us", "$9.99"},
		{999, "USD", "en", "US$9.99"},
		{1500, "JPY", "nl-nl", "JP¥\u00a01.500"},
		{12345, "KWD", "en", "KWD\u00a012.345"},
		{1200, "ABC", "de-de", "12.00 ABC"},
	}
	for _, tt := range tests {
		if got := money.FormatLocale(tt.minor, tt.code, tt.locale); got != tt.want {
			t.Errorf("FormatLocale(%d, %s, %q) = %q, want %q", tt.minor, tt.code, tt.locale, got, tt.want)
		}
	}
}
