package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
