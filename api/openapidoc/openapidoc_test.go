package openapidoc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/openapidoc"
)

const doc = `{"openapi":"3.0.3","components":{"schemas":{
	"Quote":{"type":"object","properties":{"discount":{"$ref":"#/components/schemas/Discount"},"note":{"type":"string","description":"a <b> & c"}}},
	"Discount":{"type":"object","properties":{"code":{"type":"string"}}}}}}`

func TestMarkNullable(t *testing.T) {
	tests := []struct {
		name     string
		nullable map[string][]string
		want     map[string]any // Quote's properties after marking
		err      error
	}{
		{"a referenced schema becomes an object, allOf and nullable", map[string][]string{"Quote": {"discount"}}, map[string]any{
			"discount": map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/Discount"}}, "nullable": true, "type": "object"},
			"note":     map[string]any{"type": "string", "description": "a <b> & c"},
		}, nil},
		{"an inline schema gains nullable", map[string][]string{"Quote": {"note"}}, map[string]any{
			"discount": map[string]any{"$ref": "#/components/schemas/Discount"},
			"note":     map[string]any{"type": "string", "description": "a <b> & c", "nullable": true},
		}, nil},
		{"a property the design no longer has is an error", map[string][]string{"Quote": {"gone"}}, nil, openapidoc.ErrMissing},
		{"a schema the design no longer has is an error", map[string][]string{"Gone": {"discount"}}, nil, openapidoc.ErrMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := openapidoc.MarkNullable([]byte(doc), tt.nullable)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			var got struct {
				Components struct {
					Schemas map[string]struct {
						Properties map[string]any `json:"properties"`
					} `json:"schemas"`
				} `json:"components"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(got.Components.Schemas["Quote"].Properties)
			wantJSON, _ := json.Marshal(tt.want)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("Quote properties = %s, want %s", gotJSON, wantJSON)
			}
			again, _ := openapidoc.MarkNullable([]byte(doc), tt.nullable)
			if !bytes.Equal(out, again) {
				t.Error("two runs gave different bytes")
			}
			if bytes.Contains(out, []byte(`\u003c`)) {
				t.Error("HTML characters escaped")
			}
		})
	}
	if _, err := openapidoc.MarkNullable([]byte("{"), openapidoc.Nullable); err == nil {
		t.Error("broken JSON accepted")
	}
}
