package main

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/store/storetest"
)

var update = flag.Bool("update", false, "rewrite the settings table of docs/operations.md")

// TestMain lets a test run this binary as the streamcart command (STREAMCART_TEST_RUN_MAIN=1),
// to see its real exit codes and output.
func TestMain(m *testing.M) {
	if os.Getenv("STREAMCART_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// streamcart runs the command with args in dir and returns its stdout, stderr and exit code.
func streamcart(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "STREAMCART_TEST_RUN_MAIN=1"), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestEverySettingRefusesAnInvalidValue: any setting with a format (duration, number, yes/no,
// URL, CIDR list, address, choice, limit) stops the start on a value that does not parse, in
// one line naming the variable, the value (unless secret) and what is expected.
func TestEverySettingRefusesAnInvalidValue(t *testing.T) {
	checked := 0
	for _, st := range serveSettings() {
		if st.Expect == "" {
			continue
		}
		checked++
		t.Run(st.Env, func(t *testing.T) {
			const bad = "not valid%"
			t.Setenv(st.Env, bad)
			_, err := shopConfig(config.New("serve"), nil)
			if err == nil {
				t.Fatalf("%s=%q accepted", st.Env, bad)
			}
			msg := err.Error()
			want := fmt.Sprintf("%s=%q: want %s", st.Env, bad, st.Expect)
			if st.Secret {
				want = st.Env + " is invalid (value not shown): want " + st.Expect
			}
			if msg != want {
				t.Fatalf("error %q, want %q", msg, want)
			}
		})
	}
	if checked < 15 {
		t.Fatalf("only %d settings have a format", checked)
	}
	// The values the issue found accepted in silence.
	for env, value := range map[string]string{"STREAMCART_JOB_POLL": "5", "STREAMCART_TRUST_PROXY": "maybe", "STREAMCART_TRUSTED_PROXIES": "10.0.0.0/33"} {
		t.Run(env+"="+value, func(t *testing.T) {
			t.Setenv(env, value)
			if _, err := shopConfig(config.New("serve"), nil); err == nil || !strings.HasPrefix(err.Error(), env+"=") {
				t.Fatalf("error %v", err)
			}
		})
	}
}

func serveSettings() []*config.Setting {
	s := config.New("serve")
	shopSettings(s, new(app.Config))
	return s.Settings()
}

// TestTrustedProxies: STREAMCART_TRUSTED_PROXIES is a CIDR list; the deprecated
// STREAMCART_TRUST_PROXY=true trusts loopback and the private ranges, and both together is an
// error.
func TestTrustedProxies(t *testing.T) {
	cases := []struct {
		env     map[string]string
		want    string
		wantErr string
	}{
		{env: map[string]string{}, want: ""},
		{env: map[string]string{"STREAMCART_TRUSTED_PROXIES": "10.0.0.0/8,127.0.0.1/32"}, want: "10.0.0.0/8,127.0.0.1/32"},
		{env: map[string]string{"STREAMCART_TRUST_PROXY": "true"}, want: "127.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,::1/128,fc00::/7"},
		{env: map[string]string{"STREAMCART_TRUST_PROXY": "1"}, want: "127.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,::1/128,fc00::/7"},
		{env: map[string]string{"STREAMCART_TRUST_PROXY": "false"}, want: ""},
		{env: map[string]string{"STREAMCART_TRUST_PROXY": "true", "STREAMCART_TRUSTED_PROXIES": "10.0.0.0/8"}, wantErr: "set only STREAMCART_TRUSTED_PROXIES"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.env), func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			cfg, err := shopConfig(config.New("serve"), nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			var got []string
			for _, p := range cfg.TrustedProxies {
				got = append(got, p.String())
			}
			if err != nil || strings.Join(got, ",") != tc.want {
				t.Fatalf("err %v, proxies %v, want %s", err, got, tc.want)
			}
		})
	}
	if len(geo.LocalNetworks()) != 6 {
		t.Fatal("the documented local networks changed")
	}
}

// TestHelp: -h on every command prints that command's own flags on stdout and exits 0.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args  []string
		flags []string // exactly the flags listed
	}{
		{[]string{"migrate"}, []string{"db"}},
		{[]string{"catalog", "check"}, nil},
		{[]string{"catalog", "import"}, nil},
		{[]string{"mail", "list"}, []string{"db", "limit", "service", "since"}},
		{[]string{"mail", "show"}, []string{"db", "limit", "service", "since"}},
		{[]string{"audit", "list"}, []string{"db", "limit", "service", "since"}},
		{[]string{"affiliates", "report"}, []string{"db", "limit", "service", "since"}},
		{[]string{"storefront", "list"}, []string{"catalog", "db"}},
		{[]string{"payments", "review"}, []string{"db", "limit", "state"}},
		{[]string{"tax", "report"}, []string{"csv", "db", "from", "to"}},
		{[]string{"settings"}, []string{"markdown"}},
		{[]string{"serve"}, nil},
	}
	var serveFlags []string
	for _, st := range serveSettings() {
		if !st.EnvOnly {
			serveFlags = append(serveFlags, st.Name)
		}
	}
	for _, tc := range cases {
		name := strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			for _, h := range []string{"-h", "--help"} {
				out, errOut, code := streamcart(t, dir, nil, append(tc.args, h)...)
				if code != 0 || !strings.HasPrefix(out, "Usage of streamcart "+name+":\n") {
					t.Fatalf("%s %s: exit %d, stdout %q, stderr %q", name, h, code, out, errOut)
				}
				var listed []string
				for _, line := range strings.Split(out, "\n") {
					if f, ok := strings.CutPrefix(line, "  --"); ok {
						listed = append(listed, f)
					}
				}
				slices.Sort(listed)
				want := tc.flags
				switch tc.args[0] {
				case "serve":
					want = slices.Sorted(slices.Values(serveFlags))
				case "catalog":
					want = []string{"coinbase-api-url", "coinbase-key-id", "coinbase-network", "cryptomus-api-url", "db", "gateways", "stripe-api-url", "test-mode"}
				}
				if !slices.Equal(listed, want) {
					t.Fatalf("%s %s lists %v, want %v", name, h, listed, want)
				}
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("-h created %v", entries)
	}
	for _, args := range [][]string{{"-h"}, {"help"}, {"--version"}, {"version"}} {
		out, _, code := streamcart(t, dir, nil, args...)
		if code != 0 || out == "" {
			t.Fatalf("%v: exit %d, %q", args, code, out)
		}
		if args[0] != "-h" && args[0] != "help" && !strings.HasPrefix(out, "streamcart ") {
			t.Fatalf("%v: %q", args, out)
		}
	}
	if _, errOut, code := streamcart(t, dir, []string{"STREAMCART_JOB_POLL=abc"}, "serve"); code != 1 ||
		errOut != "streamcart: STREAMCART_JOB_POLL=\"abc\": want a positive duration with a unit such as 500ms, 30s or 5m\n" {
		t.Fatalf("serve with a bad setting: exit %d, stderr %q", code, errOut)
	}
}

// TestReadOnlyCommandsRefuseAMissingDatabase: the listings do not create (and migrate) the
// database a mistyped --db names, on SQLite (no file, no directory) and PostgreSQL (no
// database); on an existing one they work.
func TestReadOnlyCommandsRefuseAMissingDatabase(t *testing.T) {
	commands := [][]string{{"mail", "list"}, {"mail", "show", "1"}, {"audit", "list"}, {"affiliates", "report"}, {"storefront", "list"}, {"payments", "review"},
		{"tax", "report", "--from", "2026-01-01", "--to", "2026-03-31"}}
	admin, err := sql.Open("pgx", storetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	u, err := url.Parse(storetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	missingPG := fmt.Sprintf("streamcart_missing_%d", time.Now().UnixNano())
	u.Path = "/" + missingPG
	for _, args := range commands {
		name := strings.Join(args[:2], " ")
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "typo")
			for _, db := range []string{filepath.Join(dir, "shop.db"), "sqlite://" + filepath.Join(dir, "shop.db"), u.String()} {
				err := run(append(args, "--db", db))
				if err == nil || !strings.Contains(err.Error(), "does not exist") {
					t.Fatalf("%s --db %s: %v", name, db, err)
				}
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("%s created %s", name, dir)
			}
			var n int
			if err := admin.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM pg_database WHERE datname = $1`, missingPG).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%s created database %s: %d, %v", name, missingPG, n, err)
			}
		})
	}
	// An existing database of each back end is listed.
	for _, b := range storetest.Backends {
		t.Run("existing "+b.Name, func(t *testing.T) {
			db := b.NewDB(t)
			if err := run([]string{"migrate", "--db", db}); err != nil {
				t.Fatal(err)
			}
			captureStdout(t, func() error { return run([]string{"audit", "list", "--db", db}) })
		})
	}
}

// TestSettingsTable: the settings table of docs/operations.md is the one the code generates
// (`go run ./api/cmd/streamcart settings --markdown`); -update rewrites it.
func TestSettingsTable(t *testing.T) {
	const file = "../../../docs/operations.md"
	const begin, end = "<!-- settings:begin (generated: go test ./api/cmd/streamcart -run TestSettingsTable -update) -->\n", "<!-- settings:end -->\n"
	var table bytes.Buffer
	if err := settingsCommand(&table, []string{"--markdown"}); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), begin)
	_, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers %q and %q", file, begin, end)
	}
	want := before + begin + table.String() + end + after
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the settings table of docs/operations.md is stale: run go test ./api/cmd/streamcart -run TestSettingsTable -update")
}
