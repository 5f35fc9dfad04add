package numbering

import (
	"errors"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	at := time.Date(2026, 3, 7, 23, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		pattern string
		seq     int64
		want    string
	}{
		{DefaultInvoice, 42, "SC-2026-000042"},
		{DefaultCreditNote, 1, "CN-2026-000001"},
		{"INV{YY}{MM}{DD}/{seq}", 1234567, "INV260307/1234567"},
		{"{seq:03}", 12345, "12345"}, // padding never cuts
	} {
		got, err := Format(tt.pattern, tt.seq, at)
		if err != nil || got != tt.want {
			t.Errorf("Format(%q, %d) = %q, %v; want %q", tt.pattern, tt.seq, got, err, tt.want)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, p := range []string{"", "SC-{YYYY}", "{seq}{seq}", "{seq:6}", "{seq:00}", "{seq:013}", "{year}-{seq}", "{seq", "seq}", "{seq}" + string(make([]byte, 70))} {
		if err := Validate(p); !errors.Is(err, ErrPattern) {
			t.Errorf("Validate(%q) = %v, want ErrPattern", p, err)
		}
	}
	if err := Validate(DefaultInvoice); err != nil {
		t.Fatal(err)
	}
}
