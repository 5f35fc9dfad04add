package config_test

import (
	"bytes"
	"errors"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/config"
)

// all declares one setting of every kind.
type all struct {
	addr, text, choice, url, secret, secretFlag string
	n                                           int
	on                                          bool
	d                                           time.Duration
	cidrs                                       []netip.Prefix
}

func declare(env map[string]string) (*config.Set, *all) {
	var v all
	s := config.New("test")
	s.Lookup = func(k string) (string, bool) { x, ok := env[k]; return x, ok }
	s.Addr(&v.addr, "addr", "127.0.0.1:8080", "listen address")
	s.String(&v.text, "text", "dflt", "free text")
	s.Choice(&v.choice, "choice", "a", []string{"a", "b"}, "one of two")
	s.URL(&v.url, "url", "", "a URL", "http", "https")
	s.Int(&v.n, "n", 20, "a number")
	s.Bool(&v.on, "on", false, "a switch")
	s.Duration(&v.d, "poll", 500*time.Millisecond, "a duration")
	s.Prefixes(&v.cidrs, "proxies", "", "ranges")
	s.Secret(&v.secret, "secret-key", "a secret")
	s.URL(&v.secretFlag, "redis-url", "", "a secret URL", "redis").MarkSecret()
	return s, &v
}

// TestInvalidValues: a value that does not parse stops with one line naming the variable (or
// flag), the value and what is expected; a secret's value is never shown.
func TestInvalidValues(t *testing.T) {
	cases := []struct {
		env, value, want string
	}{
		{"STREAMCART_POLL", "5", `STREAMCART_POLL="5": want a positive duration with a unit such as 500ms, 30s or 5m`},
		{"STREAMCART_POLL", "abc", `STREAMCART_POLL="abc": want a positive duration`},
		{"STREAMCART_POLL", "-1s", `STREAMCART_POLL="-1s": want a positive duration`},
		{"STREAMCART_N", "abc", `STREAMCART_N="abc": want a whole number such as 20`},
		{"STREAMCART_N", "2.5", `STREAMCART_N="2.5": want a whole number`},
		{"STREAMCART_ON", "yes", `STREAMCART_ON="yes": want true or false`},
		{"STREAMCART_URL", "shop.example", `STREAMCART_URL="shop.example": want an absolute URL starting with http:// or https://`},
		{"STREAMCART_URL", "ftp://shop.example", `STREAMCART_URL="ftp://shop.example": want an absolute URL`},
		{"STREAMCART_PROXIES", "10.0.0.0/8,10.0.0/8", `STREAMCART_PROXIES="10.0.0.0/8,10.0.0/8": want a comma list of CIDRs such as 10.0.0.0/8,127.0.0.1/32`},
		{"STREAMCART_PROXIES", "true", `STREAMCART_PROXIES="true": want a comma list of CIDRs`},
		{"STREAMCART_ADDR", "8080", `STREAMCART_ADDR="8080": want host:port such as 127.0.0.1:8080 or :8080`},
		{"STREAMCART_CHOICE", "c", `STREAMCART_CHOICE="c": want one of a, b`},
		{"STREAMCART_REDIS_URL", "http://user:hunter2@host", `STREAMCART_REDIS_URL is invalid (value not shown): want an absolute URL starting with redis://`},
	}
	for _, tc := range cases {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			s, _ := declare(map[string]string{tc.env: tc.value})
			err := s.Parse(nil, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error shows the secret: %v", err)
			}
			// The same value as a flag is refused too, naming the flag.
			flag := "--" + strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(tc.env, config.EnvPrefix), "_", "-"))
			s, _ = declare(nil)
			err = s.Parse([]string{flag + "=" + tc.value}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), flag[1:]) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("flag %s=%s: error %v", flag, tc.value, err)
			}
		})
	}
}

