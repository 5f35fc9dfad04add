package store

// Group commit (SQLite): members of one group share a transaction but not their fate. These
// tests build groups by hand (run) so the grouping is certain, and drive the queue (do) for
// cancellation and for many concurrent callers.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func openGroupSQLite(t *testing.T) *SQLite {
	t.Helper()
	s, err := Open(t.Context(), t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// member makes a group member taken by the loop, as run expects it.
func member(fn func(querier) error) *groupTx {
	m := &groupTx{ctx: context.Background(), fn: fn, answered: make(chan struct{})}
	m.state.Store(memberTaken)
	return m
}

// put is a member that stores key; calls counts how often its fn ran.
func put(key string, calls *int) *groupTx {
	return member(func(q querier) error {
		*calls++
		_, err := q.ExecContext(context.Background(), `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, '')`, key, []byte(key))
		return err
	})
}

func settingCount(t *testing.T, s *SQLite, key string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM settings WHERE key = ?`, key).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func outcome(t *testing.T, m *groupTx) error {
	t.Helper()
	select {
	case <-m.answered:
		return m.err
	default:
		t.Fatal("member not answered after its group")
		return nil
	}
}

func TestGroupMemberFailureRollsBackThatMemberOnly(t *testing.T) {
	s := openGroupSQLite(t)
	boom := errors.New("boom")
	var c1, c2, c3, c4 int
	m1, m3 := put("one", &c1), put("three", &c3)
	// m2 writes, then fails: its write must go, the others' stay.
	m2 := member(func(q querier) error {
		c2++
		if _, err := q.ExecContext(context.Background(), `INSERT INTO settings (key, value, updated_at) VALUES ('two', x'00', '')`); err != nil {
			return err
		}
		return boom
	})
	// m4 breaks a constraint (statement-level error, the transaction goes on).
	m4 := member(func(q querier) error {
		c4++
		_, err := q.ExecContext(context.Background(), `INSERT INTO settings (key, value, updated_at) VALUES ('one', x'00', '')`)
		return err
	})
	s.group.run([]*groupTx{m1, m2, m3, m4})
	if err := outcome(t, m1); err != nil {
		t.Fatalf("member 1: %v", err)
	}
	if err := outcome(t, m2); !errors.Is(err, boom) {
		t.Fatalf("member 2: %v, want its own error", err)
	}
	if err := outcome(t, m3); err != nil {
		t.Fatalf("member 3: %v", err)
	}
	if err := outcome(t, m4); err == nil || !strings.Contains(err.Error(), "constraint") {
		t.Fatalf("member 4: %v, want a constraint violation", err)
	}
	for key, want := range map[string]int{"one": 1, "two": 0, "three": 1} {
		if got := settingCount(t, s, key); got != want {
			t.Errorf("setting %q stored %d times, want %d", key, got, want)
		}
	}
	if c1 != 1 || c2 != 1 || c3 != 1 || c4 != 1 {
		t.Errorf("fn calls %d %d %d %d, want each once", c1, c2, c3, c4)
	}
}

func TestGroupMemberPanicReachesItsCallerOnly(t *testing.T) {
	s := openGroupSQLite(t)
	var c1, c3 int
	m1, m3 := put("before", &c1), put("after", &c3)
	m2 := member(func(q querier) error {
		if _, err := q.ExecContext(context.Background(), `INSERT INTO settings (key, value, updated_at) VALUES ('panicked', x'00', '')`); err != nil {
			return err
		}
		panic("kaboom")
	})
	s.group.run([]*groupTx{m1, m2, m3})
	if err := outcome(t, m1); err != nil {
		t.Fatal(err)
	}
	if err := outcome(t, m3); err != nil {
		t.Fatal(err)
	}
	if !m2.panicked || m2.panicVal != "kaboom" {
		t.Fatalf("member 2 panicked %v with %v, want its panic passed on", m2.panicked, m2.panicVal)
	}
	if settingCount(t, s, "panicked") != 0 || settingCount(t, s, "before") != 1 || settingCount(t, s, "after") != 1 {
		t.Fatal("the panicking member's write stayed, or another member's went")
	}
}

// A member that ends the shared transaction (as SQLite does itself on some I/O errors) loses the
// work of the members before it: they run again, each alone, and every write lands once.
func TestGroupLostTransactionRerunsMembersAlone(t *testing.T) {
	s := openGroupSQLite(t)
	var c1, c3 int
	m1, m3 := put("first", &c1), put("third", &c3)
	breaks := 0
	m2 := member(func(q querier) error {
		breaks++
		_, err := q.ExecContext(context.Background(), `ROLLBACK`)
		return err
	})
	s.group.run([]*groupTx{m1, m2, m3})
	if err := outcome(t, m1); err != nil {
		t.Fatalf("member 1: %v", err)
	}
	if err := outcome(t, m3); err != nil {
		t.Fatalf("member 3: %v", err)
	}
	// Alone, m2's ROLLBACK ends its own transaction, so its commit fails: the error is its own.
	if err := outcome(t, m2); err == nil {
		t.Fatal("member 2 succeeded without a transaction to commit")
	}
	if c1 != 2 || breaks != 2 || c3 != 1 {
		t.Fatalf("fn calls %d %d %d, want 2 2 1 (members 1 and 2 rerun alone)", c1, breaks, c3)
	}
	if settingCount(t, s, "first") != 1 || settingCount(t, s, "third") != 1 {
		t.Fatal("a member's write is missing or doubled")
	}
}

func TestGroupQueuedCallerThatGivesUpNeverRuns(t *testing.T) {
	s := openGroupSQLite(t)
	hold, held := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.tx(context.Background(), func(querier) error {
			close(held)
			<-hold
			return nil
		})
	}()
	<-held // the loop is busy with the first transaction: the next one waits in the queue
	ctx, cancel := context.WithCancel(t.Context())
	ran := make(chan struct{}, 1)
	second := make(chan error, 1)
	go func() {
		second <- s.tx(ctx, func(q querier) error {
			ran <- struct{}{}
			_, err := q.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ('abandoned', x'00', '')`)
			return err
		})
	}()
	time.Sleep(20 * time.Millisecond) // let it queue
	cancel()
	if err := <-second; !errors.Is(err, context.Canceled) {
		t.Fatalf("queued caller whose context ended: %v, want context.Canceled", err)
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := s.tx(t.Context(), func(querier) error { return nil }); err != nil { // the queue moves on
		t.Fatal(err)
	}
	select {
	case <-ran:
		t.Fatal("the abandoned transaction ran")
	default:
	}
	if settingCount(t, s, "abandoned") != 0 {
		t.Fatal("the abandoned transaction's write is stored")
	}
}

