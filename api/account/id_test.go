package account_test

import (
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/account"
)

// Ids are the prefix, 10 characters of time and 16 of randomness: later ids sort after earlier
// ones (new rows append to their indexes), and ids made in the same millisecond still differ.
func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	prev := ""
	for i := range 200 {
		newMilli := i%20 == 0 // a new millisecond every so often: time decides the order
		if newMilli {
			time.Sleep(2 * time.Millisecond)
		}
		id := account.NewID("ord_")
		if !strings.HasPrefix(id, "ord_") || len(id) != len("ord_")+26 {
			t.Fatalf("id %q: want ord_ and 26 characters", id)
		}
		if strings.Trim(id[4:], "0123456789abcdefghjkmnpqrstvwxyz") != "" {
			t.Fatalf("id %q has characters outside the alphabet", id)
		}
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
		if newMilli && prev != "" && id <= prev {
			t.Fatalf("id %q made after %q does not sort after it", id, prev)
		}
		prev = id
	}
}

// Public ids are usr_ and 26 characters of the alphabet, random: no two alike, no order.
func TestNewPublicID(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		id := account.NewPublicID("usr_")
		if !strings.HasPrefix(id, "usr_") || len(id) != len("usr_")+26 || strings.Trim(id[4:], "0123456789abcdefghjkmnpqrstvwxyz") != "" {
			t.Fatalf("id %q: want usr_ and 26 characters of the alphabet", id)
		}
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
	}
}
