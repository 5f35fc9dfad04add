package id_test

import (
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/id"
)

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// Ids are the prefix, 10 characters of time and 16 of randomness: later ids sort after earlier
// ones (new rows append to their indexes), and ids made in the same millisecond still differ.
func TestNew(t *testing.T) {
	seen := map[string]bool{}
	prev := ""
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for i := range 200 {
		now := start.Add(time.Duration(i/20) * time.Millisecond) // 20 ids per millisecond
		v := id.At("ord_", now)
		if !strings.HasPrefix(v, "ord_") || len(v) != len("ord_")+26 {
			t.Fatalf("id %q: want ord_ and 26 characters", v)
		}
		if strings.Trim(v[4:], alphabet) != "" {
			t.Fatalf("id %q has characters outside the alphabet", v)
		}
		if seen[v] {
			t.Fatalf("id %q made twice", v)
		}
		seen[v] = true
		if i%20 == 0 && prev != "" && v <= prev {
			t.Fatalf("id %q made a millisecond after %q does not sort after it", v, prev)
		}
		prev = v
	}
	// Time sorts over the whole range ids are made in, not only within one character.
	if a, b := id.At("x_", start), id.At("x_", start.AddDate(30, 0, 0)); a >= b {
		t.Fatalf("id %q of 2056 does not sort after %q of 2026", b, a)
	}
	if v := id.New("ses_"); !strings.HasPrefix(v, "ses_") || len(v) != len("ses_")+26 {
		t.Fatalf("New: %q", v)
	}
}

// Public ids are usr_ and 26 characters of the alphabet, random: no two alike, no order.
func TestPublic(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		v := id.Public("usr_")
		if !strings.HasPrefix(v, "usr_") || len(v) != len("usr_")+26 || strings.Trim(v[4:], alphabet) != "" {
			t.Fatalf("id %q: want usr_ and 26 characters of the alphabet", v)
		}
		if seen[v] {
			t.Fatalf("id %q made twice", v)
		}
		seen[v] = true
	}
}
