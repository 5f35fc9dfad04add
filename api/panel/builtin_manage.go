package panel

import (
	"context"
	"fmt"
	"time"
)

// LineEditor is what the built-in panel's Manager needs beyond LineStore.
type LineEditor interface {
	// UpdateLine rewrites the stored line l.Ref (every field but the ref); ErrNotFound when none.
	UpdateLine(ctx context.Context, l Line) error
	// DeleteLine removes a line; no error when there is none.
	DeleteLine(ctx context.Context, ref string) error
}

var _ Manager = (*Builtin)(nil)

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

var _ BouquetSetter = (*Builtin)(nil)

// SetBouquets sets the bouquets the line plays.
func (b *Builtin) SetBouquets(ctx context.Context, ref string, bouquets []int) error {
	return b.edit(ctx, "set bouquets", ref, func(l *Line) { l.Bouquets = append([]int(nil), bouquets...) })
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
