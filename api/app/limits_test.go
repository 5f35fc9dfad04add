package app_test

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
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
	h := http.Header{"Content-Type": {"application/json"}}
	if from != "" {
		h.Set("X-Forwarded-For", from)
	}
	return s.rawWith(method, path, token, r, h)
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
// forged X-Forwarded-For does not help: through a trusted proxy the entries the caller wrote
// left of the proxy's are ignored, and from a peer that is not a trusted proxy the header is.
func TestRateLimits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		for _, tc := range limitCases {
			t.Run(tc.name, func(t *testing.T) {
				for _, proxies := range []string{"127.0.0.0/8", "", "10.0.0.0/8"} {
					trust := proxies == "127.0.0.0/8" // the test's connections come from loopback
					s := newShop(t, twoPerHour(tc.field), func(c *app.Config) { c.TrustedProxies = prefixes(proxies) })
					token := ""
					if tc.token {
						token = s.identify("buyer@example.com", "").Token
					}
					// Each request forges another first entry, which must not count apart. Trusted: the
					// proxy appended the client's address, which decides. Untrusted: the
					// connection's address decides.
					from := func(i int) string {
						if trust {
							return fmt.Sprintf("203.0.113.%d, 203.0.113.10", 10+i)
						}
						return fmt.Sprintf("203.0.113.%d", 10+i)
					}
					for i := range 2 {
						if status, _, b := s.send(tc.method, tc.path, token, from(i), tc.body); status == http.StatusTooManyRequests {
							t.Fatalf("proxies=%q request %d: 429 under the limit: %s", proxies, i+1, b)
						}
					}
					status, h, b := s.send(tc.method, tc.path, token, from(2), tc.body)
					if status != http.StatusTooManyRequests {
						t.Fatalf("proxies=%q third request: status %d, want 429: %s", proxies, status, b)
					}
					if e := decodeError(t, b); e.Name != "rate_limited" || !e.Temporary || e.Fault {
						t.Fatalf("proxies=%q 429 body %+v", proxies, e)
					}
					if ra := h.Get("Retry-After"); ra != "3600" {
						t.Fatalf("proxies=%q Retry-After %q, want 3600", proxies, ra)
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

// TestRateLimitsCountPasswordSignIns: a password sign-in counts toward the sessions limit like
// an email-only session (the limiter reads no body, so no body takes a request out of the count;
// issue 24), on top of its own per-email and per-address throttle; and
// STREAMCART_RATE_LIMITS=off lifts every per-IP limit.
func TestRateLimitsCountPasswordSignIns(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		sessions := func(l *httpapi.RateLimits) *httpapi.Limit { return &l.Sessions }
		s := newShop(t, twoPerHour(sessions))
		for i := range 2 {
			status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", fmt.Sprintf(`{"email":"user%d@example.com","password":"not-the-password"}`, i))
			if status != http.StatusUnauthorized {
				t.Fatalf("password sign-in %d: status %d: %s", i+1, status, b)
			}
		}
		status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", `{"email":"buyer@example.com"}`)
		if status != http.StatusTooManyRequests || decodeError(t, b).Name != "rate_limited" {
			t.Fatalf("email session after two password sign-ins: status %d: %s", status, b)
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

// TestBodyLimit: a body announced over 64 KB is refused before it is sent, a longer chunked
// body is cut at 64 KB; both answer 413 body_too_large in the API's error shape.
func TestBodyLimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		host := strings.TrimPrefix(s.base, "http://")
		// Only the headers and a few bytes go out: the answer must come before the 100 MB.
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /checkout/api/session HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"email\":\"", host, 100<<20)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if e := decodeError(t, b); resp.StatusCode != http.StatusRequestEntityTooLarge || e.Name != "body_too_large" {
			t.Fatalf("announced 100 MB: status %d %+v", resp.StatusCode, e)
		}

		for _, path := range []string{"/checkout/api/session", "/checkout/api/orders", "/checkout/api/quote"} {
			body := io.MultiReader(strings.NewReader(`{"email":"`), io.LimitReader(repeat('a'), 1<<20), strings.NewReader(`"}`))
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.base+path, body) // no length: chunked
			status, b := do(t, s, req)
			if e := decodeError(t, b); status != http.StatusRequestEntityTooLarge || e.Name != "body_too_large" || e.Message != "The request body is larger than 64 KB." {
				t.Fatalf("%s chunked 1 MB: status %d %+v", path, status, e)
			}
		}
		// Just under the limit is read (and refused for what it says, not for its size).
		big := `{"email":"` + strings.Repeat("a", 60<<10) + `@example.com"}`
		if status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", big); status == http.StatusRequestEntityTooLarge {
			t.Fatalf("60 KB body refused as too large: %s", b)
		}
	})
}

// TestErrorsQuoteLittle: an invalid value is quoted in the 400 answer by at most 100 characters,
// whether the validation (a too long email) or the decoding (a huge number) refuses it.
func TestErrorsQuoteLittle(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		long := strings.Repeat("7", 50<<10)
		for _, tc := range []struct{ path, body string }{
			{"/checkout/api/session", `{"email":"` + strings.Repeat("x", 50<<10) + `"}`},
			{"/checkout/api/session/link", `{"email":"` + strings.Repeat("x", 50<<10) + `@example.com"}`},
			{"/checkout/api/quote", `{"pid":` + long + `,"billingCycle":"monthly"}`},
			{"/checkout/api/quote", `{"pid":2,"billingCycle":"` + long + `"}`},
		} {
			status, _, b := s.send(http.MethodPost, tc.path, "", "", tc.body)
			e := decodeError(t, b)
			if status != http.StatusBadRequest || len(e.Message) > 400 || strings.Contains(e.Message, strings.Repeat("x", 101)) || strings.Contains(e.Message, strings.Repeat("7", 101)) {
				t.Fatalf("%s: status %d, %d bytes: %s", tc.path, status, len(b), b[:min(len(b), 300)])
			}
		}
	})
}

