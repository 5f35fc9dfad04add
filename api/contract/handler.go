package contract

import (
	"bytes"
	"io"
	"net/http"
)

// Reporter is where a mismatch goes: a *testing.T.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// report is how a mismatch reads: the exchange, what is wrong, where to fix it.
const report = "contract: %s %s → %d: %v\n(fix the design, api/openapidoc or the handler; see docs/api.md, \"The document is checked\")"

// Handler serves next and checks every exchange once it is answered, reporting each mismatch
// to r as "contract: METHOD /path?query → status: what is wrong". The request body is seen as
// next reads it and the answer as next writes it (before any transport undoes compression), so
// what is checked is what went over the wire.
func (c *Checker) Handler(r Reporter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		// The check reads a copy of the request as it came (a handler may change its URL), and
		// next gets another copy reading through a tee: the server's own request keeps its
		// Body, by which it decides to drain or drop what the handler left unread (a 100 MB
		// body refused unread must not be waited for).
		orig := req.Clone(req.Context())
		served := req.Clone(req.Context())
		var in bytes.Buffer
		if req.Body != nil && req.Body != http.NoBody {
			served.Body = teeBody{Reader: io.TeeReader(req.Body, &in), Closer: req.Body}
		}
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, served)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		err := c.Check(req.Context(), Exchange{
			Request: orig, RequestBody: in.Bytes(),
			Status: status, Header: w.Header().Clone(), Body: rec.body.Bytes(),
		})
		if err != nil {
			r.Helper()
			r.Errorf(report, orig.Method, orig.URL.RequestURI(), status, err)
		}
	})
}

type teeBody struct {
	io.Reader
	io.Closer
}

// recorder passes an answer through and keeps a copy of its status and body.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 && status >= 200 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the server's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Transport is Handler on the client's side, for a server in another process: it checks every
// exchange sent through next (nil: http.DefaultTransport) once the answer's body is read.
func (c *Checker) Transport(r Reporter, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		var in []byte
		if req.Body != nil && req.Body != http.NoBody {
			b, err := io.ReadAll(req.Body)
			req.Body.Close()
			if err != nil {
				return nil, err
			}
			in = b
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
		resp, err := next.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(out))
		if err := c.Check(req.Context(), Exchange{Request: req, RequestBody: in, Status: resp.StatusCode, Header: resp.Header, Body: out}); err != nil {
			r.Helper()
			r.Errorf(report, req.Method, req.URL.RequestURI(), resp.StatusCode, err)
		}
		return resp, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
