package openapidoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Error is one error an operation can answer.
type Error struct {
	Name        string
	Description string
	Status      int
	// Custom: a type of its own (price_changed, too_many_attempts); every other error has Goa's
	// ErrorResult body.
	Custom bool
	// Schema is the component schema of a custom error's body when that is its type as is;
	// empty when some of it travels in headers: Goa documents that body at its status.
	Schema string
}

// Completion is what Goa's document lacks.
type Completion struct {
	// Nullable names, per component schema, the properties sent as null when absent.
	Nullable map[string][]string
	// Errors are the design's errors of each operation ("POST /checkout/api/orders"): Goa
	// documents one error per status, the last declared, so the others are lost.
	Errors map[string][]Error
	// RateLimited are the operations limited per address (api/httpapi/limit.go).
	RateLimited []string
	// EventStreams describe, per operation, the text/event-stream its 200 answers: Goa writes
	// a bodiless stream (SkipResponseBodyEncodeDecode) as a binary string, saying nothing of
	// the events.
	EventStreams map[string]EventStream
}

// EventStream is what a text/event-stream answer carries.
type EventStream struct {
	// Description says what the stream carries: the events, their ids and data, when it ends.
	// (No example: an event's "id:" field reads as lorem ipsum to the document's example check.)
	Description string
}

// eventStreamType is the media type of Server-Sent Events.
const eventStreamType = "text/event-stream"

// ErrDesign means the document and the design disagree: an operation without its errors, or a
// custom error whose body Goa did not document.
var ErrDesign = errors.New("openapidoc: document and design disagree")

// The errors of the HTTP layer, answered before a generated server sees the request
// (api/storefront, api/httpapi/body.go, limit.go and server.go).
var (
	errControlChar      = Error{"bad_request", "A control character (U+0000–U+001F, U+007F) in the path, the query or a string of the body; Goa's validation of parameters and bodies answers 400 too, named missing_field, missing_payload, invalid_field_type, invalid_enum_value, invalid_format, invalid_pattern, invalid_range, invalid_length or decode_payload.", 400, false, ""}
	errUnknownStore     = Error{"unknown_store", "The Streamcart-Store key names no storefront.", 401, false, ""}
	errOriginNotAllowed = Error{"origin_not_allowed", "A write sent by a page of another site that the storefront (without a key: the shop itself) does not allow.", 403, false, ""}
	errBodyTooLarge     = Error{"body_too_large", "The request body is larger than 64 KB.", 413, false, ""}
	errRateLimited      = Error{"rate_limited", "Too many requests from this address; retry after Retry-After seconds.", 429, false, ""}
	errFault            = Error{"fault", "An internal error, logged with the body's id; nothing of it reaches the client.", 500, false, ""}
)

// StoreHeader is the storefront key header (api/storefront.Header).
const StoreHeader = "Streamcart-Store"

const (
	errorSchema = "#/components/schemas/Error"
	storeParam  = "#/components/parameters/StreamcartStore"
)

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch"}

