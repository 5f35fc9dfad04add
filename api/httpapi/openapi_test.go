package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/streamcart/streamcart/api/httpapi"
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
