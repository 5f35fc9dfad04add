package console_test

import (
	"errors"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/console"
	"github.com/streamcart/streamcart/api/order"
)

func TestParseDueWithin(t *testing.T) {
	if got, err := console.ParseDueWithin(""); got != nil || err != nil {
		t.Errorf(`ParseDueWithin("") = %v %v, want no filter`, got, err)
	}
	for in, want := range map[string]time.Duration{"14d": 14 * 24 * time.Hour, "12h": 12 * time.Hour, "14D": 14 * 24 * time.Hour,
		"0d": 0, "3660d": console.MaxDueWithin} {
		if got, err := console.ParseDueWithin(in); err != nil || got == nil || *got != want {
			t.Errorf("ParseDueWithin(%q) = %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"14", "d", "-1d", "1.5d", "2w", "14m", "3661d", "88000h", "1d2h", "9999999d"} {
		if _, err := console.ParseDueWithin(in); !errors.Is(err, console.ErrBadDueWithin) {
			t.Errorf("ParseDueWithin(%q): %v, want ErrBadDueWithin", in, err)
		}
	}
}

func TestParseServiceStatus(t *testing.T) {
	for in, want := range map[string]order.ServiceStatus{"": "", "active": order.ServiceActive, "OVERDUE": order.ServiceOverdue,
		"Suspended": order.ServiceSuspended, "expired": order.ServiceExpired} {
		if got, err := console.ParseServiceStatus(in); err != nil || got != want {
			t.Errorf("ParseServiceStatus(%q) = %q %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"paid", "actives", " active"} {
		if _, err := console.ParseServiceStatus(in); !errors.Is(err, console.ErrBadStatus) {
			t.Errorf("ParseServiceStatus(%q): %v, want ErrBadStatus", in, err)
		}
	}
}
