package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/logbuf"
)

// TestNewLogger: STREAMCART_LOG_LEVEL and STREAMCART_LOG_FORMAT choose the level and the format;
// a value outside them stops the start with a message naming the variable and the value; a
// warning is written at once, an info line when the buffer is flushed.
func TestNewLogger(t *testing.T) {
	cases := []struct {
		level, format string
		err           string
		debug, info   bool // which of a debug and an info line are written
		json          bool
	}{
		{"", "", "", false, true, true},
		{"debug", "json", "", true, true, true},
		{"WARN", "text", "", false, false, false},
		{"error", "", "", false, false, true},
		{"verbose", "", `STREAMCART_LOG_LEVEL="verbose": want debug, info, warn or error`, false, false, false},
		{"info", "logfmt", `STREAMCART_LOG_FORMAT="logfmt": want json or text`, false, false, false},
	}
	for _, c := range cases {
		var out bytes.Buffer
		w := logbuf.New(&out)
		log, logJSON, err := newLogger(w, c.level, c.format)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("level %q format %q: error %v, want %q", c.level, c.format, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("level %q format %q: %v", c.level, c.format, err)
		}
		if (logJSON != nil) != c.json {
			t.Errorf("format %q: JSON writer %v", c.format, logJSON)
		}
		log.Debug("debug line")
		log.Info("info line")
		log.Warn("warn line", "k", "v")
		// A warning goes out at once, with what waited before it.
		if c.level != "error" && !strings.Contains(out.String(), "warn line") {
			t.Errorf("level %q: warning still buffered: %q", c.level, out.String())
		}
		w.Close()
		got := out.String()
		if strings.Contains(got, "debug line") != c.debug || strings.Contains(got, "info line") != c.info {
			t.Errorf("level %q: wrote %q", c.level, got)
		}
		last := strings.TrimSpace(got[strings.LastIndex(strings.TrimSpace(got), "\n")+1:])
		if c.level != "error" && (json.Valid([]byte(last)) != c.json) {
			t.Errorf("format %q: line %q (JSON: %v)", c.format, last, c.json)
		}
	}
}
