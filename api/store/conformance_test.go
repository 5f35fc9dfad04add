package store_test

// The conformance suite: every test of this package runs once per back end through
// forEachBackend, each run on a database of its own (see storetest): a fresh SQLite file, or a
// fresh schema in the PostgreSQL database at STREAMCART_TEST_POSTGRES, dropped when the test
// ends. An unreachable PostgreSQL fails the suite instead of skipping it.

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

// forEachBackend runs test against each back end, each on a fresh database, in parallel: call
// it first thing in a test.
func forEachBackend(t *testing.T, test func(t *testing.T, s store.Backend)) {
	t.Helper()
	storetest.Run(t, func(t *testing.T, b storetest.Backend) { test(t, b.Open(t)) })
}

func openSQLite(t testing.TB) *store.SQLite {
	t.Helper()
	s, err := store.Open(t.Context(), storetest.SQLiteDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openPostgres(t testing.TB) *store.Postgres {
	t.Helper()
	s, err := store.OpenPostgres(t.Context(), storetest.PostgresDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // runs before the drop registered earlier
	return s
}

func TestOpenURLChoosesTheBackend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, db string
		want     string
	}{
		{"file path", t.TempDir() + "/a/b.db", "sqlite"},
		{"postgres URL", storetest.PostgresDB(t), "postgres"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := store.OpenURL(t.Context(), tt.db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := storetest.Inspect(s).Dialect(); got != tt.want {
				t.Fatalf("OpenURL(%s).Dialect() = %s, want %s", tt.db, got, tt.want)
			}
			if err := s.Ping(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenPostgresPoolSizeParameter(t *testing.T) {
	t.Parallel()
	db := storetest.PostgresDB(t)
	s, err := store.OpenPostgres(t.Context(), storetest.WithParam(t, db, "pool_max_conns", "2"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.OpenPostgres(t.Context(), storetest.WithParam(t, db, "pool_max_conns", "zero")); err == nil {
		t.Fatal("a bad pool_max_conns was accepted")
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	t.Parallel()
	// Port 1 refuses at once: the error names the server, nothing hangs.
	if _, err := store.OpenPostgres(t.Context(), "postgres://postgres@127.0.0.1:1/none?connect_timeout=5"); err == nil {
		t.Fatal("opened a server that is not there")
	}
}

func TestMigrateIsRepeatableAndConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		errs := make(chan error, 4)
		for range 4 {
			go func() { errs <- storetest.Inspect(s).Migrate(context.Background()) }()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Ping(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReplicasMigrateOneDatabaseTogether(t *testing.T) {
	t.Parallel()
	// Two processes starting at once against one PostgreSQL database each migrate; the lock
	// makes one apply the schema and the other find it applied.
	db := storetest.PostgresDB(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			s, err := store.OpenPostgres(context.Background(), db)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// A first start against a server without the database creates it (then migrates it), so
// STREAMCART_DB=postgres://…/streamcart works on a fresh server; a second start uses it.
func TestOpenPostgresCreatesItsDatabase(t *testing.T) {
	t.Parallel()
	admin, err := sql.Open("pgx", storetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() }) // after the drop below: cleanups run last first
	name := fmt.Sprintf("streamcart_created_%d", time.Now().UnixNano())
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	u, err := url.Parse(storetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	for range 2 {
		s, err := store.OpenPostgres(t.Context(), u.String())
		if err != nil {
			t.Fatalf("OpenPostgres on a missing database: %v", err)
		}
		if _, _, err := s.EnsureClient(t.Context(), "first@example.com"); err != nil {
			t.Fatalf("the created database is not migrated: %v", err)
		}
		s.Close()
	}
	var n int
	if err := admin.QueryRow(`SELECT COUNT(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil || n != 1 {
		t.Fatalf("databases named %s: %d, %v", name, n, err)
	}
}

// concurrently runs fn n times at once and returns how many calls returned nil.
func concurrently(n int, fn func() error) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range n {
		wg.Go(func() {
			if fn() == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return ok
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