// Complete returns doc completed with c: nullable properties; every object of an answer closed
// (additionalProperties: false); `security: []` on every public
// operation; the Streamcart-Store header on every operation; every error an operation can
// answer (the design's and the HTTP layer's), grouped by status, as the server sends it
// (application/json, Goa's ErrorResult body unless the error has its own type); and no
// component schema left unused. The output is compact JSON with sorted keys, so the same input
// always gives the same bytes.
func Complete(doc []byte, c Completion) ([]byte, error) {
	var root map[string]any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		return nil, fmt.Errorf("openapidoc: %w", err)
	}
	if err := markNullable(root, c.Nullable); err != nil {
		return nil, err
	}
	comps, _ := root["components"].(map[string]any)
	if comps == nil {
		comps = map[string]any{}
		root["components"] = comps
	}
	params, _ := comps["parameters"].(map[string]any)
	if params == nil {
		params = map[string]any{}
		comps["parameters"] = params
	}
	params["StreamcartStore"] = map[string]any{
		"name": StoreHeader, "in": "header", "required": false,
		"description": "The storefront's publishable key (the widget sends it); without it the request belongs to the default storefront. An unknown key answers 401 unknown_store; a write from another site that the storefront does not allow, 403 origin_not_allowed.",
		"schema":      map[string]any{"type": "string", "pattern": "^pk_[A-Za-z0-9_]{1,100}$", "example": "pk_live_demo"},
	}
	if schemas, ok := comps["schemas"].(map[string]any); ok {
		if e, ok := schemas["Error"].(map[string]any); ok {
			// Goa names the shared schema after the first error that uses it.
			e["description"] = "The body of an error: name is stable (a translation key), message is for people, id finds the log line."
		}
	}
	limited := map[string]bool{}
	for _, k := range c.RateLimited {
		limited[k] = true
	}
	paths, _ := root["paths"].(map[string]any)
	seen := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[p].(map[string]any)
		for _, m := range methods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			key := strings.ToUpper(m) + " " + p
			seen[key] = true
			designErrs, ok := c.Errors[key]
			if !ok {
				return nil, fmt.Errorf("%w: %s has no list of errors", ErrDesign, key)
			}
			if _, ok := op["security"]; !ok {
				op["security"] = []any{}
			}
			ps, _ := op["parameters"].([]any)
			op["parameters"] = append(ps, map[string]any{"$ref": storeParam})
			errs := slices.Clone(designErrs)
			errs = append(errs, errControlChar, errUnknownStore, errFault)
			if m != "get" && m != "head" && m != "options" {
				errs = append(errs, errOriginNotAllowed)
			}
			if _, ok := op["requestBody"]; ok {
				errs = append(errs, errBodyTooLarge)
			}
			if limited[key] {
				errs = append(errs, errRateLimited)
			}
			if err := setErrors(key, op, errs); err != nil {
				return nil, err
			}
			if es, ok := c.EventStreams[key]; ok {
				mt, ok := dig(op, "responses", "200", "content", eventStreamType).(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%w: %s answers no %s", ErrDesign, key, eventStreamType)
				}
				mt["schema"] = map[string]any{"type": "string", "description": es.Description}
				if r, ok := dig(op, "responses", "200").(map[string]any); ok {
					r["description"] = "The stream of events (" + eventStreamType + ")."
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Errors)) {
		if !seen[k] {
			return nil, fmt.Errorf("%w: %s is not in the document", ErrDesign, k)
		}
	}
	for _, k := range c.RateLimited {
		if !seen[k] {
			return nil, fmt.Errorf("%w: rate-limited %s is not in the document", ErrDesign, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.EventStreams)) {
		if !seen[k] {
			return nil, fmt.Errorf("%w: event stream %s is not in the document", ErrDesign, k)
		}
	}
	dropUnused(root)
	closeAnswers(root)
	var out bytes.Buffer
	e := json.NewEncoder(&out)
	e.SetEscapeHTML(false)
	if err := e.Encode(root); err != nil {
		return nil, fmt.Errorf("openapidoc: %w", err)
	}
	return out.Bytes(), nil
}

