package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/logbuf"
)

// newLogger builds the process logger from STREAMCART_LOG_LEVEL (debug, info, warn or error;
// default info) and STREAMCART_LOG_FORMAT (json, the default, one object a line for a log
// collector; or text, for a terminal). A value outside those stops the start, naming it. Lines
// go out through w's buffer, warnings and errors at once; for the JSON format the writer under
// the handler is returned too, where the access lines are written directly (app.Config.LogJSON).
func newLogger(w *logbuf.Writer, level, format string) (*slog.Logger, io.Writer, error) {
	var lv slog.Level
	switch strings.ToLower(level) {
	case "", "info":
		lv = slog.LevelInfo
	case "debug":
		lv = slog.LevelDebug
	case "warn":
		lv = slog.LevelWarn
	case "error":
		lv = slog.LevelError
	default:
		return nil, nil, fmt.Errorf("STREAMCART_LOG_LEVEL=%q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	// Lines logged within a request carry its id, as its access line does.
	switch strings.ToLower(format) {
	case "", "json":
		return slog.New(httpapi.LogRequestID(logbuf.Urgent(slog.NewJSONHandler(w, opts), w))), w, nil
	case "text":
		return slog.New(httpapi.LogRequestID(logbuf.Urgent(slog.NewTextHandler(w, opts), w))), nil, nil
	}
	return nil, nil, fmt.Errorf("STREAMCART_LOG_FORMAT=%q: want json or text", format)
}
