// Package plainhtml is the smallest embedding of the checkout: one static page and one script
// tag, no build step. The binary serves it at /examples/plain-html/ so it works out of the box.
package plainhtml

import "embed"

// Files holds index.html.
//
//go:embed index.html
var Files embed.FS
