// Package panel talks to the IPTV panel that serves the lines Streamcart sells. The built-in panel
// (the embedded default) keeps lines in Streamcart's own database; an Xtream-compatible HTTP panel
// can replace it through configuration.
package panel

import (
	"context"
	"crypto/rand"
	"errors"
	"time"
)

// Line is one subscriber line on the panel.
type Line struct {
	Ref            string // our service id: the idempotency key of CreateLine
	Username       string
	Password       string
	MaxConnections int
	ExpiresAt      time.Time // zero means never
	Trial          bool
	Bouquets       []int
	Enabled        bool
	MAC            string
	// Credits is what making the line costs in reseller credits (the product's cost for its
	// billing cycle, package catalog). The built-in panel takes it from its balance and refuses
	// the line when the balance cannot cover it (ErrNoCredits); XUI.one and Xtream UI charge
	// their resellers by their own packages and ignore it. Never read back: a stored line has 0.
	Credits int
}

// Panel creates and reads lines.
type Panel interface {
	// CreateLine creates l. It is idempotent by Ref: creating an existing ref returns the stored
	// line unchanged. ErrUsernameTaken when another line has the username: the caller retries
	// with a new one (NewUsername), keeping the same Ref.
	CreateLine(ctx context.Context, l Line) (Line, error)
	// Line reads the line created for ref; ErrNotFound when none.
	Line(ctx context.Context, ref string) (Line, error)
	// ServerHostname is the host players connect to.
	ServerHostname() string
	// Playlist is the line's m3u_plus playlist.
	Playlist(ctx context.Context, l Line) ([]byte, error)
}

var (
	// ErrNotFound means the panel has no such line.
	ErrNotFound = errors.New("panel: line not found")
	// ErrUsernameTaken means another line already uses the username.
	ErrUsernameTaken = errors.New("panel: username taken")
	// ErrUnavailable means the panel could not be reached; the call may succeed later.
	ErrUnavailable = errors.New("panel: unavailable")
	// ErrInvalidLine means a line lacks a field the panel requires.
	ErrInvalidLine = errors.New("panel: invalid line")
	// ErrDisabled means the line exists but is switched off.
	ErrDisabled = errors.New("panel: line disabled")
	// ErrNoCredits means the reseller's credit balance cannot pay for the line.
	ErrNoCredits = errors.New("panel: not enough credits")
	// ErrCannotList means the panel has no way to list its lines (Xtream UI's admin API, as far
	// as its documentation goes): the lines no order explains cannot be looked for there.
	ErrCannotList = errors.New("panel: cannot list lines")
	// ErrNoBalance means the panel reports no credit balance (an admin account that spends
	// none, or a panel without a way to read it): nothing limits what the shop sells.
	ErrNoBalance = errors.New("panel: no credit balance")
)

// CreditReader reads the reseller credit balance a panel spends making and extending lines
// (XUI.one and Xtream UI resellers, the built-in panel). ErrNoBalance when it has none.
type CreditReader interface {
	Credits(ctx context.Context) (float64, error)
}

// PaidExtender is a panel that charges reseller credits for extending a line (the built-in
// panel): a renewal spends its plan's cost as a new line does. Extending to an expiry the line
// has already, or to an earlier one, spends nothing, so a renewal's repeat is free.
// ErrNoCredits when the balance cannot cover it; the expiry is then left as it was.
type PaidExtender interface {
	ExtendPaid(ctx context.Context, ref string, until time.Time, credits int) error
}

// CreditWrites is a CreditReader whose balance this process writes itself (the built-in panel,
// a row of the shop's database): CreditWrites counts those writes, so a cached balance read
// before the last count is known to be stale without reading it again. ok is false when the
// writes are not counted.
type CreditWrites interface {
	CreditWrites() (n uint64, ok bool)
}

// Lister lists every line on the panel, whoever made it: the reconciliation lists the lines no
// order explains. A listed line's Ref is "" when the panel cannot say which service made it
// (the lines are then matched by username).
type Lister interface {
	Lines(ctx context.Context) ([]Line, error)
}

// MACReporter is a panel whose Line reports the MAC address bound to a line (the built-in
// panel): only there can a MAC that drifted be seen.
type MACReporter interface {
	ReportsMAC() bool
}

// NewUsername returns prefix followed by 8 random digits.
func NewUsername(prefix string) string { return prefix + digits(8) }

// NewPassword returns 12 random digits.
func NewPassword() string { return digits(12) }

// digits draws n uniformly random decimal digits from crypto/rand.
func digits(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+8)
	for len(out) < n {
		rand.Read(buf) // never fails since Go 1.24
		for _, b := range buf {
			// 250 is the largest multiple of 10 within a byte: rejecting above keeps digits uniform.
			if b < 250 && len(out) < n {
				out = append(out, '0'+b%10)
			}
		}
	}
	return string(out)
}
