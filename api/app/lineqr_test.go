package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/lineqr/lineqrtest"
)

// TestLineQR is GET /services/{id}/qr.svg: the line's owner reads back its Xtream codes and its
// playlist URL from the served SVG (rendered and decoded as a phone camera would); everyone else
// gets the playlist's answers.
func TestLineQR(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		owner := s.identify("qr-owner@example.com", "")
		bought := s.buy(owner.Token, trial())
		pending := s.buy(owner.Token, standard()) // never paid: no line yet
		s.drain()
		id := bought.ServiceIds[0]
		svc := s.getService(owner.Token, id)
		checkCredentials(t, svc)
		other := s.identify("qr-other@example.com", "")
		path := func(id, query string) string { return "/checkout/api/services/" + id + "/qr.svg" + query }

		t.Run("owner reads the Xtream codes back", func(t *testing.T) {
			for _, query := range []string{"?kind=xtream", ""} { // xtream is the default
				status, header, body := s.raw("GET", path(id, query), owner.Token, nil)
				if status != http.StatusOK {
					t.Fatalf("GET qr.svg%s = %d %s", query, status, body)
				}
				if ct, cc := header.Get("Content-Type"), header.Get("Cache-Control"); ct != "image/svg+xml" || !strings.Contains(cc, "no-store") {
					t.Errorf("Content-Type %q, Cache-Control %q; want image/svg+xml, no-store", ct, cc)
				}
				text := lineqrtest.Decode(t, body)
				var got map[string]string
				if err := json.Unmarshal([]byte(text), &got); err != nil {
					t.Fatalf("QR text %q is not JSON: %v", text, err)
				}
				want := `{"server":"http://` + svc.ServerHostname + `","username":"` + svc.Username + `","password":"` + svc.Password + `"}`
				if text != want {
					t.Fatalf("QR text %s, want %s", text, want)
				}
			}
		})
		t.Run("owner reads the playlist URL back", func(t *testing.T) {
			status, header, body := s.raw("GET", path(id, "?kind=m3u"), owner.Token, nil)
			if status != http.StatusOK || header.Get("Content-Type") != "image/svg+xml" {
				t.Fatalf("GET qr.svg?kind=m3u = %d %q %s", status, header.Get("Content-Type"), body)
			}
			if text := lineqrtest.Decode(t, body); text != svc.PlaylistURL {
				t.Fatalf("QR text %q, want the playlist URL %q", text, svc.PlaylistURL)
			}
		})

		t.Run("the device panel's catalog", func(t *testing.T) {
			status, _, body := s.raw("GET", "/checkout/api/devices?locale=de-de", "", nil)
			var d struct {
				Apps    []struct{ Name, Setup string }
				Devices []struct{ Family, Portal, Command string }
			}
			if err := json.Unmarshal(body, &d); status != http.StatusOK || err != nil || len(d.Apps) == 0 || len(d.Devices) != 2 {
				t.Fatalf("GET /devices = %d %s", status, body)
			}
		})

		cases := []struct {
			name, id, query, token string
			status                 int
			error                  string
		}{
			{name: "another client", id: id, query: "?kind=xtream", token: other.Token, status: http.StatusNotFound, error: "not_found"},
			{name: "another client, m3u", id: id, query: "?kind=m3u", token: other.Token, status: http.StatusNotFound, error: "not_found"},
			{name: "a second email-only session of the owner", id: id, token: s.identify("qr-owner@example.com", "").Token, status: http.StatusNotFound, error: "not_found"},
			{name: "unknown service", id: "svc_0000000000000000", token: owner.Token, status: http.StatusNotFound, error: "not_found"},
			{name: "owner's line not made yet", id: pending.ServiceIds[0], token: owner.Token, status: http.StatusNotFound, error: "not_found"},
			{name: "no session", id: id, status: http.StatusUnauthorized, error: "unauthorized"},
			{name: "a forged token", id: id, token: "forged.token.here", status: http.StatusUnauthorized, error: "unauthorized"},
			{name: "unknown kind", id: id, query: "?kind=png", token: owner.Token, status: http.StatusBadRequest, error: "invalid_enum_value"},
			{name: "unknown kind, another client", id: id, query: "?kind=" + strings.Repeat("x", 300), token: other.Token, status: http.StatusBadRequest, error: "invalid_enum_value"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, header, body := s.raw("GET", path(tc.id, tc.query), tc.token, nil)
				var e struct{ Name string }
				_ = json.Unmarshal(body, &e)
				if status != tc.status || e.Name != tc.error {
					t.Fatalf("= %d %s, want %d %s", status, body, tc.status, tc.error)
				}
				if strings.Contains(string(body), svc.Password) || strings.HasPrefix(header.Get("Content-Type"), "image/") {
					t.Fatalf("a refused request got the line: %s", body)
				}
			})
		}
	})
}
