// Package compress is the one place that reads Accept-Encoding and compresses bodies (gzip and
// brotli), for the API (httpapi) and the pages and assets it hosts (web) alike.
package compress

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Accepts reports whether the request's Accept-Encoding takes coding ("gzip", "br"), as RFC 9110
// §12.5.3 reads it: codings match case-insensitively, a coding named with q=0 is refused, and
// "*" stands for every coding the header does not name. No header takes no coding.
func Accepts(r *http.Request, coding string) bool { return quality(acceptEncoding(r), coding) > 0 }

// Prefer is the coding of offered the request's Accept-Encoding weighs highest (RFC 9110
// §12.5.3, as Accepts reads it), the earlier of offered on a tie; "" for the identity when it
// takes none of them. A client that refuses the identity as well still gets it: a 406 for a
// script helps no one.
func Prefer(r *http.Request, offered ...string) string {
	accept := acceptEncoding(r)
	if accept == "" {
		return ""
	}
	best, bestQ := "", 0.0
	for _, coding := range offered {
		if q := quality(accept, coding); q > bestQ {
			best, bestQ = coding, q
		}
	}
	return best
}

// acceptEncoding is the request's Accept-Encoding (the map itself: the key is canonical).
func acceptEncoding(r *http.Request) string {
	if v := r.Header["Accept-Encoding"]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// quality is the weight the Accept-Encoding value accept gives coding: its own q, else that of
// "*", else 0. "x-gzip" is gzip.
func quality(accept, coding string) float64 {
	named, star := -1.0, 0.0
	for part := range strings.SplitSeq(accept, ",") {
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

// BrotliLevel is the brotli quality of bodies compressed per request: at 5 a JSON answer is a
// few per cent larger than at 11 for a small fraction of the time (docs/benchmarks.md, "API JSON
// in brotli").
const BrotliLevel = 5

// encoder is what gzip.Writer and brotli.Writer have in common.
type encoder interface {
	io.WriteCloser
	Reset(io.Writer)
}

// pools hold a compressor per coding: each holds tens to hundreds of KB of tables, too much to
// make per request.
var pools = map[string]*sync.Pool{
	"gzip": {New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }},
	"br":   {New: func() any { return brotli.NewWriterLevel(nil, BrotliLevel) }},
}

// Writer compresses to another writer in one coding; Close ends the stream and gives the
// compressor back to its pool.
type Writer struct {
	enc  encoder
	pool *sync.Pool
}

// NewWriter is a pooled writer to w in coding, "gzip" or "br" (a name Prefer returns).
func NewWriter(coding string, w io.Writer) *Writer {
	pool, ok := pools[coding]
	if !ok {
		panic("compress: no writer for coding " + strconv.Quote(coding))
	}
	enc := pool.Get().(encoder)
	enc.Reset(w)
	return &Writer{enc: enc, pool: pool}
}

func (w *Writer) Write(p []byte) (int, error) { return w.enc.Write(p) }

// Close ends the compressed stream; the Writer is not to be used after it.
func (w *Writer) Close() error {
	err := w.enc.Close()
	w.pool.Put(w.enc)
	w.enc = nil
	return err
}

// Encode compresses b in coding ("gzip" or "br", a name Prefer returns) at the per-request
// level: bodies made per request or per catalog.
func Encode(coding string, b []byte) []byte {
	var buf bytes.Buffer
	w := NewWriter(coding, &buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Gzip is Encode("gzip", b).
func Gzip(b []byte) []byte { return Encode("gzip", b) }

// GzipSmallest compresses b as small as gzip can: for bodies compressed once and served for the
// life of the process (static assets), where the time is spent once.
func GzipSmallest(b []byte) []byte {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(b)
	gz.Close()
	return buf.Bytes()
}

// BrotliSmallest compresses b as small as brotli can (quality 11): for bodies compressed once
// and served many times (the product lists), where the time is spent once.
func BrotliSmallest(b []byte) []byte {
	var buf bytes.Buffer
	bw := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	bw.Write(b)
	bw.Close()
	return buf.Bytes()
}
