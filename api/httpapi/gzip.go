package httpapi

import (
	"compress/gzip"
	"net/http"
	"strings"

	"github.com/streamcart/streamcart/api/compress"
)

// gzipMin is the smallest body worth compressing: below it gzip's header outweighs the savings.
const gzipMin = 1024

// withGzip compresses JSON and text answers of gzipMin bytes or more for clients that accept it:
// what the widget reads before its first paint is part of the bytes a buyer waits for. A body
// already encoded (the product lists, compressed once) passes through.
func withGzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || !compress.AcceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		gw := &gzipResponse{ResponseWriter: w, status: http.StatusOK}
		defer gw.finish()
		next.ServeHTTP(gw, r)
	})
}

// gzipResponse holds the first gzipMin bytes back to decide whether compressing is worth it.
type gzipResponse struct {
	http.ResponseWriter
	status  int
	held    []byte
	decided bool
	gz      *gzip.Writer
}

func (g *gzipResponse) WriteHeader(status int) {
	if g.decided {
		return
	}
	g.status = status
	if status < 200 || status == http.StatusNoContent || status == http.StatusNotModified {
		g.decide(false)
	}
}

func (g *gzipResponse) Write(p []byte) (int, error) {
	if !g.decided {
		g.held = append(g.held, p...)
		if len(g.held) < gzipMin {
			return len(p), nil
		}
		g.decide(compressible(g.Header()))
		return len(p), nil
	}
	if g.gz != nil {
		return g.gz.Write(p)
	}
	return g.ResponseWriter.Write(p)
}

func compressible(h http.Header) bool {
	if h.Get("Content-Encoding") != "" {
		return false
	}
	ct := h.Get("Content-Type")
	return strings.Contains(ct, "json") || strings.HasPrefix(ct, "text/")
}

// decide sends the status and what was held, through gzip or not.
func (g *gzipResponse) decide(gzipped bool) {
	g.decided = true
	if gzipped {
		h := g.Header()
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		g.gz = compress.NewWriter(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(g.status)
	if len(g.held) == 0 {
		return
	}
	if g.gz != nil {
		g.gz.Write(g.held)
	} else {
		g.ResponseWriter.Write(g.held)
	}
	g.held = nil
}

func (g *gzipResponse) finish() {
	if !g.decided {
		g.decide(false)
	}
	if g.gz != nil {
		g.gz.Close()
		compress.Release(g.gz)
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (g *gzipResponse) Unwrap() http.ResponseWriter { return g.ResponseWriter }
