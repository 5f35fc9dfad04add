// Package console exposes the built seller's console (the React app served at
// /checkout/admin/) to the Go binary. The files come from
// `vite build -c vite.console.config.ts` (widget/console/dist); before the
// first build the directory holds only a placeholder, and the server answers 503.
package console

import "embed"

// Dist is the console build output, rooted at "dist".
//
//go:embed all:dist
var Dist embed.FS
