// Package storetest gives tests a database of their own on each back end: a fresh SQLite file,
// or a fresh schema in the PostgreSQL database at STREAMCART_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test), dropped when the test ends. Every store-backed test
// runs on both through Run. PostgreSQL is part of every machine and of CI, so an unreachable
// server fails the test with the URL it tried instead of skipping it.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the admin connection and Count/Exec
	_ "modernc.org/sqlite"             // the "sqlite" driver, for Count/Exec

	"github.com/streamcart/streamcart/api/store"
)

// AdminURL is the PostgreSQL database the tests connect to and make their schemas in.
func AdminURL() string {
	if u := os.Getenv("STREAMCART_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// Backend is one back end a test runs on.
type Backend struct {
	// Name is the subtest's name: "sqlite" or "postgres" (the store's Dialect).
	Name string
	// NewDB makes an empty database for t, removed at its cleanup, and returns what
	// store.OpenURL (and STREAMCART_DB) takes: a file path or a postgres:// URL.
	NewDB func(t testing.TB) string
}

// Backends are every back end, SQLite first.
var Backends = []Backend{{"sqlite", SQLiteDB}, {"postgres", PostgresDB}}

// Run runs test once per back end, as subtests named after it. t and both subtests run in
// parallel (every database is the test's own), so call Run first thing in a test.
func Run(t *testing.T, test func(t *testing.T, b Backend)) {
	t.Helper()
	t.Parallel()
	for _, b := range Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			test(t, b)
		})
	}
}

// Open opens a store on a fresh database of b, closed at cleanup.
func (b Backend) Open(t testing.TB) store.Backend {
	t.Helper()
	s, err := store.OpenURL(t.Context(), b.NewDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // before the database's own removal, registered earlier
	return s
}

// SQLiteDB is the path of a SQLite file (not created yet) in t's temporary directory.
func SQLiteDB(t testing.TB) string {
	return filepath.Join(t.TempDir(), "streamcart.db")
}

// PostgresDB makes an empty schema in the admin database, dropped at cleanup, and returns a URL
// whose search_path is that schema: a database of the test's own as far as the store (and a
// streamcart process given the URL) can tell, at a fraction of the cost of CREATE DATABASE.
func PostgresDB(t testing.TB) string {
	t.Helper()
	admin := adminDB(t)
	var b [6]byte
	rand.Read(b[:])
	name := "streamcart_test_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(t.Context(), `CREATE SCHEMA `+name); err != nil {
		t.Fatalf("PostgreSQL is required (STREAMCART_TEST_POSTGRES=%s): %v", AdminURL(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, `DROP SCHEMA `+name+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return WithParam(t, AdminURL(), "search_path", name)
}

var admin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// adminDB is one small pool for the whole test binary: tests make and drop schemas through it.
// It is never closed; the binary's exit ends its connections.
func adminDB(t testing.TB) *sql.DB {
	t.Helper()
	admin.once.Do(func() {
		if admin.db, admin.err = sql.Open("pgx", AdminURL()); admin.err == nil {
			admin.db.SetMaxOpenConns(4)
			admin.db.SetConnMaxIdleTime(10 * time.Second)
		}
	})
	if admin.err != nil {
		t.Fatalf("postgres admin %s: %v", AdminURL(), admin.err)
	}
	return admin.db
}

// WithParam returns rawURL with the query parameter key set to value.
func WithParam(t testing.TB, rawURL, key, value string) string {
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

// Count runs a COUNT query (with ? placeholders) on db from outside the shop, through a
// connection of its own, as an operator would.
func Count(t testing.TB, db, query string, args ...any) int {
	t.Helper()
	conn := open(t, db)
	defer conn.Close()
	var n int
	if err := conn.QueryRowContext(t.Context(), rebind(db, query), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// Exec runs a statement (with ? placeholders) on db from outside the shop.
func Exec(t testing.TB, db, query string, args ...any) {
	t.Helper()
	conn := open(t, db)
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), rebind(db, query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func open(t testing.TB, db string) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", db
	if !store.IsPostgresURL(db) {
		driver, dsn = "sqlite", "file:"+db+"?_pragma=busy_timeout(10000)"
	}
	conn, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatalf("open %s: %v", db, err)
	}
	return conn
}

// rebind turns ? into $1, $2, … for PostgreSQL (the tests' queries have no ? in a literal).
func rebind(db, query string) string {
	if !store.IsPostgresURL(db) {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