// setErrors replaces the error responses Goa wrote for op with one per status listing every
// error of errs at that status (the first of a name wins: the design's before the HTTP layer's).
func setErrors(key string, op map[string]any, errs []Error) error {
	resps, _ := op["responses"].(map[string]any)
	if resps == nil {
		resps = map[string]any{}
		op["responses"] = resps
	}
	byStatus := map[int][]Error{}
	names := map[string]bool{}
	for _, e := range errs {
		if names[e.Name] {
			continue
		}
		names[e.Name] = true
		byStatus[e.Status] = append(byStatus[e.Status], e)
	}
	goa := map[int]map[string]any{}
	for s, r := range resps {
		n, err := strconv.Atoi(s)
		if err != nil || n < 400 {
			continue
		}
		goa[n], _ = r.(map[string]any)
		delete(resps, s)
	}
	for _, status := range slices.Sorted(maps.Keys(byStatus)) {
		var (
			lines   []string
			refs    []any
			headers = map[string]any{}
			seen    = map[string]bool{}
		)
		for _, e := range byStatus[status] {
			lines = append(lines, e.Name+": "+e.Description)
			schema := map[string]any{"$ref": errorSchema}
			switch {
			case e.Schema != "":
				schema = map[string]any{"$ref": "#/components/schemas/" + e.Schema}
			case e.Custom:
				g := goa[status]
				desc, _ := g["description"].(string)
				if !strings.HasPrefix(desc, e.Name+":") {
					return fmt.Errorf("%w: %s: Goa documents %q at %d, not %s (declare the custom error last at its status)", ErrDesign, key, desc, status, e.Name)
				}
				content, _ := g["content"].(map[string]any)
				for _, ct := range slices.Sorted(maps.Keys(content)) {
					schema, _ = dig(content, ct, "schema").(map[string]any)
				}
				if schema["$ref"] == errorSchema {
					return fmt.Errorf("%w: %s: Goa documents %s with Goa's error body at %d", ErrDesign, key, e.Name, status)
				}
				if h, ok := g["headers"].(map[string]any); ok {
					maps.Copy(headers, h)
				}
			}
			if _, ok := headers["Retry-After"]; !ok && e.Name == errRateLimited.Name {
				headers["Retry-After"] = map[string]any{
					"description": "Seconds until a request may be sent again",
					"schema":      map[string]any{"type": "integer", "example": 60},
				}
			}
			ref, _ := schema["$ref"].(string)
			if ref == "" || !seen[ref] {
				seen[ref] = true
				refs = append(refs, schema)
			}
		}
		schema := refs[0]
		if len(refs) > 1 {
			schema = map[string]any{"anyOf": refs} // bodies overlap (both have name and message)
		}
		r := map[string]any{
			"description": strings.Join(lines, "\n\n"),
			"content":     map[string]any{"application/json": map[string]any{"schema": schema}},
		}
		if len(headers) > 0 {
			r["headers"] = headers
		}
		resps[strconv.Itoa(status)] = r
	}
	return nil
}

// closeAnswers sets additionalProperties: false on every object schema an answer uses (through
// $ref too) that lists its properties and says nothing of others: Goa leaves them open, so a
// property the design does not have would pass a validator, and the document says every field
// the server sends. The parts of an allOf of several are left open (no object could match two
// closed parts); request bodies are left as they are (the server ignores what it does not read).
func closeAnswers(root map[string]any) {
	schemas, _ := dig(root, "components", "schemas").(map[string]any)
	seen := map[string]bool{}
	var walk func(v any, allOfPart bool)
	walk = func(v any, allOfPart bool) {
		s, ok := v.(map[string]any)
		if !ok {
			return
		}
		if ref, ok := s["$ref"].(string); ok {
			if name, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok && !seen[name] {
				seen[name] = true
				walk(schemas[name], allOfPart)
			}
			return
		}
		props, _ := s["properties"].(map[string]any)
		if _, open := s["additionalProperties"]; len(props) > 0 && !open && !allOfPart {
			s["additionalProperties"] = false
		}
		for _, p := range props {
			walk(p, false)
		}
		walk(s["items"], false)
		walk(s["additionalProperties"], false)
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			parts, _ := s[k].([]any)
			for _, p := range parts {
				walk(p, k == "allOf" && len(parts) > 1)
			}
		}
	}
	paths, _ := root["paths"].(map[string]any)
	for _, item := range paths {
		for _, m := range methods {
			resps, _ := dig(item, m, "responses").(map[string]any)
			for _, r := range resps {
				content, _ := dig(r, "content").(map[string]any)
				for _, mt := range content {
					walk(dig(mt, "schema"), false)
				}
			}
		}
	}
}

// dropUnused deletes the component schemas nothing refers to (Goa writes some for error types
// whose bodies it documents under another name).
func dropUnused(root map[string]any) {
	comps, _ := root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	if schemas == nil {
		return
	}
	used := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				name, ok := strings.CutPrefix(ref, "#/components/schemas/")
				if ok && !used[name] {
					used[name] = true
					walk(schemas[name])
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for k, v := range root {
		if k != "components" {
			walk(v)
		}
	}
	for k, v := range comps {
		if k != "schemas" {
			walk(v)
		}
	}
	for name := range schemas {
		if !used[name] {
			delete(schemas, name)
		}
	}
}
