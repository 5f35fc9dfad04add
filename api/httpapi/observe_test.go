package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/geo"
	"github.com/streamcart/streamcart/api/httpapi"
)

// TestLogRequestID: a line logged with a request's context carries the request's id, the one
// echoed in X-Request-Id; the access line names it once.
func TestLogRequestID(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(httpapi.LogRequestID(slog.NewJSONHandler(&out, nil)))
	h := httpapi.Observed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.ErrorContext(r.Context(), "boom")
		w.WriteHeader(http.StatusInternalServerError)
	}), httpapi.Observe{Log: log})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	id := rec.Header().Get("X-Request-Id")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if id == "" || len(lines) != 2 {
		t.Fatalf("id %q, lines %q", id, lines)
	}
	for i, want := range []string{"boom", "request"} {
		if strings.Count(lines[i], `"request_id"`) != 1 {
			t.Errorf("line %q names request_id %d times, want once", lines[i], strings.Count(lines[i], `"request_id"`))
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil || m["msg"] != want || m["request_id"] != id {
			t.Errorf("line %d = %q, want msg %q with request_id %q", i, lines[i], want, id)
		}
	}
}

// TestRequestIDsKept: each request's id, made in its own exchange, stays what it was after
// later requests (work that outlives a request may still read it), and no two are alike.
func TestRequestIDsKept(t *testing.T) {
	var ids []string
	h := httpapi.Observed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ids = append(ids, httpapi.RequestID(r.Context()))
	}), httpapi.Observe{Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	var echoed []string
	for range 200 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
		echoed = append(echoed, rec.Header().Get("X-Request-Id"))
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if id == "" || id != echoed[i] || seen[id] {
			t.Fatalf("request %d: id %q, echoed %q, seen before %v", i, id, echoed[i], seen[id])
		}
		seen[id] = true
	}
	if prefix, _, _ := strings.Cut(ids[0], "-"); !strings.HasPrefix(ids[199], prefix+"-") {
		t.Errorf("ids %q and %q: want one process prefix", ids[0], ids[199])
	}
}

// TestAccessLineAsSlogWritesIt: the access line written straight to the log's writer is, byte
// for byte, what slog's JSON handler writes for the same record; a value that would need JSON
// escapes writes nothing there (the line then goes through slog).
func TestAccessLineAsSlogWritesIt(t *testing.T) {
	at := time.Date(2026, 11, 27, 0, 11, 8, 480121106, time.UTC)
	type line struct {
		at            time.Time
		method, route string
		status        int
		bytes         int64
		d             time.Duration
		id            string
		ip            netip.Addr
		trace         string
	}
	base := line{at, "GET", "/checkout/api/products", 200, 3530, 14387111 * time.Nanosecond, "okbgosmjwgsafibi-1", netip.MustParseAddr("127.0.0.1"), ""}
	cases := map[string]func(l *line){
		"as served":              func(*line) {},
		"whole second":           func(l *line) { l.at = at.Truncate(time.Second) },
		"another zone":           func(l *line) { l.at = at.In(time.FixedZone("CET", 3600)) },
		"monotonic clock":        func(l *line) { l.at = time.Now() },
		"zero duration":          func(l *line) { l.d = 0 },
		"sub-microsecond":        func(l *line) { l.d = 500 },
		"microseconds":           func(l *line) { l.d = 54422 },
		"ten microseconds":       func(l *line) { l.d = 10 * time.Microsecond },
		"seconds":                func(l *line) { l.d = 3*time.Second + 7 },
		"negative (clock moved)": func(l *line) { l.d = -time.Millisecond },
		"longest":                func(l *line) { l.d = math.MaxInt64 },
		"no body":                func(l *line) { l.status, l.bytes = 204, 0 },
		"IPv6":                   func(l *line) { l.ip = netip.MustParseAddr("2001:db8::1") },
		"IPv4 in IPv6":           func(l *line) { l.ip = netip.MustParseAddr("::ffff:10.0.0.1") },
		"IPv6 zone":              func(l *line) { l.ip = netip.MustParseAddr("fe80::1%eth0") },
		"no address":             func(l *line) { l.ip = netip.Addr{} },
		"traced":                 func(l *line) { l.trace = "4bf92f3577b34da6a3ce929d0e0e4736" },
		"unmatched route":        func(l *line) { l.method, l.route = "PROPFIND", "unmatched" },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			l := base
			change(&l)
			var want, got bytes.Buffer
			r := slog.NewRecord(l.at, slog.LevelInfo, httpapi.AccessMsg, 0)
			r.AddAttrs(httpapi.AccessAttrs(l.method, l.route, l.status, l.bytes, l.d, l.id, l.ip, l.trace)...)
			if err := slog.NewJSONHandler(&want, nil).Handle(t.Context(), r); err != nil {
				t.Fatal(err)
			}
			if !httpapi.AccessJSON(&got, l.at, l.method, l.route, l.status, l.bytes, l.d, l.id, l.ip, l.trace) {
				t.Fatal("not written")
			}
			if got.String() != want.String() {
				t.Fatalf("access line\n got %s\nwant %s", got.String(), want.String())
			}
		})
	}
	escaped := map[string]func(l *line){
		"quote in route":      func(l *line) { l.route = `/a"b` },
		"backslash in method": func(l *line) { l.method = `G\T` },
		"control character":   func(l *line) { l.route = "/a\x7fb" },
		"non-ASCII":           func(l *line) { l.route = "/café" },
		"year 10000":          func(l *line) { l.at = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },
	}
	for name, change := range escaped {
		t.Run(name, func(t *testing.T) {
			l := base
			change(&l)
			var got bytes.Buffer
			if httpapi.AccessJSON(&got, l.at, l.method, l.route, l.status, l.bytes, l.d, l.id, l.ip, l.trace) || got.Len() != 0 {
				t.Fatalf("written %q, want nothing (slog escapes it)", got.String())
			}
		})
	}
}

