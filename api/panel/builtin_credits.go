package panel

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CreditStore keeps the built-in panel's reseller credit balance (store.PanelCredits).
type CreditStore interface {
	// PanelCredits reads the balance.
	PanelCredits(ctx context.Context) (int64, error)
	// SetPanelCredits sets the balance (the panel's CLI: streamcart panel credits N).
	SetPanelCredits(ctx context.Context, n int64) error
}

// PaidLineStore extends a built-in line and spends credits in one transaction.
type PaidLineStore interface {
	// ExtendLinePaid sets the line's expiry to until, spending credits from the balance when
	// until is later than its expiry; ErrNotFound, ErrNoCredits.
	ExtendLinePaid(ctx context.Context, ref string, until time.Time, credits int) error
}

// creditCounter is a CreditStore that counts the writes this process made to the balance
// (store.PanelCreditWrites).
type creditCounter interface {
	PanelCreditWrites() uint64
}

// LineCatalog is what the built-in panel's listing and its CLI read beyond LineStore.
type LineCatalog interface {
	// ListLines lists every stored line, oldest first.
	ListLines(ctx context.Context) ([]Line, error)
	// LineByUsername reads the line with username; ErrNotFound when none.
	LineByUsername(ctx context.Context, username string) (Line, error)
}

var (
	_ PaidExtender = (*Builtin)(nil)
	_ CreditReader = (*Builtin)(nil)
	_ CreditWrites = (*Builtin)(nil)
	_ Lister       = (*Builtin)(nil)
	_ MACReporter  = (*Builtin)(nil)
)

// errNoCreditStore is a line store that keeps no balance (a test's).
var errNoCreditStore = errors.New("the line store keeps no credit balance")

// Credits reads the built-in panel's credit balance, which CreateLine spends (Line.Credits).
func (b *Builtin) Credits(ctx context.Context) (float64, error) {
	cs, ok := b.store.(CreditStore)
	if !ok {
		return 0, fmt.Errorf("credits: %w", ErrNoBalance)
	}
	n, err := cs.PanelCredits(ctx)
	if err != nil {
		return 0, fmt.Errorf("credits: %w", err)
	}
	return float64(n), nil
}

// ExtendPaid sets the line's expiry for a renewal, spending credits when it moves the expiry
// later (PaidExtender). A store without a balance extends for free.
func (b *Builtin) ExtendPaid(ctx context.Context, ref string, until time.Time, credits int) error {
	ps, ok := b.store.(PaidLineStore)
	if !ok || credits <= 0 {
		return b.Extend(ctx, ref, until)
	}
	if err := ps.ExtendLinePaid(ctx, ref, until.UTC(), credits); err != nil {
		return fmt.Errorf("extend %s: %w", ref, err)
	}
	return nil
}

// CreditWrites counts the writes to the balance made through the shop's store in this process
// (a line's spend, SetCredits): another process's (the CLI, another replica) are not counted.
func (b *Builtin) CreditWrites() (uint64, bool) {
	cc, ok := b.store.(creditCounter)
	if !ok {
		return 0, false
	}
	return cc.PanelCreditWrites(), true
}

// SetCredits sets the built-in panel's credit balance (n >= 0).
func (b *Builtin) SetCredits(ctx context.Context, n int64) error {
	cs, ok := b.store.(CreditStore)
	if !ok {
		return fmt.Errorf("set credits: %w", errNoCreditStore)
	}
	if n < 0 {
		return fmt.Errorf("set credits %d: %w: a balance is 0 or more", n, ErrInvalidLine)
	}
	if err := cs.SetPanelCredits(ctx, n); err != nil {
		return fmt.Errorf("set credits: %w", err)
	}
	return nil
}

// Lines lists every line of the built-in panel, oldest first.
func (b *Builtin) Lines(ctx context.Context) ([]Line, error) {
	lc, ok := b.store.(LineCatalog)
	if !ok {
		return nil, errors.New("list lines: the line store cannot list lines")
	}
	ls, err := lc.ListLines(ctx)
	if err != nil {
		return nil, fmt.Errorf("list lines: %w", err)
	}
	return ls, nil
}

// LineByUsername reads the built-in panel's line with username (the panel's CLI names lines by
// their usernames, as a panel's own screens do).
func (b *Builtin) LineByUsername(ctx context.Context, username string) (Line, error) {
	lc, ok := b.store.(LineCatalog)
	if !ok {
		return Line{}, errors.New("read line: the line store cannot look lines up by username")
	}
	l, err := lc.LineByUsername(ctx, username)
	if err != nil {
		return Line{}, fmt.Errorf("read line %s: %w", username, err)
	}
	return l, nil
}

// ReportsMAC: a built-in line keeps its MAC address.
func (b *Builtin) ReportsMAC() bool { return true }
