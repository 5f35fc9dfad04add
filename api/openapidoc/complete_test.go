package openapidoc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/openapidoc"
)

// goaDoc is a document as Goa writes it: a public and a secured operation, Goa's error content
// type, one error per status (the last declared), and a body schema nothing refers to.
const goaDoc = `{"openapi":"3.0.3","paths":{
	"/api/orders":{"post":{"security":[{"session":[]}],"requestBody":{"content":{"application/json":{"schema":{"type":"object"}}}},
		"responses":{"201":{"description":"Created"},
			"409":{"description":"trial_used: no more trials","content":{"application/vnd.goa.error":{"schema":{"$ref":"#/components/schemas/Error"}}}},
			"429":{"description":"slow_down: wait","headers":{"Retry-After":{"schema":{"type":"integer"}}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/SlowDown2"}}}}}}},
	"/api/geo":{"get":{"responses":{"200":{"description":"OK"}}}}},
	"components":{"schemas":{
		"Error":{"type":"object"},"PriceChanged":{"type":"object"},"SlowDown":{"type":"object"},"SlowDown2":{"type":"object"},"Unused":{"type":"object"}}}}`

type response struct {
	Description string                                      `json:"description"`
	Headers     map[string]any                              `json:"headers"`
	Content     map[string]struct{ Schema json.RawMessage } `json:"content"`
}

type operation struct {
	Security   *[]any              `json:"security"`
	Parameters []map[string]any    `json:"parameters"`
	Responses  map[string]response `json:"responses"`
}

func completion() openapidoc.Completion {
	return openapidoc.Completion{
		Errors: map[string][]openapidoc.Error{
			"POST /api/orders": {
				{Name: "unauthorized", Description: "no token", Status: 401},
				{Name: "price_changed", Description: "new quote", Status: 409, Custom: true, Schema: "PriceChanged"},
				{Name: "trial_used", Description: "no more trials", Status: 409},
				{Name: "slow_down", Description: "wait", Status: 429, Custom: true},
			},
			"GET /api/geo": {},
		},
		RateLimited: []string{"POST /api/orders"},
	}
}

