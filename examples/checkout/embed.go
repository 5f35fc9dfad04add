// Package checkout holds the reference storefront host served at /checkout/:
// Go templates for the pages, the service worker and the static assets
// (vanilla ES modules and CSS, no build step). api/web serves them.
package checkout

import "embed"

// Files holds the page templates (index.html, error.html, partials.html),
// sw.js and everything under assets/.
//
//go:embed index.html error.html legal.html partials.html sw.js assets
var Files embed.FS