// Many concurrent callers, a third of them failing after writing: each gets its own outcome and
// exactly the successful writes are stored, whatever groups formed.
func TestGroupConcurrentCallersGetTheirOwnOutcome(t *testing.T) {
	s := openGroupSQLite(t)
	const n = 90
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.tx(t.Context(), func(q querier) error {
				key := fmt.Sprintf("k%d", i)
				if _, err := q.ExecContext(t.Context(), `INSERT INTO settings (key, value, updated_at) VALUES (?, x'00', '')`, key); err != nil {
					return err
				}
				if i%3 == 0 {
					return fmt.Errorf("member %d fails", i)
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		want := 1
		if i%3 == 0 {
			want = 0
			if err == nil {
				t.Errorf("member %d: no error, want its own", i)
			}
		} else if err != nil {
			t.Errorf("member %d: %v", i, err)
		}
		if got := settingCount(t, s, fmt.Sprintf("k%d", i)); got != want {
			t.Errorf("member %d's write stored %d times, want %d", i, got, want)
		}
	}
}

func TestGroupClosedStoreRefusesTransactions(t *testing.T) {
	s, err := Open(t.Context(), t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.tx(t.Context(), func(querier) error { return nil }); !errors.Is(err, errStoreClosed) {
		t.Fatalf("transaction on a closed store: %v, want errStoreClosed", err)
	}
}

// A member's SAVEPOINT, ROLLBACK TO and RELEASE are prepared once on the writer, not parsed
// for every member (issue 24); a group with a failing member still keeps the others' writes.
func TestGroupMemberStatementsPrepared(t *testing.T) {
	s := openGroupSQLite(t)
	g := s.group
	if g.savepoint == nil || g.rollbackTo == nil || g.release == nil {
		t.Fatalf("member statements prepared: savepoint %v, rollback %v, release %v", g.savepoint != nil, g.rollbackTo != nil, g.release != nil)
	}
	var a, b int
	fail := member(func(querier) error { return errors.New("refused") })
	ok1, ok2 := put("prep-a", &a), put("prep-b", &b)
	g.run([]*groupTx{ok1, fail, ok2})
	if err := outcome(t, fail); err == nil || outcome(t, ok1) != nil || outcome(t, ok2) != nil {
		t.Fatalf("outcomes: %v, %v, %v", outcome(t, ok1), outcome(t, fail), outcome(t, ok2))
	}
	if settingCount(t, s, "prep-a") != 1 || settingCount(t, s, "prep-b") != 1 || a != 1 || b != 1 {
		t.Fatalf("kept writes: %d, %d (ran %d, %d times)", settingCount(t, s, "prep-a"), settingCount(t, s, "prep-b"), a, b)
	}
}

// The members of a group share their transaction's statements: a query the writer has prepared
// is bound to the group's transaction once, whichever member runs it first (issue 24).
func TestGroupMembersShareTransactionStatements(t *testing.T) {
	s := openGroupSQLite(t)
	const query = `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, '')`
	var calls int
	s.group.run([]*groupTx{put("share-0", &calls)})
	s.group.st.preparePending(t.Context()) // as the loop does after a group
	if s.group.st.lookup(query) == nil {
		t.Fatal("the members' insert was not prepared after its first group")
	}
	var seen []*sql.Stmt
	share := func(key string) *groupTx {
		return member(func(q querier) error {
			seen = append(seen, q.stmt(t.Context(), query))
			_, err := q.ExecContext(t.Context(), query, key, []byte(key))
			return err
		})
	}
	ms := []*groupTx{share("share-1"), share("share-2"), share("share-3")}
	s.group.run(ms)
	for _, m := range ms {
		if err := outcome(t, m); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 3 || seen[0] == nil || seen[1] != seen[0] || seen[2] != seen[0] {
		t.Fatalf("members' statements %v, want one shared", seen)
	}
}