func TestComplete(t *testing.T) {
	out, err := openapidoc.Complete([]byte(goaDoc), completion())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths      map[string]map[string]operation `json:"paths"`
		Components struct {
			Schemas    map[string]any `json:"schemas"`
			Parameters map[string]struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	orders, geo := doc.Paths["/api/orders"]["post"], doc.Paths["/api/geo"]["get"]
	if geo.Security == nil || len(*geo.Security) != 0 {
		t.Errorf("public operation security = %v, want []", geo.Security)
	}
	if orders.Security == nil || len(*orders.Security) != 1 {
		t.Errorf("secured operation security = %v, want its scheme", orders.Security)
	}
	if p := doc.Components.Parameters["StreamcartStore"]; p.Name != "Streamcart-Store" || p.In != "header" {
		t.Errorf("StreamcartStore parameter = %+v", p)
	}
	for _, op := range []operation{orders, geo} {
		if len(op.Parameters) != 1 || op.Parameters[0]["$ref"] != "#/components/parameters/StreamcartStore" {
			t.Errorf("parameters = %v, want the Streamcart-Store header", op.Parameters)
		}
	}
	tests := []struct {
		op           operation
		status, desc string
		schema       string
		retryAfter   bool
	}{
		{orders, "401", "unauthorized: no token\n\nunknown_store: The Streamcart-Store key names no storefront.", `{"$ref":"#/components/schemas/Error"}`, false},
		{orders, "409", "price_changed: new quote\n\ntrial_used: no more trials", `{"anyOf":[{"$ref":"#/components/schemas/PriceChanged"},{"$ref":"#/components/schemas/Error"}]}`, false},
		{orders, "429", "slow_down: wait\n\nrate_limited: Too many requests from this address; retry after Retry-After seconds.", `{"anyOf":[{"$ref":"#/components/schemas/SlowDown2"},{"$ref":"#/components/schemas/Error"}]}`, true},
		{orders, "403", "origin_not_allowed: A write sent by a page of another site that the storefront (without a key: the shop itself) does not allow.", `{"$ref":"#/components/schemas/Error"}`, false},
		{orders, "413", "body_too_large: The request body is larger than 64 KB.", `{"$ref":"#/components/schemas/Error"}`, false},
		{geo, "500", "fault: An internal error, logged with the body's id; nothing of it reaches the client.", `{"$ref":"#/components/schemas/Error"}`, false},
	}
	for _, tt := range tests {
		r, ok := tt.op.Responses[tt.status]
		if !ok {
			t.Errorf("no %s answer", tt.status)
			continue
		}
		if r.Description != tt.desc {
			t.Errorf("%s description %q, want %q", tt.status, r.Description, tt.desc)
		}
		if c, ok := r.Content["application/json"]; !ok || len(r.Content) != 1 || string(c.Schema) != tt.schema {
			t.Errorf("%s content %v, want application/json %s", tt.status, r.Content, tt.schema)
		}
		if _, ok := r.Headers["Retry-After"]; ok != tt.retryAfter {
			t.Errorf("%s Retry-After %v, want %v", tt.status, ok, tt.retryAfter)
		}
	}
	for _, s := range []string{"403", "413", "429"} {
		if _, ok := geo.Responses[s]; ok {
			t.Errorf("GET without a body or a limit answers %s", s)
		}
	}
	for name, want := range map[string]bool{"Error": true, "PriceChanged": true, "SlowDown2": true, "SlowDown": false, "Unused": false} {
		if _, ok := doc.Components.Schemas[name]; ok != want {
			t.Errorf("schema %s kept %v, want %v", name, ok, want)
		}
	}
	again, _ := openapidoc.Complete([]byte(goaDoc), completion())
	if !bytes.Equal(out, again) {
		t.Error("two runs gave different bytes")
	}
}

// The design and the document must agree: each mismatch stops make gen rather than documenting
// something else than the server does.
func TestCompleteRefusesADisagreeingDesign(t *testing.T) {
	tests := []struct {
		name   string
		change func(*openapidoc.Completion)
	}{
		{"an operation without its errors", func(c *openapidoc.Completion) { delete(c.Errors, "GET /api/geo") }},
		{"errors of an operation not in the document", func(c *openapidoc.Completion) { c.Errors["GET /api/gone"] = nil }},
		{"a rate limit on an operation not in the document", func(c *openapidoc.Completion) { c.RateLimited = append(c.RateLimited, "GET /api/gone") }},
		{"an event stream of an operation not in the document", func(c *openapidoc.Completion) {
			c.EventStreams = map[string]openapidoc.EventStream{"GET /api/gone": {Description: "events"}}
		}},
		{"an event stream of an operation answering no text/event-stream", func(c *openapidoc.Completion) {
			c.EventStreams = map[string]openapidoc.EventStream{"GET /api/geo": {Description: "events"}}
		}},
		{"a custom body Goa did not document at its status", func(c *openapidoc.Completion) {
			c.Errors["POST /api/orders"] = append(c.Errors["POST /api/orders"], openapidoc.Error{Name: "held", Status: 409, Custom: true})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := completion()
			tt.change(&c)
			if _, err := openapidoc.Complete([]byte(goaDoc), c); !errors.Is(err, openapidoc.ErrDesign) {
				t.Fatalf("err = %v, want ErrDesign", err)
			}
		})
	}
}

// TestCompleteClosesAnswers: every object an answer uses lists all it may hold (Goa leaves them
// open, and a field the server sends that the design lacks would pass a validator), through
// $ref, items and anyOf; maps, the parts of an allOf of several and request bodies stay open.
func TestCompleteClosesAnswers(t *testing.T) {
	const in = `{"openapi":"3.0.3","paths":{"/api/x":{"post":{
		"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/In"}}}},
		"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Out"}}}}}}}},
	"components":{"schemas":{
		"In":{"type":"object","properties":{"a":{"type":"string"}}},
		"Out":{"type":"object","properties":{
			"list":{"type":"array","items":{"$ref":"#/components/schemas/Item"}},
			"map":{"type":"object","additionalProperties":{"type":"string"}},
			"either":{"anyOf":[{"$ref":"#/components/schemas/Item"},{"type":"object","properties":{"b":{"type":"string"}}}]},
			"both":{"allOf":[{"$ref":"#/components/schemas/PartA"},{"$ref":"#/components/schemas/PartB"}]},
			"maybe":{"type":"object","nullable":true,"allOf":[{"$ref":"#/components/schemas/One"}]}}},
		"Item":{"type":"object","properties":{"c":{"type":"string"}}},
		"PartA":{"type":"object","properties":{"d":{"type":"string"}}},
		"PartB":{"type":"object","properties":{"e":{"type":"string"}}},
		"One":{"type":"object","properties":{"f":{"type":"string"}}}}}}`
	out, err := openapidoc.Complete([]byte(in), openapidoc.Completion{Errors: map[string][]openapidoc.Error{"POST /api/x": {}}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	closed := func(s map[string]any) any { return s["additionalProperties"] }
	schemas := doc.Components.Schemas
	props := schemas["Out"]["properties"].(map[string]any)
	for name, got := range map[string]any{
		"Out": closed(schemas["Out"]), "Item": closed(schemas["Item"]), "One": closed(schemas["One"]),
		"inline anyOf part": closed(props["either"].(map[string]any)["anyOf"].([]any)[1].(map[string]any)),
	} {
		if got != false {
			t.Errorf("%s: additionalProperties %v, want false", name, got)
		}
	}
	for name, s := range map[string]map[string]any{"In (a request)": schemas["In"], "PartA": schemas["PartA"], "PartB": schemas["PartB"]} {
		if _, ok := s["additionalProperties"]; ok {
			t.Errorf("%s closed, want open", name)
		}
	}
	if m := props["map"].(map[string]any)["additionalProperties"]; m == false {
		t.Error("a map closed")
	}
}
