package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/store"
)

func TestInsertLineRoundTrips(t *testing.T) {
	created := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		line panel.Line
	}{
		{"full", panel.Line{Ref: "svc_1", Username: "sc12345678", Password: "123456789012", MaxConnections: 3,
			ExpiresAt: time.Date(2030, 2, 1, 12, 30, 0, 123000, time.UTC), Trial: false, Bouquets: []int{1, 4, 9},
			Enabled: true, MAC: "00:1A:79:AB:CD:EF"}},
		{"never expires, no bouquets, disabled trial", panel.Line{Ref: "svc_2", Username: "sc87654321",
			Password: "000000000000", MaxConnections: 1, Trial: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s store.Backend) {
				got, isNew, err := s.InsertLine(t.Context(), tt.line, created)
				if err != nil || !isNew {
					t.Fatalf("InsertLine = %v, %v", isNew, err)
				}
				if !reflect.DeepEqual(got, tt.line) {
					t.Fatalf("inserted\n got %+v\nwant %+v", got, tt.line)
				}
				read, err := s.LineByRef(t.Context(), tt.line.Ref)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(read, tt.line) {
					t.Fatalf("read back\n got %+v\nwant %+v", read, tt.line)
				}
			})
		})
	}
}

func TestInsertLineIsIdempotentByRef(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		first := panel.Line{Ref: "svc_1", Username: "sc11111111", Password: "111111111111", MaxConnections: 1, Enabled: true}
		if _, _, err := s.InsertLine(t.Context(), first, time.Now()); err != nil {
			t.Fatal(err)
		}
		again := panel.Line{Ref: "svc_1", Username: "sc22222222", Password: "222222222222", MaxConnections: 5}
		got, isNew, err := s.InsertLine(t.Context(), again, time.Now())
		if err != nil || isNew {
			t.Fatalf("repeat InsertLine = %v, %v; want the stored line, not created", isNew, err)
		}
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("repeat returned %+v, want the first line %+v", got, first)
		}
		// The repeat's username was not reserved.
		other := panel.Line{Ref: "svc_2", Username: "sc22222222", Password: "3", MaxConnections: 1}
		if _, _, err := s.InsertLine(t.Context(), other, time.Now()); err != nil {
			t.Fatalf("username of an ignored repeat is taken: %v", err)
		}
	})
}

func TestInsertLineUsernameTaken(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		a := panel.Line{Ref: "svc_a", Username: "sc12345678", Password: "1", MaxConnections: 1}
		if _, _, err := s.InsertLine(t.Context(), a, time.Now()); err != nil {
			t.Fatal(err)
		}
		b := panel.Line{Ref: "svc_b", Username: "sc12345678", Password: "2", MaxConnections: 1}
		if _, _, err := s.InsertLine(t.Context(), b, time.Now()); !errors.Is(err, panel.ErrUsernameTaken) {
			t.Fatalf("err = %v, want ErrUsernameTaken", err)
		}
		if _, err := s.LineByRef(t.Context(), "svc_b"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("LineByRef(svc_b) err = %v, want ErrNotFound", err)
		}
	})
}

