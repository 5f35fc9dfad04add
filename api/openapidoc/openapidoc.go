// Package openapidoc completes Goa's OpenAPI 3 document with what the design cannot say: Goa has
// no nullable, so a property the API always sends, as null when there is nothing (design
// Meta("struct:tag:json", …) without omitempty), is documented as an object only, and typed
// clients generated from the document reject the null.
package openapidoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Nullable names, per component schema, the properties sent as null when absent (design/quote.go:
// QuoteResult.discount).
var Nullable = map[string][]string{"QuoteResult": {"discount", "recurring", "tax"}, "OrderResult": {"recurring", "invoiceNumber", "receiptUrl", "tax"},
	"ServiceResult": {"renewalInvoiceId", "renewalOrderId", "renewalCardCharge", "recurringAmount"}, "AdminSubscription": {"renewalInvoiceId", "renewalCardCharge", "recurringAmount"}}

// ErrMissing means a property to mark is not in the document: the design changed under the list.
var ErrMissing = errors.New("openapidoc: property not in the document")

// MarkNullable returns doc with each property of nullable made nullable: a `$ref` (whose siblings
// OpenAPI 3.0 ignores) becomes `type: object, allOf: [$ref], nullable: true` (nullable needs a
// type beside it), any other schema gains `nullable: true`. The output is compact JSON with
// sorted keys, so the same input always gives the same bytes.
func MarkNullable(doc []byte, nullable map[string][]string) ([]byte, error) {
	var root map[string]any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		return nil, fmt.Errorf("openapidoc: %w", err)
	}
	if err := markNullable(root, nullable); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	e := json.NewEncoder(&out)
	e.SetEscapeHTML(false)
	if err := e.Encode(root); err != nil {
		return nil, fmt.Errorf("openapidoc: %w", err)
	}
	return out.Bytes(), nil
}

func markNullable(root map[string]any, nullable map[string][]string) error {
	schemas, _ := dig(root, "components", "schemas").(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(nullable)) {
		props, _ := dig(schemas, name, "properties").(map[string]any)
		for _, prop := range nullable[name] {
			p, ok := props[prop].(map[string]any)
			if !ok {
				return fmt.Errorf("%w: %s.%s", ErrMissing, name, prop)
			}
			if ref, ok := p["$ref"]; ok {
				delete(p, "$ref")
				p["allOf"] = []any{map[string]any{"$ref": ref}}
				p["type"] = "object"
			}
			p["nullable"] = true
		}
	}
	return nil
}

func dig(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// RateLimited are the operations api/httpapi/limit.go limits per address (every request,
// whatever its body), answering 429 rate_limited with Retry-After.
var RateLimited = []string{
	"POST /checkout/api/session",
	"POST /checkout/api/session/link",
	"GET /checkout/api/promotions/{code}",
	"POST /checkout/api/quote",
	"POST /checkout/api/upsell/quote",
	"POST /checkout/api/affiliates/clicks",
	"POST /checkout/api/orders",
	"POST /checkout/api/upsell/orders",
	"POST /checkout/api/resellers/orders",
}

// EventStreams are the Server-Sent Events streams of the API (api/httpapi/events.go).
var EventStreams = map[string]EventStream{
	"GET /checkout/api/orders/{orderId}/events": {
		Description: "Server-Sent Events (UTF-8). Each event is `id: <version>`, `event: status` and `data: <the order's JSON, " +
			"as GET /orders/{orderId} answers it (OrderResult), on one line>`, then a blank line; the first comes at once " +
			"(unless Last-Event-ID names the current version), the next after each change, and the stream ends after the " +
			"event of a final status (active, fraud, cancelled, failed, needs_review, partially_refunded, refunded). " +
			"`retry: 2000` opens the stream (the reconnection delay, ms); `: heartbeat` comment lines come every 15 s.",
	},
}
