// Command openapidoc writes the served OpenAPI document: Goa's, completed by api/openapidoc with
// what Goa cannot say, some of it read from the evaluated design (every error of each operation).
// Usage (make gen): openapidoc gen/http/openapi3.json api/httpapi/openapi3.json
package main

import (
	"fmt"
	"os"

	"github.com/streamcart/streamcart/api/openapidoc"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: openapidoc GOA_OPENAPI3_JSON OUT")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		if out, err = openapidoc.Build(in); err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapidoc:", err)
		os.Exit(1)
	}
}
