package storetest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestSchemaNameCarriesItsTimeAndRun(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(PostgresDB(t))
	if err != nil {
		t.Fatal(err)
	}
	name := u.Query().Get("search_path")
	created, id, ok := parseSchemaName(name)
	if !ok || id != run.id || time.Since(created) < 0 || time.Since(created) > time.Minute {
		t.Fatalf("schema %q reads as made at %v by run %08x (ok %v); want now, by this run %08x", name, created, id, ok, run.id)
	}
	for _, other := range []string{"streamcart_test_0a1b2c3d4e5f", "streamcart_test_x_0a1b2c3d_1", "public", "streamcart_test_1_0a1b2c3d_x", "streamcart_test_1_0a1b2c3d_1_2"} {
		if _, _, ok := parseSchemaName(other); ok {
			t.Errorf("parseSchemaName(%q) read a time and a run from a name PostgresDB does not make", other)
		}
	}
}

// TestStaleSchemasOfEndedRunsAreDropped leaves schemas as killed and running test binaries do,
// and checks which ones a new run drops: only the old ones whose run's lock is free. Not parallel
// with TestKilledRunLeavesNoSchemaBehind, whose sweeps look two hours ahead. (Other binaries may
// sweep meanwhile, by the same rules: the test checks what is left, not who dropped it.)
func TestStaleSchemasOfEndedRunsAreDropped(t *testing.T) {
	admin := adminDB(t)
	runID(t, admin) // this binary's own lock and first sweep, done
	ctx := t.Context()
	now := time.Now()

	// A run still going: its lock is held on a connection of its own.
	alive := newRunID(t)
	conn, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, $2)`, runLockClass, int32(alive)); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1, $2)`, runLockClass, int32(alive))
	killed := newRunID(t) // nobody holds its lock: the run was killed

	schemas := map[string]bool{ // name → dropped
		schemaName(now.Add(-2*time.Hour), killed):    true,
		schemaName(now.Add(-25*time.Hour), killed):   true,
		schemaName(now.Add(-2*time.Hour), alive):     false, // old, but its run still goes
		schemaName(now.Add(-10*time.Minute), killed): false, // too young to judge
		schemaName(now.Add(-10*time.Minute), alive):  false,
		oldStyleName(): false, // the older naming: age unknown
	}
	for name := range schemas {
		if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+name); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.ExecContext(context.Background(), `DROP SCHEMA IF EXISTS `+name+` CASCADE`) })
	}
	// Databases (PostgresMigratedDB's) go by the same rules; templates (pgTemplate's) once their
	// run has ended, however young.
	template := func(created time.Time, id uint32) string {
		return templatePrefix + strings.TrimPrefix(schemaName(created, id), schemaPrefix)
	}
	databases := map[string]bool{ // name → dropped
		schemaName(now.Add(-2*time.Hour), killed):    true,
		schemaName(now.Add(-2*time.Hour), alive):     false,
		schemaName(now.Add(-10*time.Minute), killed): false,
		oldStyleName(): false,
		template(now.Add(-10*time.Minute), killed): true,
		template(now.Add(-2*time.Hour), alive):     false,
	}
	for name := range databases {
		if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`) })
	}
	// A stale schema with a table in it goes too (a test's schema always has some).
	for name, dropped := range schemas {
		if dropped {
			if _, err := admin.ExecContext(ctx, `CREATE TABLE `+name+`.t (id int)`); err != nil {
				t.Fatal(err)
			}
		}
	}

	// wrong lists what the sweeps left wrong: a stale one still there, or a live one gone.
	wrong := func() []string {
		var out []string
		for _, c := range []struct {
			kind, query string
			names       map[string]bool
		}{
			{"schema", `SELECT COUNT(*) FROM pg_namespace WHERE nspname = $1`, schemas},
			{"database", `SELECT COUNT(*) FROM pg_database WHERE datname = $1`, databases},
		} {
			for name, want := range c.names {
				var n int
				if err := admin.QueryRowContext(ctx, c.query, name).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if gone := n == 0; gone != want {
					out = append(out, fmt.Sprintf("%s %s: gone %v, want %v", c.kind, name, gone, want))
				}
			}
		}
		return out
	}
	// Another binary's sweep may hold the killed run's lock (borrowed to drop what it listed
	// before these were made) just as this one looks: this sweep must then leave them, and a
	// later one drops them. So: sweep until nothing stale is left, a few times at most (a live
	// one dropped stays wrong however often it sweeps).
	var left []string
	for range 20 {
		if _, err := dropStaleSchemas(ctx, admin, now); err != nil {
			t.Fatal(err)
		}
		if left = wrong(); len(left) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, w := range left {
		t.Error(w)
	}
	// The killed run's lock was only borrowed to drop its schemas (on a connection that goes
	// back to the pool): free again, once any other binary's sweep is done with it too.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var free bool
		if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1, $2)`, runLockClass, int32(killed)).Scan(&free); err != nil {
			t.Fatal(err)
		}
		if free {
			conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, $2)`, runLockClass, int32(killed))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the killed run's lock is still held after the sweep")
		}
	}
}

func newRunID(t *testing.T) uint32 {
	var b [4]byte
	rand.Read(b[:])
	if id := binary.BigEndian.Uint32(b[:]); id != run.id {
		return id
	}
	return newRunID(t)
}

// oldStyleName is a name as PostgresDB made them before they carried their time.
func oldStyleName() string {
	var b [6]byte
	rand.Read(b[:])
	return schemaPrefix + hex.EncodeToString(b[:])
}

// killedRunEnv makes TestKilledRunLeavesNoSchemaBehind the killed run itself.
const killedRunEnv = "STORETEST_KILLED_RUN"

// TestKilledRunLeavesNoSchemaBehind runs this test binary again as a run that makes a schema and
// a migrated database (and so its template database) and is SIGKILLed before its cleanups: they
// stay while the run lives, however old they are deemed, and a later run's sweep drops them once
// the run is dead. Not parallel: see TestStaleSchemasOfEndedRunsAreDropped.
func TestKilledRunLeavesNoSchemaBehind(t *testing.T) {
	if os.Getenv(killedRunEnv) != "" { // the run to kill
		u, err := url.Parse(PostgresDB(t))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("schema:", u.Query().Get("search_path"))
		if u, err = url.Parse(PostgresMigratedDB(t)); err != nil {
			t.Fatal(err)
		}
		fmt.Println("database:", strings.TrimPrefix(u.Path, "/"))
		fmt.Println("template:", pgTmpl.name)
		time.Sleep(time.Minute) // killed long before
		t.Fatal("not killed")
	}
	admin := adminDB(t)
	runID(t, admin)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestKilledRunLeavesNoSchemaBehind$", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), killedRunEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	left := map[string]string{} // "schema", "database", "template" → name
	lines := bufio.NewScanner(out)
	for len(left) < 3 && lines.Scan() {
		if kind, name, ok := strings.Cut(lines.Text(), ": "); ok && name != "" {
			left[kind] = name
		}
	}
	if len(left) < 3 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the run to kill printed %v, want its schema, database and template (%v)", left, lines.Err())
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), `DROP SCHEMA IF EXISTS `+left["schema"]+` CASCADE`)
		admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+left["database"]+` WITH (FORCE)`)
		admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+left["template"]+` WITH (FORCE)`)
	})

	// Seen from two hours later, they are stale, but their run still goes: kept.
	dropped := map[string]bool{}
	later := func() {
		t.Helper()
		names, err := dropStaleSchemas(t.Context(), admin, time.Now().Add(2*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			dropped[n] = true
		}
	}
	later()
	for kind, name := range left {
		if dropped[name] {
			t.Fatalf("%s %s of a running test binary was dropped", kind, name)
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup runs
		t.Fatal(err)
	}
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for kind, name := range left {
		for !dropped[name] { // the server frees the lock once it sees the connection closed
			if time.Now().After(deadline) {
				t.Fatalf("%s %s of the killed run is still kept after 10 s", kind, name)
			}
			time.Sleep(100 * time.Millisecond)
			later()
		}
	}
}
