package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// printable is how every listing shows stored text: data that buyers, affiliates or providers
// chose (an email, an affiliate id, a subject) may carry terminal escape sequences, which would
// recolour, retitle or rewrite the operator's terminal, or line breaks and tabs forging rows and
// columns. Control characters, bidirectional overrides and invalid UTF-8 are written as Go
// escapes (\x1b, \n, \u202e, \xff); everything else as it is.
func printable(s string) string { return escapeControls(s, false) }

// printableText is printable for a multi-line text (a mail body): line breaks stay.
func printableText(s string) string { return escapeControls(s, true) }

func escapeControls(s string, keepLines bool) string {
	if !needsEscape(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\n' && keepLines:
			b.WriteRune(r)
		case r == '\\' || unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string, keepLines bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || (unsafeRune(r) && !(keepLines && r == '\n')) {
			return true
		}
	}
	return false
}

// unsafeRune reports a rune a terminal acts on rather than shows: C0 and C1 controls, DEL, and the
// bidirectional controls that reorder what follows them (U+202A–U+202E, U+2066–U+2069).
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
