package httpapi

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/httprate"
	httprateredis "github.com/go-chi/httprate-redis"
	"github.com/redis/go-redis/v9"
	goa "goa.design/goa/v3/pkg"

	"github.com/streamcart/streamcart/api/geo"
)

// Limit is a number of requests per window from one client address.
type Limit struct {
	Requests int
	Window   time.Duration
}

func (l Limit) String() string {
	w := l.Window.String()
	w = strings.TrimSuffix(strings.TrimSuffix(w, "0s"), "0m") // 1m0s → 1m, 1h0m0s → 1h
	return strconv.Itoa(l.Requests) + "/" + w
}

// ParseLimit reads "N/DURATION", e.g. "30/1m" or "100/1h".
func ParseLimit(s string) (Limit, error) {
	n, w, ok := strings.Cut(strings.TrimSpace(s), "/")
	req, err := strconv.Atoi(n)
	if !ok || err != nil || req < 1 {
		return Limit{}, fmt.Errorf("rate limit %q: want REQUESTS/WINDOW, e.g. 30/1m", s)
	}
	win, err := time.ParseDuration(w)
	if err != nil || win < time.Second {
		return Limit{}, fmt.Errorf("rate limit %q: want REQUESTS/WINDOW with a window of at least 1s, e.g. 30/1m", s)
	}
	return Limit{Requests: req, Window: win}, nil
}

// RateLimits are the per-address limits of the endpoints an attacker would hammer. A zero
// Limit takes its default.
type RateLimits struct {
	Off bool // a shop behind its own rate-limiting proxy, or a load test
	// Sessions: sessions opened by email (POST /session, with a password or without) and
	// sign-in links.
	Sessions Limit
	// Promotions: promo code lookups.
	Promotions Limit
	// Quotes: price quotes (plans and upsells).
	Quotes Limit
	// Clicks: affiliate clicks.
	Clicks Limit
	// Orders: order creation (orders, upsell orders, reseller orders).
	Orders Limit
	// RedisURL (redis://host:6379/0) shares the counts between replicas; empty: in memory.
	RedisURL string
	// RedisPrefix starts every Redis key, so shops sharing a Redis count apart.
	RedisPrefix string
}

// Default limits: well above what one buyer's checkout sends, far below a guessing run.
var (
	DefaultSessions   = Limit{10, time.Minute}
	DefaultPromotions = Limit{30, time.Minute}
	DefaultQuotes     = Limit{120, time.Minute}
	DefaultClicks     = Limit{60, time.Minute}
	DefaultOrders     = Limit{30, time.Minute}
)

// DefaultRedisPrefix starts the Redis keys of the rate limits.
const DefaultRedisPrefix = "streamcart"

const msgRateLimited = "Too many requests from your address. Please wait a moment and try again."

// Limiter applies RateLimits in front of the API.
type Limiter struct {
	sessions, promotions, quotes, clicks, orders *httprate.RateLimiter
	closers                                      []io.Closer
}

// NewLimiter builds the limiters of cfg, in memory or on Redis; nil when the limits are off.
// trusted are the proxies whose X-Forwarded-For names the client, as in the rest of the API.
func NewLimiter(cfg RateLimits, trusted []netip.Prefix, log *slog.Logger) (*Limiter, error) {
	if cfg.Off {
		return nil, nil
	}
	var client redis.UniversalClient
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("STREAMCART_REDIS_URL: %w", err)
		}
		// Short timeouts and no retries: a Redis outage switches to in-memory counts at once.
		opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout, opts.MaxRetries = 500*time.Millisecond, 250*time.Millisecond, 250*time.Millisecond, -1
		client = redis.NewClient(opts)
	}
	prefix := cfg.RedisPrefix
	if prefix == "" {
		prefix = DefaultRedisPrefix
	}
	l := &Limiter{}
	if client != nil {
		l.closers = append(l.closers, client)
	}
	build := func(name string, lim, def Limit) *httprate.RateLimiter {
		if lim.Requests <= 0 || lim.Window <= 0 {
			lim = def
		}
		opts := []httprate.Option{
			httprate.WithKeyFuncs(func(r *http.Request) (string, error) {
				return httprate.CanonicalizeIP(geo.ClientIP(r, trusted).String()), nil
			}),
			httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
				writeError(w, r, http.StatusTooManyRequests, goa.TemporaryError("rate_limited", msgRateLimited))
			}),
			httprate.WithErrorHandler(func(w http.ResponseWriter, r *http.Request, err error) {
				log.ErrorContext(r.Context(), "rate limit count failed", "limit", name, "err", err)
				writeError(w, r, http.StatusServiceUnavailable, goa.TemporaryError("unavailable", "Please try again."))
			}),
		}
		if client != nil {
			opts = append(opts, httprate.WithLimitCounter(httprateredis.NewCounter(&httprateredis.Config{
				Client: client, PrefixKey: prefix + ":ratelimit:" + name, WindowLength: lim.Window,
				OnFallbackChange: func(on bool) {
					if on {
						log.Warn("Redis unreachable: rate limits count in memory until it is back", "limit", name)
					} else {
						log.Info("Redis reachable again: rate limits shared", "limit", name)
					}
				},
			})))
		}
		return httprate.NewRateLimiter(lim.Requests, lim.Window, opts...)
	}
	l.sessions = build("sessions", cfg.Sessions, DefaultSessions)
	l.promotions = build("promotions", cfg.Promotions, DefaultPromotions)
	l.quotes = build("quotes", cfg.Quotes, DefaultQuotes)
	l.clicks = build("clicks", cfg.Clicks, DefaultClicks)
	l.orders = build("orders", cfg.Orders, DefaultOrders)
	return l, nil
}

// Close releases the Redis connections.
func (l *Limiter) Close() error {
	if l == nil {
		return nil
	}
	var errs []error
	for _, c := range l.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// limit picks the limiter of a request by its method and path alone, nil for requests that are
// not limited: every request to a limited route counts, whatever its body. Paths are the
// generated servers' (gen/http/*/server/paths.go).
func (l *Limiter) limit(r *http.Request) *httprate.RateLimiter {
	p := r.URL.Path
	switch r.Method {
	case http.MethodGet:
		if strings.HasPrefix(p, "/checkout/api/promotions/") {
			return l.promotions
		}
	case http.MethodPost:
		switch p {
		case "/checkout/api/session", "/checkout/api/session/link":
			// Password or not, whatever the body: the limiter reads no body, so no body can
			// take a request out of the count (password sign-ins have their own throttle too).
			return l.sessions
		case "/checkout/api/quote", "/checkout/api/upsell/quote":
			return l.quotes
		case "/checkout/api/affiliates/clicks":
			return l.clicks
		case "/checkout/api/orders", "/checkout/api/upsell/orders", "/checkout/api/resellers/orders":
			return l.orders
		}
	}
	return nil
}

// guard answers 429 rate_limited (with Retry-After) once a limited request's address is over
// its limit.
func (l *Limiter) guard(next http.Handler) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rl := l.limit(r)
		if rl == nil {
			next.ServeHTTP(w, r)
			return
		}
		rl.Handler(next).ServeHTTP(w, r)
	})
}
