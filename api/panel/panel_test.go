package panel_test

import (
	"bufio"
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/panel"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func newBuiltin(t *testing.T, b storetest.Backend) *panel.Builtin {
	t.Helper()
	return panel.NewBuiltin(b.Open(t), "line.example.com:8080", nil)
}

func TestNewUsernameAndPasswordShapes(t *testing.T) {
	user := regexp.MustCompile(`^sc[0-9]{8}$`)
	pass := regexp.MustCompile(`^[0-9]{12}$`)
	seen := map[string]bool{}
	for range 200 {
		u, p := panel.NewUsername("sc"), panel.NewPassword()
		if !user.MatchString(u) {
			t.Fatalf("NewUsername(sc) = %q, want sc + 8 digits", u)
		}
		if !pass.MatchString(p) {
			t.Fatalf("NewPassword() = %q, want 12 digits", p)
		}
		seen[u] = true
	}
	if len(seen) < 190 { // 200 draws from 10^8 repeat almost never; many repeats mean no randomness
		t.Fatalf("only %d distinct usernames in 200", len(seen))
	}
	if u := panel.NewUsername(""); !regexp.MustCompile(`^[0-9]{8}$`).MatchString(u) {
		t.Fatalf("NewUsername(\"\") = %q", u)
	}
}

func TestCreateLineIsIdempotentByRef(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		p := newBuiltin(t, b)
		l := panel.Line{Ref: "svc_1", Username: panel.NewUsername("sc"), Password: panel.NewPassword(), MaxConnections: 2,
			ExpiresAt: time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC), Bouquets: []int{3}, Enabled: true}
		first, err := p.CreateLine(t.Context(), l)
		if err != nil {
			t.Fatal(err)
		}
		again, err := p.CreateLine(t.Context(), panel.Line{Ref: "svc_1", Username: "other", Password: "x", MaxConnections: 9, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		if again.Username != first.Username || again.Password != first.Password || again.MaxConnections != 2 {
			t.Fatalf("repeat CreateLine = %+v, want the stored line %+v", again, first)
		}
		got, err := p.Line(t.Context(), "svc_1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Username != l.Username || !got.ExpiresAt.Equal(l.ExpiresAt) || len(got.Bouquets) != 1 {
			t.Fatalf("Line = %+v, want %+v", got, l)
		}
		if _, err := p.Line(t.Context(), "svc_missing"); !errors.Is(err, panel.ErrNotFound) {
			t.Fatalf("Line(missing) err = %v, want ErrNotFound", err)
		}
	})
}

func TestCreateLineErrors(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		p := newBuiltin(t, b)
		if _, err := p.CreateLine(t.Context(), panel.Line{Ref: "svc_1", Username: "sc00000001", Password: "1", MaxConnections: 1}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			line panel.Line
			want error
		}{
			{"username of another ref", panel.Line{Ref: "svc_2", Username: "sc00000001", Password: "2", MaxConnections: 1}, panel.ErrUsernameTaken},
			{"no ref", panel.Line{Username: "sc00000002", Password: "2", MaxConnections: 1}, panel.ErrInvalidLine},
			{"no username", panel.Line{Ref: "svc_3", Password: "2", MaxConnections: 1}, panel.ErrInvalidLine},
			{"no password", panel.Line{Ref: "svc_3", Username: "sc00000003", MaxConnections: 1}, panel.ErrInvalidLine},
			{"no connections", panel.Line{Ref: "svc_3", Username: "sc00000003", Password: "3"}, panel.ErrInvalidLine},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, err := p.CreateLine(t.Context(), tt.line); !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
			})
		}
	})
}

func TestPlaylistFormat(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		p := newBuiltin(t, b)
		l, err := p.CreateLine(t.Context(), panel.Line{Ref: "svc_1", Username: "sc12345678", Password: "987654321098",
			MaxConnections: 1, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ServerHostname(); got != "line.example.com:8080" {
			t.Fatalf("ServerHostname = %q", got)
		}
		body, err := p.Playlist(t.Context(), l)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(body))
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		wantHeader := `#EXTM3U url-tvg="http://line.example.com:8080/xmltv.php?username=sc12345678&password=987654321098"`
		if len(lines) == 0 || lines[0] != wantHeader {
			t.Fatalf("header = %q, want %q", lines[0], wantHeader)
		}
		entries := lines[1:]
		if len(entries)%2 != 0 || len(entries)/2 < 12 {
			t.Fatalf("%d lines after the header, want at least 12 #EXTINF/URL pairs", len(entries))
		}
		extinf := regexp.MustCompile(`^#EXTINF:-1 tvg-id="" tvg-name="([^"]+)" tvg-logo="" group-title="([^"]+)",(.+)$`)
		stream := regexp.MustCompile(`^http://line\.example\.com:8080/live/sc12345678/987654321098/[0-9]+\.ts$`)
		groups, urls := map[string]bool{}, map[string]bool{}
		for i := 0; i < len(entries); i += 2 {
			m := extinf.FindStringSubmatch(entries[i])
			if m == nil {
				t.Fatalf("line %d = %q, not an m3u_plus #EXTINF", i+2, entries[i])
			}
			if m[1] != m[3] {
				t.Errorf("tvg-name %q differs from display name %q", m[1], m[3])
			}
			groups[m[2]] = true
			if !stream.MatchString(entries[i+1]) {
				t.Fatalf("line %d = %q, not a stream URL", i+3, entries[i+1])
			}
			if urls[entries[i+1]] {
				t.Errorf("duplicate stream %s", entries[i+1])
			}
			urls[entries[i+1]] = true
		}
		if len(groups) < 3 {
			t.Fatalf("groups = %v, want channels across several groups", groups)
		}
		if !strings.HasSuffix(string(body), "\n") {
			t.Fatal("playlist does not end with a newline")
		}
	})
}

func TestPlaylistRefusals(t *testing.T) {
	storetest.Run(t, func(t *testing.T, b storetest.Backend) {
		p := newBuiltin(t, b)
		active := panel.Line{Ref: "svc_1", Username: "sc00000001", Password: "111111111111", MaxConnections: 1, Enabled: true}
		disabled := panel.Line{Ref: "svc_2", Username: "sc00000002", Password: "222222222222", MaxConnections: 1}
		expired := panel.Line{Ref: "svc_3", Username: "sc00000003", Password: "333333333333", MaxConnections: 1, Enabled: true,
			ExpiresAt: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
		for _, l := range []panel.Line{active, disabled, expired} {
			if _, err := p.CreateLine(t.Context(), l); err != nil {
				t.Fatal(err)
			}
		}
		wrongPass := active
		wrongPass.Password = "000000000000"
		tests := []struct {
			name string
			line panel.Line
			want error
		}{
			{"unknown ref", panel.Line{Ref: "svc_9", Username: "sc00000009", Password: "9"}, panel.ErrNotFound},
			{"wrong password", wrongPass, panel.ErrNotFound},
			{"disabled", disabled, panel.ErrDisabled},
			{"expired", expired, panel.ErrDisabled},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, err := p.Playlist(t.Context(), tt.line); !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
			})
		}
	})
}
