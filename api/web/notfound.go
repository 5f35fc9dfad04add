package web

import (
	"net/http"
	"strings"
)

// BrandedNotFound serves next, except that a bare 404 of it (net/http's NotFound, as a file
// server or the widget's handler write for a path they do not have) becomes page's answer
// instead: the storefront's branded 404 for every path of the binary. Other answers pass as
// they are.
func BrandedNotFound(next, page http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nw := &notFoundWriter{ResponseWriter: w}
		next.ServeHTTP(nw, r)
		if nw.caught {
			h := w.Header()
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "Cache-Control", "Etag", "Last-Modified", "Vary"} {
				h.Del(k)
			}
			page.ServeHTTP(w, r)
		}
	})
}

// notFoundWriter holds back a plain-text 404 (and its body) for BrandedNotFound.
type notFoundWriter struct {
	http.ResponseWriter
	wrote, caught bool
}

func (w *notFoundWriter) WriteHeader(status int) {
	if !w.wrote && status == http.StatusNotFound && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.wrote, w.caught = true, true
		return
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *notFoundWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.caught {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *notFoundWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
