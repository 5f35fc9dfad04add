// Package contract checks HTTP exchanges against the served OpenAPI document
// (api/httpapi/openapi3.json) with kin-openapi's openapi3filter: the API tests wrap their server
// in Handler, so every answer the tests provoke is held to the document a client is generated
// from. It is test machinery: only tests import it.
package contract

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Checker holds the document's operations.
type Checker struct {
	routes routers.Router
}

// ErrDocument means the document cannot be loaded or is not valid OpenAPI.
var ErrDocument = errors.New("contract: bad document")

// playlist, eventStream and svg are the media types the API sends that openapi3filter does not
// decode by itself: all are text.
const (
	playlist    = "audio/x-mpegurl"
	eventStream = "text/event-stream"
	svg         = "image/svg+xml"
)

var register sync.Once

// New loads doc, which must be valid OpenAPI 3. Its servers' hosts are dropped and their paths
// kept, so the document's paths match on any test server's address under the same base path.
// Answers are held to doc as it is: api/openapidoc closes the objects of every answer
// (additionalProperties: false), so a field the document does not name is reported.
func New(doc []byte) (*Checker, error) {
	register.Do(func() {
		openapi3filter.RegisterBodyDecoder(playlist, openapi3filter.RegisteredBodyDecoder("text/plain"))
		openapi3filter.RegisterBodyDecoder(eventStream, openapi3filter.RegisteredBodyDecoder("text/plain"))
		openapi3filter.RegisterBodyDecoder(svg, openapi3filter.RegisteredBodyDecoder("text/plain"))
	})
	t, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDocument, err)
	}
	if err := t.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDocument, err)
	}
	for _, s := range t.Servers {
		u, err := url.Parse(s.URL)
		if err != nil {
			return nil, fmt.Errorf("%w: server %q: %w", ErrDocument, s.URL, err)
		}
		s.URL = u.Path
		if s.URL == "" {
			s.URL = "/"
		}
	}
	r, err := gorillamux.NewRouter(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDocument, err)
	}
	return &Checker{routes: r}, nil
}

// Exchange is one request and the answer the server sent.
type Exchange struct {
	Request     *http.Request // its Body is not read: RequestBody holds what the server read
	RequestBody []byte
	Status      int
	Header      http.Header // Content-Encoding gzip or br is undone before the body is read
	Body        []byte
}

// Check reports how the exchange leaves the document, nil when it does not. An answer is
// always checked (its status must be documented, its headers and body must match); the request
// only when the server accepted it (2xx), since refusing what the document does not allow is
// the server's job. An operation the document does not have (the sandbox's pages, the
// providers' webhooks, a path or method the API does not serve) is not checked.
func (c *Checker) Check(ctx context.Context, x Exchange) error {
	route, params, err := c.routes.FindRoute(x.Request)
	if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("route: %w", err)
	}
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults:   true,
	}
	opts.WithCustomSchemaErrorFunc(schemaMessage)
	var errs []error
	if x.Status >= 200 && x.Status < 300 {
		if err := c.checkRequest(ctx, x, opts); err != nil {
			errs = append(errs, fmt.Errorf("request: %w", err))
		}
	}
	body, err := decoded(x.Header, x.Body)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("answer: %w", err))...)
	}
	header := x.Header.Clone()
	header.Del("Content-Encoding")
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: x.Request, PathParams: params, Route: route, Options: opts},
		Status:                 x.Status,
		Header:                 header,
		Options:                opts,
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(ctx, in); err != nil {
		errs = append(errs, fmt.Errorf("answer: %s", message(err)))
	}
	return errors.Join(errs...)
}

func (c *Checker) checkRequest(ctx context.Context, x Exchange, opts *openapi3filter.Options) error {
	req := x.Request.Clone(ctx)
	req.Body = io.NopCloser(bytes.NewReader(x.RequestBody))
	route, params, err := c.routes.FindRoute(req)
	if err != nil {
		return fmt.Errorf("route: %w", err)
	}
	err = openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts})
	if err != nil {
		return errors.New(message(err))
	}
	return nil
}

// decoded undoes the answer's Content-Encoding (the API compresses JSON in gzip or brotli).
func decoded(h http.Header, body []byte) ([]byte, error) {
	var r io.Reader
	switch ce := h.Get("Content-Encoding"); ce {
	case "":
		return body, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		return nil, fmt.Errorf("Content-Encoding %q not understood", ce)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s body: %w", h.Get("Content-Encoding"), err)
	}
	return b, nil
}

// message is a validator's error in one line a reader can act on: the reason and, for each
// value that breaks a schema, where it is and what is wrong, without the schema's dump.
func message(err error) string {
	if me, ok := err.(openapi3.MultiError); ok {
		parts := make([]string, 0, len(me))
		for _, e := range me {
			parts = append(parts, message(e))
		}
		return strings.Join(parts, "; ")
	}
	var reason string
	var inner error
	switch e := err.(type) {
	case *openapi3filter.ResponseError:
		reason, inner = e.Reason, e.Err
	case *openapi3filter.RequestError:
		reason, inner = e.Reason, e.Err
		switch {
		case e.Parameter != nil:
			reason = fmt.Sprintf("parameter %q in %s: %s", e.Parameter.Name, e.Parameter.In, reason)
		case e.RequestBody != nil:
			reason = strings.TrimSpace("body " + reason)
		}
	default:
		return err.Error()
	}
	if inner == nil {
		return reason
	}
	msg := inner.Error()
	var me openapi3.MultiError
	if errors.As(inner, &me) {
		parts := make([]string, 0, len(me))
		for _, e := range me {
			parts = append(parts, e.Error())
		}
		msg = strings.Join(parts, "; ")
	}
	if reason == "" {
		return msg
	}
	return reason + ": " + msg
}

// schemaMessage is one schema error: the JSON pointer of the value, the reason and, for a
// value that is not an object or a list, the value (cut short).
func schemaMessage(e *openapi3.SchemaError) string {
	at := "/" + strings.Join(e.JSONPointer(), "/")
	reason := e.Reason
	if reason == "" {
		reason = "does not match " + e.SchemaField
	}
	if e.Origin != nil {
		reason = e.Origin.Error()
	}
	switch e.Value.(type) {
	case map[string]any, []any:
		return fmt.Sprintf("at %s: %s", at, reason)
	}
	v, _ := json.Marshal(e.Value)
	if len(v) > 120 {
		v = append(v[:117], "..."...)
	}
	return fmt.Sprintf("at %s: %s (value %s)", at, reason, v)
}
