package httpapi

import (
	"net/http"
	"strings"

	"github.com/streamcart/streamcart/api/compress"
)

// compressMin is the smallest body worth compressing: below it the coding's framing outweighs
// the savings.
const compressMin = 1024

// withCompression compresses JSON and text answers of compressMin bytes or more in the coding
// the client prefers of brotli and gzip (brotli on a tie: smaller): what the widget reads before
// its first paint is part of the bytes a buyer waits for. A body already encoded (the product
// lists, compressed once) passes through; HEAD and bodiless answers are left alone.
func withCompression(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		coding := compress.Prefer(r, "br", "gzip")
		if r.Method == http.MethodHead || coding == "" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		compressTo(w, r, coding, next)
	})
}

// compressTo serves r through next, compressing the answer in coding when worth it: what
// withCompression does once it has chosen the coding and named Accept-Encoding in Vary.
func compressTo(w http.ResponseWriter, r *http.Request, coding string, next http.Handler) {
	cw := &compressResponse{ResponseWriter: w, coding: coding, status: http.StatusOK}
	defer cw.finish()
	next.ServeHTTP(cw, r)
}

// compressedAfterVary is withCompression for a caller that has chosen a coding for r and named
// Accept-Encoding in Vary already.
func compressedAfterVary(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		compressTo(w, r, compress.Prefer(r, "br", "gzip"), next)
	})
}

// compressResponse holds the first compressMin bytes back to decide whether compressing is worth
// it.
type compressResponse struct {
	http.ResponseWriter
	coding  string
	status  int
	held    []byte
	decided bool
	enc     *compress.Writer
}

func (c *compressResponse) WriteHeader(status int) {
	if c.decided {
		return
	}
	c.status = status
	// An event stream goes out as it is written: nothing held back, nothing compressed (a
	// compressor holds bytes until it has enough, and an event would wait for the next).
	if status < 200 || status == http.StatusNoContent || status == http.StatusNotModified || isEventStream(c.Header()) {
		c.decide(false)
	}
}

func (c *compressResponse) Write(p []byte) (int, error) {
	if !c.decided {
		c.held = append(c.held, p...)
		if len(c.held) < compressMin {
			return len(p), nil
		}
		c.decide(compressible(c.Header()))
		return len(p), nil
	}
	if c.enc != nil {
		return c.enc.Write(p)
	}
	return c.ResponseWriter.Write(p)
}

func isEventStream(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")
}

func compressible(h http.Header) bool {
	if h.Get("Content-Encoding") != "" || isEventStream(h) {
		return false
	}
	ct := h.Get("Content-Type")
	return strings.Contains(ct, "json") || strings.HasPrefix(ct, "text/")
}

// decide sends the status and what was held, compressed or not.
func (c *compressResponse) decide(compressed bool) {
	c.decided = true
	if compressed {
		h := c.Header()
		h.Del("Content-Length")
		h.Set("Content-Encoding", c.coding)
		c.enc = compress.NewWriter(c.coding, c.ResponseWriter)
	}
	c.ResponseWriter.WriteHeader(c.status)
	if len(c.held) == 0 {
		return
	}
	if c.enc != nil {
		c.enc.Write(c.held)
	} else {
		c.ResponseWriter.Write(c.held)
	}
	c.held = nil
}

func (c *compressResponse) finish() {
	if !c.decided {
		c.decide(false)
	}
	if c.enc != nil {
		c.enc.Close()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (c *compressResponse) Unwrap() http.ResponseWriter { return c.ResponseWriter }