// TestObservedWritesAccessLineToJSON: with the log's writer given, each request's access line
// goes there, with the fields slog would give it, and the request's own log lines still carry
// its id.
func TestObservedWritesAccessLineToJSON(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(httpapi.LogRequestID(slog.NewJSONHandler(&out, nil)))
	h := httpapi.Observed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.WarnContext(r.Context(), "inside")
		w.Write([]byte("hello"))
	}), httpapi.Observe{Log: log, JSON: &out})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/x", nil))
	id := rec.Header().Get("X-Request-Id")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if id == "" || len(lines) != 2 {
		t.Fatalf("id %q, lines %q", id, lines)
	}
	var inside, access map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &inside); err != nil || inside["msg"] != "inside" || inside["request_id"] != id {
		t.Fatalf("request's own line %q", lines[0])
	}
	if err := json.Unmarshal([]byte(lines[1]), &access); err != nil {
		t.Fatalf("access line %q: %v", lines[1], err)
	}
	for k, v := range map[string]any{"level": "INFO", "msg": "request", "method": "POST", "route": "unmatched", "status": 200.0, "bytes": 5.0, "request_id": id, "ip": "192.0.2.1"} {
		if access[k] != v {
			t.Errorf("access line %s = %v, want %v (%s)", k, access[k], v, lines[1])
		}
	}
	if _, err := time.Parse(time.RFC3339Nano, access["time"].(string)); err != nil || access["duration"].(float64) < 0 {
		t.Errorf("access line time %v, duration %v", access["time"], access["duration"])
	}
}

// The access line's time stamp is time.RFC3339Nano's text, whatever the fraction, the zone (one
// crossing into summer time), the year and the order in which seconds and zones follow each other.
func TestAccessTimeStamp(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		berlin = time.FixedZone("CET", 3600) // no zone database: a fixed zone still tests the offset
	}
	summer := time.Date(2026, 3, 29, 0, 59, 59, 999999999, time.UTC) // Berlin moves at 01:00 UTC
	times := []time.Time{
		time.Date(2026, 11, 27, 0, 11, 8, 480121106, time.UTC),
		time.Date(2026, 11, 27, 0, 11, 8, 480121100, time.UTC), // trailing zeros
		time.Date(2026, 11, 27, 0, 11, 8, 5, time.UTC),
		time.Date(2026, 11, 27, 0, 11, 8, 100000000, time.UTC),
		time.Date(2026, 11, 27, 0, 11, 8, 0, time.UTC), // whole second: no fraction
		time.Date(2026, 11, 27, 0, 11, 8, 480121106, time.FixedZone("", -(9*3600+30*60))),
		time.Date(2026, 11, 27, 0, 11, 8, 480121106, time.FixedZone("", 5*3600+45*60)),
		summer.In(berlin), summer.Add(time.Nanosecond).In(berlin), summer.Add(-time.Second).In(berlin),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 10, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Now(), time.Now().UTC(), time.Now().In(berlin),
	}
	// Each time after each other one: the cached second must never leak into another's text.
	for _, first := range times {
		for _, tm := range times {
			httpapi.AppendRFC3339Nano(nil, first)
			if got, want := string(httpapi.AppendRFC3339Nano([]byte("x"), tm)), "x"+tm.Format(time.RFC3339Nano); got != want {
				t.Fatalf("after %v: %q, want %q", first, got, want)
			}
		}
	}
}

