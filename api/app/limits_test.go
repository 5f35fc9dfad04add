package app_test

import (
	"encoding/json"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/httpapi"
)

// errorBody is the shape of every error answer of the API (Goa's).
type errorBody struct {
	Name      string `json:"name"`
	ID        string `json:"id"`
	Message   string `json:"message"`
	Temporary bool   `json:"temporary"`
	Timeout   bool   `json:"timeout"`
	Fault     bool   `json:"fault"`
}

func decodeError(t *testing.T, b []byte) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil || e.Name == "" || e.ID == "" || e.Message == "" {
		t.Fatalf("error body %q: %v", b, err)
	}
	return e
}

// send makes one request from the given X-Forwarded-For address (empty: none).
func (s *shop) send(method, path, token, from, body string) (int, http.Header, []byte) {
	s.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(s.t.Context(), method, s.base+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	resp, err := s.noJump.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// twoPerHour sets one limit to 2 requests an hour (the others keep their defaults): a test's
// third request is over it however slowly the machine runs.
func twoPerHour(field func(*httpapi.RateLimits) *httpapi.Limit) func(*app.Config) {
	return func(c *app.Config) {
		c.RateLimits = httpapi.RateLimits{}
		*field(&c.RateLimits) = httpapi.Limit{Requests: 2, Window: time.Hour}
	}
}

type limitCase struct {
	name         string
	field        func(*httpapi.RateLimits) *httpapi.Limit
	method, path string
	body         string
	token        bool // the request needs an email session
}

var limitCases = []limitCase{
	{"new email session", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Sessions }, http.MethodPost, "/checkout/api/session", `{"email":"victim@example.com"}`, false},
	{"new email session, empty password", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Sessions }, http.MethodPost, "/checkout/api/session", `{"email":"victim@example.com","password":""}`, false},
	{"sign-in link", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Sessions }, http.MethodPost, "/checkout/api/session/link", `{"email":"victim@example.com"}`, false},
	{"promo lookup", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Promotions }, http.MethodGet, "/checkout/api/promotions/GUESS1", "", false},
	{"quote", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Quotes }, http.MethodPost, "/checkout/api/quote", `{"pid":2,"billingCycle":"monthly"}`, false},
	{"affiliate click", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Clicks }, http.MethodPost, "/checkout/api/affiliates/clicks", `{"affId":"42"}`, false},
	{"order", func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Orders }, http.MethodPost, "/checkout/api/orders", `{"pid":2,"billingCycle":"monthly"}`, true},
}

// TestRateLimits: past its limit an address gets 429 rate_limited with Retry-After on every
// limited endpoint, while another address (through the trusted proxy) is still served; a
// forged X-Forwarded-For does not help when the proxy is not trusted.
func TestRateLimits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range limitCases {
			t.Run(tc.name, func(t *testing.T) {
				for _, trust := range []bool{true, false} {
					s := newShop(t, twoPerHour(tc.field), func(c *app.Config) { c.TrustProxy = trust })
					token := ""
					if tc.token {
						token = s.identify("buyer@example.com", "").Token
					}
					// Trusted: one client address. Untrusted: each request forges another, which
					// must not count apart (the connection's address decides).
					from := func(i int) string {
						if trust {
							return "203.0.113.10"
						}
						return fmt.Sprintf("203.0.113.%d", 10+i)
					}
					for i := range 2 {
						if status, _, b := s.send(tc.method, tc.path, token, from(i), tc.body); status == http.StatusTooManyRequests {
							t.Fatalf("trust=%v request %d: 429 under the limit: %s", trust, i+1, b)
						}
					}
					status, h, b := s.send(tc.method, tc.path, token, from(2), tc.body)
					if status != http.StatusTooManyRequests {
						t.Fatalf("trust=%v third request: status %d, want 429: %s", trust, status, b)
					}
					if e := decodeError(t, b); e.Name != "rate_limited" || !e.Temporary || e.Fault {
						t.Fatalf("trust=%v 429 body %+v", trust, e)
					}
					if ra := h.Get("Retry-After"); ra != "3600" {
						t.Fatalf("trust=%v Retry-After %q, want 3600", trust, ra)
					}
					if trust {
						if status, _, b := s.send(tc.method, tc.path, token, "198.51.100.1", tc.body); status == http.StatusTooManyRequests {
							t.Fatalf("another address refused: %s", b)
						}
					}
				}
			})
		}
	})
}

// TestRateLimitsSparePasswordSignIns: password sign-ins are not new email sessions (they have
// their own per-address throttle), and STREAMCART_RATE_LIMITS=off lifts every per-IP limit.
func TestRateLimitsSparePasswordSignIns(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		sessions := func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Sessions }
		s := newShop(t, twoPerHour(sessions))
		for i := range 3 {
			status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", fmt.Sprintf(`{"email":"user%d@example.com","password":"not-the-password"}`, i))
			if status == http.StatusTooManyRequests && decodeError(t, b).Name == "rate_limited" {
				t.Fatalf("password sign-in %d counted as a new email session: %s", i+1, b)
			}
		}
		off := newShop(t, twoPerHour(sessions), func(c *app.Config) { c.RateLimits.Off = true })
		for i := range 5 {
			if status, _, b := off.send(http.MethodPost, "/checkout/api/session", "", "", `{"email":"buyer@example.com"}`); status != http.StatusCreated && status != http.StatusOK {
				t.Fatalf("limits off, session %d: status %d: %s", i+1, status, b)
			}
		}
	})
}

// TestRateLimitsRedis: replicas sharing a Redis (STREAMCART_REDIS_URL) share the counts: two
// requests through one replica and the third through another is over a limit of two.
func TestRateLimitsRedis(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		prefix := "streamcart-test-" + rand.Text() // counts of no other test or run
		clicks := func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Clicks }
		redis := func(c *app.Config) {
			c.RateLimits.RedisURL, c.RateLimits.RedisPrefix = "redis://127.0.0.1:6379/0", prefix
		}
		one := newShop(t, twoPerHour(clicks), redis)
		two := openShop(t, one.cfg)
		for i, s := range []*shop{one, two} {
			if status, _, b := s.send(http.MethodPost, "/checkout/api/affiliates/clicks", "", "", `{"affId":"42"}`); status != http.StatusNoContent {
				t.Fatalf("click %d: status %d: %s", i+1, status, b)
			}
		}
		status, h, b := two.send(http.MethodPost, "/checkout/api/affiliates/clicks", "", "", `{"affId":"42"}`)
		if status != http.StatusTooManyRequests || decodeError(t, b).Name != "rate_limited" || h.Get("Retry-After") == "" {
			t.Fatalf("third click across replicas: status %d %q: %s", status, h.Get("Retry-After"), b)
		}
	})
}
