package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	goahttp "goa.design/goa/v3/http"
	goa "goa.design/goa/v3/pkg"

	genadmincatalog "github.com/streamcart/streamcart/gen/admin_catalog"
	genadminpromotions "github.com/streamcart/streamcart/gen/admin_promotions"
	genadminsession "github.com/streamcart/streamcart/gen/admin_session"
	admincatalogsrv "github.com/streamcart/streamcart/gen/http/admin_catalog/server"
	adminpromotionssrv "github.com/streamcart/streamcart/gen/http/admin_promotions/server"
	adminsessionsrv "github.com/streamcart/streamcart/gen/http/admin_session/server"
	ordersrv "github.com/streamcart/streamcart/gen/http/order/server"
	resellerssrv "github.com/streamcart/streamcart/gen/http/resellers/server"
	sessionsrv "github.com/streamcart/streamcart/gen/http/session/server"
	genorder "github.com/streamcart/streamcart/gen/order"
	genresellers "github.com/streamcart/streamcart/gen/resellers"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// MaxBody bounds a request body: the API's largest payload (an order) is well under 4 KB, so
// 64 KB leaves room while one request can no longer hold the server's memory. Webhooks keep
// their own limit (api/payment).
const MaxBody = 64 << 10

// maxQuoted is how much of a client's input an error message may repeat.
const maxQuoted = 100

// Stable error names and messages of the request guards.
const (
	nameBodyTooLarge = "body_too_large"
	nameBadRequest   = "bad_request"
	msgBodyTooLarge  = "The request body is larger than 64 KB."
	msgControlChar   = "The request contains a control character."
	msgTrailingData  = "The request body must be one JSON value with nothing after it."
)

func errBodyTooLarge() error { return goa.PermanentError(nameBodyTooLarge, msgBodyTooLarge) }
func errControlChar() error  { return goa.PermanentError(nameBadRequest, msgControlChar) }
func errTrailingData() error { return goa.PermanentError(nameBadRequest, msgTrailingData) }

