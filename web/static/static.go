// Package static embeds Margin's front-end files (stylesheet, the small
// demo script, and the vendored KaTeX and htmx) into the binary, so the
// server runs from any directory with no network.
package static

import "embed"

// FS holds app.css, app.js, favicon.svg and vendor/, and the share and
// deck scripts and styles.
//
//go:embed app.css app.js favicon.svg vendor
//go:embed share.css share.js deck.js
var FS embed.FS
