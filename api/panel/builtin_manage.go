package panel

import (
	"context"
	"fmt"
	"time"
)

// LineEditor is what the built-in panel's Manager and Resellers need beyond LineStore.
type LineEditor interface {
	// UpdateLine rewrites the stored line l.Ref (every field but the ref); ErrNotFound when none.
	UpdateLine(ctx context.Context, l Line) error
	// DeleteLine removes a line; no error when there is none.
	DeleteLine(ctx context.Context, ref string) error
	// CreditReseller adds credits to account once per ref (see Resellers).
	CreditReseller(ctx context.Context, ref, account, passwordHash string, credits int, at time.Time) (ResellerAccount, error)
	// ResellerAccount reads an account; ErrNotFound when none.
	ResellerAccount(ctx context.Context, account string) (ResellerAccount, error)
}

var (
	_ Manager   = (*Builtin)(nil)
	_ Resellers = (*Builtin)(nil)
)

// edit reads the line of ref, changes it with fn and stores it.
func (b *Builtin) edit(ctx context.Context, op, ref string, fn func(*Line)) error {
	ed, ok := b.store.(LineEditor)
	if !ok {
		return fmt.Errorf("%s %s: the line store cannot edit lines", op, ref)
	}
	l, err := b.store.LineByRef(ctx, ref)
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, ref, err)
	}
	fn(&l)
	if err := ed.UpdateLine(ctx, l); err != nil {
		return fmt.Errorf("%s %s: %w", op, ref, err)
	}
	return nil
}

// Extend sets the line's expiry.
func (b *Builtin) Extend(ctx context.Context, ref string, until time.Time) error {
	return b.edit(ctx, "extend", ref, func(l *Line) { l.ExpiresAt = until.UTC() })
}

// SetMaxConnections sets the line's connection limit.
func (b *Builtin) SetMaxConnections(ctx context.Context, ref string, n int) error {
	if n < 1 {
		return fmt.Errorf("max connections %d: %w", n, ErrInvalidLine)
	}
	return b.edit(ctx, "set max connections", ref, func(l *Line) { l.MaxConnections = n })
}

// SetEnabled switches the line on or off.
func (b *Builtin) SetEnabled(ctx context.Context, ref string, enabled bool) error {
	return b.edit(ctx, "set enabled", ref, func(l *Line) { l.Enabled = enabled })
}

// SetMAC binds the line to a device's MAC address.
func (b *Builtin) SetMAC(ctx context.Context, ref, mac string) error {
	return b.edit(ctx, "set mac", ref, func(l *Line) { l.MAC = mac })
}

// Delete removes the line.
func (b *Builtin) Delete(ctx context.Context, ref string) error {
	ed, ok := b.store.(LineEditor)
	if !ok {
		return fmt.Errorf("delete %s: the line store cannot edit lines", ref)
	}
	if err := ed.DeleteLine(ctx, ref); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	return nil
}

// Recreate deletes the line and creates it again with l's settings.
func (b *Builtin) Recreate(ctx context.Context, l Line) (Line, error) {
	if err := b.Delete(ctx, l.Ref); err != nil {
		return Line{}, err
	}
	return b.CreateLine(ctx, l)
}

// CreditReseller adds credits to a reseller account once per ref.
func (b *Builtin) CreditReseller(ctx context.Context, ref, account, passwordHash string, credits int) (ResellerAccount, error) {
	ed, ok := b.store.(LineEditor)
	if !ok {
		return ResellerAccount{}, fmt.Errorf("credit reseller %s: the line store keeps no reseller accounts", account)
	}
	if ref == "" || account == "" || credits <= 0 {
		return ResellerAccount{}, fmt.Errorf("credit reseller %q: %w: ref, account and positive credits required", account, ErrInvalidLine)
	}
	a, err := ed.CreditReseller(ctx, ref, account, passwordHash, credits, b.now().UTC())
	if err != nil {
		return ResellerAccount{}, fmt.Errorf("credit reseller %s: %w", account, err)
	}
	return a, nil
}

// ResellerAccount reads a reseller account.
func (b *Builtin) ResellerAccount(ctx context.Context, account string) (ResellerAccount, error) {
	ed, ok := b.store.(LineEditor)
	if !ok {
		return ResellerAccount{}, fmt.Errorf("reseller %s: %w", account, ErrNotFound)
	}
	a, err := ed.ResellerAccount(ctx, account)
	if err != nil {
		return ResellerAccount{}, fmt.Errorf("reseller %s: %w", account, err)
	}
	return a, nil
}