func TestValidValues(t *testing.T) {
	s, v := declare(map[string]string{
		"STREAMCART_POLL": "2m", "STREAMCART_N": "-1", "STREAMCART_ON": "1", "STREAMCART_URL": "https://shop.example",
		"STREAMCART_PROXIES": "10.0.0.0/8, 127.0.0.1,::1/128", "STREAMCART_ADDR": ":9090", "STREAMCART_CHOICE": "b",
		"STREAMCART_TEXT": "", "STREAMCART_SECRET_KEY": "s3cret",
	})
	if err := s.Parse([]string{"--n", "7", "pos1", "--on=false", "pos2"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	want := all{addr: ":9090", text: "", choice: "b", url: "https://shop.example", secret: "s3cret", n: 7, on: false, d: 2 * time.Minute,
		cidrs: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}}
	if !reflect.DeepEqual(*v, want) {
		t.Fatalf("got %+v, want %+v", *v, want)
	}
	if got := s.Args(); !slices.Equal(got, []string{"pos1", "pos2"}) {
		t.Fatalf("args %v", got)
	}
	if !s.Setting("n").Given() || !s.Setting("url").Given() || s.Setting("redis-url").Given() {
		t.Fatal("Given does not say where values came from")
	}
	// Unset or empty typed variables keep the defaults.
	s, v = declare(map[string]string{"STREAMCART_POLL": "", "STREAMCART_N": ""})
	if err := s.Parse(nil, &bytes.Buffer{}); err != nil || v.d != 500*time.Millisecond || v.n != 20 || v.addr != "127.0.0.1:8080" || v.text != "dflt" {
		t.Fatalf("defaults: %v %+v", err, *v)
	}
}

// TestSecretFiles: every secret also reads STREAMCART_X_FILE (one trailing line break dropped);
// setting both forms is an error, as is a file that cannot be read or is empty.
func TestSecretFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "secret")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		env        map[string]string
		secret     string
		redis      string
		wantErr    string
		errIsNoent bool
	}{
		{name: "file", env: map[string]string{"STREAMCART_SECRET_KEY_FILE": file}, secret: "from-file"},
		{name: "marked flag's file", env: map[string]string{"STREAMCART_REDIS_URL_FILE": file + "-redis"}, redis: "redis://:pw@host:6379/0"},
		{name: "plain", env: map[string]string{"STREAMCART_SECRET_KEY": "plain"}, secret: "plain"},
		{name: "both", env: map[string]string{"STREAMCART_SECRET_KEY": "plain", "STREAMCART_SECRET_KEY_FILE": file},
			wantErr: "STREAMCART_SECRET_KEY and STREAMCART_SECRET_KEY_FILE are both set: keep one"},
		{name: "both for a marked flag", env: map[string]string{"STREAMCART_REDIS_URL": "redis://h", "STREAMCART_REDIS_URL_FILE": file},
			wantErr: "STREAMCART_REDIS_URL and STREAMCART_REDIS_URL_FILE are both set"},
		{name: "missing file", env: map[string]string{"STREAMCART_SECRET_KEY_FILE": filepath.Join(dir, "nope")},
			wantErr: "STREAMCART_SECRET_KEY_FILE=", errIsNoent: true},
		{name: "empty file", env: map[string]string{"STREAMCART_SECRET_KEY_FILE": empty}, wantErr: "the file is empty"},
		{name: "invalid value in the file", env: map[string]string{"STREAMCART_REDIS_URL_FILE": file}, wantErr: "STREAMCART_REDIS_URL is invalid (value not shown)"},
	}
	if err := os.WriteFile(file+"-redis", []byte("redis://:pw@host:6379/0\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, v := declare(tc.env)
			err := s.Parse(nil, &bytes.Buffer{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "from-file") {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if tc.errIsNoent && !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("error %v does not wrap fs.ErrNotExist", err)
				}
				return
			}
			if err != nil || v.secret != tc.secret || v.secretFlag != tc.redis {
				t.Fatalf("err %v, secret %q redis %q", err, v.secret, v.secretFlag)
			}
		})
	}
	// A secret without a flag cannot be given on the command line (where ps shows it).
	s, _ := declare(nil)
	if err := s.Parse([]string{"--secret-key=x"}, &bytes.Buffer{}); err == nil {
		t.Fatal("--secret-key accepted")
	}
}

func TestHelpAndMarkdown(t *testing.T) {
	s, _ := declare(nil)
	s.Flags().Int("limit", 50, "rows at most")
	var out bytes.Buffer
	if err := s.Parse([]string{"-h"}, &out); !errors.Is(err, config.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"Usage of streamcart test:", "--poll", "STREAMCART_POLL, default 500ms", "--limit", "rows at most (default 50)",
		"--redis-url", "STREAMCART_REDIS_URL or STREAMCART_REDIS_URL_FILE", "STREAMCART_SECRET_KEY"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	config.Markdown(&out, s.Settings())
	for _, want := range []string{
		"| variable | flag | default | value | meaning |",
		"| `STREAMCART_POLL` | `--poll` | `500ms` | a positive duration with a unit such as 500ms, 30s or 5m | a duration |",
		"| `STREAMCART_SECRET_KEY` or `STREAMCART_SECRET_KEY_FILE` | – | – | secret, text | a secret |",
		"| `STREAMCART_TEXT` | `--text` | `dflt` | text | free text |",
	} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
