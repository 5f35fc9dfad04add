package storetest_test

import (
	"database/sql"
	"net/url"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestRunOpensAFreshStoreOnEachBackend(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	t.Cleanup(func() { // after both subtests
		if len(ran) != 2 {
			t.Errorf("ran on %v, want sqlite and postgres", ran)
		}
	})
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		db := b.NewDB(t)
		again := storetest.Backend{Name: b.Name, NewDB: func(testing.TB) string { return db }}
		s := again.Open(t)
		if s.Dialect() != b.Name {
			t.Fatalf("%s opened a %s store", b.Name, s.Dialect())
		}
		if _, err := s.Setting(t.Context(), "k"); err == nil {
			t.Fatal("a fresh database already holds a setting")
		}
		if err := s.PutSetting(t.Context(), "k", []byte("v")); err != nil {
			t.Fatal(err)
		}
		// Count and Exec take ? placeholders on either back end, from outside the store.
		storetest.Exec(t, db, `UPDATE settings SET updated_at = ? WHERE key = ?`, "x", "k")
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM settings WHERE key = ? AND updated_at = ?`, "k", "x"); n != 1 {
			t.Fatalf("Count = %d, want 1", n)
		}
		mu.Lock()
		ran = append(ran, b.Name)
		mu.Unlock()
	})
}

func TestPostgresDBIsDroppedAtCleanup(t *testing.T) {
	t.Parallel()
	var schema string
	t.Run("own", func(t *testing.T) {
		u, err := url.Parse(storetest.PostgresDB(t))
		if err != nil {
			t.Fatal(err)
		}
		schema = u.Query().Get("search_path")
	})
	admin, err := sql.Open("pgx", storetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var n int
	if err := admin.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM pg_namespace WHERE nspname = $1`, schema).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if schema == "" || n != 0 {
		t.Fatalf("schema %q still there after its test (%d)", schema, n)
	}
}

// TestMigratedIsAMigratedDatabaseOfItsOwn: Migrated gives each test a database holding every
// migration an empty database gets at its first open, no data, and nothing another test writes.
func TestMigratedIsAMigratedDatabaseOfItsOwn(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		fresh := b.NewDB(t)
		b.Open(t) // the template exists before the counts below
		again := storetest.Backend{Name: b.Name, NewDB: func(testing.TB) string { return fresh }}
		again.Open(t) // an empty database, migrated by its first open
		want := storetest.Count(t, fresh, `SELECT COUNT(*) FROM schema_migrations`)
		if want == 0 {
			t.Fatal("a first open applied no migration")
		}
		one, two := b.Migrated(t), b.Migrated(t)
		if one == two {
			t.Fatalf("Migrated gave %s twice", one)
		}
		for _, db := range []string{one, two} {
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != want {
				t.Fatalf("%s: %d migrations applied, want %d", db, n, want)
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM settings`); n != 0 {
				t.Fatalf("%s: %d settings in a copy of the template, want none", db, n)
			}
		}
		storetest.Exec(t, one, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)`, "k", "v", "x")
		if n := storetest.Count(t, two, `SELECT COUNT(*) FROM settings`); n != 0 {
			t.Fatalf("a setting written in one copy shows in another (%d)", n)
		}
	})
}
