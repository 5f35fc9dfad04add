// Package widget exposes the built <streamcart-checkout> bundle to the Go
// binary. The files come from `vite build` (widget/dist); before the first
// build the directory holds only a placeholder, and the server answers 503.
package widget

import "embed"

// Dist is the widget build output, rooted at "dist".
//
//go:embed all:dist
var Dist embed.FS
