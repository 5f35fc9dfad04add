package store_test

// The conformance suite: every test of this package runs once per back end through
// forEachBackend, each run on a database of its own — a fresh SQLite file, or a fresh schema
// created in the PostgreSQL database at STREAMCART_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test) and dropped when the test ends. PostgreSQL is part
// of every machine and of CI, so an unreachable server fails the suite instead of skipping it.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver for the admin connection

	"github.com/streamcart/streamcart/api/store"
)

// adminURL is a database the tests may connect to and create databases from.
func adminURL() string {
	if u := os.Getenv("STREAMCART_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

type backend struct {
	name string
	open func(t *testing.T) store.Backend
}

var backends = []backend{
	{"sqlite", func(t *testing.T) store.Backend { return openSQLite(t) }},
	{"postgres", func(t *testing.T) store.Backend { return openPostgres(t) }},
}

// forEachBackend runs test against each back end, each on a fresh database. Every test owns its
// databases, so t and both runs go parallel: call it first thing in a test.
func forEachBackend(t *testing.T, test func(t *testing.T, s store.Backend)) {
	t.Helper()
	t.Parallel()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			test(t, b.open(t))
		})
	}
}

func openSQLite(t testing.TB) *store.SQLite {
	t.Helper()
	s, err := store.Open(t.Context(), t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newPostgresDB makes an empty schema for t in the admin database, dropped at cleanup, and
// returns a URL whose search_path is that schema: a database of the test's own, as far as the
// store can tell, at a fraction of the cost of CREATE DATABASE.
func newPostgresDB(t testing.TB) string {
	t.Helper()
	admin, err := sql.Open("pgx", adminURL())
	if err != nil {
		t.Fatalf("postgres admin %s: %v", adminURL(), err)
	}
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	rand.Read(b[:])
	name := "streamcart_test_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(t.Context(), `CREATE SCHEMA `+name); err != nil {
		t.Fatalf("PostgreSQL is required (STREAMCART_TEST_POSTGRES=%s): %v", adminURL(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, `DROP SCHEMA `+name+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return withParam(t, adminURL(), "search_path", name)
}

func withParam(t testing.TB, rawURL, key, value string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgres(t testing.TB) *store.Postgres {
	t.Helper()
	s, err := store.OpenPostgres(t.Context(), newPostgresDB(t))
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
		{"postgres URL", newPostgresDB(t), "postgres"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := store.OpenURL(t.Context(), tt.db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := s.Dialect(); got != tt.want {
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
	db := newPostgresDB(t)
	s, err := store.OpenPostgres(t.Context(), withParam(t, db, "pool_max_conns", "2"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.OpenPostgres(t.Context(), withParam(t, db, "pool_max_conns", "zero")); err == nil {
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
			go func() { errs <- s.Migrate(context.Background()) }()
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
	db := newPostgresDB(t)
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
