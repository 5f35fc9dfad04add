package httpapi_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/httpapi"
)

// TestDateKeptByTheWatchdog: behind CoarseDeadlines every answer carries one Date, the second it
// was answered in (from the watchdog's tick, not a clock read per answer), whatever way its header
// went out; a handler's own Date, or its nil one (no Date at all), is kept; once the listener and
// its last connection close, no date is kept and net/http writes its own again.
func TestDateKeptByTheWatchdog(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const tick = 10 * time.Millisecond
	coarse := httpapi.CoarseDeadlines(ln, tick)
	mux := http.NewServeMux()
	mux.HandleFunc("/write", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	mux.HandleFunc("/status", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/flush", func(w http.ResponseWriter, _ *http.Request) {
		w.(http.Flusher).Flush()
		w.Write([]byte("streamed"))
	})
	mux.HandleFunc("/nothing", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("/own", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", "Mon, 01 Jan 2001 00:00:00 GMT")
		w.Write([]byte("ok"))
	})
	mux.HandleFunc("/none", func(w http.ResponseWriter, _ *http.Request) {
		w.Header()["Date"] = nil
		w.Write([]byte("ok"))
	})
	srv := &http.Server{Handler: httpapi.Observed(mux, httpapi.Observe{Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})}
	go srv.Serve(coarse)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	if httpapi.KeptDate() == "" {
		t.Fatal("no Date kept while a watchdog runs")
	}
	for _, tc := range []struct {
		path string
		want string // "" = the current second
		none bool
	}{
		{path: "/write"}, {path: "/status"}, {path: "/flush"}, {path: "/nothing"},
		{path: "/own", want: "Mon, 01 Jan 2001 00:00:00 GMT"},
		{path: "/none", none: true},
	} {
		before := time.Now().Add(-tick).Truncate(time.Second)
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		after := time.Now()
		dates := resp.Header.Values("Date")
		switch {
		case tc.none:
			if len(dates) != 0 {
				t.Errorf("%s: Date %q, want none", tc.path, dates)
			}
			continue
		case len(dates) != 1:
			t.Errorf("%s: Date %q, want one", tc.path, dates)
			continue
		case tc.want != "":
			if dates[0] != tc.want {
				t.Errorf("%s: Date %q, want the handler's %q", tc.path, dates[0], tc.want)
			}
			continue
		}
		at, err := http.ParseTime(dates[0])
		if err != nil || at.Before(before) || at.After(after) || dates[0] != at.UTC().Format(http.TimeFormat) {
			t.Errorf("%s: Date %q (%v), want the second answered in, between %v and %v", tc.path, dates[0], err, before, after)
		}
	}

	srv.Close() // the listener and every connection
	deadline := time.Now().Add(5 * time.Second)
	for httpapi.KeptDate() != "" && time.Now().Before(deadline) {
		time.Sleep(tick)
	}
	if d := httpapi.KeptDate(); d != "" {
		t.Fatalf("Date %q still kept after the last watchdog stopped", d)
	}
	// Without a watchdog, net/http's own Date.
	rec := httptest.NewRecorder()
	httpapi.Observed(mux, httpapi.Observe{Log: slog.New(slog.NewJSONHandler(io.Discard, nil))}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/write", nil))
	if d, ok := rec.Header()["Date"]; ok {
		t.Fatalf("Date %q set without a watchdog: net/http's to write", d)
	}
}