// boundBodies refuses a body announced over MaxBody before reading any of it and cuts a longer
// chunked body at MaxBody (the decoder then answers 413). Webhooks are left alone: they verify
// the raw body under their own limit.
func boundBodies(next http.Handler, skip func(path string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if skip(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > MaxBody {
			writeError(w, r, http.StatusRequestEntityTooLarge, errBodyTooLarge())
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// RefuseControl answers 400 bad_request to a request with a control character in its path,
// its query or any header value, before any route sees it: the shop wraps its whole handler
// (API, webhooks, pages, widget files, metrics) in it once, so no route can be mounted outside
// it. net/http already refuses raw control bytes in the request line and every control
// character but the tab in headers; what is left is a percent-escaped one in the path or the
// query, and a tab in a header. One pass over the bytes, no allocation on a clean request: the
// product list is the hottest read.
func RefuseControl(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hasControlText(r.URL.Path) || escapedControl(r.URL.RawQuery) || headerHasControl(r.Header) {
			writeError(w, r, http.StatusBadRequest, errControlChar())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// escapedControl reports a control character in a raw query, as a byte or percent-escaped
// (%00, %0d%0a, %7F); an invalid escape is left to the query's reader.
func escapedControl(q string) bool {
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c == '%' && i+2 < len(q) {
			hi, lo := unhex(q[i+1]), unhex(q[i+2])
			if hi < 0 || lo < 0 {
				continue
			}
			c = byte(hi<<4 | lo)
			i += 2
		}
		if c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// headerHasControl reports a control character in a header value (HTTP lets one through, the
// tab): no header the shop reads (an Idempotency-Key kept with its order, a storefront key, a
// cookie, a signature) holds one.
func headerHasControl(h http.Header) bool {
	for _, vs := range h {
		for _, v := range vs {
			if hasControlText(v) {
				return true
			}
		}
	}
	return false
}

// hasControlText reports a C0 control character (U+0000–U+001F) or DEL (U+007F): no name,
// address, code or id contains one, and a NUL is refused by PostgreSQL's text type.
func hasControlText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// checkedDecoder wraps the request decoder, for every method in one place: a body cut by the
// size limit becomes 413 body_too_large, a control character in any string of the body
// becomes 400 bad_request, whether the payload declares that member or not (a JSON body is
// scanned as text; other content types are checked once decoded), and so does anything but
// whitespace after a JSON body's one value: json.Decoder stops after the first, so `{…}x` or
// `{…}{…}` would be read as `{…}` by the handler while any other reader sees an error.
func checkedDecoder(next func(*http.Request) goahttp.Decoder) func(*http.Request) goahttp.Decoder {
	return func(r *http.Request) goahttp.Decoder {
		// The console's catalog source is a file: its line breaks and tabs are its text. Its
		// body is checked as text only (the decoded value holds the same strings).
		isJSON := jsonBody(r)
		file := isJSON && (r.Method == http.MethodPut && r.URL.Path == adminPrefix+"catalog" ||
			r.Method == http.MethodPost && (r.URL.Path == adminPrefix+"catalog/check" || r.URL.Path == adminPrefix+"catalog/draft"))
		var raw []byte
		if isJSON {
			var err error
			raw, err = io.ReadAll(r.Body)
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge):
				return failing(errBodyTooLarge())
			case err != nil:
				return failing(err)
			case jsonControl(raw, file):
				return failing(errControlChar())
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
		}
		d := next(r)
		return goahttp.EncodingFunc(func(v any) error {
			if err := d.Decode(v); err != nil {
				if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
					return errBodyTooLarge()
				}
				return err
			}
			if isJSON && !onlySpaceAfter(d, raw) {
				return errTrailingData()
			}
			if !file && hasControlValue(reflect.ValueOf(v), 0) {
				return errControlChar()
			}
			return nil
		})
	}
}

// onlySpaceAfter reports whether raw holds nothing but JSON whitespace after the value d (a
// json.Decoder over raw) has just decoded. requestDecoder reads every body jsonBody names with
// a json.Decoder; any other decoder here would be a new wrapping, refused until it tells where
// its value ends.
func onlySpaceAfter(d goahttp.Decoder, raw []byte) bool {
	o, ok := d.(interface{ InputOffset() int64 })
	if !ok {
		return false
	}
	end := o.InputOffset()
	for _, c := range raw[end:] {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

func failing(err error) goahttp.Decoder {
	return goahttp.EncodingFunc(func(any) error { return err })
}

// jsonBody reports the content types requestDecoder reads as JSON.
func jsonBody(r *http.Request) bool {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "", "application/json", "application/x-www-form-urlencoded", "text/plain":
		return true
	}
	return strings.HasSuffix(ct, "+json")
}

// jsonControl reports a control character in a string of a JSON text: a raw DEL, or an
// escape standing for one (\b \f \n \r \t, \u0000–\u001f, \u007f). Raw C0 bytes need no
// check: inside a string they are a syntax error, outside one whitespace. lines lets line
// breaks and tabs (\n \r \t) through, for a body that carries a file (the console's
// catalog source).
func jsonControl(b []byte, lines bool) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 0x7f:
			return true
		case '\\':
			if i+1 == len(b) {
				return false
			}
			switch b[i+1] {
			case 'n', 'r', 't':
				if !lines {
					return true
				}
			case 'b', 'f':
				return true
			case 'u':
				if i+6 <= len(b) {
					if v, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32); err == nil && (v < 0x20 || v == 0x7f) {
						return true
					}
				}
			}
			i++ // the escaped character (a quote or a backslash) is not a delimiter
		}
	}
	return false
}

// hasControlValue walks a decoded payload (pointers, structs, slices, maps, strings).
func hasControlValue(v reflect.Value, depth int) bool {
	if depth > 32 {
		return false // payload types are a few levels deep; a deeper value is not one of ours
	}
	switch v.Kind() {
	case reflect.String:
		return hasControlText(v.String())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasControlValue(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && hasControlValue(v.Field(i), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false // bytes, not text
		}
		for i := range v.Len() {
			if hasControlValue(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if hasControlValue(it.Key(), depth+1) || hasControlValue(it.Value(), depth+1) {
				return true
			}
		}
	}
	return false
}

// errorResponse is Goa's error body with the status chosen here for errors the design does not
// list (body_too_large); design errors keep the status their generated encoder writes.
type errorResponse struct {
	*goahttp.ErrorResponse
	status int
}

func (e errorResponse) StatusCode() int { return e.status }

// formatError is the generated servers' error formatter: Goa's body, with every long word of
// the message (a quoted value, a number) cut to maxQuoted characters, so a 64 KB invalid value
// is not sent back.
func formatError(ctx context.Context, err error) goahttp.Statuser {
	// The design errors with their own types: their generated bodies (message and fresh quote;
	// message and wait) hold no client input.
	if pc := new(genorder.PriceChanged); errors.As(err, &pc) {
		return priceChangedBody{ordersrv.NewCreatePriceChangedResponseBody(pc)}
	}
	if pc := new(genresellers.PriceChanged); errors.As(err, &pc) {
		return resellerPriceChangedBody{resellerssrv.NewOrderPriceChangedResponseBody(pc)}
	}
	if ta := new(gensession.TooManyAttempts); errors.As(err, &ta) {
		return tooManyAttemptsBody{sessionsrv.NewCreateTooManyAttemptsResponseBody(ta)}
	}
	if ta := new(genadminsession.TooManyAttempts); errors.As(err, &ta) {
		return adminTooManyAttemptsBody{adminsessionsrv.NewCreateTooManyAttemptsResponseBody(ta)}
	}
	if rl := new(genorder.RateLimited); errors.As(err, &rl) {
		return rateLimitedBody{ordersrv.NewEventsRateLimitedResponseBody(rl)}
	}
	if ic := new(genadmincatalog.InvalidCatalog); errors.As(err, &ic) {
		return invalidCatalogBody{admincatalogsrv.NewPutInvalidCatalogResponseBody(ic)}
	}
	if ic := new(genadminpromotions.InvalidCatalog); errors.As(err, &ic) {
		// Create's and update's bodies are the same shape.
		return invalidCatalogBody{adminpromotionssrv.NewCreateInvalidCatalogResponseBody(ic)}
	}
	resp, ok := goahttp.NewErrorResponse(ctx, err).(*goahttp.ErrorResponse)
	if !ok {
		return goahttp.NewErrorResponse(ctx, err)
	}
	resp.Message = shortenQuotes(resp.Message)
	status := resp.StatusCode()
	if resp.Name == nameBodyTooLarge {
		status = http.StatusRequestEntityTooLarge
	}
	return errorResponse{resp, status}
}

type priceChangedBody struct {
	*ordersrv.CreatePriceChangedResponseBody
}

func (priceChangedBody) StatusCode() int { return http.StatusConflict }

// resellerPriceChangedBody is a reseller order's price_changed (WHMCS mode): the same shape.
type resellerPriceChangedBody struct {
	*resellerssrv.OrderPriceChangedResponseBody
}

func (resellerPriceChangedBody) StatusCode() int { return http.StatusConflict }

// invalidCatalogBody is a refused catalog's problems, each with its line and field path.
type invalidCatalogBody struct{ body any }

func (invalidCatalogBody) StatusCode() int { return http.StatusBadRequest }

func (b invalidCatalogBody) MarshalJSON() ([]byte, error) { return json.Marshal(b.body) }

type adminTooManyAttemptsBody struct {
	*adminsessionsrv.CreateTooManyAttemptsResponseBody
}

func (adminTooManyAttemptsBody) StatusCode() int { return http.StatusTooManyRequests }

type tooManyAttemptsBody struct {
	*sessionsrv.CreateTooManyAttemptsResponseBody
}

func (tooManyAttemptsBody) StatusCode() int { return http.StatusTooManyRequests }

// rateLimitedBody is an order stream refused for the caps (its Retry-After is a header).
type rateLimitedBody struct {
	*ordersrv.EventsRateLimitedResponseBody
}

func (rateLimitedBody) StatusCode() int { return http.StatusTooManyRequests }

// shortenQuotes cuts every run of non-space characters longer than maxQuoted (Goa quotes the
// offending value with %q, json repeats a bad number as is) to maxQuoted characters and "…".
func shortenQuotes(msg string) string {
	if len(msg) <= maxQuoted {
		return msg
	}
	var b strings.Builder
	for len(msg) > 0 {
		i := strings.IndexByte(msg, ' ')
		word := msg
		if i >= 0 {
			word = msg[:i+1]
		}
		msg = msg[len(word):]
		if utf8.RuneCountInString(strings.TrimSuffix(word, " ")) <= maxQuoted {
			b.WriteString(word)
			continue
		}
		n := 0
		for j := range word {
			if n == maxQuoted {
				b.WriteString(word[:j])
				break
			}
			n++
		}
		b.WriteString("…")
		if strings.HasSuffix(word, " ") {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// writeError answers outside a generated server (guards in front of the mux) with the body
// shape of every other error of the API.
func writeError(w http.ResponseWriter, r *http.Request, status int, err error) {
	body := goahttp.NewErrorResponse(r.Context(), err)
	w.Header().Set("Content-Type", "application/json")
	var se *goa.ServiceError
	if errors.As(err, &se) {
		w.Header().Set("goa-error", se.Name)
	}
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}
