// Package storetest gives tests a database of their own on each back end: a fresh SQLite file,
// or a fresh schema in the PostgreSQL database at STREAMCART_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test), dropped when the test ends. Every store-backed test
// runs on both through Run. PostgreSQL is part of every machine and of CI, so an unreachable
// server fails the test with the URL it tried instead of skipping it.
//
// Most tests want a database already migrated, not an empty one: Backend.Migrated (and Open)
// copy a template that each test binary migrates once per back end, instead of applying every
// migration again for each test (under -race, SQLite's migrations were about a third of
// api/app's CPU, and on PostgreSQL a schema's migrations and drop about 0.6 s of each test).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the admin connection and Count/Exec
	_ "modernc.org/sqlite"             // the "sqlite" driver, for Count/Exec

	"github.com/streamcart/streamcart/api/order"
	"github.com/streamcart/streamcart/api/payment"
	"github.com/streamcart/streamcart/api/renewal"
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
	// Migrated is NewDB with every migration already applied, as a first store.OpenURL leaves
	// it (and nothing else: no setting, no catalog): a copy of a template migrated once per test
	// binary. Tests of migrations themselves take NewDB.
	Migrated func(t testing.TB) string
}

// Backends are every back end, SQLite first.
var Backends = []Backend{{"sqlite", SQLiteDB, SQLiteMigratedDB}, {"postgres", PostgresDB, PostgresMigratedDB}}

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

// Inspector is a store with what only tests read of it: both back ends' types have these
// methods, the store.Backend the shop uses does not.
type Inspector interface {
	store.Backend
	// Dialect names the back end: "sqlite" or "postgres".
	Dialect() string
	// Migrate applies pending migrations (opening a store already did).
	Migrate(ctx context.Context) error
	JobByKey(ctx context.Context, uniqueKey string) (store.JobInfo, error)
	JobCounts(ctx context.Context) (map[string]int, error)
	WebhookByEvent(ctx context.Context, provider, eventID string) (payment.Webhook, error)
	CountWebhooks(ctx context.Context, provider string) (int, error)
	ServiceCard(ctx context.Context, serviceID string) (order.Card, error)
	Charges(ctx context.Context, orderID string) ([]renewal.Attempt, error)
}

var (
	_ Inspector = (*store.SQLite)(nil)
	_ Inspector = (*store.Postgres)(nil)
)

// Inspect is s with what only tests read of it.
func Inspect(s store.Backend) Inspector { return s.(Inspector) }

// Open opens a store on a fresh database of b (Migrated's, when b has one), closed at cleanup.
func (b Backend) Open(t testing.TB) Inspector {
	t.Helper()
	newDB := b.NewDB
	if b.Migrated != nil {
		newDB = b.Migrated
	}
	s, err := store.OpenURL(t.Context(), newDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // before the database's own removal, registered earlier
	return Inspect(s)
}

// SQLiteDB is the path of a SQLite file (not created yet) in t's temporary directory.
func SQLiteDB(t testing.TB) string {
	return filepath.Join(t.TempDir(), "streamcart.db")
}

// SQLiteMigratedDB is the path of a SQLite file in t's temporary directory holding a copy of
// the migrated template (sqliteTemplate).
func SQLiteMigratedDB(t testing.TB) string {
	t.Helper()
	image, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	path := SQLiteDB(t)
	if err := os.WriteFile(path, image, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sqliteTemplate is the image of a SQLite database that store.Open migrated, made once per
// test binary. The store's close checkpoints the write-ahead log into the file and removes the
// log, so the file alone is the whole database (a log left behind fails, rather than a copy
// missing the migrations the log held).
var sqliteTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "streamcart-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "streamcart.db")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("%s-wal still holds %d bytes after the store closed", path, fi.Size())
	}
	return os.ReadFile(path)
})