// The access line's address and the request id follow the proxies trusted: a trusted peer's
// X-Forwarded-For and X-Request-Id are believed, anyone else's are not.
func TestAccessLineAddressAndIDBehindProxies(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, tc := range []struct {
		name             string
		trusted          []netip.Prefix
		peer, xff, rid   string
		wantIP           string
		wantForwardedRID bool
	}{
		{"no proxies trusted", nil, "10.1.2.3:4000", "203.0.113.9", "from-proxy-1", "10.1.2.3", false},
		{"trusted proxy", proxies, "10.1.2.3:4000", "203.0.113.9", "from-proxy-1", "203.0.113.9", true},
		{"trusted proxy, no forwarding header", proxies, "10.1.2.3:4000", "", "", "10.1.2.3", false},
		{"untrusted peer forging both", proxies, "198.51.100.7:4000", "203.0.113.9", "forged-1", "198.51.100.7", false},
		{"peer without a port", proxies, "garbage", "203.0.113.9", "forged-2", "invalid IP", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&out, nil))
			h := httpapi.Observed(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), httpapi.Observe{Log: log, JSON: &out, TrustedProxies: tc.trusted})
			r := httptest.NewRequest(http.MethodGet, "/x", nil)
			r.RemoteAddr = tc.peer
			if tc.xff != "" {
				r.Header.Set("X-Forwarded-For", tc.xff)
			}
			if tc.rid != "" {
				r.Header.Set("X-Request-Id", tc.rid)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var access map[string]any
			if err := json.Unmarshal(out.Bytes(), &access); err != nil {
				t.Fatalf("access line %q: %v", out.String(), err)
			}
			if access["ip"] != tc.wantIP {
				t.Errorf("ip %v, want %s", access["ip"], tc.wantIP)
			}
			if got := rec.Header().Get("X-Request-Id"); (got == tc.rid && tc.rid != "") != tc.wantForwardedRID || access["request_id"] != got {
				t.Errorf("request id %q (line %v), forwarded %q believed: want %v", got, access["request_id"], tc.rid, tc.wantForwardedRID)
			}
		})
	}
}

// The access line's duration written without the float formatting is the float's text, byte for
// byte: every duration up to 3 ms, a million random ones up to 2 s, and the edges.
func TestAccessSecondsAsTheFloat(t *testing.T) {
	check := func(d time.Duration) {
		if got, want := httpapi.AppendSeconds(nil, d), httpapi.AppendJSONFloat(nil, d.Seconds()); string(got) != string(want) {
			t.Fatalf("%d ns: %s, want %s", int64(d), got, want)
		}
	}
	for d := time.Duration(0); d <= 3*time.Millisecond; d++ {
		check(d)
	}
	rng := rand.New(rand.NewPCG(24, 4))
	for range 1_000_000 {
		check(time.Duration(rng.Int64N(int64(2 * time.Second))))
	}
	for _, d := range []time.Duration{-1, time.Microsecond - 1, time.Microsecond, time.Second - 1, time.Second, time.Second + 1, 100 * time.Millisecond, 999_999_999, 1<<63 - 1, -1 << 63} {
		check(d)
	}
}

// The connection's address is taken from a cache by RemoteAddr: the same as parsing it, for any
// spelling, in any order, with addresses that share a cache slot.
func TestPeerAddrAsClientIP(t *testing.T) {
	remotes := []string{"127.0.0.1:40000", "127.0.0.1:40001", "[::1]:40000", "[fe80::1%eth0]:443", "[::ffff:192.0.2.1]:80",
		"garbage", "", "192.0.2.1", "203.0.113.9:1", "10.0.0.1:40000"}
	for i := range 3000 {
		remotes = append(remotes, fmt.Sprintf("198.51.100.%d:%d", i%256, 1024+i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(remotes), func(i, j int) { remotes[i], remotes[j] = remotes[j], remotes[i] })
		for _, remote := range remotes {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = remote
			if got, want := httpapi.PeerAddr(r), geo.ClientIP(r, nil); got != want {
				t.Fatalf("%q: %v, want %v", remote, got, want)
			}
		}
	}
}
