package catalog_test

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/catalog"
)

// ExpandCommand on hostile usernames and passwords: the filled command, run by sh as a receiver
// would, prints the URL with the values whole (decoded back from the query), and none of them runs
// anything (a marker file no value may create).
func TestExpandCommandQuotesForTheShell(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	// Single quotes (the demo's), and double quotes (catalogs saved before the check asked for single).
	for _, template := range []string{
		`printf '%s\n' 'http://{server}/get.php?username={username}&password={password}&type=enigma22_script'`,
		`printf '%s\n' "http://{server}/get.php?username={username}&password={password}&type=enigma22_script"`,
	} {
		for _, tc := range []struct{ name, username, password string }{
			{"plain", "u1", "p1"},
			{"double quote", `a"b`, `"; touch ` + marker + `; echo "`},
			{"dollar", "$HOME", "$(touch " + marker + ")"},
			{"backtick", "`touch " + marker + "`", "x`id`y"},
			{"backslash", `a\b`, `\"\'\\`},
			{"single quote", "o'brien", "'; touch " + marker + "; echo '"},
			{"url syntax", "a&password=b", "p#w?d=1 2+3%"},
			{"newline", "a\nb", "touch " + marker + "\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				cmd := catalog.ExpandCommand(template, "line.example:8000", tc.username, tc.password)
				out, err := exec.Command("sh", "-c", cmd).Output()
				if err != nil {
					t.Fatalf("sh -c %q: %v", cmd, err)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Fatalf("the command %q ran a value as code", cmd)
				}
				u, err := url.Parse(strings.TrimSuffix(string(out), "\n"))
				if err != nil {
					t.Fatalf("printed %q: %v", out, err)
				}
				q := u.Query()
				if u.Host != "line.example:8000" || q.Get("username") != tc.username || q.Get("password") != tc.password || q.Get("type") != "enigma22_script" {
					t.Fatalf("printed %q: host %s, username %q, password %q; want %q, %q", out, u.Host, q.Get("username"), q.Get("password"), tc.username, tc.password)
				}
			})
		}
	}
}

// Quoted accepts placeholders inside '…' or "…", never bare nor after an unclosed quote; a '
// inside "…" or escaped opens nothing.
func TestQuoted(t *testing.T) {
	for _, tc := range []struct {
		template string
		want     bool
	}{
		{`wget -O /tmp/i.sh 'http://{server}/get.php?username={username}&password={password}'`, true},
		{`wget 'http://{server}/x' && sh /tmp/i.sh`, true},
		{`wget "http://{server}/get.php?username={username}"`, true},
		// The demo's command before the check (catalogs saved with it must still load).
		{`wget -O /etc/enigma2/iptv.sh "http://{server}/get.php?username={username}&password={password}&type=enigma22_script&output=mpegts" && chmod 755 /etc/enigma2/iptv.sh && /etc/enigma2/iptv.sh`, true},
		{`wget http://{server}/x`, false},
		{`echo "it's" {username}`, false},
		{`echo \'{username}`, false},
		{`echo 'a' {password} 'b'`, false},
		{`echo '{username}`, false},
		{`echo '{server}'"{username}"`, true},
		{`echo "{server}" {username}`, false},
		{`echo '{other}' {literal}`, true},
	} {
		if got := catalog.Quoted(tc.template); got != tc.want {
			t.Errorf("Quoted(%q) = %v, want %v", tc.template, got, tc.want)
		}
	}
}

// The server and the widget (fillCommand in widget/src/screens/devices/api.ts) write the same
// bytes for the same values.
func TestExpandCommandMatchesTheWidget(t *testing.T) {
	if got := catalog.ExpandCommand("'{username}:{password}'", "s", "a b'c!", "$x"); got != "'a%20b%27c%21:%24x'" {
		t.Fatalf("ExpandCommand = %q, want the widget's 'a%%20b%%27c%%21:%%24x'", got)
	}
}
