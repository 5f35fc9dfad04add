// Package compress is the one place that reads Accept-Encoding and gzips bodies, for the API
// (httpapi) and the pages and assets it hosts (web) alike.
package compress

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Accepts reports whether the request's Accept-Encoding takes coding ("gzip", "br"), as RFC 9110
// §12.5.3 reads it: codings match case-insensitively, a coding named with q=0 is refused, and
// "*" stands for every coding the header does not name. No header takes no coding.
func Accepts(r *http.Request, coding string) bool { return quality(r, coding) > 0 }

// Prefer is the coding of offered the request's Accept-Encoding weighs highest (RFC 9110
// §12.5.3, as Accepts reads it), the earlier of offered on a tie; "" for the identity when it
// takes none of them. A client that refuses the identity as well still gets it: a 406 for a
// script helps no one.
func Prefer(r *http.Request, offered ...string) string {
	best, bestQ := "", 0.0
	for _, coding := range offered {
		if q := quality(r, coding); q > bestQ {
			best, bestQ = coding, q
		}
	}
	return best
}

// quality is the weight the request's Accept-Encoding gives coding: its own q, else that of
// "*", else 0. "x-gzip" is gzip.
func quality(r *http.Request, coding string) float64 {
	named, star := -1.0, 0.0
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		if strings.EqualFold(name, "x-gzip") {
			name = "gzip"
		}
		switch {
		case strings.EqualFold(name, coding):
			named = weight(params)
		case name == "*":
			star = weight(params)
		}
	}
	if named >= 0 {
		return named
	}
	return star
}

// weight is the q parameter of a coding's parameters ("q=0.8"), 1 when absent, 0 when malformed:
// a coding the client cannot weigh properly is not forced on it.
func weight(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 || q > 1 {
				return 0
			}
			return q
		}
	}
	return 1
}

// AcceptsGzip reports whether the client takes a gzip body (browsers always do).
func AcceptsGzip(r *http.Request) bool { return Accepts(r, "gzip") }

var writers = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// NewWriter is a gzip writer to w from a pool; Release gives it back once closed.
func NewWriter(w io.Writer) *gzip.Writer {
	gz := writers.Get().(*gzip.Writer)
	gz.Reset(w)
	return gz
}

// Release returns a closed writer of NewWriter to the pool.
func Release(gz *gzip.Writer) { writers.Put(gz) }

// Gzip compresses b at the default level: bodies made per request or per catalog.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	gz := NewWriter(&buf)
	defer Release(gz)
	gz.Write(b)
	gz.Close()
	return buf.Bytes()
}

// GzipSmallest compresses b as small as gzip can: for bodies compressed once and served for the
// life of the process (static assets), where the time is spent once.
func GzipSmallest(b []byte) []byte {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(b)
	gz.Close()
	return buf.Bytes()
}
