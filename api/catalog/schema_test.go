package catalog_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/streamcart/streamcart/api/catalog"
)

// check validates v against the subset of JSON Schema the catalog schema
// uses, returning one message per violation.
func check(root, s map[string]any, v any, path string) []string {
	if ref, ok := s["$ref"].(string); ok {
		def := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		return check(root, def, v, path)
	}
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(f, a...)) }
	if alts, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, alt := range alts {
			if len(check(root, alt.(map[string]any), v, path)) == 0 {
				n++
			}
		}
		if n != 1 {
			bad("matches %d of oneOf", n)
		}
	}
	if t, ok := s["type"]; ok {
		types := []string{}
		switch t := t.(type) {
		case string:
			types = append(types, t)
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		if !slices.Contains(types, kind(v)) && !(kind(v) == "integer" && slices.Contains(types, "number")) {
			bad("is %s, want %v", kind(v), types)
			return errs
		}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		bad("%v not in %v", v, enum)
	}
	if str, ok := v.(string); ok {
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			bad("%q does not match %s", str, p)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asSlice(s["required"]) {
			if _, ok := v[r.(string)]; !ok {
				bad("missing %s", r)
			}
		}
		for k, x := range v {
			if names, ok := s["propertyNames"].(map[string]any); ok {
				errs = append(errs, check(root, names, k, path+"."+k)...)
			}
			switch sub := s["additionalProperties"].(type) {
			case bool:
				if _, known := props[k]; !known && !sub {
					bad("unknown property %s", k)
					continue
				}
			case map[string]any:
				if _, known := props[k]; !known {
					errs = append(errs, check(root, sub, x, path+"."+k)...)
					continue
				}
			}
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, check(root, ps, x, path+"."+k)...)
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range v {
				errs = append(errs, check(root, items, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int:
		return "integer"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func schemaErrors(t *testing.T, src []byte) []string {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(catalog.SchemaJSON(), &schema); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	var doc any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	return check(schema, schema, doc, "$")
}

func TestSchemaAcceptsDemo(t *testing.T) {
	if errs := schemaErrors(t, catalog.DemoYAML()); len(errs) > 0 {
		t.Errorf("demo.yaml violates catalog.schema.json:\n%s", strings.Join(errs, "\n"))
	}
}

func TestSchemaRejects(t *testing.T) {
	tests := map[string]string{
		"valid":                   "",
		"unknown top-level field": "color: red\n",
		"unknown cycle":           "products: [{pid: 1, group: plan, name: A, cycles: {weekly: {EUR: 1}}}]\n",
		"bad price":               "products: [{pid: 1, group: plan, name: A, cycles: {monthly: {EUR: \"9.9x\"}}}]\n",
		"bad promotion type":      "promotions: [{code: A, type: Discount, value: \"1\", appliesTo: [1]}]\n",
		"bad gateway list":        "gateways: \"Sandbox\"\n",
	}
	for name, src := range tests {
		base := map[string]string{
			"defaultCurrency": "defaultCurrency: EUR\n",
			"currencies":      "currencies: [{code: EUR, rate: \"1\"}]\n",
			"gateways":        "gateways: sandbox\n",
			"products":        "products: [{pid: 1, group: plan, name: A, cycles: {monthly: {EUR: 1}}}]\n",
		}
		full := src
		for k, v := range base {
			if !strings.HasPrefix(src, k+":") {
				full += v
			}
		}
		errs := schemaErrors(t, []byte(full))
		if name == "valid" && len(errs) > 0 {
			t.Errorf("valid: schema rejected it: %v", errs)
		}
		if name != "valid" && len(errs) == 0 {
			t.Errorf("%s: schema accepted it", name)
		}
	}
}
