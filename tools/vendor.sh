#!/bin/sh
# vendor.sh copies the front-end assets Margin serves from node_modules into
# web/static/vendor/, so the Go build and the server need no node.
#
#   katex/katex.min.css, katex/fonts/*.woff2, katex/LICENSE
#   htmx/htmx.min.js, htmx/LICENSE
#
# Only the woff2 fonts are copied: katex.min.css lists woff2 first in every
# @font-face, and every browser that Margin supports takes it, so the woff and
# ttf fallbacks it also names are never fetched. The CSS is copied unchanged.
#
# Run after `npm ci`, with sh or bash. Idempotent: the two vendor folders are
# rebuilt from scratch each time, so a file dropped upstream does not linger.
set -eu

cd "$(dirname "$0")/.."
nm=node_modules
dst=web/static/vendor

for f in "$nm/katex/dist/katex.min.css" "$nm/htmx.org/dist/htmx.min.js"; do
	if [ ! -f "$f" ]; then
		echo "vendor.sh: $f missing; run npm ci first" >&2
		exit 1
	fi
done

rm -rf "$dst/katex" "$dst/htmx"
mkdir -p "$dst/katex/fonts" "$dst/htmx"

cp "$nm/katex/dist/katex.min.css" "$nm/katex/LICENSE" "$dst/katex/"
cp "$nm/katex/dist/fonts/"*.woff2 "$dst/katex/fonts/"
cp "$nm/htmx.org/dist/htmx.min.js" "$nm/htmx.org/LICENSE" "$dst/htmx/"

# Every font the CSS asks for first must be here.
missing=0
for font in $(grep -o 'url(fonts/[^)]*\.woff2)' "$dst/katex/katex.min.css" | sed 's/^url(//; s/)$//' | sort -u); do
	if [ ! -f "$dst/katex/$font" ]; then
		echo "vendor.sh: katex.min.css references $font, not vendored" >&2
		missing=1
	fi
done
exit "$missing"
