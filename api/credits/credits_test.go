package credits_test

import (
	"context"
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/credits"
)

// countingPanel is a panel whose balance the test sets; counted makes it report its writes
// (panel.CreditWrites), as the built-in panel does.
type countingPanel struct {
	balance float64
	writes  uint64
	counted bool
	reads   int
}

func (p *countingPanel) Credits(context.Context) (float64, error) { p.reads++; return p.balance, nil }

func (p *countingPanel) CreditWrites() (uint64, bool) { return p.writes, p.counted }

// set changes the balance as this process would (counted) or as another process would (not).
func (p *countingPanel) set(v float64, here bool) {
	p.balance = v
	if here {
		p.writes++
	}
}

// An order check with Fresh reads the balance again only when it may have changed: always for a
// panel that does not count its writes, after a counted write for one that does. A change made
// elsewhere (not counted) is seen at the next Refresh (Run's tick).
func TestCheckReadsOnlyAStaleBalance(t *testing.T) {
	type step struct {
		set       float64 // the balance before the check; <0: unchanged
		here      bool    // the change is this process's (counted)
		refresh   bool    // Refresh (Run's tick) before the check
		cost      int
		wantErr   error
		wantReads int // the panel's reads so far
	}
	for _, tc := range []struct {
		name    string
		counted bool
		steps   []step
	}{
		{"counted writes", true, []step{
			{set: -1, cost: 1, wantReads: 1},                                           // nothing read yet: read
			{set: -1, cost: 1, wantReads: 1},                                           // unchanged: cached
			{set: 0, here: true, cost: 1, wantErr: credits.ErrNotEnough, wantReads: 2}, // spent here: read
			{set: -1, cost: 1, wantErr: credits.ErrNotEnough, wantReads: 2},
			{set: 5, cost: 1, wantErr: credits.ErrNotEnough, wantReads: 2}, // topped up elsewhere: not yet seen
			{set: -1, refresh: true, cost: 1, wantReads: 3},                // the tick reads it
			{set: -1, cost: 6, wantErr: credits.ErrNotEnough, wantReads: 3},
			{set: -1, cost: 0, wantReads: 3}, // costs nothing: no read
		}},
		{"uncounted writes", false, []step{
			{set: -1, cost: 1, wantReads: 1},
			{set: -1, cost: 1, wantReads: 2},
			{set: 0, cost: 1, wantErr: credits.ErrNotEnough, wantReads: 3},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &countingPanel{balance: 3, counted: tc.counted}
			b := credits.New(credits.Config{Panel: p, Fresh: true, Alert: -1})
			for i, s := range tc.steps {
				if s.set >= 0 {
					p.set(s.set, s.here)
				}
				if s.refresh {
					if _, err := b.Refresh(t.Context()); err != nil {
						t.Fatal(err)
					}
				}
				if err := b.Check(t.Context(), s.cost); !errors.Is(err, s.wantErr) {
					t.Fatalf("step %d: Check(%d) = %v, want %v", i, s.cost, err, s.wantErr)
				}
				if p.reads != s.wantReads {
					t.Fatalf("step %d: %d reads of the panel, want %d", i, p.reads, s.wantReads)
				}
			}
		})
	}
}
