// Package numbering formats the numbers of invoices and credit notes: a seller-set pattern
// (catalog invoiceNumber, creditNoteNumber) around the shop's gapless counter.
package numbering

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The patterns of a catalog that sets none.
const (
	DefaultInvoice    = "SC-{YYYY}-{seq:06}"
	DefaultCreditNote = "CN-{YYYY}-{seq:06}"
)

// ErrPattern is a pattern Format cannot use.
var ErrPattern = errors.New("numbering: bad pattern")

// Validate checks a pattern: fields {YYYY}, {YY}, {MM}, {DD} and exactly one {seq} or {seq:0N}
// (zero-padded to N digits, N from 1 to 12); any other text is kept as is.
func Validate(pattern string) error {
	_, err := Format(pattern, 1, time.Time{})
	return err
}

// Format writes number seq with pattern; at is the issue date (UTC) for the date fields.
func Format(pattern string, seq int64, at time.Time) (string, error) {
	at = at.UTC()
	var b strings.Builder
	seqs := 0
	rest := pattern
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return "", fmt.Errorf("%w: %q has a } without {", ErrPattern, pattern)
			}
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%w: %q has a { without }", ErrPattern, pattern)
		}
		field := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		switch {
		case field == "YYYY":
			fmt.Fprintf(&b, "%04d", at.Year())
		case field == "YY":
			fmt.Fprintf(&b, "%02d", at.Year()%100)
		case field == "MM":
			fmt.Fprintf(&b, "%02d", int(at.Month()))
		case field == "DD":
			fmt.Fprintf(&b, "%02d", at.Day())
		case field == "seq":
			seqs++
			b.WriteString(strconv.FormatInt(seq, 10))
		case strings.HasPrefix(field, "seq:0"):
			n, err := strconv.Atoi(field[len("seq:0"):])
			if err != nil || n < 1 || n > 12 {
				return "", fmt.Errorf("%w: %q: {%s} pads to 1 to 12 digits ({seq:06})", ErrPattern, pattern, field)
			}
			seqs++
			fmt.Fprintf(&b, "%0*d", n, seq)
		default:
			return "", fmt.Errorf("%w: %q: unknown field {%s} (YYYY, YY, MM, DD, seq, seq:0N)", ErrPattern, pattern, field)
		}
	}
	if seqs != 1 {
		return "", fmt.Errorf("%w: %q needs exactly one {seq} or {seq:0N}", ErrPattern, pattern)
	}
	if len(pattern) > 64 {
		return "", fmt.Errorf("%w: %q is longer than 64 characters", ErrPattern, pattern)
	}
	return b.String(), nil
}
