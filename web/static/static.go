// Package static embeds Margin's front-end files (stylesheet, the small
// demo script, and the vendored KaTeX and htmx) into the binary, so the
// server runs from any directory with no network.
package static

import "embed"

// FS holds the stylesheets, the scripts, favicon.svg and vendor/.
//
//go:embed *.css *.js favicon.svg vendor
var FS embed.FS
