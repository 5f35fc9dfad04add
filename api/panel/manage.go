package panel

import (
	"context"
	"fmt"
	"time"
)

// Manager changes lines after they were created: self-service actions, the extra-connection
// upsell, renewals. Every method is keyed by the line's Ref and is safe to repeat: each sets a
// state rather than stepping one, so a retried job converges instead of applying twice.
type Manager interface {
	// Extend sets when the line expires.
	Extend(ctx context.Context, ref string, until time.Time) error
	// SetMaxConnections sets how many streams the line may play at once.
	SetMaxConnections(ctx context.Context, ref string, n int) error
	// SetEnabled switches the line on or off.
	SetEnabled(ctx context.Context, ref string, enabled bool) error
	// SetMAC sets the MAC address of the device bound to the line.
	SetMAC(ctx context.Context, ref, mac string) error
	// Delete removes the line; deleting a line the panel no longer has succeeds.
	Delete(ctx context.Context, ref string) error
	// Recreate builds the line again with l's settings and returns it.
	Recreate(ctx context.Context, l Line) (Line, error)
}

// Restarter is a Manager with a restart of its own (a WHMCS module's custom function).
type Restarter interface {
	Restart(ctx context.Context, ref string) error
}

// BouquetSetter changes which bouquets (channel packages) a line plays: a plan change moves the
// line to the new plan's (the built-in panel, XUI.one edit_line bouquets_selected[], Xtream UI
// user edit user_data[bouquet]).
type BouquetSetter interface {
	SetBouquets(ctx context.Context, ref string, bouquets []int) error
}

// Restart drops a line's open connections: through m's own restart when it has one, else (neither
// panel has a restart) the line is switched off and on again.
func Restart(ctx context.Context, m Manager, ref string) error {
	if r, ok := m.(Restarter); ok {
		return r.Restart(ctx, ref)
	}
	if err := m.SetEnabled(ctx, ref, false); err != nil {
		return fmt.Errorf("restart %s: %w", ref, err)
	}
	if err := m.SetEnabled(ctx, ref, true); err != nil {
		return fmt.Errorf("restart %s: %w", ref, err)
	}
	return nil
}
