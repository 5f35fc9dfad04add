package httpapi_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/streamcart/streamcart/api/httpapi"
	"github.com/streamcart/streamcart/api/openapidoc"
	"github.com/streamcart/streamcart/api/storefront"
)

// The served document says what the API sends: a quote's discount is null without a code.
func TestOpenAPIDiscountIsNullable(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Nullable bool `json:"nullable"`
					AllOf    []struct {
						Ref string `json:"$ref"`
					} `json:"allOf"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	d := doc.Components.Schemas["QuoteResult"].Properties["discount"]
	if !d.Nullable || len(d.AllOf) != 1 || d.AllOf[0].Ref != "#/components/schemas/DiscountResult" {
		t.Fatalf("QuoteResult.discount = %+v, want a nullable DiscountResult", d)
	}
}

// operations are the served document's operations by "METHOD /path".
func operations(t *testing.T) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	ops := map[string]map[string]any{}
	for p, item := range doc.Paths {
		for m, op := range item {
			ops[strings.ToUpper(m)+" "+p] = op
		}
	}
	if len(ops) < 30 {
		t.Fatalf("%d operations in the document", len(ops))
	}
	return ops
}

// loremWords are words of Goa's random examples (faker's lorem ipsum): no real value of this
// API is Latin.
var loremWords = regexp.MustCompile(`(?i)\b(lorem|ipsum|dolor|dolorem|dolores|sit|amet|consectetur|adipisci|velit|sed|quia|non|numquam|eius|modi|tempora|voluptas|voluptatem|voluptate|voluptates|voluptatum|voluptatibus|quaerat|aut|autem|et|est|eos|qui|quis|quo|quod|quos|ut|enim|ad|minima|veniam|nostrum|exercitationem|ullam|corporis|suscipit|laboriosam|nisi|aliquid|ex|ea|commodi|consequatur|consequuntur|vel|eum|iure|reprehenderit|esse|nihil|molestiae|illum|fugiat|nulla|pariatur|odio|officia|officiis|deserunt|mollitia|animi|id|laborum|accusamus|accusantium|doloremque|laudantium|totam|rem|aperiam|eaque|ipsa|ab|illo|inventore|veritatis|quasi|architecto|beatae|vitae|dicta|sunt|explicabo|nemo|ipsam|aspernatur|odit|fugit|magni|ratione|sequi|nesciunt|neque|porro|quisquam|incidunt|magnam|perferendis|similique|atque|recusandae|repellendus|rerum|saepe|sapiente|tenetur|unde|iste|natus|error|omnis|perspiciatis|distinctio|dignissimos|ducimus|blanditiis|praesentium|deleniti|corrupti|quos|quas|molestias|excepturi|occaecati|cupiditate|provident)\b`)

// TestOpenAPIExamplesAreReal: the document shows the design's examples, never Goa's random
// lorem ipsum (there were 881 of 1,265 string examples).
func TestOpenAPIExamplesAreReal(t *testing.T) {
	var doc any
	if err := json.Unmarshal(httpapi.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	var examples, lorem []string
	var strs func(v any)
	strs = func(v any) {
		switch v := v.(type) {
		case string:
			examples = append(examples, v)
			if loremWords.MatchString(v) {
				lorem = append(lorem, v)
			}
		case map[string]any:
			for _, x := range v {
				strs(x)
			}
		case []any:
			for _, x := range v {
				strs(x)
			}
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "example" || k == "examples" {
					strs(x)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if len(examples) == 0 {
		t.Fatal("no string examples at all: the design's Example()s are gone")
	}
	if len(lorem) > 0 {
		t.Errorf("%d of %d string examples are lorem ipsum, e.g. %q", len(lorem), len(examples), lorem[0])
	}
}

// TestOpenAPIOperationsDeclareSecurity: every operation says how it is called: the session's
// Bearer token where the design asks for it, `security: []` (no credentials) elsewhere.
func TestOpenAPIOperationsDeclareSecurity(t *testing.T) {
	bearer := map[string]bool{}
	for key, op := range operations(t) {
		sec, ok := op["security"].([]any)
		if !ok {
			t.Errorf("%s: no security", key)
			continue
		}
		for _, req := range sec {
			if _, ok := req.(map[string]any)["session_header_Authorization"]; ok {
				bearer[key] = true
			}
		}
	}
	for key, want := range map[string]bool{
		"POST /checkout/api/orders": true, "DELETE /checkout/api/session": true, "GET /checkout/api/services": true,
		"PUT /checkout/api/session/password": true, "POST /checkout/api/session": false, "GET /checkout/api/products": false,
	} {
		if bearer[key] != want {
			t.Errorf("%s: Bearer %v, want %v", key, bearer[key], want)
		}
	}
}

// errorNames are an operation's error answers: status → the error names its description lists.
func errorNames(op map[string]any) map[string][]string {
	out := map[string][]string{}
	resps, _ := op["responses"].(map[string]any)
	for status, r := range resps {
		desc, _ := r.(map[string]any)["description"].(string)
		for _, line := range strings.Split(desc, "\n\n") {
			if name, _, ok := strings.Cut(line, ": "); ok && status >= "400" {
				out[status] = append(out[status], name)
			}
		}
	}
	return out
}

// TestOpenAPIStorefrontHeader: every operation takes the Streamcart-Store key and documents the
// storefront middleware's refusals: 401 unknown_store always, 403 origin_not_allowed on writes.
func TestOpenAPIStorefrontHeader(t *testing.T) {
	if openapidoc.StoreHeader != storefront.Header {
		t.Fatalf("documented header %q, served %q", openapidoc.StoreHeader, storefront.Header)
	}
	var doc struct {
		Components struct {
			Parameters map[string]struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	if p := doc.Components.Parameters["StreamcartStore"]; p.Name != storefront.Header || p.In != "header" {
		t.Fatalf("StreamcartStore parameter = %+v", p)
	}
	for key, op := range operations(t) {
		params, _ := json.Marshal(op["parameters"])
		if !strings.Contains(string(params), `"#/components/parameters/StreamcartStore"`) {
			t.Errorf("%s: no Streamcart-Store header", key)
		}
		names := errorNames(op)
		if !slices.Contains(names["401"], "unknown_store") {
			t.Errorf("%s: 401 %v lacks unknown_store", key, names["401"])
		}
		write := !strings.HasPrefix(key, "GET ")
		if slices.Contains(names["403"], "origin_not_allowed") != write {
			t.Errorf("%s: 403 %v (a write: %v)", key, names["403"], write)
		}
	}
}

// TestOpenAPIErrorsWhereTheyHappen: each operation lists the errors its code can return, at their
// statuses, with the body the server sends (application/json; Goa's error body unless the error
// has its own type).
func TestOpenAPIErrorsWhereTheyHappen(t *testing.T) {
	ops := operations(t)
	tests := []struct {
		op, status, name string
		want             bool
	}{
		{"DELETE /checkout/api/session", "400", "weak_password", false},
		{"DELETE /checkout/api/session", "401", "unauthorized", true},
		{"PUT /checkout/api/session/password", "400", "weak_password", true},
		{"POST /checkout/api/session", "401", "invalid_credentials", true},
		{"POST /checkout/api/session", "401", "invalid_link", false},
		{"POST /checkout/api/session", "429", "too_many_attempts", true},
		{"POST /checkout/api/session", "429", "rate_limited", true},
		{"POST /checkout/api/orders", "409", "price_changed", true},
		{"POST /checkout/api/orders", "409", "trial_used", true},
		{"POST /checkout/api/orders", "413", "body_too_large", true},
		{"GET /checkout/api/orders/{orderId}", "422", "idempotency_mismatch", false},
		{"POST /checkout/api/upsell/quote", "409", "service_not_active", true},
		{"POST /checkout/api/upsell/quote", "409", "conflict", true},
		{"GET /checkout/api/upsell/offers", "409", "service_not_active", false},
		{"GET /checkout/api/resellers/me", "422", "password_mismatch", false},
		{"GET /checkout/api/geo", "500", "fault", true},
		{"GET /checkout/api/geo", "413", "body_too_large", false},
	}
	for _, tt := range tests {
		if got := slices.Contains(errorNames(ops[tt.op])[tt.status], tt.name); got != tt.want {
			t.Errorf("%s %s lists %s: %v, want %v", tt.op, tt.status, tt.name, got, tt.want)
		}
	}
	for key, op := range ops {
		for status, r := range op["responses"].(map[string]any) {
			if status < "400" {
				continue
			}
			content, _ := r.(map[string]any)["content"].(map[string]any)
			if _, ok := content["application/json"]; !ok || len(content) != 1 {
				t.Errorf("%s %s: content %v, want application/json (what the server sends)", key, status, slices.Collect(maps.Keys(content)))
			}
		}
	}
	schemas := func(op, status string) string {
		b, _ := json.Marshal(ops[op]["responses"].(map[string]any)[status].(map[string]any)["content"])
		return string(b)
	}
	if s := schemas("POST /checkout/api/orders", "409"); !strings.Contains(s, "#/components/schemas/PriceChanged") || !strings.Contains(s, "#/components/schemas/Error") {
		t.Errorf("POST /orders 409 bodies %s, want PriceChanged and Error", s)
	}
	r429 := ops["POST /checkout/api/session"]["responses"].(map[string]any)["429"].(map[string]any)
	if _, ok := r429["headers"].(map[string]any)["Retry-After"]; !ok {
		t.Error("POST /session 429 without Retry-After")
	}
}