// PostgresMigratedDB makes a database of t's own in the server of AdminURL, a copy of a migrated
// template (CREATE DATABASE … TEMPLATE: a file copy on the server, about a tenth of the time of
// the migrations and the DROP SCHEMA they would need), dropped at cleanup, and returns its URL.
// Named like PostgresDB's schemas, so the first call of a later test binary drops the databases
// (templates included) of runs that were killed, by the same rules.
func PostgresMigratedDB(t testing.TB) string {
	t.Helper()
	admin := adminDB(t)
	id := runID(t, admin)
	tmpl, err := pgTemplate(admin, id)
	if err != nil {
		t.Fatalf("migrated PostgreSQL template (STREAMCART_TEST_POSTGRES=%s): %v", AdminURL(), err)
	}
	name := schemaName(time.Now(), id)
	if _, err := admin.ExecContext(t.Context(), `CREATE DATABASE `+name+` TEMPLATE `+tmpl); err != nil {
		t.Fatalf("PostgreSQL is required (STREAMCART_TEST_POSTGRES=%s): %v", AdminURL(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// FORCE: a connection a test left open (a listener closing late) ends with the database.
		if _, err := admin.ExecContext(ctx, `DROP DATABASE `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := databaseURL(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

var pgTmpl struct {
	once sync.Once
	name string
	err  error
}

// pgTemplate is the name of this run's template database, made and migrated by the first call
// (the store's own Migrate, as for any first start), then closed to connections: CREATE
// DATABASE copies a template only while nobody is connected to it. Nothing drops it when the
// binary ends: the first call of the next test binary does, whatever its age, once the run's
// lock is free (dropStaleSchemas), so each run leaves at most one behind until then.
func pgTemplate(admin *sql.DB, id uint32) (string, error) {
	pgTmpl.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		name := templatePrefix + strings.TrimPrefix(schemaName(time.Now(), id), schemaPrefix)
		if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
			pgTmpl.err = err
			return
		}
		u, err := databaseURL(name)
		var s *store.Postgres
		if err == nil {
			s, err = store.OpenPostgres(ctx, u)
		}
		if err == nil {
			err = s.Close()
		}
		if err == nil {
			_, err = admin.ExecContext(ctx, `ALTER DATABASE `+name+` WITH ALLOW_CONNECTIONS false`)
		}
		pgTmpl.name, pgTmpl.err = name, err
	})
	return pgTmpl.name, pgTmpl.err
}

// databaseURL is AdminURL with the database name instead of the admin database's.
func databaseURL(name string) (string, error) {
	u, err := url.Parse(AdminURL())
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// PostgresDB makes an empty schema in the admin database, dropped at cleanup, and returns a URL
// whose search_path is that schema: a database of the test's own as far as the store (and a
// streamcart process given the URL) can tell, at a fraction of the cost of CREATE DATABASE.
// A killed run skips its cleanups, so the first call of each test binary also drops the schemas
// such runs left (see dropStaleSchemas).
func PostgresDB(t testing.TB) string {
	t.Helper()
	admin := adminDB(t)
	id := runID(t, admin)
	name := schemaName(time.Now(), id)
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

const (
	// schemaPrefix starts every schema PostgresDB makes, and every database PostgresMigratedDB
	// makes, and no other.
	schemaPrefix = "streamcart_test_"
	// templatePrefix starts the name of each run's template database (pgTemplate) instead.
	templatePrefix = "streamcart_template_"
	// staleAfter is how old a schema must be before another run may drop it: far beyond a test
	// binary's run (go test stops one after 10 minutes unless told otherwise).
	staleAfter = time.Hour
	// runLockClass is the first key of the advisory lock each test binary holds while it runs
	// (the second is its run id): a run whose lock is free has ended.
	runLockClass = 0x5c7e57
)

// schemaSeq numbers the schemas of this run, so no two of its names meet.
var schemaSeq atomic.Uint64

// schemaName is a schema made at created by run id: "streamcart_test_<unix seconds>_<run id,
// 8 hex digits>_<number within the run>".
func schemaName(created time.Time, id uint32) string {
	return fmt.Sprintf("%s%d_%08x_%d", schemaPrefix, created.Unix(), id, schemaSeq.Add(1))
}

// parseSchemaName reads back what schemaName put in name; ok is false for any other name
// (including the older streamcart_test_<12 hex digits>, whose age is unknown).
func parseSchemaName(name string) (created time.Time, id uint32, ok bool) {
	parts := strings.Split(strings.TrimPrefix(name, schemaPrefix), "_")
	if !strings.HasPrefix(name, schemaPrefix) || len(parts) != 3 || len(parts[1]) != 8 {
		return time.Time{}, 0, false
	}
	sec, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return time.Time{}, 0, false
	}
	run, err := strconv.ParseUint(parts[1], 16, 32)
	if err != nil {
		return time.Time{}, 0, false
	}
	if _, err := strconv.ParseUint(parts[2], 10, 64); err != nil {
		return time.Time{}, 0, false
	}
	return time.Unix(sec, 0), uint32(run), true
}

var run struct {
	once sync.Once
	id   uint32
	conn *sql.Conn // holds the run's lock until the binary exits (a killed one's too: the server frees it)
	err  error
}

// runID is this test binary's run id. The first call takes the run's lock, on a connection kept
// for the binary's life, then drops the stale schemas of ended runs.
func runID(t testing.TB, admin *sql.DB) uint32 {
	t.Helper()
	run.once.Do(func() {
		var b [4]byte
		rand.Read(b[:])
		run.id = binary.BigEndian.Uint32(b[:])
		ctx := context.Background() // the connection outlives the test that happens to open it
		if run.conn, run.err = admin.Conn(ctx); run.err != nil {
			return
		}
		if _, run.err = run.conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, $2)`, runLockClass, int32(run.id)); run.err != nil {
			return
		}
		var dropped []string
		dropped, run.err = dropStaleSchemas(t.Context(), admin, time.Now())
		if len(dropped) > 0 {
			t.Logf("dropped %d schemas and databases left by ended test runs: %s", len(dropped), strings.Join(dropped, ", "))
		}
	})
	if run.err != nil {
		t.Fatalf("postgres test run lock and cleanup (STREAMCART_TEST_POSTGRES=%s): %v", AdminURL(), run.err)
	}
	return run.id
}

// dropStaleSchemas drops the schemas made by PostgresDB and the databases made by
// PostgresMigratedDB more than staleAfter before now whose run has ended (its lock is free), and
// the template databases of ended runs whatever their age (no test of a run uses another run's
// template), and returns their names. One of a run still going is never dropped, however old;
// one whose name carries no time is left alone.
func dropStaleSchemas(ctx context.Context, admin *sql.DB, now time.Time) ([]string, error) {
	type object struct {
		kind, name string // kind: SCHEMA or DATABASE
		run        uint32
	}
	var stale []object
	for _, list := range []struct {
		kind, query, prefix string
		age                 time.Duration
	}{
		{"SCHEMA", `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`, schemaPrefix, staleAfter},
		{"DATABASE", `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, schemaPrefix, staleAfter},
		{"DATABASE", `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, templatePrefix, 0},
	} {
		rows, err := admin.QueryContext(ctx, list.query, list.prefix)
		if err != nil {
			return nil, fmt.Errorf("list test %ss: %w", strings.ToLower(list.kind), err)
		}
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				rows.Close()
				return nil, fmt.Errorf("list test %ss: %w", strings.ToLower(list.kind), err)
			}
			// A template's name is a schema's with another prefix.
			if created, run, ok := parseSchemaName(schemaPrefix + strings.TrimPrefix(name, list.prefix)); ok && now.Sub(created) > list.age {
				stale = append(stale, object{list.kind, name, run})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("list test %ss: %w", strings.ToLower(list.kind), err)
		}
	}
	if len(stale) == 0 {
		return nil, nil
	}
	// One connection: the run's lock is taken and freed on the same session.
	conn, err := admin.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var dropped []string
	for _, o := range stale {
		var ended bool
		if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1, $2)`, runLockClass, int32(o.run)).Scan(&ended); err != nil {
			return dropped, fmt.Errorf("check run of %s: %w", o.name, err)
		}
		if !ended {
			continue // its run is still going (or another binary is dropping it right now)
		}
		drop := `DROP SCHEMA IF EXISTS ` + o.name + ` CASCADE`
		if o.kind == "DATABASE" {
			drop = `DROP DATABASE IF EXISTS ` + o.name + ` WITH (FORCE)`
		}
		_, err := conn.ExecContext(ctx, drop)
		if _, uerr := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, $2)`, runLockClass, int32(o.run)); err == nil {
			err = uerr
		}
		if err != nil {
			return dropped, fmt.Errorf("drop stale %s %s: %w", strings.ToLower(o.kind), o.name, err)
		}
		dropped = append(dropped, o.name)
	}
	return dropped, nil
}

var admin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// adminDB is one small pool for the whole test binary: tests make and drop schemas through it,
// and one of its connections holds the run's lock. It is never closed; the binary's exit ends
// its connections.
func adminDB(t testing.TB) *sql.DB {
	t.Helper()
	admin.once.Do(func() {
		if admin.db, admin.err = sql.Open("pgx", AdminURL()); admin.err == nil {
			admin.db.SetMaxOpenConns(5)
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
	var n int
	if err := outside(t, db).QueryRowContext(t.Context(), Rebind(db, query), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// Exec runs a statement (with ? placeholders) on db from outside the shop.
func Exec(t testing.TB, db, query string, args ...any) {
	t.Helper()
	if _, err := outside(t, db).ExecContext(t.Context(), Rebind(db, query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// outsiders are the pools Count and Exec use, one per test and database, closed at the test's
// end (before its database goes: registered after it). One connection per call cost a
// connection's set-up each time (on SQLite, parsing the whole schema again; under -race about 4%
// of api/app's CPU), and tests count in loops.
var outsiders sync.Map // outsider → *sql.DB

type outsider struct {
	t  testing.TB
	db string
}

func outside(t testing.TB, db string) *sql.DB {
	t.Helper()
	key := outsider{t, db}
	if conn, ok := outsiders.Load(key); ok {
		return conn.(*sql.DB)
	}
	conn := Open(t, db)
	if prev, loaded := outsiders.LoadOrStore(key, conn); loaded {
		conn.Close()
		return prev.(*sql.DB)
	}
	t.Cleanup(func() {
		outsiders.Delete(key)
		conn.Close()
	})
	return conn
}

// Open is a connection of its own to db (a SQLite path or a PostgreSQL URL), from outside the shop.
func Open(t testing.TB, db string) *sql.DB {
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

// Rebind turns ? into $1, $2, … for PostgreSQL (the tests' queries have no ? in a literal).
func Rebind(db, query string) string {
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