func TestInsertLineConcurrentRepeatsStoreOne(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		const n = 16
		var wg sync.WaitGroup
		var mu sync.Mutex
		var created int
		for i := range n {
			wg.Go(func() {
				l := panel.Line{Ref: "svc_1", Username: panel.NewUsername("sc"), Password: "p", MaxConnections: i + 1}
				_, isNew, err := s.InsertLine(t.Context(), l, time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				if isNew {
					mu.Lock()
					created++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if created != 1 {
			t.Fatalf("%d inserts created a line, want 1", created)
		}
	})
}

func TestLineEdits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		b := panel.NewBuiltin(s, "line.example:80", nil)
		l := panel.Line{Ref: "svc_1", Username: "u1", Password: "p1", MaxConnections: 1, Enabled: true}
		if _, err := b.CreateLine(t.Context(), l); err != nil {
			t.Fatal(err)
		}
		steps := []func() error{
			func() error { return b.SetMaxConnections(t.Context(), "svc_1", 3) },
			func() error { return b.SetMAC(t.Context(), "svc_1", "00:1A:79:12:34:56") },
			func() error { return panel.Restart(t.Context(), b, "svc_1") },
		}
		for _, st := range steps {
			if err := st(); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Line(t.Context(), "svc_1")
		if err != nil || got.MaxConnections != 3 || got.MAC != "00:1A:79:12:34:56" || !got.Enabled {
			t.Fatalf("line %+v %v", got, err)
		}
		if err := b.SetMaxConnections(t.Context(), "svc_none", 2); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("unknown line: %v", err)
		}
		if err := b.Delete(t.Context(), "svc_1"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Line(t.Context(), "svc_1"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("deleted line: %v", err)
		}
		if got, err := b.Recreate(t.Context(), l); err != nil || got.Username != "u1" {
			t.Fatalf("recreate: %+v %v", got, err)
		}
	})
}

// Making a line spends its credits from the built-in panel's balance in the line's transaction:
// a balance that cannot cover it refuses the line and keeps the balance, a repeat of the ref
// spends nothing, and a line refused for its username gives its credits back.
func TestBuiltinLineSpendsCredits(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		if n, err := s.PanelCredits(ctx); err != nil || n != 1000 {
			t.Fatalf("a new shop's balance: %d, %v; want 1000", n, err)
		}
		if err := s.SetPanelCredits(ctx, 3); err != nil {
			t.Fatal(err)
		}
		l := panel.Line{Ref: "svc_1", Username: "sc1", Password: "p", MaxConnections: 1, Enabled: true, Credits: 2}
		for range 2 {
			if _, _, err := s.InsertLine(ctx, l, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := s.PanelCredits(ctx); n != 1 {
			t.Fatalf("balance %d after one line of 2 credits made twice, want 1", n)
		}
		taken := panel.Line{Ref: "svc_2", Username: "sc1", Password: "p", MaxConnections: 1, Credits: 1}
		if _, _, err := s.InsertLine(ctx, taken, time.Now()); !errors.Is(err, panel.ErrUsernameTaken) {
			t.Fatalf("username taken: %v", err)
		}
		dear := panel.Line{Ref: "svc_3", Username: "sc3", Password: "p", MaxConnections: 1, Credits: 2}
		if _, _, err := s.InsertLine(ctx, dear, time.Now()); !errors.Is(err, panel.ErrNoCredits) {
			t.Fatalf("a line dearer than the balance: %v, want ErrNoCredits", err)
		}
		if n, _ := s.PanelCredits(ctx); n != 1 {
			t.Fatalf("balance %d after two refused lines, want 1", n)
		}
		if _, err := s.LineByRef(ctx, "svc_3"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("the refused line was stored: %v", err)
		}
		got, err := s.LineByUsername(ctx, "sc1")
		if err != nil || got.Ref != "svc_1" {
			t.Fatalf("LineByUsername = %+v, %v", got, err)
		}
		if _, err := s.LineByUsername(ctx, "nobody"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("unknown username: %v", err)
		}
		all, err := s.ListLines(ctx)
		if err != nil || len(all) != 1 || all[0].Ref != "svc_1" {
			t.Fatalf("ListLines = %+v, %v", all, err)
		}
	})
}

// The built-in panel counts the writes this process makes to its balance (a top-up, a line's
// spend, even one refused), and nothing else, so the shop's cached balance is read again only
// after one of them (credits.Config.Fresh).
func TestBuiltinCountsCreditWrites(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		ctx := t.Context()
		b := panel.NewBuiltin(s, "line.test", time.Now)
		count := func() uint64 {
			t.Helper()
			n, ok := b.CreditWrites()
			if !ok {
				t.Fatal("the store's built-in panel does not count its credit writes")
			}
			return n
		}
		for _, tc := range []struct {
			name  string
			do    func() error
			moves bool
		}{
			{"read", func() error { _, err := b.Credits(ctx); return err }, false},
			{"top-up", func() error { return b.SetCredits(ctx, 2) }, true},
			{"free line", func() error {
				_, _, err := s.InsertLine(ctx, panel.Line{Ref: "svc_f", Username: "scf", Password: "p", MaxConnections: 1}, time.Now())
				return err
			}, false},
			{"line spending 2", func() error {
				_, _, err := s.InsertLine(ctx, panel.Line{Ref: "svc_1", Username: "sc1", Password: "p", MaxConnections: 1, Credits: 2}, time.Now())
				return err
			}, true},
			{"line refused for its credits", func() error {
				_, _, err := s.InsertLine(ctx, panel.Line{Ref: "svc_2", Username: "sc2", Password: "p", MaxConnections: 1, Credits: 1}, time.Now())
				if !errors.Is(err, panel.ErrNoCredits) {
					return fmt.Errorf("want ErrNoCredits, got %v", err)
				}
				return nil
			}, true},
		} {
			before := count()
			if err := tc.do(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if moved := count() != before; moved != tc.moves {
				t.Fatalf("%s: count moved %v, want %v", tc.name, moved, tc.moves)
			}
		}
	})
}