// TestControlCharacters: a NUL or another control character anywhere in a body, path, query or
// Idempotency-Key header is 400 bad_request before it reaches the store (PostgreSQL refuses NUL
// in text with a 500).
func TestControlCharacters(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		s := newShop(t)
		token := s.identify("buyer@example.com", "").Token
		cases := []struct {
			name, method, path, body string
		}{
			{"NUL in the session email", http.MethodPost, "/checkout/api/session", `{"email":"a\u0000b@example.com"}`},
			{"NUL after a valid email", http.MethodPost, "/checkout/api/session", `{"email":"buyer@example.com\u0000"}`},
			{"newline in the session email", http.MethodPost, "/checkout/api/session", `{"email":"user@example.com\nx"}`},
			{"newline in the link email", http.MethodPost, "/checkout/api/session/link", `{"email":"buyer@example.com\n"}`},
			{"NUL in an order's email", http.MethodPost, "/checkout/api/orders", `{"pid":2,"billingCycle":"monthly","email":"a\u0000b@example.com"}`},
			{"NUL in a promo code", http.MethodPost, "/checkout/api/orders", `{"pid":2,"billingCycle":"monthly","promoCode":"WELCOME10\u0000"}`},
			{"escape in an idempotency key", http.MethodPost, "/checkout/api/orders", `{"pid":2,"billingCycle":"monthly","idempotencyKey":"k\u001b[31m"}`},
			{"DEL in an affiliate id", http.MethodPost, "/checkout/api/affiliates/clicks", "{\"affId\":\"42\",\"referer\":\"x\x7f\"}"},
			{"NUL in a path", http.MethodGet, "/checkout/api/promotions/WELCOME10%00", ""},
			{"NUL in an order id", http.MethodGet, "/checkout/api/orders/ord_%00", ""},
			{"tab in a query", http.MethodGet, "/checkout/api/convert?from=EUR%09&to=USD&amount=1", ""},
		}
		for _, tc := range cases {
			status, _, b := s.send(tc.method, tc.path, token, "", tc.body)
			if e := decodeError(t, b); status != http.StatusBadRequest || e.Name != "bad_request" || e.Message != "The request contains a control character." {
				t.Errorf("%s: status %d %+v", tc.name, status, e)
			}
		}
		// A tab, the one control character HTTP lets through in a header, in the Idempotency-Key of
		// each operation that stores one.
		for _, path := range []string{"/checkout/api/orders", "/checkout/api/upsell/orders", "/checkout/api/resellers/orders"} {
			h := http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {"k\tx"}}
			status, _, b := s.rawWith(http.MethodPost, path, token, strings.NewReader(`{"pid":2,"billingCycle":"monthly"}`), h)
			if e := decodeError(t, b); status != http.StatusBadRequest || e.Name != "bad_request" || e.Message != "The request contains a control character." {
				t.Errorf("tab in the Idempotency-Key header of %s: status %d %+v", path, status, e)
			}
		}
		if n := s.count(`SELECT COUNT(*) FROM orders`); n != 0 {
			t.Fatalf("%d orders stored by refused requests", n)
		}
		// An escaped backslash followed by "u0000" is text, not a NUL.
		status, _, b := s.send(http.MethodPost, "/checkout/api/session", "", "", `{"email":"a\\u0000b@example.com"}`)
		if status == http.StatusBadRequest && decodeError(t, b).Name == "bad_request" {
			t.Fatalf(`"\\u0000" refused as a control character: %s`, b)
		}
		if n := s.count(`SELECT COUNT(*) FROM clients`); n != 2 {
			t.Fatalf("%d clients, want the buyer and the backslash address only", n)
		}
	})
}

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func do(t *testing.T, s *shop, req *http.Request) (int, []byte) {
	t.Helper()
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.noJump.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
